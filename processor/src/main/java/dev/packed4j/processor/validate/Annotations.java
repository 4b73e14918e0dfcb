package dev.packed4j.processor.validate;

import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * One packed4j annotation on an element, with the mirror and value a diagnostic points at.
 *
 * @param mirror the annotation as written
 * @param value its {@code value()} element, the string literal diagnostics underline
 * @param string the value's text, or empty when it is not a string yet (a constant that does not resolve)
 */
record Annotations(AnnotationMirror mirror, AnnotationValue value, Optional<String> string) {
  /**
   * What javac gives as the value of a constant that does not resolve (yet), such as one in a class another
   * processor generates later: not a name anyone writes, since no name grammar admits it.
   */
  private static final String UNRESOLVED = "<error>";

  /** The annotation named {@code annotationName} on {@code element}, if present. */
  static Optional<Annotations> find(Element element, String annotationName) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) mirror.getAnnotationType().asElement();
      if (type.getQualifiedName().contentEquals(annotationName)) {
        return Optional.of(of(mirror));
      }
    }
    return Optional.empty();
  }

  /** The element {@code name} as written (not its default), if it is. */
  Optional<AnnotationValue> element(String name) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
        mirror.getElementValues().entrySet()) {
      if (entry.getKey().getSimpleName().contentEquals(name)) {
        return Optional.of(entry.getValue());
      }
    }
    return Optional.empty();
  }

  static boolean isPresent(Element element, String annotationName) {
    return find(element, annotationName).isPresent();
  }

  private static Annotations of(AnnotationMirror mirror) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
        mirror.getElementValues().entrySet()) {
      if (entry.getKey().getSimpleName().contentEquals("value")) {
        AnnotationValue value = entry.getValue();
        boolean resolved = value.getValue() instanceof String text && !text.equals(UNRESOLVED);
        return new Annotations(
            mirror, value, resolved ? Optional.of((String) value.getValue()) : Optional.empty());
      }
    }
    // @Global, @Object and @Field have no default for value(): javac already reports the missing value. @Method's
    // is the Java name, which a null value stands for.
    return new Annotations(mirror, null, Optional.empty());
  }
}
