package dev.packed4j.tests;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dev.packed4j.processor.Packed4jProcessor;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the real {@code packed4j describe} (packed4j-cli, in a JVM of its own as a build runs it) describes
 * the test plugin built by CMake; declarations are then compiled against that manifest, through compile-testing and
 * through a plain {@code javac -Apacked4j.manifest=...} command.
 */
class DescribeAndCheckTest {
  @TempDir static Path directory;
  private static Path manifest;
  private static String described;

  private static final String WRONG = """
      package demo;
      import dev.packed4j.annotations.Global;
      import java.util.List;
      public interface Wrong {
        @Global("test.EchoInt46") long echo(long value);
        @Global("test.AddInt32") int add(int a);
        @Global("test.SumInt64List") long sum(List<String> values);
      }
      """;

  @BeforeAll
  static void describeTheTestPlugin() throws Exception {
    manifest = directory.resolve("p4jtests.manifest.json");
    // The runnable jar itself when the class path has it (a reactor build packages packed4j-cli first).
    List<String> command = cliJar()
        .map(jar -> List.of(java(), "-jar", jar))
        .orElse(List.of(java(), "--enable-native-access=ALL-UNNAMED", "-cp", classPath(), "dev.packed4j.cli.Main"));
    Result result = run(concat(command, List.of("describe", library().toString(), "--json", manifest.toString())));
    assertEquals(0, result.status, result.output);
    described = result.output;
  }

  @Test
  void describeListsTheLibrarysFunctionsAndTypesAndTheCoresApart() throws IOException {
    assertTrue(described.startsWith("libp4jtests.so\n\nGlobal functions ("), described);
    assertTrue(described.contains("  test.SumInt64List "), described);
    assertTrue(described.contains(" (list<int64>) -> int64\n"), described);
    assertTrue(described.matches("(?s).*  test\\.UntypedEcho +untyped \\(set_body\\)\n.*"), described);
    assertTrue(described.contains("  test.DerivedNode extends test.Node\n    ro small: int32  (from test.Node)\n"),
        described);
    assertTrue(described.contains("    ro extra: int64\n"), described);
    String core = described.substring(described.indexOf("Registered by libpacked4j.so itself"));
    assertTrue(core.contains("  packed4j.ListSize"), core);
    assertTrue(!core.contains("test."), core);

    String json = Files.readString(manifest);
    assertTrue(json.contains("\"format\": \"packed4j-manifest\",\n  \"version\": 2,"), json);
    assertTrue(json.contains("{\"name\": \"test.AddInt32\", \"typed\": true, \"parameters\": [\"int32\", \"int32\"],"
        + " \"result\": \"int64\"}"), json);
  }

  @Test
  void theModulesOwnDeclarationsCompileCleanAgainstTheManifest() throws IOException {
    Compilation compilation = compiler().compile(
        moduleSource("Node"), moduleSource("DerivedNode"), moduleSource("LeafNode"),
        JavaFileObjects.forSourceString("demo.Right", """
            package demo;
            import dev.packed4j.annotations.Global;
            import java.util.List;
            public interface Right {
              @Global("test.EchoInt64") long echo(long value);
              @Global("test.AddInt32") int add(int a, int b);
              @Global("test.SumInt64List") long sum(List<Long> values);
              @Global("test.MakeLeaf") dev.packed4j.tests.LeafNode leaf(String label);
            }
            """));
    assertThat(compilation).succeeded();
    // The only warnings: the module's own generated classes are on the class path already.
    assertEquals(List.of(), compilation.diagnostics().stream()
        .map(d -> d.getMessage(null)).filter(m -> m.contains("[P4J-")).toList());
  }

  @Test
  void aWrongDeclarationFailsWithTheExpectedMessages() {
    JavaFileObject wrong = JavaFileObjects.forSourceString("demo.Wrong", WRONG);
    Compilation compilation = compiler().compile(wrong);
    assertThat(compilation)
        .hadErrorContaining("[P4J-NATIVE-UNKNOWN-GLOBAL] no global function \"test.EchoInt46\" is registered by the"
            + " libraries of the manifest (p4jtests.manifest.json)")
        .inFile(wrong)
        .onLineContaining("EchoInt46");
    assertThat(compilation).hadErrorContaining("Did you mean \"test.EchoInt64\"?");
    assertThat(compilation)
        .hadErrorContaining("[P4J-NATIVE-ARITY] Wrong.add(int) has 1 parameter, but test.AddInt32 takes 2"
            + " (registered as (int32, int32) -> int64)")
        .inFile(wrong)
        .onLineContaining("int add(int a)");
    assertThat(compilation)
        .hadErrorContaining("[P4J-NATIVE-PARAMETER-TYPE] parameter values of Wrong.sum(List<String>) is"
            + " List<String>, which cannot convert to list<int64>")
        .inFile(wrong)
        .onLineContaining("List<String> values");
    assertThat(compilation).hadErrorCount(3);
  }

  /** The manifest records a C++ NDArray member as NDArray, which an NDArray getter and setter meet. */
  @Test
  void tensorFieldsAreCheckedAsNDArray() {
    JavaFileObject layer = JavaFileObjects.forSourceString("demo.LayerView", """
        package demo;
        import dev.packed4j.annotations.Field;
        import dev.packed4j.annotations.Object;
        import dev.packed4j.runtime.NDArray;
        @Object("test.Layer")
        public interface LayerView {
          NDArray weights();
          void weights(NDArray weights);
          NDArray bias();
          void bias(NDArray bias);
          @Field("name") NDArray nameTensor();
        }
        """);
    Compilation compilation = compiler().compile(layer);
    assertThat(compilation)
        .hadErrorContaining("[P4J-NATIVE-READ-ONLY] LayerView.bias(NDArray) writes the field \"bias\" of"
            + " \"test.Layer\", which is read-only")
        .inFile(layer)
        .onLineContaining("void bias(NDArray bias);");
    assertThat(compilation)
        .hadErrorContaining("[P4J-NATIVE-FIELD-TYPE] LayerView.nameTensor() returns NDArray, but the field \"name\""
            + " of \"test.Layer\" is string: an NDArray getter reads a tensor (NDArray) field. Declare the getter as"
            + " String")
        .inFile(layer)
        .onLineContaining("NDArray nameTensor();");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void plainJavacWithTheOptionReportsTheSameErrorsAtTheirLines() throws Exception {
    Path sources = Files.createDirectories(directory.resolve("src/demo"));
    Path wrong = Files.writeString(sources.resolve("Wrong.java"), WRONG);
    Path output = directory.resolve("classes");
    // What the README shows: the processor on -processorpath, the annotations and runtime on -cp.
    Result result = run(List.of(javac(), "-processorpath", classPath(), "-cp", classPath(),
        "-Apacked4j.manifest=" + manifest, "-d", output.toString(), wrong.toString()));
    assertEquals(1, result.status, result.output);
    assertTrue(result.output.contains(wrong + ":5: error: [P4J-NATIVE-UNKNOWN-GLOBAL]"), result.output);
    assertTrue(result.output.contains(wrong + ":6: error: [P4J-NATIVE-ARITY]"), result.output);
    assertTrue(result.output.contains(wrong + ":7: error: [P4J-NATIVE-PARAMETER-TYPE]"), result.output);
    assertTrue(result.output.contains("3 errors"), result.output);

    Path right = Files.writeString(sources.resolve("Wrong.java"), WRONG.replace("EchoInt46", "EchoInt64")
        .replace("int add(int a)", "int add(int a, int b)").replace("List<String>", "List<Long>"));
    Result fixed = run(List.of(javac(), "-processorpath", classPath(), "-cp", classPath(),
        "-Apacked4j.manifest=" + manifest, "-d", output.toString(), right.toString()));
    assertEquals(0, fixed.status, fixed.output);
    assertTrue(Files.isRegularFile(output.resolve("demo/Packed4j_Wrong.class")));
  }

  private static Compiler compiler() {
    return Compiler.javac()
        .withProcessors(new Packed4jProcessor())
        .withOptions("-Xlint:all", "-Apacked4j.manifest=" + manifest);
  }

  private static JavaFileObject moduleSource(String simpleName) throws IOException {
    Path file = Path.of("src/test/java/dev/packed4j/tests", simpleName + ".java");
    return JavaFileObjects.forSourceString("dev.packed4j.tests." + simpleName, Files.readString(file));
  }

  private static Path library() {
    String property = System.getProperty("packed4j.test.library");
    if (property == null) {
      throw new IllegalStateException("packed4j.test.library is not set; run the tests through Maven");
    }
    return Path.of(property);
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static String javac() {
    return Path.of(System.getProperty("java.home"), "bin", "javac").toString();
  }

  private static Optional<String> cliJar() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> entry.matches(".*/packed4j-cli-[^/]*\\.jar"))
        .findFirst();
  }

  private static List<String> concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  private static String classPath() {
    List<String> entries = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        entries.add(entry);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private record Result(int status, String output) {}

  private static Result run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("timed out: " + command);
    }
    return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
  }
}
