package dev.packed4j.processor.validate;

import dev.packed4j.processor.model.Deprecation;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * What generated code must suppress for the deprecated API it names. Precisely: ECJ warns about a
 * {@code @SuppressWarnings} token that suppresses nothing, so a class suppresses "removal" only when it names
 * something deprecated for removal, and "deprecation" only when it names something merely deprecated.
 */
final class Deprecations {
  private Deprecations() {}

  /** How {@code element} itself is deprecated (not counting the types enclosing it). */
  static Deprecation of(Elements elements, Element element) {
    if (!elements.isDeprecated(element)) {
      return Deprecation.NONE;
    }
    for (AnnotationMirror annotation : element.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) annotation.getAnnotationType().asElement();
      if (!type.getQualifiedName().contentEquals("java.lang.Deprecated")) {
        continue;
      }
      for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> value :
          elements.getElementValuesWithDefaults(annotation).entrySet()) {
        if (value.getKey().getSimpleName().contentEquals("forRemoval")
            && Boolean.TRUE.equals(value.getValue().getValue())) {
          return Deprecation.FOR_REMOVAL;
        }
      }
    }
    return Deprecation.DEPRECATED;
  }

  /** Adds to {@code warnings} the lint name of naming {@code type} and the types enclosing it, if deprecated. */
  static void noteType(Elements elements, TypeElement type, Set<String> warnings) {
    for (Element e = type; e instanceof TypeElement t; e = e.getEnclosingElement()) {
      note(of(elements, t), warnings);
    }
  }

  /** Adds the lint name of {@code deprecation} to {@code warnings}, if it has one. */
  static void note(Deprecation deprecation, Set<String> warnings) {
    if (deprecation != Deprecation.NONE) {
      warnings.add(deprecation.warning());
    }
  }
}
