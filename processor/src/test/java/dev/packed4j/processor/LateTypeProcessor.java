package dev.packed4j.processor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

/**
 * Stands for another annotation processor whose output packed4j's input uses: it generates a trigger class in the
 * first round, and only in the second the {@code @Object} interface {@code p.GeneratedRef} and {@code p.Names},
 * whose constant {@code MAKE} is a global name.
 */
final class LateTypeProcessor extends AbstractProcessor {
  private int round;

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of("*");
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment roundEnv) {
    round++;
    if (round == 1) {
      write("p.Trigger", "package p; final class Trigger {}");
    } else if (round == 2) {
      write(
          "p.GeneratedRef",
          """
          package p;
          @dev.packed4j.annotations.Object("test.Generated")
          public interface GeneratedRef {
            long id();
          }
          """);
      write("p.Names", "package p; public final class Names { public static final String MAKE = \"test.Make\"; }");
    }
    return false;
  }

  private void write(String name, String code) {
    try (Writer writer = processingEnv.getFiler().createSourceFile(name).openWriter()) {
      writer.write(code);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
