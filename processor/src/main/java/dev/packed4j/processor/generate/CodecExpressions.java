package dev.packed4j.processor.generate;

import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.ParameterizedTypeName;
import com.squareup.javapoet.TypeName;
import dev.packed4j.processor.model.TypeModel;
import java.util.Optional;

/**
 * The runtime codec expression for a type: a constant of {@code Codecs} for a leaf type ({@code Codecs.LONG}),
 * composed with its factories for the rest ({@code Codecs.list(Codecs.map(Codecs.STRING, Codecs.LONG))}).
 */
final class CodecExpressions {
  private CodecExpressions() {}

  /**
   * The {@code Codecs} constant for a leaf type, which generated code names directly; empty for a type whose codec
   * is composed, which generated code keeps in a constant of its own.
   */
  static Optional<CodeBlock> leaf(TypeModel type) {
    String constant =
        switch (type) {
          case TypeModel.Boxed b -> b.kind().name();
          case TypeModel.StringType s -> "STRING";
          case TypeModel.BytesType b -> "BYTES";
          case TypeModel.AnyType a -> "ANY";
          case TypeModel.NativeObjectType n -> "NATIVE_OBJECT";
          case TypeModel.PackedFunctionType f -> "PACKED_FUNCTION";
          case TypeModel.NDArrayType n -> "NDARRAY";
          case TypeModel.ArrayTensorType a -> a.element().name() + "_ARRAY";
          default -> null;
        };
    return Optional.ofNullable(constant).map(c -> CodeBlock.of("$T.$L", RuntimeClasses.CODECS, c));
  }

  /** The codec expression for a reference type. */
  static CodeBlock of(TypeModel type) {
    Optional<CodeBlock> leaf = leaf(type);
    if (leaf.isPresent()) {
      return leaf.get();
    }
    return switch (type) {
      case TypeModel.ObjectType o -> CodeBlock.of("$T.object($T.class)", RuntimeClasses.CODECS, JavaTypes.of(o));
      case TypeModel.ListType l ->
          CodeBlock.of("$T.$L($L)", RuntimeClasses.CODECS, l.live() ? "nativeList" : "list", of(l.element()));
      case TypeModel.MapType m ->
          CodeBlock.of(
              "$T.$L($L, $L)", RuntimeClasses.CODECS, m.live() ? "nativeMap" : "map", of(m.key()), of(m.value()));
      case TypeModel.OptionalType o -> CodeBlock.of("$T.optional($L)", RuntimeClasses.CODECS, of(o.element()));
      default ->
          throw new IllegalArgumentException(
              type + " is converted by a CallFrame operation of its own, not by a codec");
    };
  }

  /** {@code Codec<T>}. */
  static TypeName codecType(TypeModel type) {
    return ParameterizedTypeName.get(RuntimeClasses.CODEC, JavaTypes.of(type));
  }
}
