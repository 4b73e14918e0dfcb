package dev.packed4j.processor.model;

import dev.packed4j.types.JavaType;
import java.util.List;

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
    DOUBLE;

    /** The same kind in packed4j-types' Java model. */
    public JavaType.PrimitiveKind javaKind() {
      return JavaType.PrimitiveKind.valueOf(name());
    }
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
   * {@code List<E>}, copied across the boundary, or, when {@code live}, {@code NativeList<E>}, a view
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

  /**
   * A functional interface: a Java implementation passed in becomes a native function (a callback), a native
   * function returned becomes an implementation (a closure).
   *
   * @param name the interface
   * @param typeArguments its type arguments as declared ({@code Function<String, String>}), empty for none
   * @param method the name of its one abstract method
   * @param parameters the method's parameter types, as the interface's type arguments make them
   * @param result the method's result type, {@link VoidType} for void
   * @param signature the native signature recorded on a callback, {@code "(int64, int64) -> int64"}
   * @param typed whether a callback has a typed entry: at most four parameters, each a primitive or String, and a
   *     primitive or void result
   */
  record FunctionalType(
      QualifiedName name,
      List<TypeModel> typeArguments,
      String method,
      List<TypeModel> parameters,
      TypeModel result,
      String signature,
      boolean typed,
      boolean closable)
      implements TypeModel {
    public FunctionalType {
      typeArguments = List.copyOf(typeArguments);
      parameters = List.copyOf(parameters);
    }
  }

  /** {@code void}, as a result only. */
  record VoidType() implements TypeModel {}

  /**
   * This type in packed4j-types' Java model, which its conversion table ({@link dev.packed4j.types.Conversions})
   * and its signature printer read: the processor's side of the check the runtime's {@code bindChecked} makes from
   * reflection.
   */
  default JavaType javaType() {
    return switch (this) {
      case Primitive p -> new JavaType.Primitive(p.kind().javaKind());
      case Boxed b -> new JavaType.Boxed(b.kind().javaKind());
      case StringType s -> new JavaType.Text();
      case BytesType b -> new JavaType.Bytes();
      case ObjectType o -> new JavaType.ObjectInterface(o.typeKey());
      case NativeObjectType n -> new JavaType.NativeObject();
      case PackedFunctionType f -> new JavaType.PackedFunction();
      case AnyType a -> new JavaType.Any();
      case ListType l -> new JavaType.ListOf(l.element().javaType());
      case MapType m -> new JavaType.MapOf(m.key().javaType(), m.value().javaType());
      case OptionalType o -> new JavaType.OptionalOf(o.element().javaType());
      case NDArrayType n -> new JavaType.Tensor();
      case ArrayTensorType a -> new JavaType.NumericArray(a.element().javaKind());
      case FunctionalType f -> new JavaType.Functional(f.name().toString());
      case VoidType v -> new JavaType.Void();
    };
  }
}
