package dev.packed4j.runtime.binding;

/**
 * Converts one Java type to and from the native value representation; obtained from {@link Codecs}.
 *
 * <p>Generated code hands the codecs of a method's parameters and result to {@link FunctionSite#link}, which builds
 * the method's call from them:
 *
 * <pre>{@code
 * static final MethodHandle HANDLE = SUM.link(MethodType.methodType(long.class, List.class),
 *     Codecs.list(Codecs.LONG), Codecs.LONG);
 * }</pre>
 *
 * <p>Only the codecs {@link Codecs} makes are accepted by the runtime.
 *
 * @param <T> the Java type
 */
public interface Codec<T> {
  /** {@return the Java type as source code writes it, such as {@code List<Long>}; used in messages} */
  String javaType();
}
