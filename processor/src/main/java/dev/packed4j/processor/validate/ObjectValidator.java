package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.NearNames;
import dev.packed4j.processor.diagnostics.Report;
import dev.packed4j.processor.model.Getter;
import dev.packed4j.processor.model.ObjectInterface;
import dev.packed4j.processor.model.ObjectMethod;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.Setter;
import dev.packed4j.processor.model.RuntimeNames;
import dev.packed4j.processor.model.TypeModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
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
import javax.lang.model.util.Types;

/** Validates an {@code @Object} type and builds its {@link ObjectInterface}. */
public final class ObjectValidator {
  /** Super-interfaces whose only method, {@code close()}, ObjectRef implements. */
  private static final Set<String> CLOSEABLES = Set.of("java.lang.AutoCloseable", "java.io.Closeable");

  private final Elements elements;
  private final Types types;
  private final Interfaces interfaces;
  private final SignatureChecks checks;
  private final TypeMapper mapper;
  private final CompilationState state;
  private final NativeChecks nativeChecks;

  ObjectValidator(
      Elements elements,
      Types types,
      Interfaces interfaces,
      SignatureChecks checks,
      TypeMapper mapper,
      CompilationState state,
      NativeChecks nativeChecks) {
    this.nativeChecks = nativeChecks;
    this.elements = elements;
    this.types = types;
    this.interfaces = interfaces;
    this.checks = checks;
    this.mapper = mapper;
    this.state = state;
  }

  /** Validates {@code type}, which carries {@code @Object}; returns its model if nothing is wrong. */
  public Optional<ObjectInterface> validate(TypeElement type, Report report) {
    Annotations object = Annotations.find(type, AnnotationNames.OBJECT).orElseThrow();
    String name = Display.type(type);
    if (type.getKind() != ElementKind.INTERFACE) {
      report.on(type, object.mirror(), Diagnostic.OBJECT_NOT_INTERFACE, Display.kind(type), name, name);
      return Optional.empty();
    }
    interfaces.checkImplementable(type, object.mirror(), report);
    if (object.string().isEmpty()) {
      report.invalid();
      return Optional.empty();
    }
    String typeKey = object.string().get();
    boolean validKey = checkTypeKey(type, object, typeKey, report);
    TypeElement parent = checkSuperInterfaces(type, report);
    String parentKey = parent == null ? null : objectKey(parent);
    boolean registered = validKey && nativeChecks.objectType(type, object, typeKey, parent, parentKey, report);
    if (registered) {
      nativeChecks.parentView(type, typeKey, parent, parentKey, state.objectViews(), elements, report);
    }

    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      Annotations.find(method, AnnotationNames.GLOBAL)
          .ifPresent(
              global ->
                  report.on(
                      method, global.mirror(), Diagnostic.GLOBAL_IN_OBJECT, Display.method(method), name));
    }

    // @Global is reported above, as on any method of an @Object interface.
    Interfaces.checkObjectMethods(
        type, List.of(AnnotationNames.CONSTRUCTOR, AnnotationNames.METHOD, AnnotationNames.FIELD), report);

    List<Getter> getters = new ArrayList<>();
    List<Setter> setters = new ArrayList<>();
    List<ObjectMethod> methods = new ArrayList<>();
    Set<String> deprecated = new HashSet<>();
    List<Interfaces.Member> members = new ArrayList<>();
    for (Interfaces.Member member : interfaces.abstractMethods(type)) {
      if (!Annotations.isPresent(member.declaringInterface(), AnnotationNames.OBJECT)) {
        // close() of AutoCloseable, which ObjectRef implements, or a method of a super-interface that
        // checkSuperInterfaces already rejected.
        continue;
      }
      if (Annotations.isPresent(member.method(), AnnotationNames.GLOBAL)) {
        // Reported above for this interface's own methods, and by their own interface for inherited ones.
        continue;
      }
      members.add(member);
    }
    // The getters' Java names: a one-parameter void method of the same name is the setter of that getter's field.
    Map<String, Interfaces.Member> getterNames = new HashMap<>();
    for (Interfaces.Member member : members) {
      if (shape(member, Map.of()) == Shape.GETTER) {
        getterNames.putIfAbsent(member.method().getSimpleName().toString(), member);
      }
    }
    for (Interfaces.Member member : members) {
      TypeElement declaring = member.declaringInterface();
      // An inherited member was checked with its own interface, against the type that declares it.
      boolean check = registered && declaring.equals(type);
      ExecutableElement method = member.method();
      Optional<Annotations> constructor = Annotations.find(method, AnnotationNames.CONSTRUCTOR);
      if (constructor.isPresent()) {
        if (declaring.equals(type)) {
          String declaringName = Display.type(declaring);
          report.on(method, constructor.get().mirror(), Diagnostic.CONSTRUCTOR_IN_OBJECT, Display.method(method),
              declaringName, declaringName);
        } else {
          report.invalid(); // reported with the interface that declares it; nothing implements it here either
        }
        continue;
      }
      switch (shape(member, getterNames)) {
        case GETTER -> {
          Optional<Getter> getter = getter(member, report);
          if (getter.isPresent() && check) {
            nativeChecks.getter(member.method(), getter.get(), typeKey, report);
          }
          if (getter.isPresent()) {
            getters.add(getter.get());
            mapper.noteDeprecated(member.type().getReturnType(), deprecated);
          }
        }
        case SETTER -> {
          Optional<Setter> setter = setter(member, getterNames, report);
          if (setter.isPresent() && check) {
            nativeChecks.setter(method, setter.get(), typeKey, report);
          }
          if (setter.isPresent()) {
            setters.add(setter.get());
            mapper.noteDeprecated(member.type().getParameterTypes().get(0), deprecated);
          }
        }
        case METHOD -> {
          Optional<ObjectMethod> objectMethod = method(member, name, report);
          if (objectMethod.isPresent() && check) {
            nativeChecks.objectMethod(method, objectMethod.get(), typeKey, report);
          } else if (objectMethod.isPresent() && registered && !declaring.equals(type)) {
            nativeChecks.inheritedMethod(type, method, objectMethod.get(), typeKey, objectKey(declaring), report);
          }
          if (objectMethod.isPresent()) {
            methods.add(objectMethod.get());
            member.type().getParameterTypes().forEach(t -> mapper.noteDeprecated(t, deprecated));
            mapper.noteDeprecated(member.type().getReturnType(), deprecated);
          }
        }
      }
    }
    if (report.hasErrors()) {
      return Optional.empty();
    }
    // The generated class names the interface (and so the types enclosing it); its super-interfaces only through
    // it, which warns about nothing.
    Deprecations.noteType(elements, type, deprecated);
    return Optional.of(
        new ObjectInterface(
            ModelNames.qualifiedName(type),
            typeKey,
            getters,
            setters,
            methods,
            interfaces.memberTypeNames(type, RuntimeNames.runtimeType(RuntimeNames.OBJECT_REF)),
            deprecated));
  }

  /** The type key of an {@code @Object} interface, or null when its annotation has none. */
  private static String objectKey(TypeElement type) {
    return Annotations.find(type, AnnotationNames.OBJECT).flatMap(Annotations::string).orElse(null);
  }

  /** Reports a malformed or duplicate type key; returns whether the key is well formed. */
  private boolean checkTypeKey(TypeElement type, Annotations object, String typeKey, Report report) {
    Optional<NameGrammar.Problem> problem = NameGrammar.dotted(typeKey);
    if (problem.isPresent()) {
      report.on(
          type,
          object.mirror(),
          object.value(),
          Diagnostic.OBJECT_TYPE_KEY,
          typeKey,
          problem.get().reason(),
          problem.get().suggestion().map(NearNames::didYouMean).orElse(""));
      return false;
    }
    String qualified = type.getQualifiedName().toString();
    state
        .declareTypeKey(typeKey, qualified)
        .ifPresent(
            first ->
                report.on(
                    type,
                    object.mirror(),
                    object.value(),
                    Diagnostic.OBJECT_DUPLICATE_KEY,
                    typeKey,
                    qualified,
                    first,
                    first.substring(first.lastIndexOf('.') + 1),
                    typeKey,
                    typeKey,
                    typeKey));
    return true;
  }

  /** Reports super-interfaces an @Object interface cannot have; returns its one @Object parent, if any. */
  private TypeElement checkSuperInterfaces(TypeElement type, Report report) {
    List<TypeElement> parents = new ArrayList<>();
    for (TypeMirror superInterface : type.getInterfaces()) {
      if (superInterface.getKind() != TypeKind.DECLARED) {
        continue;
      }
      TypeElement element = (TypeElement) ((DeclaredType) superInterface).asElement();
      if (Annotations.isPresent(element, AnnotationNames.OBJECT)) {
        parents.add(element);
      } else if (!CLOSEABLES.contains(element.getQualifiedName().toString())) {
        report.on(type, Diagnostic.OBJECT_SUPERTYPE, Display.type(type), Display.type(superInterface));
      }
    }
    if (parents.size() > 1) {
      report.on(
          type,
          Diagnostic.OBJECT_PARENTS,
          Display.type(type),
          parents.stream().map(Display::type).collect(Collectors.joining(" and ")));
    }
    return parents.size() == 1 ? parents.get(0) : null;
  }

  /** What an abstract method of an @Object interface is, by the rule {@code @Object}'s Javadoc states. */
  private enum Shape {
    GETTER,
    SETTER,
    METHOD
  }

  private static Shape shape(Interfaces.Member member, Map<String, Interfaces.Member> getterNames) {
    ExecutableElement method = member.method();
    if (Annotations.isPresent(method, AnnotationNames.METHOD)) {
      return Shape.METHOD;
    }
    int parameters = method.getParameters().size();
    if (parameters == 0) {
      return Shape.GETTER;
    }
    if (parameters == 1 && member.type().getReturnType().getKind() == TypeKind.VOID
        && (Annotations.isPresent(method, AnnotationNames.FIELD)
            || getterNames.containsKey(method.getSimpleName().toString()))) {
      return Shape.SETTER;
    }
    return Shape.METHOD;
  }

  /** A one-parameter void method named like a getter or marked {@code @Field}: the setter of that field. */
  private Optional<Setter> setter(
      Interfaces.Member member, Map<String, Interfaces.Member> getterNames, Report report) {
    ExecutableElement method = member.method();
    String methodName = method.getSimpleName().toString();
    Optional<Annotations> field = Annotations.find(method, AnnotationNames.FIELD);
    Interfaces.Member getter = getterNames.get(methodName);
    checks.checkThrows(method, member.type().getThrownTypes(), report);
    if (!method.getTypeParameters().isEmpty()) {
      report.on(method, Diagnostic.OBJECT_NOT_GETTER, Display.method(method),
          "it declares the type parameters " + Display.typeParameters(method.getTypeParameters()));
      return Optional.empty();
    }
    String fieldName;
    if (field.isPresent()) {
      // The annotation is redundant only where leaving it out changes nothing: beside a getter of the method's
      // name that reads the field of that name. Without a getter it is what makes the method a setter; beside one
      // renamed by @Field, it keeps the setter on the method's own field.
      String implied = getter == null ? null : getterFieldName(getter, methodName);
      fieldName = fieldName(method, implied, report);
    } else {
      fieldName = getterFieldName(getter, methodName);
    }
    VariableElement parameter = method.getParameters().get(0);
    TypeMirror parameterType = member.type().getParameterTypes().get(0);
    Optional<TypeModel> type = checks.setterType(parameterType, method, parameter, report);
    if (type.isEmpty() || fieldName == null) {
      return Optional.empty();
    }
    // The types themselves, not their erasures: List<String> and List<Long> are two field types.
    if (getter != null && !types.isSameType(getter.type().getReturnType(), parameterType)
        && !(isNumber(getter.type().getReturnType()) && isNumber(parameterType))) {
      report.on(parameter, Diagnostic.SETTER_GETTER_TYPE, Display.method(method), Display.type(parameterType),
          Display.method(getter.method()), Display.type(getter.type().getReturnType()),
          Display.type(getter.type().getReturnType()));
      return Optional.empty();
    }
    return Optional.of(new Setter(methodName, parameter.getSimpleName().toString(), fieldName, type.get(),
        Deprecations.of(elements, method)));
  }

  private static boolean isNumber(TypeMirror type) {
    return type.getKind() == TypeKind.INT || type.getKind() == TypeKind.LONG;
  }

  /** A method of the type, called with the object first: its name, parameters and result. */
  private Optional<ObjectMethod> method(Interfaces.Member member, String interfaceName, Report report) {
    ExecutableElement method = member.method();
    String display = Display.method(method);
    Optional<Annotations> annotation = Annotations.find(method, AnnotationNames.METHOD);
    Optional<Annotations> field = Annotations.find(method, AnnotationNames.FIELD);
    if (annotation.isPresent() && field.isPresent()) {
      report.on(method, field.get().mirror(), Diagnostic.METHOD_AND_FIELD, display);
      return Optional.empty();
    }
    if (field.isPresent()) {
      report.on(method, field.get().mirror(), Diagnostic.OBJECT_GETTER_PARAMETERS, display);
      return Optional.empty();
    }
    String nativeName = method.getSimpleName().toString();
    if (annotation.isPresent()) {
      Optional<AnnotationValue> of = annotation.get().element("of");
      if (of.isPresent() && of.get().getValue() instanceof TypeMirror target && target.getKind() != TypeKind.VOID) {
        report.on(method, annotation.get().mirror(), of.get(), Diagnostic.METHOD_OF_IN_OBJECT,
            Display.type(target) + ".class", display, interfaceName);
        return Optional.empty();
      }
      Optional<String> renamed = memberName(method, annotation.get(), report);
      if (renamed == null) {
        return Optional.empty();
      }
      nativeName = renamed.orElse(nativeName);
    }
    Optional<SignatureChecks.MemberSignature> signature = checks.memberSignature(member, report);
    if (signature.isEmpty()) {
      return Optional.empty();
    }
    List<Parameter> parameters = signature.get().parameters();
    Optional<TypeModel> result = Optional.of(signature.get().result());
    RouteSlots.check(method, parameters, true, result.get(), report);
    return Optional.of(new ObjectMethod(method.getSimpleName().toString(), nativeName,
        Display.type(member.declaringInterface()), parameters, result.get(), method.isVarArgs(),
        Deprecations.of(elements, method)));
  }

  /**
   * The native name a {@code @Method} gives: empty for the Java name (no value, or ""), the value when it is a valid
   * name; null (reported) when it is malformed or does not resolve.
   */
  static Optional<String> memberName(ExecutableElement method, Annotations annotation, Report report) {
    if (annotation.value() == null) {
      return Optional.empty();
    }
    if (annotation.string().isEmpty()) {
      report.invalid();
      return null;
    }
    String name = annotation.string().get();
    if (name.isEmpty()) {
      return Optional.empty();
    }
    Optional<NameGrammar.Problem> problem = NameGrammar.identifier(name);
    if (problem.isPresent()) {
      report.on(method, annotation.mirror(), annotation.value(), Diagnostic.METHOD_NAME, name,
          problem.get().reason(), problem.get().suggestion().map(NearNames::didYouMean).orElse(""));
      return null;
    }
    return Optional.of(name);
  }

  private Optional<Getter> getter(Interfaces.Member member, Report report) {
    ExecutableElement method = member.method();
    String methodName = method.getSimpleName().toString();
    TypeMirror returnType = member.type().getReturnType();
    Optional<String> reserved = reserved(methodName, method, returnType);
    if (reserved.isPresent()) {
      if (!reserved.get().isEmpty()) {
        report.on(
            method,
            Diagnostic.OBJECT_RESERVED,
            Display.signature(method) + " returning " + Display.type(returnType),
            reserved.get(),
            methodName);
      }
      return Optional.empty();
    }
    boolean valid = true;
    if (!method.getTypeParameters().isEmpty()) {
      report.on(
          method,
          Diagnostic.OBJECT_NOT_GETTER,
          Display.method(method),
          "it declares the type parameters " + Display.typeParameters(method.getTypeParameters()));
      valid = false;
    } else if (returnType.getKind() == TypeKind.VOID) {
      report.on(method, Diagnostic.OBJECT_NOT_GETTER, Display.method(method), "it returns void");
      valid = false;
    }
    checks.checkThrows(method, member.type().getThrownTypes(), report);
    String fieldName = fieldName(method, methodName, report);
    if (!valid) {
      return Optional.empty();
    }
    Optional<TypeModel> type = checks.fieldType(returnType, method, report);
    if (type.isEmpty() || fieldName == null) {
      return Optional.empty();
    }
    return Optional.of(new Getter(methodName, fieldName, type.get(), Deprecations.of(elements, method)));
  }

  /**
   * Whether the method is one ObjectRef provides: empty if not; an empty string if ObjectRef implements it as
   * declared; otherwise the provided signature it clashes with.
   */
  private Optional<String> reserved(String name, ExecutableElement method, TypeMirror returnType) {
    if (!method.getParameters().isEmpty()) {
      return Optional.empty();
    }
    TypeMirror provided = providedByObjectRef().get(name);
    if (provided == null) {
      return Optional.empty();
    }
    return Optional.of(types.isSameType(provided, returnType) ? "" : Display.type(provided) + " " + name + "()");
  }

  /**
   * The public methods without parameters that ObjectRef (and so every generated object class) provides, by name,
   * with their return types. Read from the runtime on the class path, which generated code needs anyway; without
   * it, the ones the runtime contract names.
   */
  private Map<String, TypeMirror> providedByObjectRef() {
    Map<String, TypeMirror> provided = new HashMap<>();
    TypeElement objectRef = elements.getTypeElement(RuntimeNames.runtimeType(RuntimeNames.OBJECT_REF));
    if (objectRef == null) {
      provided.put("close", types.getNoType(TypeKind.VOID));
      provided.put("handle", types.getPrimitiveType(TypeKind.LONG));
      provided.put("isClosed", types.getPrimitiveType(TypeKind.BOOLEAN));
      provided.put("typeKey", elements.getTypeElement("java.lang.String").asType());
      return provided;
    }
    for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(objectRef))) {
      Set<Modifier> modifiers = method.getModifiers();
      if (modifiers.contains(Modifier.PUBLIC)
          && !modifiers.contains(Modifier.STATIC)
          && method.getParameters().isEmpty()
          && !Interfaces.isObjectMethod(method)) {
        provided.putIfAbsent(method.getSimpleName().toString(), method.getReturnType());
      }
    }
    return provided;
  }

  /** The field a getter reads: its {@code @Field} value, else its name. */
  private static String getterFieldName(Interfaces.Member getter, String methodName) {
    return Annotations.find(getter.method(), AnnotationNames.FIELD).flatMap(Annotations::string).orElse(methodName);
  }

  /**
   * The native field name: the method name, or the {@code @Field} value; null if that value is malformed.
   *
   * @param implied the field the method would name without {@code @Field} (null when without it the method would be
   *     no getter or setter at all): an annotation naming it is redundant when that is also the method's name
   */
  private static String fieldName(ExecutableElement method, String implied, Report report) {
    String methodName = method.getSimpleName().toString();
    Optional<Annotations> field = Annotations.find(method, AnnotationNames.FIELD);
    if (field.isEmpty()) {
      return methodName;
    }
    if (field.get().string().isEmpty()) {
      report.invalid();
      return null;
    }
    String fieldName = field.get().string().get();
    Optional<NameGrammar.Problem> problem = NameGrammar.identifier(fieldName);
    if (problem.isPresent()) {
      report.on(
          method,
          field.get().mirror(),
          field.get().value(),
          Diagnostic.FIELD_NAME,
          fieldName,
          problem.get().reason(),
          problem.get().suggestion().map(NearNames::didYouMean).orElse(""));
      return null;
    }
    if (fieldName.equals(methodName) && methodName.equals(implied)) {
      report.on(
          method,
          field.get().mirror(),
          field.get().value(),
          Diagnostic.FIELD_REDUNDANT,
          fieldName,
          Display.method(method));
    }
    return fieldName;
  }
}
