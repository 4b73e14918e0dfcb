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
 * first round, and the {@code @Object} interface {@code p.GeneratedRef} only in the second.
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
