package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.NearNames;
import dev.packed4j.processor.diagnostics.Report;
import dev.packed4j.processor.model.Getter;
import dev.packed4j.processor.model.ObjectInterface;
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
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
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
    boolean registered =
        validKey
            && nativeChecks.objectType(
                type,
                object,
                typeKey,
                parent,
                parent == null
                    ? null
                    : Annotations.find(parent, AnnotationNames.OBJECT).flatMap(Annotations::string).orElse(null),
                report);

    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      Annotations.find(method, AnnotationNames.GLOBAL)
          .ifPresent(
              global ->
                  report.on(
                      method, global.mirror(), Diagnostic.GLOBAL_IN_OBJECT, Display.method(method), name));
    }

    List<Getter> getters = new ArrayList<>();
    Set<String> deprecated = new HashSet<>();
    for (Interfaces.Member member : interfaces.abstractMethods(type)) {
      TypeElement declaring = member.declaringInterface();
      if (!Annotations.isPresent(declaring, AnnotationNames.OBJECT)) {
        // close() of AutoCloseable, which ObjectRef implements, or a method of a super-interface that
        // checkSuperInterfaces already rejected.
        continue;
      }
      if (Annotations.isPresent(member.method(), AnnotationNames.GLOBAL)) {
        // Reported above for this interface's own methods, and by their own interface for inherited ones.
        continue;
      }
      Optional<Getter> getter = getter(member, report);
      if (getter.isPresent() && registered && declaring.equals(type)) {
        // An inherited getter was checked with its own interface, against the type that declares the field.
        nativeChecks.getter(member.method(), getter.get(), typeKey, report);
      }
      if (getter.isPresent()) {
        getters.add(getter.get());
        mapper.noteDeprecated(member.type().getReturnType(), deprecated);
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
            interfaces.memberTypeNames(type, RuntimeNames.runtimeType(RuntimeNames.OBJECT_REF)),
            deprecated));
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
                    first.substring(first.lastIndexOf('.') + 1)));
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
    if (!method.getParameters().isEmpty()) {
      report.on(method, Diagnostic.OBJECT_GETTER_PARAMETERS, Display.method(method));
      valid = false;
    }
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
    String fieldName = fieldName(method, report);
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

  /** The native field name: the method name, or the {@code @Field} value; null if that value is malformed. */
  private static String fieldName(ExecutableElement method, Report report) {
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
    if (fieldName.equals(methodName)) {
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
