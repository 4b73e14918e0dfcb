package dev.packed4j.processor.validate;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/** Spells types and elements the way a user wrote them, with simple names, for messages. */
final class Display {
  private Display() {}

  /** {@code Map<String,List<Long>>}, {@code byte[]}, {@code Outer.Inner}, {@code ? extends Long}. */
  static String type(TypeMirror type) {
    switch (type.getKind()) {
      case DECLARED -> {
        DeclaredType declared = (DeclaredType) type;
        String name = type((TypeElement) declared.asElement());
        if (declared.getTypeArguments().isEmpty()) {
          return name;
        }
        return declared.getTypeArguments().stream()
            .map(Display::type)
            .collect(Collectors.joining(",", name + "<", ">"));
      }
      case ARRAY -> {
        return type(((ArrayType) type).getComponentType()) + "[]";
      }
      case WILDCARD -> {
        WildcardType wildcard = (WildcardType) type;
        if (wildcard.getExtendsBound() != null) {
          return "? extends " + type(wildcard.getExtendsBound());
        }
        if (wildcard.getSuperBound() != null) {
          return "? super " + type(wildcard.getSuperBound());
        }
        return "?";
      }
      default -> {
        // Primitives, void, type variables, and unresolved types as written.
        return type.toString();
      }
    }
  }

  /**
   * A type that does not resolve, as written (the processing API has no other spelling for it), without type
   * arguments: ECJ prints {@code List<Missing>} erroneous as a whole where javac names only {@code Missing}.
   */
  static String unresolved(TypeMirror type) {
    String text = type.toString();
    return text.contains("<") ? text.substring(0, text.indexOf('<')) : text;
  }

  /** A type by its simple names from the outermost type in: {@code Outer.Inner}. */
  static String type(TypeElement type) {
    List<String> names = new ArrayList<>();
    for (Element e = type; e instanceof TypeElement t; e = e.getEnclosingElement()) {
      names.add(0, t.getSimpleName().toString());
    }
    return String.join(".", names);
  }

  /** {@code Calculator.sum(List<Long>)}. */
  static String method(ExecutableElement method) {
    return type((TypeElement) method.getEnclosingElement()) + "." + signature(method);
  }

  /** {@code sum(List<Long>)}. */
  static String signature(ExecutableElement method) {
    return method.getParameters().stream()
        .map(p -> type(p.asType()))
        .collect(Collectors.joining(",", method.getSimpleName() + "(", ")"));
  }

  /**
   * {@code parameter values of Calculator.sum(List<Long>)}. The method is given: ECJ may answer null for a
   * parameter's enclosing element (of an interface looked up again in a later round).
   */
  static String parameter(ExecutableElement method, VariableElement parameter) {
    return "parameter " + parameter.getSimpleName() + " of " + method(method);
  }

  /** {@code <T, U>}. */
  static String typeParameters(List<? extends TypeParameterElement> parameters) {
    return parameters.stream().map(p -> p.getSimpleName().toString()).collect(Collectors.joining(", ", "<", ">"));
  }

  /** {@code "an Account"} or {@code "a Counter"}: a type name after the indefinite article it is read with. */
  static String withArticle(String name) {
    return ("AEIOU".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
  }

  /** {@code class}, {@code enum}, {@code record}, {@code annotation type} or {@code interface}. */
  static String kind(Element element) {
    return switch (element.getKind()) {
      case ANNOTATION_TYPE -> "annotation type";
      case ENUM -> "enum";
      case RECORD -> "record";
      case INTERFACE -> "interface";
      default -> "class";
    };
  }
}
