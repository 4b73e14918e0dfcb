package dev.packed4j.types;

import java.util.List;

/**
 * A Java type as the conversion table sees it: the processor builds one from a {@code javax.lang.model} type, the
 * runtime from a {@code java.lang.reflect.Type}, so both ask {@link Conversions} the same question.
 */
public sealed interface JavaType {

  /** The primitive kinds that have a native counterpart; {@code char} has none. */
  enum PrimitiveKind {
    /** {@code boolean}, native {@code bool}. */
    BOOLEAN("bool"),
    /** {@code byte}, native {@code int8}. */
    BYTE("int8"),
    /** {@code short}, native {@code int16}. */
    SHORT("int16"),
    /** {@code int}, native {@code int32}. */
    INT("int32"),
    /** {@code long}, native {@code int64}. */
    LONG("int64"),
    /** {@code float}, native {@code float32}. */
    FLOAT("float32"),
    /** {@code double}, native {@code float64}. */
    DOUBLE("float64");

    private final String nativeName;

    PrimitiveKind(String nativeName) {
      this.nativeName = nativeName;
    }

    /**
     * The native type a signature records for this kind: {@code int32} for {@code int}.
     *
     * @return the native type
     */
    public NativeType nativeType() {
      return NativeType.of(nativeName);
    }

    /**
     * Whether this is {@code byte}, {@code short}, {@code int} or {@code long}.
     *
     * @return whether it is an integer kind
     */
    public boolean isInteger() {
      return this == BYTE || this == SHORT || this == INT || this == LONG;
    }

    /**
     * Whether this is {@code float} or {@code double}.
     *
     * @return whether it is a floating-point kind
     */
    public boolean isFloat() {
      return this == FLOAT || this == DOUBLE;
    }
  }

  /**
   * A primitive: {@code int}.
   *
   * @param kind its kind
   */
  record Primitive(PrimitiveKind kind) implements JavaType {}

  /**
   * A box of a primitive: {@code Integer}.
   *
   * @param kind the kind of the primitive it boxes
   */
  record Boxed(PrimitiveKind kind) implements JavaType {}

  /** {@code java.lang.String}. */
  record Text() implements JavaType {}

  /** {@code byte[]}. */
  record Bytes() implements JavaType {}

  /**
   * An {@code @Object} interface, a view of native objects of one type key.
   *
   * @param typeKey the key its {@code @Object} names
   */
  record ObjectInterface(String typeKey) implements JavaType {}

  /** {@code NativeObject}: an object of any native type. */
  record NativeObject() implements JavaType {}

  /** {@code PackedFunction}: a native function object. */
  record PackedFunction() implements JavaType {}

  /**
   * A functional interface ({@link #isFunctionalInterface}): a Java implementation becomes a native function, a
   * native function an implementation.
   *
   * @param name the interface's name, for messages
   */
  record Functional(String name) implements JavaType {}

  /** {@code java.lang.Object}: converted from (or to) the value's own type. */
  record Any() implements JavaType {}

  /**
   * {@code List<E>} (copied) or {@code NativeList<E>} (a view).
   *
   * @param element the element type
   */
  record ListOf(JavaType element) implements JavaType {}

  /**
   * {@code Map<K, V>} (copied) or {@code NativeMap<K, V>} (a view).
   *
   * @param key the key type
   * @param value the value type
   */
  record MapOf(JavaType key, JavaType value) implements JavaType {}

  /**
   * {@code Optional<T>}: none or a value.
   *
   * @param element the type of the value
   */
  record OptionalOf(JavaType element) implements JavaType {}

  /** {@code NDArray}: a tensor, passed by reference. */
  record Tensor() implements JavaType {}

  /**
   * {@code float[]}, {@code double[]}, {@code int[]} or {@code long[]} as a parameter, copied into a 1-D tensor.
   *
   * @param element the element kind
   */
  record NumericArray(PrimitiveKind element) implements JavaType {}

  /** {@code void}, as a result only. */
  record Void() implements JavaType {}

  /**
   * A type with no conversion (an interface that is neither {@code @Object} nor functional, a class, a type
   * variable): it meets only {@code any}.
   *
   * @param name the type as written, for messages
   */
  record Unsupported(String name) implements JavaType {}

  /**
   * The one rule of what counts as a functional interface, for the processor and the runtime alike: an interface
   * annotated {@code @FunctionalInterface}, or a JDK interface ({@code java.*}, {@code javax.*}) with exactly one
   * abstract method besides the methods of {@code Object} ({@code Runnable}, the {@code java.util.function} types).
   * A user's interface without the annotation is a candidate for {@code @Object} instead.
   *
   * @param annotated whether the interface is annotated {@code @FunctionalInterface}
   * @param packageName the interface's package
   * @param abstractMethods its abstract methods, not counting {@code equals}, {@code hashCode} and {@code toString}
   * @return whether the interface is a functional interface
   */
  static boolean isFunctionalInterface(boolean annotated, String packageName, int abstractMethods) {
    return annotated
        || ((packageName.startsWith("java.") || packageName.startsWith("javax.")) && abstractMethods == 1);
  }

  /**
   * The native type a signature records for this Java type: {@code list<int64>} for {@code List<Long>}, the key for
   * an {@code @Object} interface, {@code function} for a functional interface, {@code NDArray} for a tensor or a
   * numeric array.
   *
   * @return the native type
   * @throws IllegalStateException for {@link Unsupported}, which has none
   */
  default NativeType nativeType() {
    return switch (this) {
      case Primitive p -> p.kind().nativeType();
      case Boxed b -> b.kind().nativeType();
      case Text t -> NativeType.of("string");
      case Bytes b -> NativeType.of("bytes");
      case Any a -> NativeType.of("any");
      case ObjectInterface o -> NativeType.of(o.typeKey());
      case NativeObject n -> NativeType.of(NativeType.ROOT_OBJECT_KEY);
      case PackedFunction f -> NativeType.of("function");
      case Functional f -> NativeType.of("function");
      case Tensor t -> NativeType.of(NativeType.TENSOR_KEY);
      case NumericArray a -> NativeType.of(NativeType.TENSOR_KEY);
      case ListOf l -> NativeType.listOf(l.element().nativeType());
      case MapOf m -> NativeType.mapOf(m.key().nativeType(), m.value().nativeType());
      case OptionalOf o -> NativeType.optionalOf(o.element().nativeType());
      case Void v -> NativeType.VOID;
      case Unsupported u -> throw new IllegalStateException(u.name() + " has no native type");
    };
  }

  /**
   * The signature a Java function of these types records: {@code "(int64, string) -> bool"}.
   *
   * @param parameters the parameter types
   * @param result the result type, {@link Void} for none
   * @return the signature
   * @throws IllegalStateException when a type is {@link Unsupported}
   */
  static Signature signatureOf(List<? extends JavaType> parameters, JavaType result) {
    return new Signature(parameters.stream().map(JavaType::nativeType).toList(), result.nativeType());
  }
}
