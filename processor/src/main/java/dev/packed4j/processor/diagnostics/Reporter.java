package dev.packed4j.processor.diagnostics;

import java.util.HashSet;
import java.util.Set;
import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;

/**
 * Prints catalog diagnostics through the {@link Messager}, each once.
 *
 * <p>The same problem can be found twice: an interface inherits a broken method that its super-interface's own
 * validation already reported, or an interface deferred to a later round is validated again. The reporter prints a
 * message for a location only the first time; the {@link Report} that asked still counts it as an error, so the
 * class is not generated.
 */
public final class Reporter {
  private final Messager messager;
  private final Set<String> printed = new HashSet<>();

  public Reporter(Messager messager) {
    this.messager = messager;
  }

  /** Starts collecting the outcome of validating one element. */
  public Report newReport() {
    return new Report(this);
  }

  /** Prints a diagnostic that belongs to no report, such as an internal failure. */
  public void print(Diagnostic diagnostic, Element element, Object... arguments) {
    print(diagnostic, element, null, null, diagnostic.message(arguments));
  }

  void print(
      Diagnostic diagnostic,
      Element element,
      AnnotationMirror annotation,
      AnnotationValue value,
      String message) {
    String key = location(element) + '\n' + message;
    if (!printed.add(key)) {
      return;
    }
    if (element == null) {
      messager.printMessage(diagnostic.kind(), message);
    } else if (annotation == null) {
      messager.printMessage(diagnostic.kind(), message, element);
    } else if (value == null) {
      messager.printMessage(diagnostic.kind(), message, element, annotation);
    } else {
      messager.printMessage(diagnostic.kind(), message, element, annotation, value);
    }
  }

  /** A name for an element that is the same in every round: elements themselves are not. */
  private static String location(Element element) {
    StringBuilder path = new StringBuilder();
    for (Element e = element; e != null; e = e.getEnclosingElement()) {
      path.insert(0, e.getKind() + ":" + e + "/");
    }
    return path.toString();
  }
}
