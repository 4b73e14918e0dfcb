package dev.packed4j.processor.diagnostics;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The catalog's ids are stable strings users search for: unique, well-formed, and each one tested. */
class DiagnosticCatalogTest {

  @Test
  void idsAreUniqueAndWellFormed() {
    Set<String> ids = new HashSet<>();
    for (Diagnostic diagnostic : Diagnostic.values()) {
      assertThat(diagnostic.id()).matches("P4J(-[A-Z]+)+");
      assertWithMessage(diagnostic.id()).that(ids.add(diagnostic.id())).isTrue();
    }
  }

  @Test
  void messageStartsWithTheIdInBrackets() {
    assertThat(Diagnostic.FIELD_REDUNDANT.message("price", "NodeRef.price()"))
        .isEqualTo(
            "[P4J-FIELD-REDUNDANT] @Field(\"price\") on NodeRef.price() repeats the method name, which is the field"
                + " name already. Remove the annotation");
  }

  @Test
  void everyDiagnosticIsAssertedByACompilationTest() throws IOException {
    // Surefire runs in the module directory.
    Path tests = Path.of("src/test/java/dev/packed4j/processor");
    String sources;
    try (Stream<Path> files = Files.list(tests)) {
      sources =
          files
              .filter(f -> f.toString().endsWith("Test.java"))
              .map(DiagnosticCatalogTest::read)
              .collect(Collectors.joining("\n"));
    }
    for (Diagnostic diagnostic : Diagnostic.values()) {
      assertWithMessage("a compilation test asserting [%s]", diagnostic.id())
          .that(sources)
          .contains("[" + diagnostic.id() + "]");
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
