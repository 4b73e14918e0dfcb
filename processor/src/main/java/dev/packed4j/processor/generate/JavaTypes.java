package dev.packed4j.processor.generate;

import com.squareup.javapoet.ArrayTypeName;
import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.ParameterizedTypeName;
import com.squareup.javapoet.TypeName;
import dev.packed4j.processor.model.QualifiedName;
import dev.packed4j.processor.model.TypeModel;
import dev.packed4j.processor.model.TypeModel.PrimitiveKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The Java type a {@link TypeModel} stands for, as JavaPoet writes it. */
final class JavaTypes {
  private JavaTypes() {}

  static ClassName className(QualifiedName name) {
    List<String> simpleNames = name.simpleNames();
    return ClassName.get(
        name.packageName(),
        simpleNames.get(0),
        simpleNames.subList(1, simpleNames.size()).toArray(String[]::new));
  }

  static TypeName of(TypeModel type) {
    return switch (type) {
      case TypeModel.Primitive p -> primitive(p.kind());
      case TypeModel.Boxed b -> primitive(b.kind()).box();
      case TypeModel.StringType s -> ClassName.get(String.class);
      case TypeModel.BytesType b -> ArrayTypeName.of(TypeName.BYTE);
      case TypeModel.ObjectType o -> className(o.name());
      case TypeModel.NativeObjectType n -> RuntimeClasses.NATIVE_OBJECT;
      case TypeModel.PackedFunctionType f -> RuntimeClasses.PACKED_FUNCTION;
      case TypeModel.AnyType a -> TypeName.OBJECT;
      case TypeModel.ListType l ->
          ParameterizedTypeName.get(l.live() ? RuntimeClasses.NATIVE_LIST : ClassName.get(List.class), of(l.element()));
      case TypeModel.MapType m ->
          ParameterizedTypeName.get(
              m.live() ? RuntimeClasses.NATIVE_MAP : ClassName.get(Map.class), of(m.key()), of(m.value()));
      case TypeModel.OptionalType o -> ParameterizedTypeName.get(ClassName.get(Optional.class), of(o.element()));
      case TypeModel.NDArrayType n -> RuntimeClasses.NDARRAY;
      case TypeModel.ArrayTensorType a -> ArrayTypeName.of(primitive(a.element()));
      case TypeModel.VoidType v -> TypeName.VOID;
      case TypeModel.FunctionalType f ->
          f.typeArguments().isEmpty()
              ? className(f.name())
              : ParameterizedTypeName.get(
                  className(f.name()), f.typeArguments().stream().map(JavaTypes::of).toArray(TypeName[]::new));
    };
  }

  /**
   * The erased type as {@code Class.getTypeName()} spells it at run time: {@code int}, {@code java.util.List},
   * {@code byte[]}, {@code p.Outer$Inner}.
   */
  static String erasedBinaryName(TypeModel type) {
    TypeName name = of(type);
    if (name instanceof ParameterizedTypeName parameterized) {
      name = parameterized.rawType;
    }
    if (name instanceof ClassName className) {
      return className.reflectionName();
    }
    return name.toString();
  }

  private static TypeName primitive(PrimitiveKind kind) {
    return switch (kind) {
      case BOOLEAN -> TypeName.BOOLEAN;
      case BYTE -> TypeName.BYTE;
      case SHORT -> TypeName.SHORT;
      case INT -> TypeName.INT;
      case LONG -> TypeName.LONG;
      case FLOAT -> TypeName.FLOAT;
      case DOUBLE -> TypeName.DOUBLE;
    };
  }
}
