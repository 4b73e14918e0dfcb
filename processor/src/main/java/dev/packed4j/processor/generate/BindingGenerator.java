package dev.packed4j.processor.generate;

import com.squareup.javapoet.AnnotationSpec;
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
 * a primitive or void calls its route instead: a handle in a holder class of its own, linked at the method's first
 * call to the function's direct entry (its typed entry, or its register call) or else to the method's call frame,
 * written as a static {@code ...ThroughFrame} method.
 */
public final class BindingGenerator {
  /**
   * The constant mapping each method (name and erased parameter types, as reflection spells them) to its global:
   * what {@code Packed4j.bindChecked} checks against the loaded registry.
   */
  public static final String GLOBALS_FIELD = "GLOBALS";

  /** The field of a route holder class. */
  private static final String HANDLE_FIELD = "HANDLE";

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
    GeneratedAnnotations.add(type, generatedAvailable, binding.suppressedWarnings());

    ConstantNames names = new ConstantNames(Set.of(GLOBALS_FIELD));
    // Holder classes must not hide a member type of the interface nor be named like the class or interface.
    Set<String> takenTypeNames = new HashSet<>(binding.memberTypeNames());
    takenTypeNames.add(generated.simpleName());
    takenTypeNames.add(iface.simpleName());
    ConstantNames holderNames = new ConstantNames(takenTypeNames);
    // A static method must not hide a method of the interface.
    ConstantNames methodNames =
        new ConstantNames(binding.methods().stream().map(GlobalMethod::name).collect(Collectors.toSet()));
    List<MethodSpec> methods = new ArrayList<>();
    List<MethodSpec> throughFrame = new ArrayList<>();
    for (GlobalMethod method : binding.methods()) {
      Names taken = new Names(names, holderNames, methodNames);
      methods.add(method(method, taken, type, generated, throughFrame));
    }
    type.addField(globals(binding));
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PUBLIC).build());
    type.addMethods(methods);
    type.addMethods(throughFrame);
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


  /** The name sets of one generated class: constants, holder classes, static methods. */
  private record Names(ConstantNames constants, ConstantNames holders, ConstantNames methods) {}

  /**
   * Adds the method's constants to {@code type} and returns its implementation; a method with a route also gets its
   * call-frame method (added to {@code throughFrame}) and its route holder.
   */
  private static MethodSpec method(
      GlobalMethod method, Names names, TypeSpec.Builder type, ClassName generated, List<MethodSpec> throughFrame) {
    Set<String> parameterNames =
        method.parameters().stream().map(Parameter::name).collect(Collectors.toCollection(HashSet::new));
    String site = names.constants().unique(ConstantNames.upperSnake(method.name()));
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

    MethodSpec.Builder implementation =
        MethodSpec.methodBuilder(method.name())
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(JavaTypes.of(method.result()))
            .varargs(method.varargs());
    GeneratedAnnotations.implementing(implementation, method.deprecation());
    for (Parameter parameter : method.parameters()) {
      implementation.addParameter(ParameterSpec.builder(JavaTypes.of(parameter.type()), parameter.name()).build());
    }
    if (!hasRoute(method)) {
      return implementation
          .addCode(frameCall(method, site, names.constants(), type, parameterNames, generated, false))
          .build();
    }
    String frameMethod =
        names.methods().unique(lowerCamel(ConstantNames.upperCamel(site)) + "ThroughFrame");
    String holder = names.holders().unique(ConstantNames.upperCamel(site) + "Route");
    throughFrame.add(throughFrameMethod(method, site, frameMethod, names.constants(), type, generated));
    type.addType(routeHolder(method, site, holder, frameMethod));
    return implementation.addCode(routeCall(method, site, holder, parameterNames, generated)).build();
  }

  /**
   * Whether the method's parameters are primitives, Strings or NDArrays and its result a primitive or void, so it
   * links a route ({@code FunctionSite.route}): a direct entry of the function when one applies, else its call frame.
   */
  private static boolean hasRoute(GlobalMethod method) {
    return method.parameters().stream().allMatch(p -> p.type() instanceof TypeModel.Primitive || inScratch(p))
        && (method.result() instanceof TypeModel.Primitive || method.result() instanceof TypeModel.VoidType);
  }

  /**
   * Whether a routed method passes this parameter as a {@code long} made with the thread's scratch memory: a
   * String's span address, an NDArray's tensor word (its handle, or a DLTensor written there).
   */
  private static boolean inScratch(Parameter parameter) {
    return parameter.type() instanceof TypeModel.StringType || parameter.type() instanceof TypeModel.NDArrayType;
  }

  /**
   * The call through a frame: open, put each argument, invoke, take the result. In a method's own
   * {@code ...ThroughFrame} method ({@code spans}), String arguments come as the addresses of spans already in scratch
   * memory.
   */
  private static CodeBlock frameCall(
      GlobalMethod method,
      String site,
      ConstantNames names,
      TypeSpec.Builder type,
      Set<String> parameterNames,
      ClassName generated,
      boolean spans) {
    String frame = localName("frame", parameterNames);
    CodeBlock.Builder body = CodeBlock.builder();
    body.beginControlFlow(
        "try ($T $N = $T.open($L, $L))",
        RuntimeClasses.CALL_FRAME,
        frame,
        RuntimeClasses.CALL_FRAME,
        constant(site, parameterNames, generated),
        method.parameters().size());
    for (int i = 0; i < method.parameters().size(); i++) {
      Parameter parameter = method.parameters().get(i);
      Optional<String> put =
          spans && inScratch(parameter)
              ? Optional.of(parameter.type() instanceof TypeModel.StringType ? "putStringSpan" : "putTensorWord")
              : directPut(parameter.type());
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
    return body.endControlFlow().build();
  }

  /**
   * {@code static int addThroughFrame(int a, int b) { try (CallFrame frame = ...) { ... } }}: the call-frame route of
   * a method with a route, of its wire type (each String parameter the {@code long} address of its span, each NDArray
   * parameter its tensor word). Package-private, not private: only the route's lookup finds it (by name), and ECJ
   * warns that a private method no code calls is "never used locally", which a {@code -failOnWarning} build fails.
   */
  private static MethodSpec throughFrameMethod(
      GlobalMethod method,
      String site,
      String name,
      ConstantNames names,
      TypeSpec.Builder type,
      ClassName generated) {
    Set<String> parameterNames =
        method.parameters().stream().map(Parameter::name).collect(Collectors.toCollection(HashSet::new));
    MethodSpec.Builder frameMethod =
        MethodSpec.methodBuilder(name)
            .addJavadoc(
                "Calls {@code $L} through a call frame: the route of {@code $L} when no direct entry applies.\n",
                method.globalName(),
                method.name())
            .addModifiers(Modifier.STATIC)
            .returns(JavaTypes.of(method.result()));
    for (Parameter parameter : method.parameters()) {
      frameMethod.addParameter(
          inScratch(parameter)
              ? ParameterSpec.builder(long.class, parameter.name()).build()
              : ParameterSpec.builder(JavaTypes.of(parameter.type()), parameter.name()).build());
    }
    return frameMethod
        .addCode(frameCall(method, site, names, type, parameterNames, generated, true))
        .build();
  }

  /**
   * {@code private static final class AddRoute { static final MethodHandle HANDLE = ADD.route(...); }}: the route in
   * a constant the JIT folds, linked when the method first reads it.
   */
  private static TypeSpec routeHolder(GlobalMethod method, String site, String holder, String frameMethod) {
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
            "The route of {@code $L} to {@code $L}: linked at its first call, relinked when a library loads.\n",
            method.name(),
            method.globalName())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .addField(
            FieldSpec.builder(RuntimeClasses.METHOD_HANDLE, HANDLE_FIELD, Modifier.STATIC, Modifier.FINAL)
                .initializer(
                    "$N.route($T.lookup(),$W$S,$W$L)",
                    site,
                    RuntimeClasses.METHOD_HANDLES,
                    frameMethod,
                    javaType)
                .build())
        .build();
  }

  /**
   * {@code try { return (int) AddRoute.HANDLE.invokeExact(a, b); } catch (Throwable e) { throw ...; }}. String
   * arguments are copied into the thread's scratch memory, given back in {@code finally}, and passed as the
   * addresses of their spans; an NDArray argument as its tensor word (its object's handle, or a DLTensor written
   * there for a tensor that has no native object, tagged by the low bit).
   */
  private static CodeBlock routeCall(
      GlobalMethod method, String site, String holder, Set<String> parameterNames, ClassName generated) {
    String failure = localName("e", parameterNames);
    String scratch = localName("scratch", parameterNames);
    String mark = localName("mark", parameterNames);
    boolean usesScratch = method.parameters().stream().anyMatch(BindingGenerator::inScratch);
    CodeBlock.Builder arguments = CodeBlock.builder();
    for (int i = 0; i < method.parameters().size(); i++) {
      Parameter parameter = method.parameters().get(i);
      if (i > 0) {
        arguments.add(", ");
      }
      if (inScratch(parameter)) {
        arguments.add(
            "$N.$L($L, $L, $N)",
            scratch,
            parameter.type() instanceof TypeModel.StringType ? "putStringSpan" : "tensorWord",
            constant(site, parameterNames, generated),
            i,
            parameter.name());
      } else {
        arguments.add("$N", parameter.name());
      }
    }
    CodeBlock handle = CodeBlock.of("$L.$N", constant(holder, parameterNames, generated), HANDLE_FIELD);
    CodeBlock.Builder code = CodeBlock.builder();
    if (usesScratch) {
      code.addStatement("$T $N = $T.current()", RuntimeClasses.SCRATCH, scratch, RuntimeClasses.SCRATCH)
          .addStatement("long $N = $N.mark()", mark, scratch);
    }
    code.beginControlFlow("try");
    if (method.result() instanceof TypeModel.VoidType) {
      code.addStatement("$L.invokeExact($L)", handle, arguments.build());
    } else {
      code.addStatement(
          "return ($T) $L.invokeExact($L)", JavaTypes.of(method.result()), handle, arguments.build());
    }
    code.nextControlFlow("catch ($T $N)", Throwable.class, failure)
        .addStatement("throw $T.rethrow($N)", RuntimeClasses.FUNCTION_SITE, failure);
    if (usesScratch) {
      code.nextControlFlow("finally").addStatement("$N.release($N)", scratch, mark);
      for (Parameter parameter : method.parameters()) {
        if (parameter.type() instanceof TypeModel.NDArrayType) {
          // The entry reads the tensor through an address: its Java object (so its memory) must outlive the call.
          code.addStatement("$T.reachabilityFence($N)", RuntimeClasses.REFERENCE, parameter.name());
        }
      }
    }
    return code.endControlFlow().build();
  }

  /** {@code AddRoute} as {@code addRoute}. */
  private static String lowerCamel(String upperCamel) {
    return Character.toLowerCase(upperCamel.charAt(0)) + upperCamel.substring(1);
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
    FieldSpec.Builder field =
        FieldSpec.builder(
                CodecExpressions.codecType(type), name, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer(CodecExpressions.of(type));
    if (CodecExpressions.castsParameterizedClosure(type)) {
      field.addAnnotation(
          AnnotationSpec.builder(SuppressWarnings.class).addMember("value", "$S", "unchecked").build());
    }
    builder.addField(field.build());
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
