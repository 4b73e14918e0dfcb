package dev.packed4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import org.junit.jupiter.api.io.TempDir;

/**
 * Incremental builds, as IntelliJ and Gradle run them: a later compilation holds only the changed sources, with the
 * earlier output on the class path and the same output directories, after the tool deleted what those sources
 * produced before (their classes, and the generated files whose originating element they declare). Each must leave
 * generated code that implements its interface and an object-type index that lists exactly the {@code @Object}
 * interfaces there are.
 */
class IncrementalBuildTest {
  private static final String INDEX = "META-INF/packed4j/object-types.properties";

  private static final String CALCULATOR =
      """
      package p;
      import dev.packed4j.annotations.Global;
      public interface Calculator {
        @Global("calculator.Create") CalculatorRef create(String brand);
      }
      """;

  private static final String CALCULATOR_REF =
      """
      package p;
      import dev.packed4j.annotations.Object;
      @Object("Calculator")
      public interface CalculatorRef extends AutoCloseable {
        String brand();
        @Override void close();
      }
      """;

  private static final String SCIENTIFIC_REF =
      """
      package p;
      import dev.packed4j.annotations.Object;
      @Object("ScientificCalculator")
      public interface ScientificRef extends CalculatorRef {
        int precision();
      }
      """;

  private static final String USER =
      """
      package p;
      final class User {
        static String brandOf(Calculator calculator) {
          try (CalculatorRef made = calculator.create("casio")) {
            return made.brand();
          }
        }
      }
      """;

  @TempDir Path project;

  private Path sources() {
    return project.resolve("src");
  }

  private Path classes() {
    return project.resolve("classes");
  }

  private Path generated() {
    return project.resolve("generated");
  }

  @Compilers
  void recompilingOnlyAChangedInterfaceRegeneratesItAndKeepsTheIndex(TestCompiler compiler) throws Exception {
    fullBuild(compiler);
    write("Calculator", CALCULATOR.replace("}\n", "  @Global(\"calculator.Count\") long count();\n}\n"));
    build(compiler, "Calculator");
    assertThat(method("p.Packed4j_Calculator", "count")).isNotNull();
    write("ScientificRef", SCIENTIFIC_REF.replace("int precision();", "int precision();\n  double rate();"));
    build(compiler, "ScientificRef");
    assertThat(method("p.Packed4j_ScientificRef", "rate")).isNotNull();
    assertIndex("Calculator=p.Packed4j_CalculatorRef", "ScientificCalculator=p.Packed4j_ScientificRef");
    assertConsistent();
  }

  @Compilers
  void recompilingAChangedInterfaceOverItsOldOutputWorksUnderJavacAndIsExplainedUnderEcj(TestCompiler compiler)
      throws Exception {
    fullBuild(compiler);
    // A build tool that does not delete the old output first: its classes stay on the class path.
    write("Calculator", CALCULATOR.replace("}\n", "  @Global(\"calculator.Count\") long count();\n}\n"));
    List<String> problems = compile(compiler, "Calculator");
    if (compiler == TestCompiler.ECJ) { // ECJ will not create a type its class path has
      assertThat(problems).hasSize(1);
      assertThat(problems.get(0)).contains("[P4J-GENERATED-WRITE] cannot write p.Packed4j_Calculator, generated for"
          + " p.Calculator:");
      assertThat(problems.get(0)).contains("The class there is packed4j's own output of an earlier build: a stale"
          + " generated file, compiled again as a source, or (ECJ, which does not replace it) a class an earlier"
          + " build left in the output directory on the class path.");
    } else { // javac only warns that the type was on the class path, and writes it again
      assertThat(problems.stream().filter(problem -> problem.startsWith("ERROR")).toList()).isEmpty();
      assertThat(method("p.Packed4j_Calculator", "count")).isNotNull();
    }
  }

  @Compilers
  void methodsWithNamesLongerThanAFileNameCompileToDisk(TestCompiler compiler) throws Exception {
    // A route's nested class is named after its method; the whole name once went into a file name, past Linux's 255
    // bytes, and javac failed with "error while writing" (packed4j generate makes such methods of long globals).
    String longName = "add" + "Numbers".repeat(40);
    String ref = CALCULATOR_REF.replace("String brand();", "String brand();\n  long " + longName + "Twice(long a);\n"
        + "  long " + longName + "Thrice(long a);");
    write("CalculatorRef", ref);
    String cjkName = "计算".repeat(40); // 80 characters, 240 bytes of a file name
    write("Calculator", CALCULATOR.replace("}\n", "  @Global(\"calculator.A\") long " + longName + "Once(long a);\n"
        + "  @Global(\"calculator.B\") long " + longName + "Again(long a);\n"
        + "  @Global(\"calculator.C\") long " + cjkName + "(long a);\n}\n"));
    build(compiler, "Calculator", "CalculatorRef");
    assertThat(method("p.Packed4j_Calculator", longName + "Once", long.class)).isNotNull();
    assertThat(method("p.Packed4j_Calculator", longName + "Again", long.class)).isNotNull();
    assertThat(method("p.Packed4j_CalculatorRef", longName + "Thrice", long.class)).isNotNull();
    assertThat(method("p.Packed4j_Calculator", cjkName, long.class)).isNotNull();
    try (Stream<Path> files = Files.list(classes().resolve("p"))) {
      assertThat(files.map(file -> file.getFileName().toString().getBytes(StandardCharsets.UTF_8).length)
          .max(Integer::compare).orElseThrow()).isLessThan(100);
    }
  }

  @Compilers
  void recompilingOnlyAUserClassLeavesTheGeneratedCodeAlone(TestCompiler compiler) throws Exception {
    fullBuild(compiler);
    String before = Files.readString(classes().resolve(INDEX));
    write("User", USER.replace("made.brand()", "made.brand().trim()"));
    build(compiler, "User");
    assertThat(Files.readString(classes().resolve(INDEX))).isEqualTo(before);
    assertConsistent();
  }

  @Compilers
  void aChangedTypeKeyReplacesItsEntry(TestCompiler compiler) throws Exception {
    fullBuild(compiler);
    write("ScientificRef", SCIENTIFIC_REF.replace("\"ScientificCalculator\"", "\"Scientific\""));
    build(compiler, "ScientificRef");
    assertIndex("Calculator=p.Packed4j_CalculatorRef", "Scientific=p.Packed4j_ScientificRef");
    assertConsistent();
  }

  @Compilers
  void deletingAnInterfaceDropsItsEntry(TestCompiler compiler) throws Exception {
    fullBuild(compiler);
    // The build tool deletes what the deleted source produced, and compiles the sources that remain changed.
    Files.delete(sources().resolve("p/ScientificRef.java"));
    deleteOutputsOf("ScientificRef");
    write("CalculatorRef", CALCULATOR_REF.replace("String brand();", "String brand();\n  int price();"));
    build(compiler, "CalculatorRef");
    assertIndex("Calculator=p.Packed4j_CalculatorRef");
    assertConsistent();
  }

  @Compilers
  void deletingAnInterfaceAndRecompilingOnlyAUserClassDropsItsEntry(TestCompiler compiler) throws Exception {
    fullBuild(compiler);
    // No packed4j annotation in this compilation: Packed4jProcessor does not run, Packed4jOptionsProcessor does.
    Files.delete(sources().resolve("p/ScientificRef.java"));
    deleteOutputsOf("ScientificRef");
    write("User", USER.replace("made.brand()", "made.brand().strip()"));
    build(compiler, "User");
    assertIndex("Calculator=p.Packed4j_CalculatorRef");
    assertConsistent();
  }

  @Compilers
  void deletingTheOnlyObjectInterfacesEmptiesTheIndex(TestCompiler compiler) throws Exception {
    fullBuild(compiler);
    // Packed4jProcessor runs (Calculator keeps a @Global method) but has no @Object interface to index.
    Files.delete(sources().resolve("p/ScientificRef.java"));
    Files.delete(sources().resolve("p/CalculatorRef.java"));
    deleteOutputsOf("ScientificRef");
    deleteOutputsOf("CalculatorRef");
    write("Calculator", CALCULATOR.replace("CalculatorRef create(String brand);", "long count();"));
    write(
        "User",
        """
        package p;
        final class User {
          static long countOf(Calculator calculator) {
            return calculator.count();
          }
        }
        """);
    build(compiler, "Calculator", "User");
    assertIndex();
    assertConsistent();
  }

  @Compilers
  void deletingTheOnlyObjectInterfaceAndCompilingNothingOfPacked4jEmptiesTheIndex(TestCompiler compiler)
      throws Exception {
    write("CalculatorRef", CALCULATOR_REF);
    write("Other", "package p;\nfinal class Other {}\n");
    build(compiler, "CalculatorRef", "Other");
    assertIndex("Calculator=p.Packed4j_CalculatorRef");
    Files.delete(sources().resolve("p/CalculatorRef.java"));
    deleteOutputsOf("CalculatorRef");
    write("Other", "package p;\nfinal class Other {\n  static int one() {\n    return 1;\n  }\n}\n");
    build(compiler, "Other");
    assertIndex();
  }

  @Compilers
  void aBuildWithNothingDeletedLeavesTheIndexFileUntouched(TestCompiler compiler) throws Exception {
    fullBuild(compiler);
    Path index = classes().resolve(INDEX);
    byte[] before = Files.readAllBytes(index);
    FileTime earlier = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
    Files.setLastModifiedTime(index, earlier);
    write("User", USER.replace("made.brand()", "made.brand().trim()"));
    build(compiler, "User");
    assertThat(Files.getLastModifiedTime(index)).isEqualTo(earlier);
    assertThat(Files.readAllBytes(index)).isEqualTo(before);
  }

  /** Writes and compiles every source, as a clean build. */
  private void fullBuild(TestCompiler compiler) throws Exception {
    write("Calculator", CALCULATOR);
    write("CalculatorRef", CALCULATOR_REF);
    write("ScientificRef", SCIENTIFIC_REF);
    write("User", USER);
    build(compiler, "Calculator", "CalculatorRef", "ScientificRef", "User");
    assertIndex("Calculator=p.Packed4j_CalculatorRef", "ScientificCalculator=p.Packed4j_ScientificRef");
    assertConsistent();
  }

  private void write(String simpleName, String code) throws IOException {
    Path file = sources().resolve("p/" + simpleName + ".java");
    Files.createDirectories(file.getParent());
    Files.writeString(file, code);
  }

  /**
   * What a build tool deletes before recompiling (or after deleting) the source of {@code simpleName}: its classes,
   * and the generated source and classes whose originating element it declares.
   */
  private void deleteOutputsOf(String simpleName) throws IOException {
    for (Path directory : List.of(classes().resolve("p"), generated().resolve("p"))) {
      if (!Files.isDirectory(directory)) {
        continue;
      }
      try (Stream<Path> files = Files.list(directory)) {
        for (Path file : files.toList()) {
          String name = file.getFileName().toString();
          for (String produced : List.of(simpleName, "Packed4j_" + simpleName)) {
            if (name.equals(produced + ".class")
                || name.startsWith(produced + "$")
                || name.equals(produced + ".java")) {
              Files.delete(file);
            }
          }
        }
      }
    }
  }

  /**
   * Compiles the named sources of package p into the project's directories, with them on the class path, after
   * deleting what they produced before, and asserts the compilation is clean.
   */
  private void build(TestCompiler compiler, String... simpleNames) throws IOException {
    for (String simpleName : simpleNames) {
      deleteOutputsOf(simpleName);
    }
    assertWithMessage("compiling %s under %s", Arrays.toString(simpleNames), compiler)
        .that(compile(compiler, simpleNames))
        .isEmpty();
  }

  /**
   * Compiles the named sources of package p into the project's directories, with them on the class path, as they
   * are; the problems reported (every diagnostic but notes), empty for a successful compilation.
   */
  private List<String> compile(TestCompiler compiler, String... simpleNames) throws IOException {
    Files.createDirectories(classes());
    Files.createDirectories(generated());
    JavaCompiler tool = compiler.tool();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = tool.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
      List<Path> sources = Arrays.stream(simpleNames).map(n -> sources().resolve("p/" + n + ".java")).toList();
      String classPath =
          classes() + File.pathSeparator + System.getProperty("java.class.path");
      List<String> options =
          compiler.options(
              "-d", classes().toString(), "-s", generated().toString(), "-classpath", classPath);
      JavaCompiler.CompilationTask task =
          tool.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources));
      task.setProcessors(List.of(new Packed4jProcessor(), new Packed4jOptionsProcessor()));
      boolean success = task.call();
      List<String> problems =
          diagnostics.getDiagnostics().stream()
              .filter(d -> d.getKind() != Diagnostic.Kind.NOTE)
              .map(d -> d.getKind() + " " + d.getSource() + ":" + d.getLineNumber() + " " + d.getMessage(null))
              .toList();
      assertWithMessage("compiling %s under %s: %s", Arrays.toString(simpleNames), compiler, problems)
          .that(success)
          .isEqualTo(problems.stream().noneMatch(problem -> problem.startsWith("ERROR")));
      return problems;
    }
  }

  /** The index lists exactly {@code entries}. */
  private void assertIndex(String... entries) throws IOException {
    List<String> lines =
        Files.readAllLines(classes().resolve(INDEX)).stream().filter(l -> !l.startsWith("#")).toList();
    assertThat(lines).containsExactlyElementsIn(entries).inOrder();
  }

  /**
   * Every generated class in the output implements every method of its interface, and every interface with a
   * generated source has its class: what a partial build must not leave half done.
   */
  private void assertConsistent() throws Exception {
    List<String> generatedClasses;
    try (Stream<Path> files = Files.list(classes().resolve("p"))) {
      generatedClasses =
          files
              .map(f -> f.getFileName().toString())
              .filter(f -> f.startsWith("Packed4j_") && f.endsWith(".class") && !f.contains("$"))
              .map(f -> "p." + f.substring(0, f.length() - ".class".length()))
              .sorted()
              .collect(Collectors.toCollection(ArrayList::new));
    }
    assertThat(generatedClasses).isNotEmpty();
    try (URLClassLoader loader = loader()) {
      for (String name : generatedClasses) {
        Class<?> type = Class.forName(name, false, loader);
        for (Method method : type.getMethods()) {
          assertWithMessage("%s implements %s", name, method).that(Modifier.isAbstract(method.getModifiers()))
              .isFalse();
        }
      }
    }
  }

  private Method method(String className, String name, Class<?>... parameters) throws Exception {
    try (URLClassLoader loader = loader()) {
      return Class.forName(className, false, loader).getMethod(name, parameters);
    }
  }

  private URLClassLoader loader() throws IOException {
    return new URLClassLoader(
        new URL[] {classes().toUri().toURL()}, IncrementalBuildTest.class.getClassLoader());
  }
}
