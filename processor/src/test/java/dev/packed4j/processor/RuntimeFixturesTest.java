package dev.packed4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;

/**
 * The runtime's tests call generated classes without running the processor themselves (the processor builds after
 * the runtime): those classes are committed under runtime/src/test/java/dev/packed4j/runtime/fixture. This test
 * runs the processor on the fixtures' interfaces and fails when a committed class is not what it generates now, so
 * the runtime is always tested against the processor's real output. To regenerate, compile the interfaces with the
 * processor and copy the generated Packed4j_*.java files over the committed ones.
 */
class RuntimeFixturesTest {
  private static final Path FIXTURES = Path.of("..", "runtime", "src", "test", "java", "dev", "packed4j", "runtime",
      "fixture");
  private static final String PACKAGE = "dev.packed4j.runtime.fixture.";

  private static JavaFileObject fixture(String simpleName) throws MalformedURLException {
    Path file = FIXTURES.resolve(simpleName + ".java");
    if (!Files.isRegularFile(file)) {
      throw new AssertionError("no fixture " + file.toAbsolutePath());
    }
    return JavaFileObjects.forResource(file.toUri().toURL());
  }

  @Compilers
  void theRuntimesGeneratedFixturesAreWhatTheProcessorGenerates() throws MalformedURLException {
    Compilation compilation = compile(fixture("Shape"), fixture("Square"), fixture("Circle"),
        fixture("ShapeFunctions"), fixture("Unprocessed"));
    assertThat(compilation).succeeded();
    for (String generated : List.of("Packed4j_Shape", "Packed4j_Square", "Packed4j_Circle",
        "Packed4j_ShapeFunctions", "Packed4j_ShapeFunctions_Nested")) {
      assertThat(compilation).generatedSourceFile(PACKAGE + generated).hasSourceEquivalentTo(fixture(generated));
    }
  }
}
