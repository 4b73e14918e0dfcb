package dev.packed4j.processor.model;

/**
 * A Java type that can cross the native boundary, as the generator needs to know it: what to declare, and which
 * codec or frame operation converts it. Validation builds these only for supported types.
 */
public sealed interface TypeModel {

  /** The primitive kinds that have a wire type; {@code char} has none. */
  enum PrimitiveKind {
    BOOLEAN,
    BYTE,
    SHORT,
    INT,
    LONG,
    FLOAT,
    DOUBLE
  }

  /** A primitive: {@code int}. Never inside a container. */
  record Primitive(PrimitiveKind kind) implements TypeModel {}

  /** A box of a primitive: {@code Integer}. */
  record Boxed(PrimitiveKind kind) implements TypeModel {}

  /** {@code java.lang.String}. */
  record StringType() implements TypeModel {}

  /** {@code byte[]}. */
  record BytesType() implements TypeModel {}

  /** An {@code @Object} interface, which the runtime maps to its generated class. */
  record ObjectType(QualifiedName name, String typeKey) implements TypeModel {}

  /** {@code dev.packed4j.runtime.NativeObject}: an object of any native type. */
  record NativeObjectType() implements TypeModel {}

  /** {@code dev.packed4j.runtime.PackedFunction}. */
  record PackedFunctionType() implements TypeModel {}

  /** {@code java.lang.Object}: converted by the runtime from the value's own type. */
  record AnyType() implements TypeModel {}

  /**
   * {@code java.util.List<E>}, copied across the boundary, or, when {@code live}, {@code NativeList<E>}, a view
   * of the native list.
   */
  record ListType(TypeModel element, boolean live) implements TypeModel {}

  /** {@code java.util.Map<K,V>}, copied, or, when {@code live}, {@code NativeMap<K,V>}, a native view. */
  record MapType(TypeModel key, TypeModel value, boolean live) implements TypeModel {}

  /** {@code java.util.Optional<T>}: none or a value. */
  record OptionalType(TypeModel element) implements TypeModel {}

  /** {@code dev.packed4j.runtime.NDArray}: a tensor, passed by reference (no copy). */
  record NDArrayType() implements TypeModel {}

  /**
   * {@code float[]}, {@code double[]}, {@code int[]} or {@code long[]} as a parameter: copied into a 1-D NDArray of
   * float32, float64, int32 or int64 for the call. Never a result, never inside a container.
   */
  record ArrayTensorType(PrimitiveKind element) implements TypeModel {}

  /** {@code void}, as a result only. */
  record VoidType() implements TypeModel {}
}
