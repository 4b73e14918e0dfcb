package dev.packed4j.processor.generate;

import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterizedTypeName;
import com.squareup.javapoet.TypeSpec;
import dev.packed4j.processor.model.Getter;
import dev.packed4j.processor.model.ObjectInterface;
import dev.packed4j.processor.model.TypeModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code Packed4j_<Name>}, the {@code ObjectRef} subclass of an {@code @Object} interface: its
 * {@code ObjectType} registration, and one getter per native field, reading through a {@code FieldSlot} resolved
 * on the first read.
 */
public final class ObjectGenerator {
  private static final String TYPE = "TYPE";
  private static final String FIELDS = "Fields";

  /** Generates the class for {@code object}; {@code generatedAvailable} says whether to add {@code @Generated}. */
  public JavaFile generate(ObjectInterface object, boolean generatedAvailable) {
    ClassName iface = JavaTypes.className(object.name());
    ClassName generated = JavaTypes.className(object.name().generatedClass());
    ClassName fields = generated.nestedClass(FIELDS);
    TypeSpec.Builder type =
        TypeSpec.classBuilder(generated)
            .addJavadoc(
                "The Java view of native objects of type {@code $L}: reads their fields for {@link $T}.\n",
                object.typeKey(),
                iface)
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .superclass(RuntimeClasses.OBJECT_REF)
            .addSuperinterface(iface)
            .alwaysQualify(object.memberTypeNames().toArray(String[]::new));
    GeneratedAnnotations.add(type, generatedAvailable, object.suppressedWarnings());

    type.addField(
        FieldSpec.builder(
                ParameterizedTypeName.get(RuntimeClasses.OBJECT_TYPE, iface),
                TYPE,
                Modifier.PUBLIC,
                Modifier.STATIC,
                Modifier.FINAL)
            .initializer(
                "$T.define($T.class,$W$S,$W$T::new)", RuntimeClasses.OBJECT_TYPE, iface, object.typeKey(), generated)
            .build());
    type.addMethod(
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PRIVATE)
            .addParameter(RuntimeClasses.OWNED_HANDLE, "handle")
            .addStatement("super(handle)")
            .build());

    if (!object.getters().isEmpty()) {
      TypeSpec.Builder holder =
          TypeSpec.classBuilder(fields)
              .addJavadoc("Resolved on the first read, when the native type is registered.\n")
              .addModifiers(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL);
      ConstantNames names = new ConstantNames(Set.of());
      List<MethodSpec> getters = new ArrayList<>();
      for (Getter getter : object.getters()) {
        getters.add(getter(getter, names, holder, fields));
      }
      type.addType(holder.build());
      type.addMethods(getters);
    }
    return JavaFile.builder(object.name().packageName(), type.build()).skipJavaLangImports(true).build();
  }

  /** Adds the getter's slot (and codec) to the holder and returns the getter. */
  private static MethodSpec getter(Getter getter, ConstantNames names, TypeSpec.Builder holder, ClassName fields) {
    String slot = names.unique(ConstantNames.upperSnake(getter.name()));
    Read read = read(getter.type());
    holder.addField(
        FieldSpec.builder(RuntimeClasses.FIELD_SLOT, slot, Modifier.STATIC, Modifier.FINAL)
            .initializer("$N.field($S, $T.$L)", TYPE, getter.fieldName(), RuntimeClasses.FIELD_KIND, read.kind())
            .build());
    CodeBlock value;
    if (read.method().equals("readObject")) {
      String codec = names.unique(slot + "_CODEC");
      holder.addField(
          FieldSpec.builder(CodecExpressions.codecType(getter.type()), codec, Modifier.STATIC, Modifier.FINAL)
              .initializer(CodecExpressions.of(getter.type()))
              .build());
      value = CodeBlock.of("$T.$N.readObject(this, $T.$N)", fields, slot, fields, codec);
    } else {
      value = CodeBlock.of("$T.$N.$L(this)", fields, slot, read.method());
    }
    MethodSpec.Builder method =
        MethodSpec.methodBuilder(getter.name())
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(JavaTypes.of(getter.type()))
            .addStatement("return $L", value);
    GeneratedAnnotations.implementing(method, getter.deprecation());
    return method.build();
  }

  /** How a field of a getter type is read: the {@code FieldKind} expected, and the {@code FieldSlot} method. */
  private record Read(String kind, String method) {}

  private static Read read(TypeModel type) {
    return switch (type) {
      // A long getter reads int32, int64 and uint64 fields: the runtime widens int32 and accepts uint64 as its bit
      // pattern, so INT64 is the expectation that matches all three.
      case TypeModel.Primitive p ->
          switch (p.kind()) {
            case INT -> new Read("INT32", "readInt");
            case LONG -> new Read("INT64", "readLong");
            case DOUBLE -> new Read("FLOAT64", "readDouble");
            case BOOLEAN -> new Read("BOOL", "readBoolean");
            default -> throw new IllegalArgumentException(p + " is not a field type");
          };
      case TypeModel.StringType s -> new Read("STRING", "readString");
      case TypeModel.ObjectType o -> new Read("OBJECT", "readObject");
      case TypeModel.NativeObjectType n -> new Read("OBJECT", "readObject");
      default -> throw new IllegalArgumentException(type + " is not a field type");
    };
  }
}
