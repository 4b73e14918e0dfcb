package dev.packed4j.processor.generate;

import com.squareup.javapoet.AnnotationSpec;
import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import com.squareup.javapoet.ParameterizedTypeName;
import com.squareup.javapoet.TypeName;
import com.squareup.javapoet.TypeSpec;
import dev.packed4j.processor.model.Getter;
import dev.packed4j.processor.model.ObjectInterface;
import dev.packed4j.processor.model.ObjectMethod;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.Setter;
import dev.packed4j.processor.model.TypeModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code Packed4j_<Name>}, the {@code ObjectRef} subclass of an {@code @Object} interface: its
 * {@code ObjectType} registration; one getter and one setter per native field they name, reading and writing through
 * a {@code FieldSlot} resolved on the first use; and per method a {@code FunctionSite} of the type's method, linked
 * as a bound interface's method is, with the object first.
 */
public final class ObjectGenerator {
  private static final String TYPE = "TYPE";
  private static final String TYPE_KEY = "TYPE_KEY";
  private static final String MEMBERS = "MEMBERS";
  private static final String SELF = "SELF";
  private static final String FIELDS = "Fields";
  private static final String HANDLE_FIELD = "HANDLE";

  /** Generates the class for {@code object}; {@code generatedAvailable} says whether to add {@code @Generated}. */
  public JavaFile generate(ObjectInterface object, boolean generatedAvailable) {
    ClassName iface = JavaTypes.className(object.name());
    ClassName generated = JavaTypes.className(object.name().generatedClass());
    ClassName fields = generated.nestedClass(FIELDS);
    TypeSpec.Builder type =
        TypeSpec.classBuilder(generated)
            .addJavadoc(
                "The Java view of native objects of type {@code $L}: $L for {@link $T}.\n",
                object.typeKey(),
                does(object),
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
    type.addField(
        FieldSpec.builder(String.class, TYPE_KEY, Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("The native type key.\n")
            .initializer("$S", object.typeKey())
            .build());
    type.addField(members(object));
    type.addMethod(
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PRIVATE)
            .addParameter(RuntimeClasses.OWNED_HANDLE, "handle")
            .addStatement("super(handle)")
            .build());

    if (!object.getters().isEmpty() || !object.setters().isEmpty()) {
      TypeSpec.Builder holder =
          TypeSpec.classBuilder(fields)
              .addJavadoc("Resolved on the first use, when the native type is registered.\n")
              .addModifiers(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL);
      ConstantNames names = new ConstantNames(Set.of());
      Map<String, String> slots = new HashMap<>();
      List<MethodSpec> accessors = new ArrayList<>();
      for (Getter getter : object.getters()) {
        accessors.add(getter(getter, names, slots, holder, fields));
      }
      for (Setter setter : object.setters()) {
        accessors.add(setter(setter, names, slots, holder, fields,
            BindingGenerator.bodyNames(generated, object.memberTypeNames(), FIELDS), object.typeKey()));
      }
      type.addType(holder.build());
      type.addMethods(accessors);
    }
    if (!object.methods().isEmpty()) {
      ConstantNames names = new ConstantNames(Set.of(TYPE, TYPE_KEY, MEMBERS, SELF, HANDLE_FIELD));
      Set<String> takenTypeNames = new HashSet<>(object.memberTypeNames());
      takenTypeNames.add(generated.simpleName());
      takenTypeNames.add(iface.simpleName());
      takenTypeNames.add(FIELDS);
      ConstantNames holderNames = new ConstantNames(takenTypeNames);
      type.addField(
          FieldSpec.builder(ParameterizedTypeName.get(RuntimeClasses.CODEC, iface), SELF, Modifier.PRIVATE,
                  Modifier.STATIC, Modifier.FINAL)
              .initializer("$T.object($T.class)", RuntimeClasses.CODECS, iface)
              .build());
      Set<String> bodyNames = BindingGenerator.bodyNames(generated, object.memberTypeNames());
      for (ObjectMethod method : object.methods()) {
        type.addMethod(method(object, method, iface, names, holderNames, type, generated, bodyNames));
      }
    }
    return JavaFile.builder(object.name().packageName(), type.build()).skipJavaLangImports(true).build();
  }

  /** {@code "reads their fields"}, {@code "reads and writes their fields and calls their methods"}, ... */
  private static String does(ObjectInterface object) {
    String fields = object.setters().isEmpty() ? "reads their fields" : "reads and writes their fields";
    return object.methods().isEmpty() ? fields : fields + " and calls their methods";
  }

  /**
   * {@code MEMBERS}: each getter, setter and method (name and erased parameter types) to {@code "get <field>"},
   * {@code "set <field>"} or {@code "call <method>"}, for tools that implement the interface elsewhere.
   */
  private static FieldSpec members(ObjectInterface object) {
    ClassName map = ClassName.get("java.util", "Map");
    List<CodeBlock> entries = new ArrayList<>();
    for (Getter getter : object.getters()) {
      entries.add(CodeBlock.of("\n$T.entry($S, $S)", map, getter.name() + "()", "get " + getter.fieldName()));
    }
    for (Setter setter : object.setters()) {
      entries.add(CodeBlock.of("\n$T.entry($S, $S)", map,
          setter.name() + "(" + JavaTypes.erasedBinaryName(setter.type()) + ")", "set " + setter.fieldName()));
    }
    for (ObjectMethod method : object.methods()) {
      entries.add(CodeBlock.of("\n$T.entry($S, $S)", map, method.name() + method.parameters().stream()
          .map(p -> JavaTypes.erasedBinaryName(p.type()))
          .collect(Collectors.joining(",", "(", ")")), "call " + method.nativeName()));
    }
    return FieldSpec.builder(
            ParameterizedTypeName.get(map, ClassName.get(String.class), ClassName.get(String.class)),
            MEMBERS,
            Modifier.PUBLIC,
            Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc("What each getter, setter and method does, by name and erased parameter types: {@code \"get"
            + " <field>\"}, {@code \"set <field>\"} or {@code \"call <method>\"}.\n")
        .initializer(entries.isEmpty() ? CodeBlock.of("$T.of()", map)
            : CodeBlock.of("$T.ofEntries($>$L$<)", map, CodeBlock.join(entries, ",")))
        .build();
  }

  /** The slot of a field accessed as {@code kind}, added to the holder the first time; shared by getter and setter. */
  private static String slot(String fieldName, String javaName, String kind, ConstantNames names,
      Map<String, String> slots, TypeSpec.Builder holder) {
    return slots.computeIfAbsent(fieldName + " " + kind, key -> {
      String slot = names.unique(ConstantNames.upperSnake(javaName));
      holder.addField(
          FieldSpec.builder(RuntimeClasses.FIELD_SLOT, slot, Modifier.STATIC, Modifier.FINAL)
              .initializer("$N.field($S, $T.$L)", TYPE, fieldName, RuntimeClasses.FIELD_KIND, kind)
              .build());
      return slot;
    });
  }

  /** Adds the getter's slot (and codec) to the holder and returns the getter. */
  private static MethodSpec getter(Getter getter, ConstantNames names, Map<String, String> slots,
      TypeSpec.Builder holder, ClassName fields) {
    Read read = read(getter.type());
    String slot = slot(getter.fieldName(), getter.name(), read.kind(), names, slots, holder);
    CodeBlock value;
    if (read.method().equals("readObject")) {
      String codec = names.unique(slot + "_CODEC");
      holder.addField(codecConstant(getter.type(), codec));
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

  /** Adds the setter's slot (and codec) to the holder and returns the setter. */
  private static MethodSpec setter(Setter setter, ConstantNames names, Map<String, String> slots,
      TypeSpec.Builder holder, ClassName fields, Set<String> bodyNames, String typeKey) {
    // A parameter named Fields would shadow the holder the statement starts with.
    String parameter = BindingGenerator.implementationNames(
        List.of(new Parameter(setter.parameterName(), setter.type())), bodyNames).get(0);
    Read read = read(setter.type());
    // An int setter writes int32 and int64 fields alike (the runtime range-checks an int32 one), as a long does.
    String kind = read.kind().equals("INT32") ? "INT64" : read.kind();
    String slot = slot(setter.fieldName(), setter.name(), kind, names, slots, holder);
    String write = "write" + read.method().substring("read".length());
    CodeBlock statement;
    if (write.equals("writeObject")) {
      String codec = names.unique(slot + "_WRITE_CODEC");
      holder.addField(codecConstant(setter.type(), codec));
      statement = CodeBlock.of("$T.$N.writeObject(this, $T.$N, $N)", fields, slot, fields, codec, parameter);
    } else {
      statement = CodeBlock.of("$T.$N.$L(this, $N)", fields, slot, write, parameter);
    }
    MethodSpec.Builder method =
        MethodSpec.methodBuilder(setter.name())
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .addParameter(JavaTypes.of(setter.type()), parameter);
    // writeObject writes null as None, which an object field takes as "no object" but a C++ List<T> or Map<K, V>
    // field cannot hold: refused here with the runtime's message, which a session's client gives too.
    ClassName container = switch (setter.type()) {
      case TypeModel.ListType l -> l.live() ? RuntimeClasses.NATIVE_LIST : ClassName.get(List.class);
      case TypeModel.MapType m -> m.live() ? RuntimeClasses.NATIVE_MAP : ClassName.get(Map.class);
      default -> null;
    };
    if (container != null) {
      method.beginControlFlow("if ($N == null)", parameter)
          .addStatement("throw $T.nullFieldValue($S, $S, $T.class)", RuntimeClasses.FUNCTION_SITE, typeKey,
              setter.fieldName(), container)
          .endControlFlow();
    }
    method.addStatement(statement);
    GeneratedAnnotations.implementing(method, setter.deprecation());
    return method.build();
  }

  /**
   * {@code static final Codec<T> NAME = <codec>}: the codec of a field's Java type, "unchecked" suppressed where a
   * functional element's codec casts a lambda to a parameterized intersection (see CodecExpressions).
   */
  private static FieldSpec codecConstant(TypeModel type, String name) {
    FieldSpec.Builder field =
        FieldSpec.builder(CodecExpressions.codecType(type), name, Modifier.STATIC, Modifier.FINAL)
            .initializer(CodecExpressions.of(type));
    if (CodecExpressions.castsParameterizedClosure(type)) {
      field.addAnnotation(
          AnnotationSpec.builder(SuppressWarnings.class).addMember("value", "$S", "unchecked").build());
    }
    return field.build();
  }

  /**
   * A method of the type: its site ({@code FunctionSite.method}), codecs and route holder, and the implementation,
   * which calls the linked route with {@code this} first, or the override of the object's own type.
   */
  private static MethodSpec method(ObjectInterface object, ObjectMethod method, ClassName iface, ConstantNames names,
      ConstantNames holderNames, TypeSpec.Builder type, ClassName generated, Set<String> bodyNames) {
    List<String> javaNames = BindingGenerator.implementationNames(method.parameters(), bodyNames);
    Set<String> parameterNames = new HashSet<>(javaNames);
    String site = names.unique(ConstantNames.upperSnake(method.name()));
    type.addField(
        FieldSpec.builder(RuntimeClasses.FUNCTION_SITE, site, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer("$T.method($S,$W$S,$W$S,$Wnew String[] {$L})", RuntimeClasses.FUNCTION_SITE,
                object.typeKey(), method.nativeName(), method.javaName(),
                Stream.concat(Stream.of("self"), method.parameters().stream().map(Parameter::name))
                    .map(name -> CodeBlock.of("$S", name))
                    .collect(CodeBlock.joining(", ")))
            .build());
    MethodSpec.Builder implementation =
        MethodSpec.methodBuilder(method.name())
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(JavaTypes.of(method.result()))
            .varargs(method.varargs());
    GeneratedAnnotations.implementing(implementation, method.deprecation());
    for (int i = 0; i < method.parameters().size(); i++) {
      implementation.addParameter(
          ParameterSpec.builder(JavaTypes.of(method.parameters().get(i).type()), javaNames.get(i)).build());
    }
    List<CodeBlock> codecs = new ArrayList<>();
    codecs.add(CodeBlock.of("$N", SELF));
    for (int i = 0; i < method.parameters().size(); i++) {
      codecs.add(BindingGenerator.codec(method.parameters().get(i).type(), site + "_ARG_" + i, names, type,
          Set.of(), generated));
    }
    if (!(method.result() instanceof TypeModel.VoidType)) {
      codecs.add(BindingGenerator.codec(method.result(), site + "_RESULT", names, type, Set.of(), generated));
    }
    String holder = holderNames.unique(ConstantNames.routeHolder(site));
    CodeBlock javaType =
        CodeBlock.of(
            "$T.methodType($L)",
            RuntimeClasses.METHOD_TYPE,
            Stream.concat(Stream.of(CodeBlock.of("$T.class", BindingGenerator.erasure(JavaTypes.of(method.result())))),
                    Stream.concat(Stream.of(CodeBlock.of("$T.class", iface)),
                        method.parameters().stream()
                            .map(p -> CodeBlock.of("$T.class", BindingGenerator.erasure(JavaTypes.of(p.type()))))))
                .collect(CodeBlock.joining(", ")));
    type.addType(TypeSpec.classBuilder(holder)
        .addJavadoc("The call of {@code $L} to the method {@code $L} of {@code $L}: linked at its first call.\n",
            method.name(), method.nativeName(), object.typeKey())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .addField(
            FieldSpec.builder(RuntimeClasses.METHOD_HANDLE, HANDLE_FIELD, Modifier.STATIC, Modifier.FINAL)
                .initializer("$N.link($L)", site,
                    Stream.concat(Stream.of(javaType), codecs.stream()).collect(CodeBlock.joining(",$W")))
                .build())
        .build());

    String failure = BindingGenerator.localName("e", parameterNames);
    String override = BindingGenerator.localName("override", parameterNames);
    CodeBlock arguments = Stream.concat(Stream.of(CodeBlock.of("($T) this", iface)),
            javaNames.stream().map(name -> CodeBlock.of("$N", name)))
        .collect(CodeBlock.joining(", "));
    CodeBlock linked = CodeBlock.of("$L.$N", BindingGenerator.constant(holder, parameterNames, generated),
        HANDLE_FIELD);
    CodeBlock siteName = BindingGenerator.constant(site, parameterNames, generated);
    CodeBlock.Builder code = CodeBlock.builder().beginControlFlow("try");
    code.addStatement("$T $N = $L.overrideFor(this, $L)", RuntimeClasses.METHOD_HANDLE, override, siteName, linked);
    TypeName result = JavaTypes.of(method.result());
    for (boolean viaOverride : new boolean[] {false, true}) {
      CodeBlock handle = viaOverride ? CodeBlock.of("$N", override) : linked;
      if (!viaOverride) {
        code.beginControlFlow("if ($N == null)", override);
      }
      if (method.result() instanceof TypeModel.VoidType) {
        code.addStatement("$L.invokeExact($L)", handle, arguments);
        if (!viaOverride) {
          code.addStatement("return");
        }
      } else if (result instanceof ParameterizedTypeName) {
        String local = BindingGenerator.localName(viaOverride ? "overridden" : "result", parameterNames);
        code.add("@$T({$S, $S})\n", SuppressWarnings.class, "all", "unchecked")
            .addStatement("$T $N = ($T) $L.invokeExact($L)", result, local, result, handle, arguments)
            .addStatement("return $N", local);
      } else if (result.equals(TypeName.OBJECT)) {
        code.addStatement("return $L.invokeExact($L)", handle, arguments);
      } else {
        code.addStatement("return ($T) $L.invokeExact($L)", result, handle, arguments);
      }
      if (!viaOverride) {
        code.endControlFlow();
      }
    }
    code.nextControlFlow("catch ($T $N)", Throwable.class, failure)
        .addStatement("throw $T.rethrow($N)", RuntimeClasses.FUNCTION_SITE, failure)
        .endControlFlow();
    return implementation.addCode(code.build()).build();
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
      // A tensor field is an object field: the NDArray codec makes the getter's new reference, and passes the
      // setter's tensor by reference.
      case TypeModel.NDArrayType t -> new Read("OBJECT", "readObject");
      // A container field is an object field whose codec converts the container as a result or an argument.
      case TypeModel.ListType l -> new Read("OBJECT", "readObject");
      case TypeModel.MapType m -> new Read("OBJECT", "readObject");
      default -> throw new IllegalArgumentException(type + " is not a field type");
    };
  }
}
