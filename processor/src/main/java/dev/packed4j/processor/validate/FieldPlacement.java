package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.Report;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;

/**
 * Reports {@code @Field} where it does nothing: outside an {@code @Object} interface, on a {@code @Global} method,
 * or on a method with a body. On the getters of an {@code @Object} interface, {@link ObjectValidator} checks it.
 */
public final class FieldPlacement {
  FieldPlacement() {}

  public void check(Element element, Report report) {
    if (!(element instanceof ExecutableElement method)) {
      return;
    }
    Annotations field = Annotations.find(method, AnnotationNames.FIELD).orElseThrow();
    Element owner = method.getEnclosingElement();
    String why;
    if (owner.getKind() != ElementKind.INTERFACE || !Annotations.isPresent(owner, AnnotationNames.OBJECT)) {
      why = Display.kind(owner) + " " + owner.getSimpleName() + " is not an @Object interface";
    } else if (Annotations.isPresent(method, AnnotationNames.GLOBAL)) {
      why = "it is a @Global method";
    } else if (method.getModifiers().contains(Modifier.STATIC)) {
      why = "it is a static method";
    } else if (method.getModifiers().contains(Modifier.DEFAULT)) {
      why = "it is a default method, which computes its value in Java";
    } else if (method.getModifiers().contains(Modifier.PRIVATE)) {
      why = "it is a private method";
    } else {
      return;
    }
    report.on(method, field.mirror(), Diagnostic.FIELD_PLACEMENT, Display.method(method), why);
  }
}
