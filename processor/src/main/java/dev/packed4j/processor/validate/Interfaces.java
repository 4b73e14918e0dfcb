package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.Report;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/** What the generated class of an interface must implement, and whether it can implement the interface at all. */
final class Interfaces {

  /**
   * An abstract method the generated class implements.
   *
   * @param method the declaration
   * @param type its signature as a member of the interface being generated (type arguments substituted)
   * @param declaringInterface where it is declared: the interface itself or a super-interface
   */
  record Member(ExecutableElement method, ExecutableType type, TypeElement declaringInterface) {}

  private final Elements elements;
  private final Types types;

  Interfaces(Elements elements, Types types) {
    this.elements = elements;
    this.types = types;
  }

  /**
   * The abstract methods of {@code iface}, declared or inherited, without those another inherited method overrides
   * (a default method, or a more specific redeclaration) and without the public methods of {@code Object}, which
   * every class implements.
   */
  List<Member> abstractMethods(TypeElement iface) {
    List<TypeElement> hierarchy = hierarchy(iface);
    List<ExecutableElement> candidates = new ArrayList<>();
    for (TypeElement type : hierarchy) {
      for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
        Set<Modifier> modifiers = method.getModifiers();
        if (!modifiers.contains(Modifier.STATIC) && !modifiers.contains(Modifier.PRIVATE)) {
          candidates.add(method);
        }
      }
    }
    DeclaredType ifaceType = (DeclaredType) iface.asType();
    List<Member> members = new ArrayList<>();
    Set<String> signatures = new HashSet<>();
    for (ExecutableElement method : candidates) {
      if (!method.getModifiers().contains(Modifier.ABSTRACT)
          || isObjectMethod(method)
          || isOverridden(method, candidates)) {
        continue;
      }
      ExecutableType type = (ExecutableType) types.asMemberOf(ifaceType, method);
      if (signatures.add(erasedSignature(method, type))) {
        members.add(new Member(method, type, (TypeElement) method.getEnclosingElement()));
      }
    }
    return members;
  }

  /** The interface and all its super-interfaces, the interface first, each once. */
  List<TypeElement> hierarchy(TypeElement iface) {
    Set<TypeElement> seen = new LinkedHashSet<>();
    Deque<TypeElement> pending = new ArrayDeque<>();
    pending.add(iface);
    while (!pending.isEmpty()) {
      TypeElement type = pending.removeFirst();
      if (!seen.add(type)) {
        continue;
      }
      for (TypeMirror superInterface : type.getInterfaces()) {
        if (superInterface.getKind() == TypeKind.DECLARED) {
          pending.add((TypeElement) ((DeclaredType) superInterface).asElement());
        }
      }
    }
    return List.copyOf(seen);
  }

  /**
   * Simple names of the member types declared in the interface, its super-interfaces and {@code extraSupertype}
   * (the generated class's superclass): inside the generated class these names shadow imports.
   */
  Set<String> memberTypeNames(TypeElement iface, String extraSupertype) {
    Set<String> names = new HashSet<>();
    List<TypeElement> types = new ArrayList<>(hierarchy(iface));
    if (extraSupertype != null) {
      for (TypeElement type = elements.getTypeElement(extraSupertype); type != null; type = superclass(type)) {
        types.add(type);
      }
    }
    for (TypeElement type : types) {
      for (TypeElement member : ElementFilter.typesIn(type.getEnclosedElements())) {
        names.add(member.getSimpleName().toString());
      }
    }
    return names;
  }

  private TypeElement superclass(TypeElement type) {
    TypeMirror superclass = type.getSuperclass();
    return superclass.getKind() == TypeKind.DECLARED
        ? (TypeElement) ((DeclaredType) superclass).asElement()
        : null;
  }

  /**
   * Reports what keeps a class generated in the same package from implementing the interface: it is private (or
   * nested in a private type), generic or sealed. {@code annotation} is the annotation to point at, or null.
   */
  void checkImplementable(TypeElement iface, AnnotationMirror annotation, Report report) {
    String generated = ModelNames.qualifiedName(iface).generatedClass().simpleName();
    String name = Display.type(iface);
    // Local types need no check: javac shows processors no element declared inside a method body.
    for (Element e = iface; e instanceof TypeElement type; e = e.getEnclosingElement()) {
      if (type.getModifiers().contains(Modifier.PRIVATE)) {
        String why = type.equals(iface) ? "private" : "nested in the private type " + Display.type(type);
        on(report, iface, annotation, Diagnostic.INTERFACE_PRIVATE, name, why, generated);
        break;
      }
    }
    if (!iface.getTypeParameters().isEmpty()) {
      on(
          report,
          iface,
          annotation,
          Diagnostic.INTERFACE_GENERIC,
          name,
          Display.typeParameters(iface.getTypeParameters()));
    }
    if (iface.getModifiers().contains(Modifier.SEALED)) {
      on(report, iface, annotation, Diagnostic.INTERFACE_SEALED, name, generated);
    }
  }

  /**
   * Reports each of {@code annotations} (qualified names) on an abstract method of {@code iface} that redeclares
   * {@code toString()}, {@code hashCode()} or {@code equals(Object)}: {@link #abstractMethods} leaves those out, since
   * the generated class inherits them from {@code Object}, so the annotation would do nothing.
   */
  static void checkObjectMethods(TypeElement iface, List<String> annotations, Report report) {
    for (ExecutableElement method : ElementFilter.methodsIn(iface.getEnclosedElements())) {
      if (!isObjectMethod(method) || !method.getModifiers().contains(Modifier.ABSTRACT)) {
        continue;
      }
      for (String name : annotations) {
        Annotations.find(method, name).ifPresent(annotation -> report.on(method, annotation.mirror(),
            Diagnostic.BINDING_OBJECT_METHOD, "@" + name.substring(name.lastIndexOf('.') + 1),
            Display.method(method), Display.signature(method)));
      }
    }
  }

  /** {@code toString()}, {@code hashCode()}, {@code equals(Object)}: every class implements them. */
  static boolean isObjectMethod(ExecutableElement method) {
    String name = method.getSimpleName().toString();
    List<? extends VariableElement> parameters = method.getParameters();
    return switch (name) {
      case "toString", "hashCode" -> parameters.isEmpty();
      case "equals" -> parameters.size() == 1 && key(parameters.get(0).asType()).equals("java.lang.Object");
      default -> false;
    };
  }

  /** Whether a method of a more specific interface in the hierarchy overrides {@code method}. */
  private boolean isOverridden(ExecutableElement method, List<ExecutableElement> candidates) {
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    for (ExecutableElement other : candidates) {
      if (other.equals(method) || !other.getSimpleName().contentEquals(method.getSimpleName())) {
        continue;
      }
      TypeElement otherDeclaring = (TypeElement) other.getEnclosingElement();
      if (!otherDeclaring.equals(declaring)
          && types.isSubtype(types.erasure(otherDeclaring.asType()), types.erasure(declaring.asType()))
          && elements.overrides(other, method, otherDeclaring)) {
        return true;
      }
    }
    return false;
  }

  private String erasedSignature(ExecutableElement method, ExecutableType type) {
    StringBuilder signature = new StringBuilder(method.getSimpleName()).append('(');
    for (TypeMirror parameter : type.getParameterTypes()) {
      signature.append(key(types.erasure(parameter))).append(',');
    }
    return signature.append(')').toString();
  }

  /**
   * A type spelled with qualified names and its type arguments, built from the model rather than from
   * {@code toString()}, whose text the processing API leaves to each compiler (javac prints a method type as
   * {@code (long,long)long}, ECJ as {@code long}): two types equal in the model get the same key under any compiler.
   */
  static String key(TypeMirror type) {
    return switch (type.getKind()) {
      case DECLARED, ERROR -> {
        DeclaredType declared = (DeclaredType) type;
        String name =
            declared.asElement() instanceof TypeElement element
                ? element.getQualifiedName().toString()
                : declared.asElement().getSimpleName().toString();
        yield declared.getTypeArguments().isEmpty()
            ? name
            : name
                + declared.getTypeArguments().stream()
                    .map(Interfaces::key)
                    .collect(Collectors.joining(",", "<", ">"));
      }
      case ARRAY -> key(((ArrayType) type).getComponentType()) + "[]";
      case WILDCARD -> {
        WildcardType wildcard = (WildcardType) type;
        yield wildcard.getExtendsBound() != null
            ? "? extends " + key(wildcard.getExtendsBound())
            : wildcard.getSuperBound() != null ? "? super " + key(wildcard.getSuperBound()) : "?";
      }
      case TYPEVAR -> ((TypeVariable) type).asElement().getSimpleName().toString();
      case EXECUTABLE -> {
        ExecutableType executable = (ExecutableType) type;
        yield executable.getParameterTypes().stream()
                .map(Interfaces::key)
                .collect(Collectors.joining(",", "(", ")"))
            + key(executable.getReturnType());
      }
      default -> type.getKind().name().toLowerCase(Locale.ROOT);
    };
  }

  private static void on(
      Report report, Element element, AnnotationMirror annotation, Diagnostic diagnostic, Object... arguments) {
    if (annotation == null) {
      report.on(element, diagnostic, arguments);
    } else {
      report.on(element, annotation, diagnostic, arguments);
    }
  }
}
