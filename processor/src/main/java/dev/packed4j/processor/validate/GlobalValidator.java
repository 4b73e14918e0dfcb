package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.NearNames;
import dev.packed4j.processor.diagnostics.Report;
import dev.packed4j.processor.model.BindingInterface;
import dev.packed4j.processor.model.Deprecation;
import dev.packed4j.processor.model.ExportClass;
import dev.packed4j.processor.model.GlobalMethod;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.TypeModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/** Validates an interface with {@code @Global} methods and builds its {@link BindingInterface}. */
public final class GlobalValidator {
  private final Elements elements;
  private final Interfaces interfaces;
  private final SignatureChecks checks;
  private final TypeMapper mapper;
  private final NativeChecks nativeChecks;
  private final CompilationState state;

  GlobalValidator(
      Elements elements,
      Interfaces interfaces,
      SignatureChecks checks,
      TypeMapper mapper,
      NativeChecks nativeChecks,
      CompilationState state) {
    this.state = state;
    this.elements = elements;
    this.interfaces = interfaces;
    this.checks = checks;
    this.mapper = mapper;
    this.nativeChecks = nativeChecks;
  }

  /**
   * Reports a {@code @Global} method whose enclosing type is not an interface: a class, enum, record or annotation
   * type. Nothing is generated for it.
   */
  public void reportMisplaced(ExecutableElement method, Report report) {
    reportMisplacedGlobal(method, report);
  }

  /**
   * {@link #reportMisplaced} for a caller without a validator: the options processor, for a {@code @Global} method of
   * an annotation type that the compiler did not show the main processor (ECJ shows processors no annotation on an
   * annotation type's element).
   *
   * @param method a method annotated {@code @Global} whose enclosing type is not an interface
   * @param report where the error goes
   */
  public static void reportMisplacedGlobal(ExecutableElement method, Report report) {
    Element owner = method.getEnclosingElement();
    Annotations global = Annotations.find(method, AnnotationNames.GLOBAL).orElseThrow();
    report.on(
        method,
        global.mirror(),
        Diagnostic.GLOBAL_NOT_INTERFACE,
        Display.method(method),
        Display.kind(owner),
        Display.type((TypeElement) owner));
  }

  /**
   * Validates {@code iface}, which declares {@code @Global} methods and is not an {@code @Object} interface (whose
   * validation reports them); returns its model if nothing is wrong.
   */
  public Optional<BindingInterface> validate(TypeElement iface, Report report) {
    interfaces.checkImplementable(iface, null, report);
    for (ExecutableElement method : ElementFilter.methodsIn(iface.getEnclosedElements())) {
      Optional<Annotations> global = Annotations.find(method, AnnotationNames.GLOBAL);
      if (global.isPresent() && !method.getModifiers().contains(Modifier.ABSTRACT)) {
        String kind = method.getModifiers().contains(Modifier.STATIC)
            ? "static"
            : method.getModifiers().contains(Modifier.PRIVATE) ? "private" : "default";
        report.on(
            method, global.get().mirror(), Diagnostic.GLOBAL_NOT_ABSTRACT, Display.method(method), kind, kind);
      }
    }
    Interfaces.checkObjectMethods(
        iface, List.of(AnnotationNames.GLOBAL, AnnotationNames.CONSTRUCTOR, AnnotationNames.METHOD), report);
    List<GlobalMethod> methods = new ArrayList<>();
    Map<String, String> bound = new HashMap<>();
    Set<String> deprecated = new HashSet<>();
    Deprecations.noteType(elements, iface, deprecated);
    for (Interfaces.Member member : interfaces.abstractMethods(iface)) {
      ExecutableElement method = member.method();
      Optional<Annotations> global = Annotations.find(method, AnnotationNames.GLOBAL);
      Optional<Annotations> constructor = Annotations.find(method, AnnotationNames.CONSTRUCTOR);
      Optional<Annotations> typeMethod = Annotations.find(method, AnnotationNames.METHOD);
      // Elements are compared with equals: javac hands out one object per element, ECJ a new one per call.
      boolean own = member.declaringInterface().equals(iface);
      List<String> targets = new ArrayList<>();
      global.ifPresent(g -> targets.add("@Global"));
      constructor.ifPresent(c -> targets.add("@Constructor"));
      typeMethod.ifPresent(m -> targets.add("@Method"));
      if (targets.size() > 1) {
        if (own) {
          report.on(method, Diagnostic.BINDING_TARGETS, Display.method(method), String.join(" and ", targets));
        }
        continue;
      }
      if (constructor.isPresent() || typeMethod.isPresent()) {
        member.type().getParameterTypes().forEach(t -> mapper.noteDeprecated(t, deprecated));
        mapper.noteDeprecated(member.type().getReturnType(), deprecated);
        typeMember(member, constructor.orElse(typeMethod.orElse(null)), constructor.isPresent(), own, report)
            .ifPresent(methods::add);
        continue;
      }
      if (global.isEmpty()) {
        String unbound = own
            ? Display.signature(method)
            : Display.signature(method) + " (inherited from " + Display.type(member.declaringInterface()) + ")";
        Element target = own ? method : iface;
        report.on(target, Diagnostic.GLOBAL_UNBOUND, Display.type(iface), unbound);
        continue;
      }
      member.type().getParameterTypes().forEach(t -> mapper.noteDeprecated(t, deprecated));
      mapper.noteDeprecated(member.type().getReturnType(), deprecated);
      method(member, global.get(), own, bound, report).ifPresent(methods::add);
    }
    if (report.hasErrors()) {
      return Optional.empty();
    }
    return Optional.of(
        new BindingInterface(
            ModelNames.qualifiedName(iface),
            methods,
            interfaces.memberTypeNames(iface, null),
            deprecated));
  }

  /**
   * Validates one bound method. {@code own} is false for a method inherited from a super-interface: its name was
   * checked (and any problem reported) when that interface was validated. {@code bound} maps a global name and
   * signature to the method that first bound them in this interface.
   */
  private Optional<GlobalMethod> method(
      Interfaces.Member member, Annotations global, boolean own, Map<String, String> bound, Report report) {
    ExecutableElement method = member.method();
    if (global.string().isEmpty()) {
      report.invalid();
      return Optional.empty();
    }
    String globalName = global.string().get();
    String display = Display.method(method);
    if (!method.getTypeParameters().isEmpty()) {
      report.on(
          method,
          Diagnostic.GLOBAL_GENERIC,
          display,
          Display.typeParameters(method.getTypeParameters()));
    }
    Optional<NameGrammar.Problem> problem = NameGrammar.dotted(globalName);
    if (problem.isPresent()) {
      report.on(
          method,
          global.mirror(),
          global.value(),
          Diagnostic.GLOBAL_NAME,
          globalName,
          problem.get().reason(),
          problem.get().suggestion().map(NearNames::didYouMean).orElse(""));
    } else if (own) {
      String location = elements.getPackageOf(method).getQualifiedName().isEmpty()
          ? display
          : elements.getPackageOf(method).getQualifiedName() + "." + display;
      String key = globalName + " " + Interfaces.key(member.type());
      String first = bound.putIfAbsent(key, location);
      if (first != null) {
        report.on(
            method,
            global.mirror(),
            global.value(),
            Diagnostic.GLOBAL_DUPLICATE,
            globalName,
            Display.type((TypeElement) method.getEnclosingElement()),
            Display.signature(method),
            first);
      }
    }
    checks.checkThrows(method, member.type().getThrownTypes(), report);
    if (!method.getTypeParameters().isEmpty()) {
      return Optional.empty(); // its type variables would each be reported again as unsupported types
    }

    List<Parameter> parameters = new ArrayList<>();
    boolean complete = true;
    for (int i = 0; i < method.getParameters().size(); i++) {
      VariableElement parameter = method.getParameters().get(i);
      TypeMirror type = member.type().getParameterTypes().get(i);
      Optional<TypeModel> model =
          checks.signatureType(
              type, false, member.declaringInterface(), parameter, Display.parameter(method, parameter), report);
      if (model.isPresent()) {
        parameters.add(new Parameter(parameter.getSimpleName().toString(), model.get()));
      } else {
        complete = false;
      }
    }
    Optional<TypeModel> result =
        checks.signatureType(
            member.type().getReturnType(),
            true,
            member.declaringInterface(),
            method,
            "the result of " + display,
            report);
    if (!complete || result.isEmpty()) {
      return Optional.empty();
    }
    RouteSlots.check(method, parameters, false, result.get(), report);
    if (own && problem.isEmpty()) {
      // An inherited method was checked with its own interface.
      nativeChecks.global(method, global, globalName, parameters, result.get(), report);
    }
    return Optional.of(
        new GlobalMethod(
            method.getSimpleName().toString(),
            globalName,
            Display.type(member.declaringInterface()),
            parameters,
            result.get(),
            method.isVarArgs(),
            Deprecations.of(elements, method)));
  }

  /**
   * Reports {@code @Constructor} or {@code @Method} on a method packed4j does not implement: not abstract, or not in
   * an interface. (On an {@code @Object} interface's abstract methods they are checked with the interface.)
   */
  public void reportMisplacedMember(ExecutableElement method, Report report) {
    Element owner = method.getEnclosingElement();
    for (String name : List.of(AnnotationNames.CONSTRUCTOR, AnnotationNames.METHOD)) {
      Optional<Annotations> annotation = Annotations.find(method, name);
      if (annotation.isEmpty()) {
        continue;
      }
      String why;
      if (owner.getKind() != ElementKind.INTERFACE) {
        why = "it is declared in the " + Display.kind(owner) + " " + Display.type((TypeElement) owner);
      } else if (method.getModifiers().contains(Modifier.STATIC)) {
        why = "it is a static method";
      } else if (method.getModifiers().contains(Modifier.PRIVATE)) {
        why = "it is a private method";
      } else if (method.getModifiers().contains(Modifier.DEFAULT)) {
        why = "it is a default method";
      } else {
        continue;
      }
      report.on(method, annotation.get().mirror(), Diagnostic.BINDING_NOT_ABSTRACT,
          "@" + name.substring(name.lastIndexOf('.') + 1), Display.method(method), why);
    }
  }

  /**
   * Validates a method of a bound interface that calls a constructor ({@code @Constructor}) or a static method
   * ({@code @Method(of = ...)}) of a type.
   */
  private Optional<GlobalMethod> typeMember(
      Interfaces.Member member, Annotations annotation, boolean constructor, boolean own, Report report) {
    ExecutableElement method = member.method();
    String display = Display.method(method);
    TypeElement objectInterface;
    String memberName;
    if (constructor) {
      TypeMirror returned = member.type().getReturnType();
      objectInterface = returned.getKind() == TypeKind.DECLARED
          ? (TypeElement) ((DeclaredType) returned).asElement() : null;
      if (objectInterface == null || !Annotations.isPresent(objectInterface, AnnotationNames.OBJECT)) {
        if (own) {
          report.on(method, annotation.mirror(), Diagnostic.CONSTRUCTOR_RESULT, display, Display.type(returned));
        }
        return Optional.empty();
      }
      memberName = "__init__";
    } else {
      Optional<AnnotationValue> of = annotation.element("of");
      TypeMirror target = of.isPresent() && of.get().getValue() instanceof TypeMirror t ? t : null;
      if (target == null || target.getKind() == TypeKind.VOID) {
        if (own) {
          report.on(method, annotation.mirror(), Diagnostic.METHOD_OF_MISSING, display,
              Display.type((TypeElement) method.getEnclosingElement()));
        }
        return Optional.empty();
      }
      objectInterface = target.getKind() == TypeKind.DECLARED
          ? (TypeElement) ((DeclaredType) target).asElement() : null;
      if (objectInterface == null || !Annotations.isPresent(objectInterface, AnnotationNames.OBJECT)) {
        if (own) {
          String name = Display.type(target);
          report.on(method, annotation.mirror(), of.get(), Diagnostic.METHOD_OF_NOT_OBJECT, name + ".class",
              display, name, NearNames.didYouMean(objectInterface == null ? name
                  : objectInterface.getSimpleName().toString(), state.objectInterfaceNames()));
        }
        return Optional.empty();
      }
      Optional<String> renamed = ObjectValidator.memberName(method, annotation, report);
      if (renamed == null) {
        return Optional.empty();
      }
      memberName = renamed.orElse(method.getSimpleName().toString());
    }
    Optional<String> typeKey =
        Annotations.find(objectInterface, AnnotationNames.OBJECT).flatMap(Annotations::string);
    if (typeKey.isEmpty()) {
      report.invalid();
      return Optional.empty();
    }
    Optional<SignatureChecks.MemberSignature> signature = checks.memberSignature(member, report);
    if (signature.isEmpty()) {
      return Optional.empty();
    }
    List<Parameter> parameters = signature.get().parameters();
    Optional<TypeModel> result = Optional.of(signature.get().result());
    RouteSlots.check(method, parameters, false, result.get(), report);
    if (own) {
      nativeChecks.typeMember(method, constructor, typeKey.get(), memberName, parameters, result.get(), report);
    }
    return Optional.of(
        new GlobalMethod(
            method.getSimpleName().toString(),
            typeKey.get() + "." + memberName,
            Display.type(member.declaringInterface()),
            parameters,
            result.get(),
            method.isVarArgs(),
            Deprecations.of(elements, method),
            new GlobalMethod.Member(typeKey.get(), memberName, constructor)));
  }

  /**
   * Validates the {@code static} {@code @Global} methods of the class {@code type}: Java functions it exports under
   * those names. Returns its model if nothing is wrong.
   */
  public Optional<ExportClass> validateExports(TypeElement type, Report report) {
    List<GlobalMethod> functions = new ArrayList<>();
    Set<String> deprecated = new HashSet<>();
    Deprecations.noteType(elements, type, deprecated);
    TypeElement hidden = null;
    for (Element e = type; e instanceof TypeElement t; e = e.getEnclosingElement()) {
      if (t.getModifiers().contains(Modifier.PRIVATE)) {
        hidden = t;
      }
    }
    Map<String, String> exported = new HashMap<>(); // name to the method that exports it first
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      Optional<Annotations> global = Annotations.find(method, AnnotationNames.GLOBAL);
      if (global.isEmpty() || !method.getModifiers().contains(Modifier.STATIC)) {
        continue;
      }
      String display = Display.method(method);
      if (method.getModifiers().contains(Modifier.PRIVATE) || hidden != null) {
        String what = hidden != null ? "the class " + Display.type(hidden) : "the method";
        report.on(
            method, global.get().mirror(), Diagnostic.GLOBAL_EXPORT_PRIVATE, display, what, Display.type(type));
        continue;
      }
      if (global.get().string().isEmpty()) {
        report.invalid();
        continue;
      }
      String globalName = global.get().string().get();
      Optional<NameGrammar.Problem> problem = NameGrammar.dotted(globalName);
      if (problem.isPresent()) {
        report.on(
            method,
            global.get().mirror(),
            global.get().value(),
            Diagnostic.GLOBAL_NAME,
            globalName,
            problem.get().reason(),
            problem.get().suggestion().map(NearNames::didYouMean).orElse(""));
        continue;
      }
      String first = exported.putIfAbsent(globalName, display);
      if (first != null) {
        report.on(method, global.get().mirror(), global.get().value(), Diagnostic.GLOBAL_EXPORT_DUPLICATE, display,
            globalName, first);
        continue;
      }
      if (!method.getTypeParameters().isEmpty()) {
        report.on(
            method, Diagnostic.GLOBAL_GENERIC, display, Display.typeParameters(method.getTypeParameters()));
        continue;
      }
      // The registrar calls the method: a deprecated one warns there.
      Deprecations.note(Deprecations.of(elements, method), deprecated);
      List<Parameter> parameters = new ArrayList<>();
      boolean complete = true;
      for (VariableElement parameter : method.getParameters()) {
        mapper.noteDeprecated(parameter.asType(), deprecated);
        Optional<TypeModel> model =
            checks.signatureType(
                parameter.asType(), false, type, parameter, Display.parameter(method, parameter), report);
        if (model.isPresent()) {
          parameters.add(new Parameter(parameter.getSimpleName().toString(), model.get()));
        } else {
          complete = false;
        }
      }
      mapper.noteDeprecated(method.getReturnType(), deprecated);
      Optional<TypeModel> result =
          checks.signatureType(method.getReturnType(), true, type, method, "the result of " + display, report);
      if (complete && result.isPresent()) {
        functions.add(
            new GlobalMethod(
                method.getSimpleName().toString(),
                globalName,
                Display.type(type),
                parameters,
                result.get(),
                method.isVarArgs(),
                Deprecation.NONE));
      }
    }
    if (report.hasErrors() || functions.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ExportClass(ModelNames.qualifiedName(type), functions, deprecated));
  }

  /** The signature an exported function records, as set_body_typed records one. */
  public static String signatureOf(GlobalMethod function) {
    return TypeMapper.signatureOf(
        function.parameters().stream().map(Parameter::type).toList(), function.result());
  }

}
