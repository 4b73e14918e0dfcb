package dev.packed4j.processor.diagnostics;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic.Kind;

/**
 * The diagnostics found while validating one interface: printed as they are found, and counted so the caller
 * knows whether the interface is fit to generate from.
 */
public final class Report {
  private final Reporter reporter;
  private int errors;

  Report(Reporter reporter) {
    this.reporter = reporter;
  }

  /** Reports on an element: a type, a method, a parameter. */
  public void on(Element element, Diagnostic diagnostic, Object... arguments) {
    add(diagnostic, element, null, null, arguments);
  }

  /** Reports on an annotation of an element, so the IDE marks the annotation. */
  public void on(Element element, AnnotationMirror annotation, Diagnostic diagnostic, Object... arguments) {
    add(diagnostic, element, annotation, null, arguments);
  }

  /** Reports on one value of an annotation, so the IDE underlines that value, typically a string literal. */
  public void on(
      Element element,
      AnnotationMirror annotation,
      AnnotationValue value,
      Diagnostic diagnostic,
      Object... arguments) {
    add(diagnostic, element, annotation, value, arguments);
  }

  /**
   * Marks what is validated as unfit to generate from, for a problem javac reports itself (an annotation without
   * its value): a second message would only repeat it.
   */
  public void invalid() {
    errors++;
  }

  /** True if an error was reported: nothing may be generated from what was validated. */
  public boolean hasErrors() {
    return errors > 0;
  }

  private void add(
      Diagnostic diagnostic,
      Element element,
      AnnotationMirror annotation,
      AnnotationValue value,
      Object[] arguments) {
    if (diagnostic.kind() == Kind.ERROR) {
      errors++;
    }
    reporter.print(diagnostic, element, annotation, value, diagnostic.message(arguments));
  }
}
