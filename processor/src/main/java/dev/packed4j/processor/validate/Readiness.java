package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.NearNames;
import dev.packed4j.processor.diagnostics.Report;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/**
 * Whether an interface can be validated in this round: every type its generated class depends on resolves. A
 * type another processor generates in a later round does not resolve yet; such interfaces wait (as auto-common's
 * {@code BasicAnnotationProcessor} defers them), and what is still missing after the last round is reported.
 */
public final class Readiness {

  /** The first thing that does not resolve, the element to report it on, and where it is used. */
  record Unresolved(Element element, String what, String where) {}

  private final Interfaces interfaces;
  private final CompilationState state;

  Readiness(Interfaces interfaces, CompilationState state) {
    this.interfaces = interfaces;
    this.state = state;
  }

  /** True if everything {@code iface}'s generated class depends on resolves. */
  public boolean isReady(TypeElement iface) {
    return firstUnresolved(iface).isEmpty();
  }

  /** Reports what still does not resolve after the last round. Does nothing if everything resolves now. */
  public void reportUnresolved(TypeElement iface, Report report) {
    firstUnresolved(iface)
        .ifPresent(
            unresolved -> {
              if (isAmbiguousObject(unresolved.what())) {
                report.on(unresolved.element(), Diagnostic.TYPE_AMBIGUOUS_OBJECT, unresolved.where());
                return;
              }
              report.on(
                  unresolved.element(),
                  Diagnostic.TYPE_UNRESOLVED,
                  unresolved.what(),
                  unresolved.where(),
                  Display.type(iface),
                  NearNames.didYouMean(simpleName(unresolved.what()), state.typeNames()));
            });
  }

  /**
   * Whether an unresolved type is a plain {@code Object}: java.lang.Object always resolves, unless an on-demand import
   * of a package with a type {@code Object} (packed4j's annotations) makes the simple name ambiguous, which no later
   * round resolves.
   */
  static boolean isAmbiguousObject(String unresolvedName) {
    return unresolvedName.equals("Object");
  }

  Optional<Unresolved> firstUnresolved(TypeElement iface) {
    Optional<Annotations> object = Annotations.find(iface, AnnotationNames.OBJECT);
    if (object.isPresent() && object.get().value() != null && object.get().string().isEmpty()) {
      return Optional.of(new Unresolved(iface, "the value of @Object", Display.type(iface)));
    }
    for (TypeMirror superInterface : iface.getInterfaces()) {
      Optional<TypeMirror> error = firstError(superInterface);
      if (error.isPresent()) {
        return Optional.of(
            new Unresolved(iface, Display.unresolved(error.get()), "the super-interfaces of " + Display.type(iface)));
      }
    }
    for (Interfaces.Member member : interfaces.abstractMethods(iface)) {
      ExecutableElement method = member.method();
      for (String annotation : List.of(AnnotationNames.GLOBAL, AnnotationNames.FIELD)) {
        Optional<Annotations> found = Annotations.find(method, annotation);
        if (found.isPresent() && found.get().value() != null && found.get().string().isEmpty()) {
          String simple = annotation.substring(annotation.lastIndexOf('.') + 1);
          return Optional.of(
              new Unresolved(method, "the value of @" + simple, Display.method(method)));
        }
      }
      for (int i = 0; i < method.getParameters().size(); i++) {
        Optional<TypeMirror> error = firstError(member.type().getParameterTypes().get(i));
        if (error.isPresent()) {
          return Optional.of(
              new Unresolved(
                  method.getParameters().get(i),
                  Display.unresolved(error.get()),
                  Display.parameter(method, method.getParameters().get(i))));
        }
      }
      Optional<TypeMirror> error = firstError(member.type().getReturnType());
      if (error.isEmpty()) {
        error = member.type().getThrownTypes().stream().flatMap(t -> firstError(t).stream()).findFirst();
      }
      if (error.isPresent()) {
        return Optional.of(new Unresolved(method, Display.unresolved(error.get()), Display.method(method)));
      }
    }
    return Optional.empty();
  }

  /** The first part of {@code type} that does not resolve: the type itself, a type argument, a bound. */
  static Optional<TypeMirror> firstError(TypeMirror type) {
    if (type == null) {
      return Optional.empty();
    }
    if (type.getKind() == TypeKind.ERROR) {
      // ECJ marks List<Missing> erroneous as a whole, javac only Missing: report the innermost part either way.
      Optional<TypeMirror> argument =
          type instanceof DeclaredType declared
              ? declared.getTypeArguments().stream().flatMap(t -> firstError(t).stream()).findFirst()
              : Optional.empty();
      return argument.isPresent() ? argument : Optional.of(type);
    }
    return switch (type.getKind()) {
      case DECLARED ->
          ((DeclaredType) type).getTypeArguments().stream().flatMap(t -> firstError(t).stream()).findFirst();
      case ARRAY -> firstError(((ArrayType) type).getComponentType());
      case WILDCARD -> {
        WildcardType wildcard = (WildcardType) type;
        Optional<TypeMirror> upper = firstError(wildcard.getExtendsBound());
        yield upper.isPresent() ? upper : firstError(wildcard.getSuperBound());
      }
      default -> Optional.empty();
    };
  }

  private static String simpleName(String typeName) {
    String name = typeName.contains("<") ? typeName.substring(0, typeName.indexOf('<')) : typeName;
    return name.substring(name.lastIndexOf('.') + 1);
  }
}
