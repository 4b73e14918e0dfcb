package dev.packed4j.processor.generate;

import com.squareup.javapoet.AnnotationSpec;
import com.squareup.javapoet.ArrayTypeName;
import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import com.squareup.javapoet.ParameterizedTypeName;
import com.squareup.javapoet.TypeName;
import com.squareup.javapoet.TypeSpec;
import dev.packed4j.processor.model.BindingInterface;
import dev.packed4j.processor.model.GlobalMethod;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.TypeModel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code Packed4j_<Name>}, the implementation of an interface with {@code @Global} methods: one
 * {@code FunctionSite} per method, codec constants for composed types, and per method a handle in a holder class of
 * its own, linked by the runtime at the method's first call ({@code FunctionSite.link}) from the method's type and
 * codecs; the method calls it with {@code invokeExact}. Which route the handle takes (a direct entry or a call frame)
 * the runtime decides; nothing here is called back by it.
 */
public final class BindingGenerator {
  /**
   * The constant mapping each method (name and erased parameter types, as reflection spells them) to its global:
   * what {@code Packed4j.bindChecked} checks against the loaded registry.
   */
  public static final String GLOBALS_FIELD = "GLOBALS";

  /**
   * The constant mapping each method that calls a type's constructor or static method (name and erased parameter
   * types) to {@code "TypeKey.name"} ({@code "__init__"} for the constructor).
   */
  public static final String MEMBERS_FIELD = "MEMBERS";

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

    // HANDLE is the field of every holder class: a constant of that name would be hidden in the holder's initializer.
    ConstantNames names = new ConstantNames(Set.of(GLOBALS_FIELD, MEMBERS_FIELD, HANDLE_FIELD));
    // Holder classes must not hide a member type of the interface nor be named like the class or interface.
    Set<String> takenTypeNames = new HashSet<>(binding.memberTypeNames());
    takenTypeNames.add(generated.simpleName());
    takenTypeNames.add(iface.simpleName());
    ConstantNames holderNames = new ConstantNames(takenTypeNames);
    List<MethodSpec> methods = new ArrayList<>();
    Set<String> bodyNames = bodyNames(generated, binding.memberTypeNames());
    for (GlobalMethod method : binding.methods()) {
      methods.add(method(method, names, holderNames, type, generated, bodyNames));
    }
    type.addField(globals(binding, false));
    type.addField(globals(binding, true));
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PUBLIC).build());
    type.addMethods(methods);
    return JavaFile.builder(binding.name().packageName(), type.build()).skipJavaLangImports(true).build();
  }

  /**
   * {@code public static final Map<String, String> GLOBALS = Map.ofEntries(Map.entry("add(int,int)",
   * "calculator.MyAdd"), ...)}.
   */
  private static FieldSpec globals(BindingInterface binding, boolean members) {
    ClassName map = ClassName.get("java.util", "Map");
    CodeBlock entries =
        binding.methods().stream()
            .filter(method -> (method.member() != null) == members)
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
            members ? MEMBERS_FIELD : GLOBALS_FIELD,
            Modifier.PUBLIC,
            Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc(members
            ? "The type member each constructor and static method calls, {@code \"TypeKey.name\"}, by name and erased"
                + " parameter types: what {@code Packed4j.bindChecked} checks.\n"
            : "The global each method binds, by name and erased parameter types: what {@code Packed4j.bindChecked}"
                + " checks.\n")
        .initializer(entries.isEmpty() ? CodeBlock.of("$T.of()", map) : CodeBlock.of("$T.ofEntries($>$L$<)", map,
            entries))
        .build();
  }


  /** Adds the method's constants and holder class to {@code type} and returns its implementation. */
  private static MethodSpec method(GlobalMethod method, ConstantNames names, ConstantNames holderNames,
      TypeSpec.Builder type, ClassName generated, Set<String> bodyNames) {
    List<String> javaNames = implementationNames(method.parameters(), bodyNames);
    Set<String> parameterNames = new HashSet<>(javaNames);
    String site = names.unique(ConstantNames.upperSnake(method.name()));
    CodeBlock parameterArray = CodeBlock.of("new String[] {$L}", method.parameters().stream()
        .map(p -> CodeBlock.of("$S", p.name()))
        .collect(CodeBlock.joining(", ")));
    CodeBlock siteInitializer;
    if (method.member() == null) {
      siteInitializer = CodeBlock.of("new $T($S,$W$S,$W$L)", RuntimeClasses.FUNCTION_SITE, method.globalName(),
          method.javaName(), parameterArray);
    } else if (method.member().constructor()) {
      siteInitializer = CodeBlock.of("$T.constructor($S,$W$S,$W$L)", RuntimeClasses.FUNCTION_SITE,
          method.member().typeKey(), method.javaName(), parameterArray);
    } else {
      siteInitializer = CodeBlock.of("$T.staticMethod($S,$W$S,$W$S,$W$L)", RuntimeClasses.FUNCTION_SITE,
          method.member().typeKey(), method.member().name(), method.javaName(), parameterArray);
    }
    type.addField(
        FieldSpec.builder(RuntimeClasses.FUNCTION_SITE, site, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer(siteInitializer)
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
    // The holder's initializer sees no parameter, so its constants need no qualification.
    List<CodeBlock> codecs = new ArrayList<>();
    for (int i = 0; i < method.parameters().size(); i++) {
      codecs.add(codec(method.parameters().get(i).type(), site + "_ARG_" + i, names, type, Set.of(), generated));
    }
    if (!(method.result() instanceof TypeModel.VoidType)) {
      codecs.add(codec(method.result(), site + "_RESULT", names, type, Set.of(), generated));
    }
    String holder = holderNames.unique(ConstantNames.routeHolder(site));
    type.addType(routeHolder(method, site, holder, codecs));
    return implementation.addCode(routeCall(method, holder, javaNames, generated)).build();
  }

  /**
   * The names a method body uses by their simple names at the start of an expression, where a parameter of the same
   * name would shadow them ({@code FunctionSite.rethrow(e)} with a parameter {@code FunctionSite} does not compile):
   * {@code FunctionSite}, the generated class (which qualifies a shadowed constant or holder), and {@code dev} when
   * a member type of the interface makes JavaPoet qualify {@code dev.packed4j.runtime.binding.FunctionSite}.
   * {@code extra} adds the holder names of an object class's accessors. Names used only as types (casts, declarations,
   * {@code catch}) need none of this: no variable shadows a type there.
   */
  static Set<String> bodyNames(ClassName generated, Collection<String> memberTypeNames, String... extra) {
    String functionSite = RuntimeClasses.FUNCTION_SITE.simpleName();
    Set<String> names = new HashSet<>(List.of(functionSite, generated.simpleName()));
    if (memberTypeNames.contains(functionSite)) {
      String runtimePackage = RuntimeClasses.FUNCTION_SITE.packageName();
      names.add(runtimePackage.substring(0, (runtimePackage + ".").indexOf('.')));
    }
    names.addAll(List.of(extra));
    return names;
  }

  /**
   * The names of a method's parameters in the implementation: the declared ones, except that a name among
   * {@code bodyNames} becomes a variant no other parameter has ({@code FunctionSite2}). The interface keeps its
   * names; only the generated class's copy of the method differs.
   */
  static List<String> implementationNames(List<Parameter> parameters, Set<String> bodyNames) {
    Set<String> taken = new HashSet<>(bodyNames);
    parameters.forEach(parameter -> taken.add(parameter.name()));
    List<String> names = new ArrayList<>();
    for (Parameter parameter : parameters) {
      String name = parameter.name();
      if (bodyNames.contains(name)) {
        name = localName(name, taken);
        taken.add(name);
      }
      names.add(name);
    }
    return names;
  }

  /**
   * {@code private static final class AddRoute { static final MethodHandle HANDLE = ADD.link(...); }}: the method's
   * handle in a constant the JIT folds, linked when the method first reads it.
   */
  private static TypeSpec routeHolder(GlobalMethod method, String site, String holder, List<CodeBlock> codecs) {
    CodeBlock javaType =
        CodeBlock.of(
            "$T.methodType($L)",
            RuntimeClasses.METHOD_TYPE,
            Stream.concat(Stream.of(method.result()), method.parameters().stream().map(Parameter::type))
                .map(t -> CodeBlock.of("$T.class", erasure(JavaTypes.of(t))))
                .collect(CodeBlock.joining(", ")));
    CodeBlock arguments =
        Stream.concat(Stream.of(javaType), codecs.stream()).collect(CodeBlock.joining(",$W"));
    return TypeSpec.classBuilder(holder)
        .addJavadoc(
            "The call of {@code $L} to {@code $L}: linked at its first call, relinked when a library loads.\n",
            method.name(),
            method.globalName())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .addField(
            FieldSpec.builder(RuntimeClasses.METHOD_HANDLE, HANDLE_FIELD, Modifier.STATIC, Modifier.FINAL)
                .initializer("$N.link($L)", site, arguments)
                .build())
        .build();
  }

  /** {@code List<Long>} as {@code List}: what a class literal and {@code invokeExact}'s cast name. */
  static TypeName erasure(TypeName type) {
    if (type instanceof ParameterizedTypeName parameterized) {
      return parameterized.rawType;
    }
    if (type instanceof ArrayTypeName array) {
      return ArrayTypeName.of(erasure(array.componentType));
    }
    return type;
  }

  /**
   * {@code try { return (int) AddRoute.HANDLE.invokeExact(a, b); } catch (Throwable e) { throw ...; }}. The cast
   * gives {@code invokeExact} the method's (erased) result type; an {@code Object} result needs none (ECJ calls it
   * unnecessary). A parameterized result is cast in a local variable that suppresses "unchecked" for javac, next to
   * "all": ECJ, which does not call that cast unchecked, does not check the tokens of a suppression holding "all"
   * (javac does not know "all" and ignores it).
   */
  private static CodeBlock routeCall(GlobalMethod method, String holder, List<String> javaNames, ClassName generated) {
    Set<String> parameterNames = new HashSet<>(javaNames);
    String failure = localName("e", parameterNames);
    CodeBlock arguments = javaNames.stream().map(name -> CodeBlock.of("$N", name)).collect(CodeBlock.joining(", "));
    CodeBlock handle = CodeBlock.of("$L.$N", constant(holder, parameterNames, generated), HANDLE_FIELD);
    CodeBlock.Builder code = CodeBlock.builder().beginControlFlow("try");
    TypeName result = JavaTypes.of(method.result());
    if (method.result() instanceof TypeModel.VoidType) {
      code.addStatement("$L.invokeExact($L)", handle, arguments);
    } else if (result instanceof ParameterizedTypeName) {
      String local = localName("result", parameterNames);
      code.add("@$T({$S, $S})\n", SuppressWarnings.class, "all", "unchecked")
          .addStatement("$T $N = ($T) $L.invokeExact($L)", result, local, result, handle, arguments)
          .addStatement("return $N", local);
    } else if (result.equals(TypeName.OBJECT)) {
      code.addStatement("return $L.invokeExact($L)", handle, arguments);
    } else {
      code.addStatement("return ($T) $L.invokeExact($L)", result, handle, arguments);
    }
    return code.nextControlFlow("catch ($T $N)", Throwable.class, failure)
        .addStatement("throw $T.rethrow($N)", RuntimeClasses.FUNCTION_SITE, failure)
        .endControlFlow()
        .build();
  }

  /**
   * The codec for a type: a {@code Codecs} constant for a leaf type, else a new constant of the generated class
   * named {@code constantName} holding the composed codec.
   */
  static CodeBlock codec(
      TypeModel type,
      String constantName,
      ConstantNames names,
      TypeSpec.Builder builder,
      Set<String> parameterNames,
      ClassName generated) {
    Optional<CodeBlock> leaf =
        CodecExpressions.leaf(type instanceof TypeModel.Primitive p ? new TypeModel.Boxed(p.kind()) : type);
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

  /** A constant of the generated class, qualified if a parameter of the method shadows its name. */
  static CodeBlock constant(String name, Set<String> parameterNames, ClassName generated) {
    return parameterNames.contains(name) ? CodeBlock.of("$T.$N", generated, name) : CodeBlock.of("$N", name);
  }

  /** {@code preferred}, or a variant of it that no parameter uses. */
  static String localName(String preferred, Set<String> parameterNames) {
    String name = preferred;
    for (int i = 2; parameterNames.contains(name); i++) {
      name = preferred + i;
    }
    return name;
  }
}
