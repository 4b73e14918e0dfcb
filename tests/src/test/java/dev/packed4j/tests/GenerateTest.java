package dev.packed4j.tests;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dev.packed4j.processor.Packed4jProcessor;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.PackedFunction;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code packed4j generate} end to end: the real command (packed4j-cli, in a JVM of its own as the Maven goal runs
 * it) generates the interfaces of the test plugin and of every sample's library; they compile with the processor
 * against the manifest {@code packed4j describe} writes, with no packed4j diagnostic, and calls through them reach
 * the native functions, methods, setters and constructors.
 */
class GenerateTest {
  @TempDir Path directory;

  @Test
  void theTestPluginsInterfacesCompileCleanAgainstItsManifestAndCallIt() throws Exception {
    Path library = Path.of(System.getProperty("packed4j.test.library"));
    Path sources = directory.resolve("generated");
    Result generated = cli("generate", library.toString(), "--package", "gen.tests", "--out", sources.toString());
    assertEquals(0, generated.status, generated.output);
    Path manifest = directory.resolve("p4jtests.manifest.json");
    Result described = cli("describe", library.toString(), "--json", manifest.toString());
    assertEquals(0, described.status, described.output);
    Compilation compilation = compileCleanly(sources, manifest);

    // describe and the generated Java show the object definition of tests/native/accounts.cc: docs, parameter
    // names, mutability, methods, static methods and the constructor.
    for (String line : List.of(
        "  test.Account extends Object  -- A bank account\n",
        "    ro id: int64  -- the account number\n",
        "    rw balance: int64  -- what it holds\n",
        "    method transfer(to: test.Account, amount: int64) -> int64  -- moves an amount to another account\n",
        "    static parse(text: string) -> test.Account  -- reads \"id:owner\"\n",
        "    constructor __init__(id: int64, owner: string) -> test.Account  -- an account of a number and an"
            + " owner\n")) {
      assertTrue(described.output.contains(line), line + " in\n" + described.output);
    }
    String json = Files.readString(manifest);
    assertTrue(json.contains("{\"name\": \"deposit\", \"kind\": \"method\", \"typed\": true, \"parameters\":"
        + " [\"test.Account\", \"int64\"], \"result\": \"int64\", \"doc\": \"adds to the balance and returns it\","
        + " \"parameterNames\": [\"amount\"]}"), json);
    String account = Files.readString(sources.resolve("gen/tests/Account.java"));
    assertTrue(account.contains("""
          /**
           * what it holds
           *
           * <p>Field {@code balance} ({@code int64}), read-write.
           */
          long balance();

          /** Sets field {@code balance} ({@code int64}). */
          void balance(long balance);
        """), account);
    assertTrue(account.contains("  long transfer(Account to, long amount);\n")
        && account.contains("  @Method\n  String label();\n") && !account.contains("void id("), account);
    String testSource = Files.readString(sources.resolve("gen/tests/Test.java"));
    assertTrue(testSource.contains("  @Constructor\n  Account newAccount(long id, String owner);\n"), testSource);
    assertTrue(testSource.contains("  @Method(of = Account.class, value = \"parse\")\n  Account accountParse(String"
        + " text);\n"), testSource);

    TestLibrary.load();
    ClassLoader loader = new CompiledClassLoader(compilation, getClass().getClassLoader());
    Class<?> test = loader.loadClass("gen.tests.Test");
    Object functions = Packed4j.bind(test);
    assertEquals(5L, call(test, functions, "addInt32", 2, 3));
    assertEquals("h\u00e9llo", call(test, functions, "echoString", "h\u00e9llo"));
    assertEquals(List.of(1L, 2L), call(test, functions, "echoInt64List", List.of(1L, 2L)));
    assertEquals(Map.of("a", 1L), call(test, functions, "echoStringMap", Map.of("a", 1L)));
    // A set_body function: Object... in, the native result out.
    assertEquals("x", call(test, functions, "echoContainer", (Object) new Object[] {"x"}));

    Class<?> callbacks = loader.loadClass("gen.tests.TestCb");
    Object bound = Packed4j.bind(callbacks);
    try (PackedFunction upper = PackedFunction.of(args -> ((String) args[0]).toUpperCase())) {
      assertEquals(List.of("A", "B"), call(callbacks, bound, "mapStrings", upper, List.of("a", "b")));
    }
    Class<?> tensors = loader.loadClass("gen.tests.TestTensor");
    try (NDArray values = NDArray.fromArray(new float[] {1, 2}, 2);
        NDArray scaled = (NDArray) call(tensors, Packed4j.bind(tensors), "scale", values, 3.0)) {
      assertEquals(6.0f, scaled.asSegment().getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 1));
    }

    // A constructor and a static method on Test, setters and methods (one inherited, one overridden) on the objects.
    Class<?> accountType = loader.loadClass("gen.tests.Account");
    Class<?> savingsType = loader.loadClass("gen.tests.Savings");
    try (AutoCloseable alice = (AutoCloseable) call(test, functions, "newAccount", 1L, "alice");
        AutoCloseable bob = (AutoCloseable) call(test, functions, "accountParse", "2:bob");
        AutoCloseable carol = (AutoCloseable) call(test, functions, "newSavings", 3L, "carol", 5L)) {
      assertEquals(100L, accountType.getMethod("deposit", long.class).invoke(alice, 100L));
      assertEquals(70L, accountType.getMethod("transfer", accountType, long.class).invoke(alice, bob, 30L));
      assertEquals(30L, accountType.getMethod("balance").invoke(bob));
      accountType.getMethod("owner", String.class).invoke(bob, "robert");
      assertEquals("account robert", accountType.getMethod("label").invoke(bob));
      accountType.getMethod("balance", long.class).invoke(carol, 10L);
      assertEquals(15L, savingsType.getMethod("interest").invoke(carol));
      assertEquals("savings carol", accountType.getMethod("label").invoke(carol), "the child's override wins");
      assertEquals(5L, call(test, functions, "accountCount", 2L, 3L));
    }
  }

  @Test
  void everySamplesLibraryGeneratesInterfacesThatCompileCleanAgainstItsManifest() throws Exception {
    Path builds = Path.of(System.getProperty("packed4j.test.sampleLibraries"));
    List<Path> samples;
    try (Stream<Path> list = Files.list(Path.of(System.getProperty("packed4j.test.samples")))) {
      samples = list.filter(sample -> Files.isDirectory(sample.resolve("native"))).sorted().toList();
    }
    assertFalse(samples.isEmpty());
    for (Path sample : samples) {
      String name = sample.getFileName().toString();
      Path library = builds.resolve(name).resolve("lib" + name + ".so");
      assertTrue(Files.isRegularFile(library), "the sample " + name + " built no " + library);
      Path sources = directory.resolve(name);
      Result generated = cli("generate", library.toString(), "--package", "gen." + name, "--out", sources.toString());
      assertEquals(0, generated.status, generated.output);
      compileCleanly(sources, describe(library));
    }
  }

  @Test
  void theCalculatorSamplesGeneratedInterfacesCallItsFunctionsAndObjects() throws Exception {
    Path library = Path.of(System.getProperty("packed4j.test.sampleLibraries"), "calculator", "libcalculator.so");
    Path sources = directory.resolve("calculator");
    Result generated = cli("generate", library.toString(), "--package", "gen.calculator", "--out",
        sources.toString());
    assertEquals(0, generated.status, generated.output);
    Compilation compilation = compileCleanly(sources, describe(library));

    Packed4j.loadLibrary(library);
    ClassLoader loader = new CompiledClassLoader(compilation, getClass().getClassLoader());
    Class<?> calculator = loader.loadClass("gen.calculator.Calculator");
    Object functions = Packed4j.bind(calculator);
    assertEquals(6L, call(calculator, functions, "mul", 2L, 3L));
    assertEquals(true, call(calculator, functions, "isEven", 4L));
    assertEquals(3L, call(calculator, functions, "myAdd", (Object) new Object[] {1, 2}));
    // The object type Calculator clashes with the interface Calculator: its interface is CalculatorRef.
    Class<?> ref = Class.forName("gen.calculator.Packed4j_CalculatorRef", true, loader).getInterfaces()[0];
    assertEquals("gen.calculator.CalculatorRef", ref.getName());
    Object casio = call(calculator, functions, "createCalculator", (Object) new Object[] {"casio", 100});
    try {
      assertTrue(ref.isInstance(casio), casio.getClass().toString());
      assertEquals("casio", ref.getMethod("brand").invoke(casio));
      assertEquals(100, ref.getMethod("price").invoke(casio), "price is an int32 field: int price()");
    } finally {
      ((AutoCloseable) casio).close();
    }
    // The type's constructor and static method are on the interface of its key's prefix (none: Globals); its
    // methods and the setter of its writable price on CalculatorRef.
    Class<?> globals = loader.loadClass("gen.calculator.Globals");
    Object typeMembers = Packed4j.bind(globals);
    try (AutoCloseable made = (AutoCloseable) call(globals, typeMembers, "newCalculator", "hp", 50);
        AutoCloseable parsed = (AutoCloseable) call(globals, typeMembers, "calculatorParse", "ti:30")) {
      assertEquals(7L, ref.getMethod("add", long.class, long.class).invoke(made, 3L, 4L));
      ref.getMethod("price", int.class).invoke(made, 60);
      assertEquals("hp costs 60", ref.getMethod("describe").invoke(made));
      assertEquals("ti", ref.getMethod("brand").invoke(parsed));
    }
  }

  @Test
  void anExistingHandWrittenInterfaceIsUsedByTheGeneratedOnes() throws Exception {
    Path library = Path.of(System.getProperty("packed4j.test.sampleLibraries"), "geometry", "libgeometry.so");
    Path sources = directory.resolve("existing");
    Files.createDirectories(sources.resolve("hand"));
    Files.writeString(sources.resolve("hand/Shape.java"), """
        package hand;

        import dev.packed4j.annotations.Method;
        import dev.packed4j.annotations.Object;

        /** Written by hand: the generated Circle and Square extend it. */
        @Object("geometry.Shape")
        public interface Shape extends AutoCloseable {
          String name();

          @Method("Area")
          double area();

          @Override
          void close();
        }
        """);
    Result generated = cli("generate", library.toString(), "--package", "gen.existing", "--out", sources.toString(),
        "--existing", "geometry.Shape=hand.Shape");
    assertEquals(0, generated.status, generated.output);
    assertFalse(Files.exists(sources.resolve("gen/existing/Shape.java")), generated.output);
    Compilation compilation = compileCleanly(sources, describe(library));

    Packed4j.loadLibrary(library);
    ClassLoader loader = new CompiledClassLoader(compilation, getClass().getClassLoader());
    Class<?> geometry = loader.loadClass("gen.existing.Geometry");
    Class<?> shape = loader.loadClass("hand.Shape");
    Class<?> circle = loader.loadClass("gen.existing.Circle");
    assertTrue(shape.isAssignableFrom(circle), "Circle extends hand.Shape");
    try (AutoCloseable made = (AutoCloseable) call(geometry, Packed4j.bind(geometry), "makeCircle", "c", 2.0)) {
      assertTrue(circle.isInstance(made), made.getClass().toString());
      assertEquals("c", shape.getMethod("name").invoke(made));
      assertEquals(4 * Math.PI, (double) shape.getMethod("area").invoke(made), 1e-9);
    }
    Result unknown = cli("generate", library.toString(), "--package", "gen.existing", "--out", sources.toString(),
        "--existing", "geometry.Shap=hand.Shape");
    assertEquals(2, unknown.status, unknown.output);
    assertTrue(unknown.output.contains("--existing names the object type geometry.Shap, which the libraries do not"
        + " register"), unknown.output);
  }

  @Test
  void aSecondRunOnTheSameLibraryRewritesNothing() throws Exception {
    Path library = Path.of(System.getProperty("packed4j.test.sampleLibraries"), "callbacks", "libcallbacks.so");
    Path sources = directory.resolve("twice");
    Result first = cli("generate", library.toString(), "--package", "gen.twice", "--out", sources.toString());
    assertEquals(0, first.status, first.output);
    Path file = sources.resolve("gen/twice/Callbacks.java");
    String text = Files.readString(file);
    FileTime old = FileTime.fromMillis(1_000_000_000_000L);
    Files.setLastModifiedTime(file, old);
    Result second = cli("generate", library.toString(), "--package", "gen.twice", "--out", sources.toString());
    assertEquals(0, second.status, second.output);
    assertTrue(second.output.contains("(0 written, 1 unchanged, 0 stale deleted)"), second.output);
    assertEquals(old, Files.getLastModifiedTime(file));
    assertEquals(text, Files.readString(file));
    assertTrue(text.startsWith("// Generated by packed4j generate. Do not edit: change the C++ registrations and"
        + " generate again.\n// From libcallbacks.so, sha-256 "), text);
  }

  @Test
  void awkwardRegistryNamesBecomeInterfacesThatCompile() throws Exception {
    Path manifest = Files.writeString(directory.resolve("awkward.manifest.json"), """
        {"format": "packed4j-manifest", "version": 1, "library": "libawkward.so",
         "globals": [
           {"name": "calculator.New", "typed": true, "parameters": ["int64"], "result": "Calculator"},
           {"name": "calculator.new", "typed": true, "parameters": [], "result": "void"},
           {"name": "calculator.ToString", "typed": true, "parameters": [], "result": "string"},
           {"name": "calculator.2dArea", "typed": true, "parameters": ["list<String>"], "result": "float64"},
           {"name": "calculator.Dynamic", "typed": false},
           {"name": "only_untyped.Run", "typed": false},
           {"name": "Bare", "typed": true, "parameters": ["map<string, optional<int32>>"], "result": "any"},
           {"name": "list.Size", "typed": true, "parameters": ["list<int64>"], "result": "int64"}
         ],
         "objectTypes": [
           {"key": "Calculator", "parent": "Object", "fields": [
             {"name": "class", "type": "string", "declaredBy": "Calculator"},
             {"name": "close", "type": "int64", "declaredBy": "Calculator"}]},
           {"key": "String", "parent": "Object", "fields": []},
           {"key": "a.Tree", "parent": "Object", "fields": []},
           {"key": "b.Tree", "parent": "a.Tree", "fields": [
             {"name": "depth", "type": "int32", "declaredBy": "b.Tree"},
             {"name": "close", "type": "bool", "declaredBy": "b.Tree"}]}
         ],
         "coreGlobals": [], "coreObjectTypes": []}
        """);
    Path sources = directory.resolve("awkward");
    Result generated = cli("generate", "--manifest", manifest.toString(), "--package", "gen.awkward", "--out",
        sources.toString());
    assertEquals(0, generated.status, generated.output);
    assertTrue(generated.output.contains("packed4j generate: warning: calculator.2dArea is not a name @Global"
        + " accepts (segments [A-Za-z_][A-Za-z0-9_]* joined by dots): generated as _2dArea(Object...)"),
        generated.output);
    Compilation compilation = compileCleanly(sources, null);
    ClassLoader loader = new CompiledClassLoader(compilation, getClass().getClassLoader());
    Class<?> calculator = loader.loadClass("gen.awkward.Calculator");
    assertTrue(hasMethod(calculator, "new_"), "New is a keyword");
    assertTrue(hasMethod(calculator, "new_2"), "new clashes with New");
    assertTrue(hasMethod(calculator, "toString_"), "toString is a method of Object");
    assertTrue(hasMethod(calculator, "_2dArea"), "2dArea starts with a digit (and is looked up by name)");
    assertTrue(hasMethod(calculator, "dynamic"));
    assertTrue(java.lang.reflect.Modifier.isStatic(
        loader.loadClass("gen.awkward.OnlyUntyped").getMethod("run", Object[].class).getModifiers()),
        "an interface with nothing to bind has its untyped functions as static methods");
    assertTrue(hasMethod(loader.loadClass("gen.awkward.Globals"), "bare"));
    Class<?> ref = loader.loadClass("gen.awkward.CalculatorRef");
    assertTrue(hasMethod(ref, "class_") && hasMethod(ref, "close_") && hasMethod(ref, "close"));
    loader.loadClass("gen.awkward.StringRef");
    Class<?> bTree = loader.loadClass("gen.awkward.BTree");
    assertEquals(loader.loadClass("gen.awkward.ATree"), bTree.getInterfaces()[0]);
    assertTrue(hasMethod(bTree, "close_"), "a close field under a parent that declares close()");
    assertTrue(hasMethod(loader.loadClass("gen.awkward.List2"), "size"), "List would hide java.util.List");
  }

  private static boolean hasMethod(Class<?> type, String name) {
    return Stream.of(type.getMethods()).anyMatch(method -> method.getName().equals(name));
  }

  /** Compiles every generated file with the processor, against {@code manifest} when given: no packed4j diagnostic. */
  private static Compilation compileCleanly(Path sources, Path manifest) throws IOException {
    List<JavaFileObject> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(sources)) {
      for (Path file : walk.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        String relative = sources.relativize(file).toString();
        String name = relative.substring(0, relative.length() - ".java".length()).replace(File.separatorChar, '.');
        files.add(JavaFileObjects.forSourceString(name, Files.readString(file)));
      }
    }
    assertFalse(files.isEmpty(), "nothing generated in " + sources);
    List<String> options = new ArrayList<>(List.of("-Xlint:all"));
    if (manifest != null) {
      options.add("-Apacked4j.manifest=" + manifest);
    }
    Compilation compilation = Compiler.javac().withProcessors(new Packed4jProcessor()).withOptions(options)
        .compile(files);
    assertThat(compilation).succeeded();
    List<String> diagnostics = compilation.diagnostics().stream()
        .filter(d -> d.getKind() != Diagnostic.Kind.NOTE)
        .map(d -> d.getKind() + ": " + d.getMessage(null)).toList();
    assertEquals(List.of(), diagnostics);
    return compilation;
  }

  private Path describe(Path library) throws Exception {
    Path manifest = directory.resolve(library.getFileName() + ".manifest.json");
    Result described = cli("describe", library.toString(), "--json", manifest.toString());
    assertEquals(0, described.status, described.output);
    return manifest;
  }

  private static Object call(Class<?> type, Object target, String name, Object... arguments) throws Exception {
    for (Method method : type.getMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == arguments.length) {
        return method.invoke(target, arguments);
      }
    }
    throw new AssertionError(type + " has no method " + name);
  }

  private record Result(int status, String output) {}

  /** Runs packed4j-cli in a JVM of its own, as the Maven goals do. */
  private static Result cli(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), "dev.packed4j.cli.Main"));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("timed out: " + command);
    }
    return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
  }

  /** Defines the classes of a compilation from memory. */
  private static final class CompiledClassLoader extends ClassLoader {
    private final Map<String, byte[]> classes = new HashMap<>();

    CompiledClassLoader(Compilation compilation, ClassLoader parent) {
      super(parent);
      for (JavaFileObject file : compilation.generatedFiles()) {
        if (file.getKind() != JavaFileObject.Kind.CLASS) {
          continue;
        }
        String path = file.toUri().getPath();
        String name = path.substring(path.indexOf("/CLASS_OUTPUT/") + "/CLASS_OUTPUT/".length(),
            path.length() - ".class".length()).replace('/', '.');
        try (InputStream in = file.openInputStream()) {
          classes.put(name, in.readAllBytes());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
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
