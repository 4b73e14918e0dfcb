package dev.packed4j.processor.generate;

import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import com.squareup.javapoet.ParameterizedTypeName;
import com.squareup.javapoet.TypeSpec;
import dev.packed4j.processor.model.BindingInterface;
import dev.packed4j.processor.model.GlobalMethod;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.TypeModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code Packed4j_<Name>}, the implementation of an interface with {@code @Global} methods: one
 * {@code FunctionSite} per method, codec constants for composed types, and per method one call frame that puts the
 * arguments, invokes and takes the result. A method whose parameters are primitives or Strings and whose result is
 * a primitive or void first tries the function's direct entry (its typed entry, or for primitives its packed body
 * with the arguments in registers), kept in a holder class of its own that links it at the method's first call.
 */
public final class BindingGenerator {
  /**
   * The constant mapping each method (name and erased parameter types, as reflection spells them) to its global:
   * what {@code Packed4j.bindChecked} checks against the loaded registry.
   */
  public static final String GLOBALS_FIELD = "GLOBALS";

  /** The field of a typed entry holder class. */
  private static final String TYPED_FIELD = "TYPED";

  /** Generates the class for {@code binding}; {@code generatedAvailable} says whether to add {@code @Generated}. */
  public JavaFile generate(BindingInterface binding, boolean generatedAvailable) {
    ClassName iface = JavaTypes.className(binding.name());
    ClassName generated = JavaTypes.className(binding.name().generatedClass());
    TypeSpec.Builder type =
        TypeSpec.classBuilder(generated)
            .addJavadoc(
                "Calls the native functions bound by {@link $T}. {@code Packed4j.bind($T.class)} loads it by"
                    + " name.\n",
                iface,
                iface)
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addSuperinterface(iface)
            .alwaysQualify(binding.memberTypeNames().toArray(String[]::new));
    GeneratedAnnotations.add(type, generatedAvailable, binding.usesDeprecated());

    ConstantNames names = new ConstantNames(Set.of(GLOBALS_FIELD));
    // Holder classes must not hide a member type of the interface nor be named like the class or interface.
    Set<String> takenTypeNames = new HashSet<>(binding.memberTypeNames());
    takenTypeNames.add(generated.simpleName());
    takenTypeNames.add(iface.simpleName());
    ConstantNames holderNames = new ConstantNames(takenTypeNames);
    List<MethodSpec> methods = new ArrayList<>();
    for (GlobalMethod method : binding.methods()) {
      methods.add(method(method, names, holderNames, type, generated));
    }
    type.addField(globals(binding));
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PUBLIC).build());
    type.addMethods(methods);
    return JavaFile.builder(binding.name().packageName(), type.build()).skipJavaLangImports(true).build();
  }

  /**
   * {@code public static final Map<String, String> GLOBALS = Map.ofEntries(Map.entry("add(int,int)",
   * "calculator.MyAdd"), ...)}.
   */
  private static FieldSpec globals(BindingInterface binding) {
    ClassName map = ClassName.get("java.util", "Map");
    CodeBlock entries =
        binding.methods().stream()
            .map(
                method ->
                    CodeBlock.of(
                        "\n$T.entry($S, $S)",
                        map,
                        method.name()
                            + method.parameters().stream()
                                .map(p -> JavaTypes.erasedBinaryName(p.type()))
                                .collect(Collectors.joining(",", "(", ")")),
                        method.globalName()))
            .collect(CodeBlock.joining(","));
    return FieldSpec.builder(
            ParameterizedTypeName.get(map, ClassName.get(String.class), ClassName.get(String.class)),
            GLOBALS_FIELD,
            Modifier.PUBLIC,
            Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc(
            "The global each method binds, by name and erased parameter types: what {@code Packed4j.bindChecked}"
                + " checks.\n")
        .initializer("$T.ofEntries($>$L$<)", map, entries)
        .build();
  }

  /** Adds the method's constants to {@code type} and returns its implementation. */
  private static MethodSpec method(
      GlobalMethod method,
      ConstantNames names,
      ConstantNames holderNames,
      TypeSpec.Builder type,
      ClassName generated) {
    Set<String> parameterNames =
        method.parameters().stream().map(Parameter::name).collect(Collectors.toCollection(HashSet::new));
    String site = names.unique(ConstantNames.upperSnake(method.name()));
    type.addField(
        FieldSpec.builder(RuntimeClasses.FUNCTION_SITE, site, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer(
                "new $T($S,$W$S,$Wnew String[] {$L})",
                RuntimeClasses.FUNCTION_SITE,
                method.globalName(),
                method.javaName(),
                method.parameters().stream()
                    .map(p -> CodeBlock.of("$S", p.name()))
                    .collect(CodeBlock.joining(", ")))
            .build());

    String frame = localName("frame", parameterNames);
    MethodSpec.Builder implementation =
        MethodSpec.methodBuilder(method.name())
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(JavaTypes.of(method.result()))
            .varargs(method.varargs());
    CodeBlock.Builder body = CodeBlock.builder();
    if (hasTypedEntry(method)) {
      String holder = holderNames.unique(ConstantNames.upperCamel(site) + "Entry");
      type.addType(typedEntryHolder(method, site, holder));
      body.add(typedCall(method, site, holder, parameterNames, generated));
    }
    body.beginControlFlow(
                "try ($T $N = $T.open($L, $L))",
                RuntimeClasses.CALL_FRAME,
                frame,
                RuntimeClasses.CALL_FRAME,
                constant(site, parameterNames, generated),
                method.parameters().size());
    for (int i = 0; i < method.parameters().size(); i++) {
      Parameter parameter = method.parameters().get(i);
      implementation.addParameter(ParameterSpec.builder(JavaTypes.of(parameter.type()), parameter.name()).build());
      Optional<String> put = directPut(parameter.type());
      if (put.isPresent()) {
        body.addStatement("$N.$L($L, $N)", frame, put.get(), i, parameter.name());
      } else {
        CodeBlock codec = codec(parameter.type(), site + "_ARG_" + i, names, type, parameterNames, generated);
        body.addStatement("$N.put($L, $L, $N)", frame, i, codec, parameter.name());
      }
    }
    body.addStatement("$N.invoke()", frame);
    TypeModel result = method.result();
    if (result instanceof TypeModel.VoidType) {
      body.addStatement("$N.returnVoid()", frame);
    } else {
      Optional<String> take = directReturn(result);
      if (take.isPresent()) {
        body.addStatement("return $N.$L()", frame, take.get());
      } else {
        CodeBlock codec = codec(result, site + "_RESULT", names, type, parameterNames, generated);
        body.addStatement("return $N.returnValue($L)", frame, codec);
      }
    }
    body.endControlFlow();
    return implementation.addCode(body.build()).build();
  }

  /**
   * Whether the method's parameters are primitives or Strings and its result a primitive or void, so the function
   * may have a direct entry ({@code FunctionSite.typedEntry}).
   */
  private static boolean hasTypedEntry(GlobalMethod method) {
    return method.parameters().stream()
            .allMatch(p -> p.type() instanceof TypeModel.Primitive || p.type() instanceof TypeModel.StringType)
        && (method.result() instanceof TypeModel.Primitive || method.result() instanceof TypeModel.VoidType);
  }

  /**
   * {@code private static final class AddEntry { static final MethodHandle TYPED = ADD.typedEntry(...); }}: the
   * typed entry in a constant the JIT folds, linked when the method first reads it.
   */
  private static TypeSpec typedEntryHolder(GlobalMethod method, String site, String holder) {
    CodeBlock javaType =
        CodeBlock.of(
            "$T.methodType($L)",
            RuntimeClasses.METHOD_TYPE,
            Stream.concat(
                    Stream.of(method.result()),
                    method.parameters().stream().map(Parameter::type))
                .map(t -> CodeBlock.of("$T.class", JavaTypes.of(t)))
                .collect(CodeBlock.joining(", ")));
    return TypeSpec.classBuilder(holder)
        .addJavadoc(
            "Direct entry of {@code $L}, linked at the first call of {@code $L}; null: use the call frame.\n",
            method.globalName(),
            method.name())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .addField(
            FieldSpec.builder(RuntimeClasses.METHOD_HANDLE, TYPED_FIELD, Modifier.STATIC, Modifier.FINAL)
                .initializer("$N.typedEntry($L)", site, javaType)
                .build())
        .build();
  }

  /**
   * {@code MethodHandle typed = AddEntry.TYPED; if (typed != null) { ... return (int) typed.invokeExact(a, b); ...
   * }}, before the call frame the method falls back to. String arguments are copied into the thread's scratch
   * memory, given back in {@code finally}, and passed as the addresses of their spans.
   */
  private static CodeBlock typedCall(
      GlobalMethod method, String site, String holder, Set<String> parameterNames, ClassName generated) {
    String typed = localName("typed", parameterNames);
    String failure = localName("e", parameterNames);
    String scratch = localName("scratch", parameterNames);
    String mark = localName("mark", parameterNames);
    boolean strings = method.parameters().stream().anyMatch(p -> p.type() instanceof TypeModel.StringType);
    CodeBlock.Builder arguments = CodeBlock.builder();
    for (int i = 0; i < method.parameters().size(); i++) {
      Parameter parameter = method.parameters().get(i);
      if (i > 0) {
        arguments.add(", ");
      }
      if (parameter.type() instanceof TypeModel.StringType) {
        arguments.add(
            "$N.putStringSpan($L, $L, $N)",
            scratch,
            constant(site, parameterNames, generated),
            i,
            parameter.name());
      } else {
        arguments.add("$N", parameter.name());
      }
    }
    CodeBlock.Builder code =
        CodeBlock.builder()
            .addStatement(
                "$T $N = $L.$N",
                RuntimeClasses.METHOD_HANDLE,
                typed,
                constant(holder, parameterNames, generated),
                TYPED_FIELD)
            .beginControlFlow("if ($N != null)", typed);
    if (strings) {
      code.addStatement(
              "$T $N = $T.current()", RuntimeClasses.SCRATCH, scratch, RuntimeClasses.SCRATCH)
          .addStatement("long $N = $N.mark()", mark, scratch);
    }
    code.beginControlFlow("try");
    if (method.result() instanceof TypeModel.VoidType) {
      code.addStatement("$N.invokeExact($L)", typed, arguments.build()).addStatement("return");
    } else {
      code.addStatement(
          "return ($T) $N.invokeExact($L)", JavaTypes.of(method.result()), typed, arguments.build());
    }
    code.nextControlFlow("catch ($T $N)", Throwable.class, failure)
        .addStatement("throw $T.rethrow($N)", RuntimeClasses.FUNCTION_SITE, failure);
    if (strings) {
      code.nextControlFlow("finally").addStatement("$N.release($N)", scratch, mark);
    }
    return code.endControlFlow().endControlFlow().build();
  }

  /**
   * The codec for a type: a {@code Codecs} constant for a leaf type, else a new constant of the generated class
   * named {@code constantName} holding the composed codec.
   */
  private static CodeBlock codec(
      TypeModel type,
      String constantName,
      ConstantNames names,
      TypeSpec.Builder builder,
      Set<String> parameterNames,
      ClassName generated) {
    Optional<CodeBlock> leaf = CodecExpressions.leaf(type);
    if (leaf.isPresent()) {
      return leaf.get();
    }
    String name = names.unique(constantName);
    builder.addField(
        FieldSpec.builder(
                CodecExpressions.codecType(type), name, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer(CodecExpressions.of(type))
            .build());
    return constant(name, parameterNames, generated);
  }

  /** The frame operation that puts a value of this type without a codec, if there is one. */
  private static Optional<String> directPut(TypeModel type) {
    return switch (type) {
      case TypeModel.Primitive p ->
          Optional.of(
              switch (p.kind()) {
                case BOOLEAN -> "putBoolean";
                case BYTE, SHORT, INT, LONG -> "putLong";
                case FLOAT, DOUBLE -> "putDouble";
              });
      case TypeModel.StringType s -> Optional.of("putString");
      case TypeModel.BytesType b -> Optional.of("putBytes");
      default -> Optional.empty();
    };
  }

  /** The frame operation that takes a result of this type without a codec, if there is one. */
  private static Optional<String> directReturn(TypeModel type) {
    return switch (type) {
      case TypeModel.Primitive p ->
          Optional.of(
              switch (p.kind()) {
                case BOOLEAN -> "returnBoolean";
                case BYTE -> "returnByte";
                case SHORT -> "returnShort";
                case INT -> "returnInt";
                case LONG -> "returnLong";
                case FLOAT -> "returnFloat";
                case DOUBLE -> "returnDouble";
              });
      case TypeModel.StringType s -> Optional.of("returnString");
      case TypeModel.BytesType b -> Optional.of("returnBytes");
      default -> Optional.empty();
    };
  }

  /** A constant of the generated class, qualified if a parameter of the method shadows its name. */
  private static CodeBlock constant(String name, Set<String> parameterNames, ClassName generated) {
    return parameterNames.contains(name) ? CodeBlock.of("$T.$N", generated, name) : CodeBlock.of("$N", name);
  }

  /** {@code preferred}, or a variant of it that no parameter uses. */
  private static String localName(String preferred, Set<String> parameterNames) {
    String name = preferred;
    for (int i = 2; parameterNames.contains(name); i++) {
      name = preferred + i;
    }
    return name;
  }
}
