package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dev.packed4j.cli.GlobalFunction;
import dev.packed4j.cli.LibraryDescription;
import dev.packed4j.cli.Manifest;
import dev.packed4j.processor.Packed4jProcessor;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The processor (against a manifest of the loaded registry) and {@code Packed4j.bindChecked} (against the registry
 * itself) give the same verdict, with the same explanation, on a table of declarations: each side through its own
 * adapter (the processor's {@code javax.lang.model} TypeModel, the runtime's reflection) into packed4j-types' one
 * conversion table.
 */
class TypeVerdictParityTest {
  @TempDir static Path directory;
  private static Path manifest;

  /** (global of the test plugin, the method as declared, the verdict both sides must give: "ok" or problems). */
  static Stream<Arguments> cases() {
    return Stream.of(
        // Scalars: widths meet, an integer argument becomes a float, a float never becomes an integer.
        Arguments.of("test.AddInt32", "int add(int a, int b)", "ok"),
        Arguments.of("test.AddInt32", "double add(short a, long b)", "ok"),
        Arguments.of("test.AddInt32", "long add(long a, double b)",
            "argument 1: a floating-point value never converts to an integer"),
        Arguments.of("test.EchoFloat64", "double echo(long value)", "ok"),
        Arguments.of("test.EchoFloat64", "float echo(float value)", "ok"),
        Arguments.of("test.EchoFloat64", "long echo(double value)",
            "result: a floating-point result never converts to an integer"),
        Arguments.of("test.EchoBool", "boolean echo(int value)", "argument 0: the native side takes a bool"),
        Arguments.of("test.EchoString", "String echo(int value)", "argument 0: the native side takes a string"),
        Arguments.of("test.EchoString", "byte[] echo(String value)", "result: the native side returns a string"),
        Arguments.of("test.EchoBytes", "byte[] echo(byte[] value)", "ok"),
        Arguments.of("test.EchoBytes", "String echo(String value)",
            "argument 0: the native side takes bytes; result: the native side returns bytes"),
        // Void results, Optional and Object.
        Arguments.of("test.ReturnNothing", "String nothing()", "result: the function returns nothing"),
        Arguments.of("test.ReturnNothing", "java.util.Optional<String> nothing()", "ok"),
        Arguments.of("test.ReturnNothing", "Object nothing()", "ok"),
        // An Optional argument for a parameter that is not optional<T>: an empty one always fails (userI I8).
        Arguments.of("test.EchoInt64", "java.util.Optional<Long> echo(java.util.Optional<Integer> value)",
            "argument 0: the native side takes int64, never None (it is not optional<int64>), so an empty Optional"
                + " always fails"),
        Arguments.of("test.EchoInt64", "java.util.Optional<Long> echo(Integer value)", "ok"),
        Arguments.of("test.EchoInt64", "java.util.Optional<String> echo(Object value)",
            "result: the native side returns an integer"),
        Arguments.of("test.EchoInt64", "dev.packed4j.runtime.NDArray echo(long value)",
            "result: the native side returns an integer"),
        // An optional<T> result: a primitive cannot hold None (userM M6), a box, an Optional or Object can.
        Arguments.of("test.PositiveOrNone", "long positive(long value)",
            "result: the native side may return None, which a long cannot hold"),
        Arguments.of("test.PositiveOrNone", "int positive(long value)",
            "result: the native side may return None, which an int cannot hold"),
        Arguments.of("test.PositiveOrNone", "double positive(long value)",
            "result: the native side may return None, which a double cannot hold"),
        Arguments.of("test.PositiveOrNone", "java.util.Optional<Long> positive(long value)", "ok"),
        Arguments.of("test.PositiveOrNone", "Long positive(long value)", "ok"),
        Arguments.of("test.PositiveOrNone", "Object positive(long value)", "ok"),
        Arguments.of("test.PositiveOrNone", "String positive(long value)",
            "result: the native side returns an integer"),
        // Containers, element by element.
        Arguments.of("test.SumInt64List", "long sum(java.util.List<Integer> values)", "ok"),
        Arguments.of("test.SumInt64List", "long sum(java.util.List<String> values)",
            "argument 0: its elements: the native side takes an integer"),
        Arguments.of("test.SumInt64List", "long sum(java.util.Map<String, Long> values)",
            "argument 0: the native side takes a list"),
        Arguments.of("test.EchoStringMap",
            "java.util.Map<String, Long> echo(dev.packed4j.runtime.NativeMap<String, Integer> values)", "ok"),
        Arguments.of("test.EchoStringMap", "java.util.Map<Long, Long> echo(java.util.Map<String, Double> values)",
            "argument 0: its values: a floating-point value never converts to an integer;"
                + " result: its keys: the native side returns a string"),
        Arguments.of("test.MapOfLists", "java.util.Map<String, java.util.List<Long>> lists()",
            "result: its values: its elements: a floating-point result never converts to an integer"),
        // Objects meet when one type derives from the other.
        Arguments.of("test.MakeLeaf", "LeafNode leaf(String label)", "ok"),
        Arguments.of("test.MakeLeaf", "Node leaf(String label)", "ok"),
        Arguments.of("test.MakeLeaf", "dev.packed4j.runtime.NativeObject leaf(String label)", "ok"),
        Arguments.of("test.MakeLeaf", "DerivedNode leaf(String label)", "ok"),
        Arguments.of("test.MakeLeaf", "String leaf(String label)",
            "result: the native side returns an object of type Object"),
        Arguments.of("test.DerivedExtra", "long extra(DerivedNode node)", "ok"),
        Arguments.of("test.DerivedExtra", "long extra(Node node)", "ok"),
        Arguments.of("test.DerivedExtra", "long extra(dev.packed4j.runtime.NativeObject node)", "ok"),
        Arguments.of("test.DerivedExtra", "long extra(LeafNode node)",
            "argument 0: the native types test.LeafNode and test.DerivedNode are unrelated (neither derives from the"
                + " other)"),
        Arguments.of("test.DerivedExtra", "long extra(String node)",
            "argument 0: the native side takes an object of type test.DerivedNode"),
        // Tensors: an NDArray, or a numeric array parameter copied into one.
        Arguments.of("test.tensor.IsContiguous", "boolean contiguous(dev.packed4j.runtime.NDArray a)", "ok"),
        Arguments.of("test.tensor.IsContiguous", "boolean contiguous(float[] a)", "ok"),
        Arguments.of("test.tensor.IsContiguous", "boolean contiguous(java.util.List<Float> a)",
            "argument 0: the native side takes an object of type NDArray"),
        // Functions: a PackedFunction or a functional interface, by the one rule (AutoCloseable is a JDK interface
        // of one abstract method without @FunctionalInterface: a function on both sides).
        Arguments.of("test.cb.Apply", "Object apply(java.util.function.LongUnaryOperator f, Object value)", "ok"),
        Arguments.of("test.cb.Apply", "Object apply(dev.packed4j.runtime.PackedFunction f, Object value)", "ok"),
        Arguments.of("test.cb.Apply", "Object apply(AutoCloseable f, Object value)", "ok"),
        Arguments.of("test.cb.Apply", "Object apply(String f, Object value)",
            "argument 0: the native side takes a function"));
  }

  @BeforeAll
  static void writeTheManifestOfTheLoadedRegistry() throws IOException {
    TestLibrary.load();
    List<GlobalFunction> functions = new ArrayList<>();
    for (String name : Registry.list()) {
      try (PackedFunction function = Registry.global(name)) {
        functions.add(GlobalFunction.of(name, function.signature()));
      }
    }
    manifest = directory.resolve("registry.manifest.json");
    Manifest.write(new LibraryDescription("libp4jtests.so", functions, Registry.objectTypes(), List.of(), List.of()),
        manifest);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("cases")
  void theProcessorAndBindCheckedGiveTheSameVerdict(String global, String declaration, String expected)
      throws Exception {
    String simpleName = "Case" + Integer.toHexString((global + declaration).hashCode()).toUpperCase(Locale.ROOT);
    JavaFileObject source = JavaFileObjects.forSourceString("parity." + simpleName, """
        package parity;
        import dev.packed4j.annotations.Global;
        import dev.packed4j.tests.DerivedNode;
        import dev.packed4j.tests.LeafNode;
        import dev.packed4j.tests.Node;
        public interface %s {
          @Global("%s") %s;
        }
        """.formatted(simpleName, global, declaration));
    String signature;
    try (PackedFunction function = Registry.global(global)) {
      signature = function.signature();
    }
    String processor = processorVerdict(source, signature);
    String runtime = runtimeVerdict(source, "parity." + simpleName, signature);
    assertEquals(expected, processor, "the processor's verdict");
    assertEquals(expected, runtime, "bindChecked's verdict");
  }

  /** The processor's problems against the manifest, as "argument i: why" and "result: why". */
  private static String processorVerdict(JavaFileObject source, String signature) {
    Compilation compilation = Compiler.javac().withProcessors(new Packed4jProcessor())
        .withOptions("-Apacked4j.manifest=" + manifest).compile(source);
    Pattern parameter = Pattern.compile("\\[P4J-NATIVE-PARAMETER-TYPE\\] .*, argument (\\d+) of \\S+ registered as "
        + Pattern.quote(signature) + ": (.*)\\. Declare it as .*");
    Pattern result = Pattern.compile("\\[P4J-NATIVE-RESULT-TYPE\\] .* \\(registered as " + Pattern.quote(signature)
        + "\\): (.*)\\. Declare the result as .*");
    List<String> problems = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> diagnostic : compilation.errors()) {
      String message = diagnostic.getMessage(Locale.ROOT);
      Matcher p = parameter.matcher(message);
      Matcher r = result.matcher(message);
      if (p.matches()) {
        problems.add("argument " + p.group(1) + ": " + p.group(2));
      } else if (r.matches()) {
        problems.add("result: " + r.group(1));
      } else {
        problems.add("unexpected: " + message);
      }
    }
    return problems.isEmpty() ? "ok" : String.join("; ", problems);
  }

  /** bindChecked's problems, on the same declaration compiled without a manifest and loaded with its binding. */
  private static String runtimeVerdict(JavaFileObject source, String name, String signature) throws Exception {
    Compilation compilation = Compiler.javac().withProcessors(new Packed4jProcessor()).compile(source);
    assertEquals(Compilation.Status.SUCCESS, compilation.status(), compilation.diagnostics().toString());
    Class<?> iface = Class.forName(name, true, new CompiledClasses(compilation));
    try {
      Packed4j.bindChecked(iface);
      return "ok";
    } catch (Packed4jException e) {
      assertEquals("BindError", e.kind(), e.getMessage());
      Pattern argument = Pattern.compile(".*: argument (\\d+) is .* \\(\\S+ " + Pattern.quote(signature)
          + "\\): (.*)");
      Pattern result = Pattern.compile(".*: the result is .* \\(" + Pattern.quote(signature) + "\\): (.*)");
      List<String> problems = new ArrayList<>();
      for (String line : e.getMessage().lines().skip(1).map(String::strip).toList()) {
        Matcher a = argument.matcher(line);
        Matcher r = result.matcher(line);
        if (a.matches()) {
          problems.add("argument " + a.group(1) + ": " + a.group(2));
        } else if (r.matches()) {
          problems.add("result: " + r.group(1));
        } else {
          problems.add("unexpected: " + line);
        }
      }
      assertTrue(!problems.isEmpty(), e.getMessage());
      return String.join("; ", problems);
    }
  }

  /** The classes of one compilation (the interface and its generated binding), over the tests' own. */
  private static final class CompiledClasses extends ClassLoader {
    private final Map<String, byte[]> classes = new HashMap<>();

    CompiledClasses(Compilation compilation) throws IOException {
      super(TypeVerdictParityTest.class.getClassLoader());
      for (JavaFileObject file : compilation.generatedFiles()) {
        if (file.getKind() == JavaFileObject.Kind.CLASS) {
          String path = file.toUri().getPath();
          String binary = path.substring(path.indexOf("/parity/") + 1, path.length() - ".class".length())
              .replace('/', '.');
          try (InputStream in = file.openInputStream()) {
            classes.put(binary, in.readAllBytes());
          }
        }
      }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      byte[] bytes = classes.get(name);
      if (bytes == null) {
        throw new ClassNotFoundException(name);
      }
      return defineClass(name, bytes, 0, bytes.length);
    }
  }
}
