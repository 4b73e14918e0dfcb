package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeMap;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.objects.GeneratedClasses;
import dev.packed4j.runtime.internal.values.AnyCodec;
import dev.packed4j.runtime.internal.values.ArrayTensorCodec;
import dev.packed4j.runtime.internal.values.BooleanCodec;
import dev.packed4j.runtime.internal.values.BytesCodec;
import dev.packed4j.runtime.internal.values.Containers;
import dev.packed4j.runtime.internal.values.FloatCodec;
import dev.packed4j.runtime.internal.values.FunctionCodec;
import dev.packed4j.runtime.internal.values.IntegerCodec;
import dev.packed4j.runtime.internal.values.ListCodec;
import dev.packed4j.runtime.internal.values.MapCodec;
import dev.packed4j.runtime.internal.values.NDArrayCodec;
import dev.packed4j.runtime.internal.values.NativeObjectCodec;
import dev.packed4j.runtime.internal.values.ObjectCodec;
import dev.packed4j.runtime.internal.values.OptionalCodec;
import dev.packed4j.runtime.internal.values.StringCodec;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The codecs of the supported Java types, composed the way the types are:
 *
 * <pre>{@code
 * Codecs.list(Codecs.LONG)                                  // List<Long>
 * Codecs.map(Codecs.STRING, Codecs.object(CalculatorRef.class)) // Map<String, CalculatorRef>
 * Codecs.optional(Codecs.STRING)                            // Optional<String>
 * }</pre>
 *
 * <p>Boxes travel as int64 / float64 / bool and are range-checked when narrowed. As results, {@code List} and
 * {@code Map} are unmodifiable copies (the native container is released), {@code NativeList} and
 * {@code NativeMap} live views. A native None is null for every type but {@code Optional} (empty).
 */
public final class Codecs {
  private Codecs() {}

  /** {@code Boolean}: bool. */
  public static final Codec<Boolean> BOOLEAN = BooleanCodec.BOOLEAN;
  /** {@code Byte}: int64, range-checked. */
  public static final Codec<Byte> BYTE = IntegerCodec.BYTE;
  /** {@code Short}: int64, range-checked. */
  public static final Codec<Short> SHORT = IntegerCodec.SHORT;
  /** {@code Integer}: int64, range-checked. */
  public static final Codec<Integer> INT = IntegerCodec.INT;
  /** {@code Long}: int64. */
  public static final Codec<Long> LONG = IntegerCodec.LONG;
  /** {@code Float}: float64, range-checked. */
  public static final Codec<Float> FLOAT = FloatCodec.FLOAT;
  /** {@code Double}: float64. */
  public static final Codec<Double> DOUBLE = FloatCodec.DOUBLE;
  /** {@code String}: UTF-8, length-carrying. */
  public static final Codec<String> STRING = StringCodec.STRING;
  /** {@code byte[]}: bytes. */
  public static final Codec<byte[]> BYTES = BytesCodec.BYTES;
  /** {@code Object}: converted by the value's runtime type (see {@code PackedFunction.invoke}). */
  public static final Codec<Object> ANY = AnyCodec.ANY;
  /** {@link NativeObject}: any native object, viewed generically. */
  public static final Codec<NativeObject> NATIVE_OBJECT = view(NativeObjectCodec.NATIVE_OBJECT);
  /** {@link PackedFunction}: a function object. */
  public static final Codec<PackedFunction> PACKED_FUNCTION = view(FunctionCodec.PACKED_FUNCTION);

  /** {@link NDArray}: passed by reference, no copy. */
  public static final Codec<NDArray> NDARRAY = view(NDArrayCodec.NDARRAY);
  /** {@code float[]} argument: copied into a 1-D float32 tensor for the call. */
  public static final Codec<float[]> FLOAT_ARRAY =
      ArrayTensorCodec.<float[]>of("float[]", "float32", NDArray::fromArray);
  /** {@code double[]} argument: copied into a 1-D float64 tensor for the call. */
  public static final Codec<double[]> DOUBLE_ARRAY =
      ArrayTensorCodec.<double[]>of("double[]", "float64", NDArray::fromArray);
  /** {@code int[]} argument: copied into a 1-D int32 tensor for the call. */
  public static final Codec<int[]> INT_ARRAY = ArrayTensorCodec.<int[]>of("int[]", "int32", NDArray::fromArray);
  /** {@code long[]} argument: copied into a 1-D int64 tensor for the call. */
  public static final Codec<long[]> LONG_ARRAY = ArrayTensorCodec.<long[]>of("long[]", "int64", NDArray::fromArray);

  /**
   * An {@code @Object} interface. Loads its generated class {@code Packed4j_<Name>} (whose static {@code TYPE}
   * registers it), now or, while that class is being initialised, on first use.
   *
   * @param <T> the interface type
   * @param objectInterface the {@code @Object} interface, compiled with packed4j-processor
   * @return its codec
   */
  public static <T> Codec<T> object(Class<T> objectInterface) {
    Objects.requireNonNull(objectInterface, "objectInterface");
    if (!objectInterface.isInterface()) {
      throw new IllegalArgumentException(objectInterface.getName() + " is not an interface: Codecs.object takes an "
          + "@Object interface");
    }
    ObjectCodec<T> codec = new ObjectCodec<>(objectInterface);
    try {
      GeneratedClasses.load(objectInterface, "@Object");
    } catch (IllegalStateException | LinkageError e) {
      // Reported with the same message when the codec is first used.
    }
    return codec;
  }

  /**
   * {@code List<E>}: an unmodifiable copy as a result. {@code list(LONG)} and {@code list(DOUBLE)} go in bulk.
   *
   * @param <E> the element type
   * @param element the codec of the elements
   * @return the codec
   */
  public static <E> Codec<List<E>> list(Codec<E> element) {
    return ListCodec.copying(implementation(element));
  }

  /**
   * {@code NativeList<E>}: a live view as a result.
   *
   * @param <E> the element type
   * @param element the codec of the elements
   * @return the codec
   */
  public static <E> Codec<NativeList<E>> nativeList(Codec<E> element) {
    return ListCodec.live(implementation(element));
  }

  /**
   * {@code Map<K, V>}: an unmodifiable, insertion-ordered copy as a result. Keys: String, integers, objects.
   *
   * @param <K> the key type
   * @param <V> the value type
   * @param keys the codec of the keys
   * @param values the codec of the values
   * @return the codec
   */
  public static <K, V> Codec<Map<K, V>> map(Codec<K> keys, Codec<V> values) {
    return MapCodec.copying(mapKeys(keys), implementation(values));
  }

  /**
   * {@code NativeMap<K, V>}: a live view as a result. Keys: String, integers, objects.
   *
   * @param <K> the key type
   * @param <V> the value type
   * @param keys the codec of the keys
   * @param values the codec of the values
   * @return the codec
   */
  public static <K, V> Codec<NativeMap<K, V>> nativeMap(Codec<K> keys, Codec<V> values) {
    return MapCodec.live(mapKeys(keys), implementation(values));
  }

  /**
   * {@code Optional<T>}: empty is None.
   *
   * @param <T> the value type
   * @param value the codec of a present value
   * @return the codec
   */
  public static <T> Codec<Optional<T>> optional(Codec<T> value) {
    return new OptionalCodec<>(implementation(value));
  }

  private static <K> ValueCodec<K> mapKeys(Codec<K> keys) {
    ValueCodec<K> codec = implementation(keys);
    if (!(codec instanceof StringCodec || codec instanceof IntegerCodec<?> || codec instanceof ObjectCodec<?>
        || codec instanceof NativeObjectCodec || codec instanceof AnyCodec)) {
      throw new IllegalArgumentException("map keys must be String, a boxed integer or an @Object type, not "
          + codec.javaType());
    }
    return codec;
  }

  /**
   * A codec of a native view (NDArray, PackedFunction, NativeObject) as its type: the internal codecs take and give
   * views as {@code Object}, since they sit below the public package (docs/architecture.md, "runtime inside").
   */
  @SuppressWarnings("unchecked")
  private static <T> Codec<T> view(ValueCodec<Object> codec) {
    return (Codec<T>) (Codec<?>) codec;
  }

  /**
   * Refuses a value that a call in this process refuses for a null, before a session sends it: a null argument whose
   * type has no None, or a null element, key or value of a List or Map (at any depth) whose type has none. The
   * exception is the one the local call throws, a {@link NullPointerException} with the same message:
   *
   * <pre>{@code
   * Codecs.checkNulls(Codecs.list(Codecs.STRING), Arrays.asList("x", null), site.describeArgument(0));
   * // NullPointerException: calculator.Join argument 0 (words): element 1 is null; List<String> elements must not
   * // be null
   * }</pre>
   *
   * @param codec the codec the local binding converts the value with (one of this class's)
   * @param value the value, null included
   * @param argument the value as messages name it: {@link FunctionSite#describeArgument}, or
   *     {@link FunctionSite#describeFieldValue} for a typed setter's value
   * @throws NullPointerException for the first null refused
   * @throws IllegalArgumentException when {@code codec} is not one of the runtime's
   */
  public static void checkNulls(Codec<?> codec, Object value, String argument) {
    ValueCodec<?> implementation = implementation(codec);
    if (value == null) {
      if (!implementation.acceptsNull()) {
        throw implementation.nullArgument(argument);
      }
      return;
    }
    try {
      Containers.checkNulls(value, implementation);
    } catch (ConversionFailure failure) {
      throw failure.toException(argument, null);
    }
  }

  /** The runtime's implementation of a codec made by this class. */
  static <T> ValueCodec<T> implementation(Codec<T> codec) {
    if (codec instanceof ValueCodec<T> implementation) {
      return implementation;
    }
    throw new IllegalArgumentException(Objects.requireNonNull(codec, "codec").getClass().getName()
        + " is not a codec of the packed4j runtime: use the constants and factories of Codecs");
  }
}
