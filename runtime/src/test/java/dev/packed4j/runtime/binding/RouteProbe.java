package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.internal.route.LinkedRoute;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * For tests: a method's handle as generated code links it, without a generated class around it, and the same method
 * held to its call frame, the behaviour every other route must match.
 */
public final class RouteProbe {
  private static final Map<Class<?>, Codec<?>> CODECS = Map.ofEntries(
      Map.entry(boolean.class, Codecs.BOOLEAN), Map.entry(byte.class, Codecs.BYTE),
      Map.entry(short.class, Codecs.SHORT), Map.entry(int.class, Codecs.INT), Map.entry(long.class, Codecs.LONG),
      Map.entry(float.class, Codecs.FLOAT), Map.entry(double.class, Codecs.DOUBLE),
      Map.entry(String.class, Codecs.STRING), Map.entry(NDArray.class, Codecs.NDARRAY),
      Map.entry(byte[].class, Codecs.BYTES));

  private RouteProbe() {}

  /**
   * The handle {@code site} links for a method of {@code javaType}, whose parameters and result are primitives,
   * Strings, NDArrays or {@code byte[]} (their codecs are implied), as {@link FunctionSite#link} returns it.
   */
  public static MethodHandle link(FunctionSite site, MethodType javaType) {
    return site.link(javaType, codecs(javaType).toArray(Codec<?>[]::new));
  }

  /** The handle of the same method on its call frame, whichever route {@link #link} takes. */
  public static MethodHandle frame(FunctionSite site, MethodType javaType) {
    List<ValueCodec<?>> codecs = new ArrayList<>();
    for (Codec<?> codec : codecs(javaType)) {
      codecs.add(Codecs.implementation(codec));
    }
    return LinkedRoute.link(site.target, javaType, codecs, false).invoker();
  }

  /**
   * The handle {@code site} links for a method of {@code javaType} with the given codecs (one per parameter, then the
   * result's), as generated code links it.
   */
  public static MethodHandle link(FunctionSite site, MethodType javaType, Codec<?>... codecs) {
    return site.link(javaType, codecs);
  }

  /** The handle of the same method, with the given codecs, on its call frame. */
  public static MethodHandle frame(FunctionSite site, MethodType javaType, Codec<?>... codecs) {
    List<ValueCodec<?>> implementations = new ArrayList<>();
    for (Codec<?> codec : codecs) {
      implementations.add(Codecs.implementation(codec));
    }
    return LinkedRoute.link(site.target, javaType, implementations, false).invoker();
  }

  private static List<Codec<?>> codecs(MethodType javaType) {
    List<Codec<?>> codecs = new ArrayList<>();
    for (Class<?> parameter : javaType.parameterList()) {
      codecs.add(codec(parameter));
    }
    if (javaType.returnType() != void.class) {
      codecs.add(codec(javaType.returnType()));
    }
    return codecs;
  }

  private static Codec<?> codec(Class<?> type) {
    Codec<?> codec = CODECS.get(type);
    if (codec == null) {
      throw new IllegalArgumentException("RouteProbe implies the codecs of primitives, String, NDArray and byte[], "
          + "not of " + type.getName());
    }
    return codec;
  }
}
