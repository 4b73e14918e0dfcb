package dev.packed4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.source;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks against a manifest ({@code -Apacked4j.manifest}): the {@code P4J-NATIVE-*} and
 * {@code P4J-MANIFEST-*} diagnostics, each on the element (and annotation value) it is about. The manifest here has
 * the shape {@code packed4j describe --json} writes; packed4j-tests checks one written by the real command.
 */
class ManifestDiagnosticsTest {
  private static final String MANIFEST = """
      {
        "format": "packed4j-manifest",
        "version": 1,
        "library": "libcalculator.so",
        "globals": [
          {"name": "calculator.CreateCalculator", "typed": true, "parameters": ["string", "int64"],
           "result": "Calculator"},
          {"name": "calculator.Echo", "typed": true, "parameters": ["string"], "result": "string"},
          {"name": "calculator.Mul", "typed": true, "parameters": ["int64", "int64"], "result": "int64"},
          {"name": "calculator.MyAdd", "typed": false},
          {"name": "calculator.Rate", "typed": true, "parameters": ["Calculator"], "result": "float64"},
          {"name": "calculator.Sum", "typed": true, "parameters": ["list<int64>"], "result": "int64"}
        ],
        "objectTypes": [
          {"key": "Calculator", "parent": "Object", "fields": [
            {"name": "brand", "type": "string", "declaredBy": "Calculator"},
            {"name": "price", "type": "int32", "declaredBy": "Calculator"}]},
          {"key": "ScientificCalculator", "parent": "Calculator", "fields": [
            {"name": "brand", "type": "string", "declaredBy": "Calculator"},
            {"name": "price", "type": "int32", "declaredBy": "Calculator"},
            {"name": "precision", "type": "int32", "declaredBy": "ScientificCalculator"}]},
          {"key": "test.Shape", "parent": "Object", "fields": [
            {"name": "sides", "type": "int32", "declaredBy": "test.Shape"}]}
        ],
        "coreGlobals": [
          {"name": "packed4j.ListSize", "typed": true, "parameters": ["list<any>"], "result": "int64"}
        ],
        "coreObjectTypes": [
          {"key": "Object", "fields": []},
          {"key": "String", "parent": "Object", "fields": []}
        ]
      }
      """;

  private static final String CALCULATOR_REF = """
      package p;
      import dev.packed4j.annotations.Object;
      @Object("Calculator")
      public interface CalculatorRef extends AutoCloseable {
        String brand();
        int price();
        @Override void close();
      }
      """;

  @TempDir static Path directory;
  private static Path manifest;

  @BeforeAll
  static void writeManifest() throws IOException {
    manifest = Files.writeString(directory.resolve("calculator.manifest.json"), MANIFEST);
  }

  private static Compilation compile(Path manifestFile, JavaFileObject... sources) {
    return Compilations.compiler(List.of("-Apacked4j.manifest=" + manifestFile), new Packed4jProcessor())
        .compile(sources);
  }

  private static Compilation compileVerbose(Path manifestFile, JavaFileObject... sources) {
    return Compilations.compiler(
            List.of("-Apacked4j.manifest=" + manifestFile, "-Apacked4j.verbose=true"), new Packed4jProcessor())
        .compile(sources);
  }

  @Compilers
  void aCorrectDeclarationCompilesClean() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import java.util.List;
            import java.util.Optional;
            public interface Calculator {
              @Global("calculator.Mul") int multiply(int a, long b);
              @Global("calculator.Mul") double multiplyAsDouble(short a, Long b);
              @Global("calculator.Echo") Optional<String> echo(String text);
              @Global("calculator.Sum") long sum(List<Long> values);
              @Global("calculator.CreateCalculator") CalculatorRef create(String brand, long price);
              @Global("calculator.CreateCalculator") ScientificRef createScientific(String brand, int price);
              @Global("calculator.Rate") double rate(ScientificRef calculator);
              @Global("calculator.Rate") double rateAny(java.lang.Object calculator);
              @Global("packed4j.ListSize") long size(List<String> values);
            }
            """);
    JavaFileObject scientific =
        source(
            "p.ScientificRef",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            @Object("ScientificCalculator")
            public interface ScientificRef extends CalculatorRef {
              @Field("precision") long digits();
            }
            """);
    Compilation compilation = compile(manifest, calculator, source("p.CalculatorRef", CALCULATOR_REF), scientific);
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Compilers
  void anUnknownGlobalIsReportedOnTheNameWithTheNearestRegisteredOne() {
    JavaFileObject calculator = calculator("@Global(\"calculator.MyAd\") int add(int a, int b);");
    Compilation compilation = compile(manifest, calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-UNKNOWN-GLOBAL] no global function \"calculator.MyAd\" is registered by the libraries of"
                + " the manifest (calculator.manifest.json), so Calculator.add(int,int) would fail at its first"
                + " call. Correct the name, or add the manifest of the library that registers it. Did you mean"
                + " \"calculator.MyAdd\"?")
        .inFile(calculator)
        .onLine(5)
        .atColumn(11);
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void theSameWrongDeclarationCompilesWithoutAManifest() {
    assertThat(Compilations.compile(calculator("@Global(\"calculator.MyAd\") String add(int a);"))).succeeded();
  }

  @Compilers
  void aWrongParameterCountIsReportedOnTheMethod() {
    JavaFileObject calculator = calculator("@Global(\"calculator.Mul\") long multiply(long a);");
    assertThat(compile(manifest, calculator))
        .hadErrorContaining(
            "[P4J-NATIVE-ARITY] Calculator.multiply(long) has 1 parameter, but calculator.Mul takes 2 (registered"
                + " as (int64, int64) -> int64). Declare one parameter per native argument")
        .inFile(calculator)
        .onLineContaining("long multiply(long a)");
  }

  @Compilers
  void anIntParameterForAStringIsReportedOnTheParameter() {
    JavaFileObject calculator = calculator("@Global(\"calculator.Echo\") String echo(\n    int text);");
    assertThat(compile(manifest, calculator))
        .hadErrorContaining(
            "[P4J-NATIVE-PARAMETER-TYPE] parameter text of Calculator.echo(int) is int, which cannot convert to"
                + " string, argument 0 of calculator.Echo registered as (string) -> string: the native side takes a"
                + " string."
                + " Declare it as String")
        .inFile(calculator)
        .onLineContaining("int text");
  }

  @Compilers
  void aListOfStringsForAListOfIntegersIsReportedOnTheParameter() {
    JavaFileObject calculator = calculator("@Global(\"calculator.Sum\") long sum(List<String> values);");
    assertThat(compile(manifest, calculator))
        .hadErrorContaining(
            "[P4J-NATIVE-PARAMETER-TYPE] parameter values of Calculator.sum(List<String>) is List<String>, which"
                + " cannot convert to list<int64>, argument 0 of calculator.Sum registered as (list<int64>) -> int64:"
                + " its elements: the native side takes an integer. Declare it as List<Long>")
        .inFile(calculator)
        .onLineContaining("List<String> values");
  }

  @Compilers
  void aDoubleForAnIntegerAndUnrelatedObjectsAreReported() {
    JavaFileObject calculator =
        calculator(
            "@Global(\"calculator.Mul\") long multiply(double a, long b);\n"
                + "  @Global(\"calculator.Rate\") double rate(ShapeRef shape);");
    JavaFileObject shape =
        source(
            "p.ShapeRef",
            "package p;\n@dev.packed4j.annotations.Object(\"test.Shape\")\npublic interface ShapeRef { int sides(); }");
    Compilation compilation = compile(manifest, calculator, shape);
    assertThat(compilation)
        .hadErrorContaining("[P4J-NATIVE-PARAMETER-TYPE] parameter a of Calculator.multiply(double,long) is double,"
            + " which cannot convert to int64, argument 0 of calculator.Mul registered as (int64, int64) -> int64: a"
            + " floating-point value never converts to an integer. Declare it as long")
        .inFile(calculator)
        .onLineContaining("double a");
    assertThat(compilation)
        .hadErrorContaining("cannot convert to Calculator, argument 0 of calculator.Rate registered as (Calculator)"
            + " -> float64: the native types test.Shape and Calculator are unrelated (neither derives from the"
            + " other). Declare it as an @Object(\"Calculator\") interface")
        .inFile(calculator)
        .onLineContaining("ShapeRef shape");
  }

  @Compilers
  void aStringResultForAnInt64IsReportedOnTheMethod() {
    JavaFileObject calculator = calculator("@Global(\"calculator.Mul\") String multiply(long a, long b);");
    assertThat(compile(manifest, calculator))
        .hadErrorContaining(
            "[P4J-NATIVE-RESULT-TYPE] the result of Calculator.multiply(long,long) is String, but calculator.Mul"
                + " returns int64 (registered as (int64, int64) -> int64): the native side returns an integer. Declare"
                + " the result"
                + " as long")
        .inFile(calculator)
        .onLineContaining("String multiply");
  }

  @Compilers
  void anUntypedGlobalIsCheckedByNameOnlyQuietly() {
    JavaFileObject calculator = calculator("@Global(\"calculator.MyAdd\") String add(double a);");
    Compilation compilation = compile(manifest, calculator);
    assertThat(compilation).succeeded();
    assertThat(compilation.notes().stream().filter(n -> n.getMessage(null).contains("P4J-")).toList()).isEmpty();
  }

  @Compilers
  void anUntypedGlobalGetsANoteWhenVerbose() {
    JavaFileObject calculator = calculator("@Global(\"calculator.MyAdd\") String add(double a);");
    Compilation compilation = compileVerbose(manifest, calculator);
    assertThat(compilation).succeeded();
    assertThat(compilation)
        .hadNoteContaining(
            "[P4J-NATIVE-UNTYPED] calculator.MyAdd is registered with set_body, which records no signature, so only"
                + " its name was checked against the manifest")
        .inFile(calculator)
        .onLineContaining("String add");
  }

  @Compilers
  void noManifestGetsOneNoteWhenVerboseAndNoneOtherwise() {
    JavaFileObject calculator = calculator("@Global(\"calculator.MyAdd\") String add(double a);");
    Compilation verbose =
        Compilations.compiler(List.of("-Apacked4j.verbose=true"), new Packed4jProcessor()).compile(calculator);
    assertThat(verbose).succeeded();
    assertThat(verbose)
        .hadNoteContaining(
            "[P4J-MANIFEST-UNSET] no manifest was given (-Apacked4j.manifest), so declarations were checked on"
                + " their own");
    assertThat(verbose.notes().stream().filter(n -> n.getMessage(null).contains("P4J-")).count()).isEqualTo(1);
    Compilation quiet = Compilations.compile(calculator);
    assertThat(quiet.notes().stream().filter(n -> n.getMessage(null).contains("P4J-")).toList()).isEmpty();
  }

  @Compilers
  void anUnexpandedBuildPropertyIsNoManifest() {
    // Maven passes -Apacked4j.manifest=${packed4j.manifest} as is when the describe goal did not run (mvn
    // compiler:compile, an IDE's own build): every check that needs no manifest runs, and nothing fails.
    JavaFileObject calculator = calculator("@Global(\"calculator.MyAdd\") String add(double a);");
    String unexpanded = "-Apacked4j.manifest=${packed4j.manifest}";
    Compilation quiet = Compilations.compiler(List.of(unexpanded), new Packed4jProcessor()).compile(calculator);
    assertThat(quiet).succeeded();
    assertThat(quiet.notes().stream().filter(n -> n.getMessage(null).contains("P4J-")).toList()).isEmpty();
    Compilation verbose = Compilations.compiler(List.of(unexpanded, "-Apacked4j.verbose=true"),
        new Packed4jProcessor()).compile(calculator);
    assertThat(verbose).succeeded();
    assertThat(verbose)
        .hadNoteContaining("[P4J-MANIFEST-UNSET] no manifest was given (-Apacked4j.manifest is ${packed4j.manifest},"
            + " a build property nothing set: packed4j-maven-plugin's describe goal, which sets it, did not run), so"
            + " declarations were checked on their own");
  }

  @Compilers
  void anUnknownTypeKeyIsReportedOnTheKeyWithTheNearestRegisteredOne() {
    JavaFileObject ref = source("p.CalculatorRef", CALCULATOR_REF.replace("\"Calculator\"", "\"Calculatr\""));
    Compilation compilation = compile(manifest, ref);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-UNKNOWN-TYPE-KEY] no object type \"Calculatr\" is registered by the libraries of the"
                + " manifest (calculator.manifest.json), so no native object can be viewed through CalculatorRef."
                + " Correct the key (the C++ class's _type_key). Did you mean \"Calculator\"?")
        .inFile(ref)
        .onLine(3)
        .atColumn(9);
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void aGetterWithoutAFieldIsReportedOnTheMethodOrItsFieldName() {
    JavaFileObject ref =
        source(
            "p.CalculatorRef",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            @Object("Calculator")
            public interface CalculatorRef {
              int prise();
              @Field("brnd") String name();
            }
            """);
    Compilation compilation = compile(manifest, ref);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-UNKNOWN-FIELD] CalculatorRef.prise() reads the field \"prise\", but the native type"
                + " \"Calculator\" has no such field (its fields: brand: string, price: int32). Name a field its"
                + " VisitAttrs visits, naming it with @Field(\"<name>\") on the method if needed. Did you mean"
                + " \"price\"?")
        .inFile(ref)
        .onLineContaining("int prise()");
    assertThat(compilation)
        .hadErrorContaining("[P4J-NATIVE-UNKNOWN-FIELD] CalculatorRef.name() reads the field \"brnd\"")
        .inFile(ref)
        .onLine(7)
        .atColumn(10);
  }

  @Compilers
  void aGetterThatCannotReadItsFieldIsReported() {
    JavaFileObject ref =
        source(
            "p.CalculatorRef",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("Calculator")
            public interface CalculatorRef {
              String price();
              boolean brand();
            }
            """);
    Compilation compilation = compile(manifest, ref);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-FIELD-TYPE] CalculatorRef.price() returns String, but the field \"price\" of \"Calculator\""
                + " is int32: a String getter reads a string field. Declare the getter as int")
        .inFile(ref)
        .onLineContaining("String price()");
    assertThat(compilation)
        .hadErrorContaining("the field \"brand\" of \"Calculator\" is string: a boolean getter reads a bool field")
        .inFile(ref)
        .onLineContaining("boolean brand()");
  }

  @Compilers
  void aParentThatIsNotTheNativeParentIsReportedOnTheInterface() {
    JavaFileObject shape =
        source(
            "p.ShapeRef",
            "package p;\n@dev.packed4j.annotations.Object(\"test.Shape\")\npublic interface ShapeRef { int sides(); }");
    JavaFileObject ref =
        source(
            "p.CalculatorRef",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("Calculator")
            public interface CalculatorRef extends ShapeRef {
              int price();
            }
            """);
    assertThat(compile(manifest, ref, shape))
        .hadErrorContaining(
            "[P4J-NATIVE-PARENT] CalculatorRef extends ShapeRef, the view of \"test.Shape\", but the native type"
                + " \"Calculator\" does not derive from it (its parent is \"Object\"). Extend the @Object interface"
                + " of the native parent, or none")
        .inFile(ref)
        .onLineContaining("public interface CalculatorRef");
  }

  @Compilers
  void severalManifestsAreJoinedWithThePathSeparator() throws IOException {
    Path other = Files.writeString(directory.resolve("other.manifest.json"), """
        {"format": "packed4j-manifest", "version": 1, "library": "libother.so",
         "globals": [{"name": "other.Twice", "typed": true, "parameters": ["int64"], "result": "int64"}],
         "objectTypes": [], "coreGlobals": [], "coreObjectTypes": []}
        """);
    JavaFileObject calculator =
        calculator("@Global(\"other.Twice\") long twice(long a);\n"
            + "  @Global(\"calculator.Mul\") long mul(long a, long b);"
            + "\n  @Global(\"other.Thrice\") long thrice(long a);");
    Compilation compilation = compile(Path.of(manifest + java.io.File.pathSeparator + other), calculator);
    assertThat(compilation)
        .hadErrorContaining("[P4J-NATIVE-UNKNOWN-GLOBAL] no global function \"other.Thrice\" is registered by the"
            + " libraries of the manifest (calculator.manifest.json, other.manifest.json)")
        .inFile(calculator)
        .onLineContaining("thrice");
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void aMissingManifestIsOneError() {
    Path missing = directory.resolve("missing.manifest.json");
    assertManifestCannotBeUsed(missing, "[P4J-MANIFEST-UNREADABLE]",
        " does not exist. Nothing was checked against the native side. Write it with 'packed4j describe"
            + " <library.so> --json <file>' after building the library, and pass that file");
  }

  @Compilers
  void aMalformedManifestIsOneErrorSayingWhere() throws IOException {
    Path malformed = Files.writeString(
        directory.resolve("malformed.json"), "{\n  \"format\": \"packed4j-manifest\",\n  \"version\": 1,,\n}");
    assertManifestCannotBeUsed(malformed, "[P4J-MANIFEST-UNREADABLE]",
        ": it is not valid JSON: a member name (a string) was expected at line 3, column 16.");
  }

  @Compilers
  void aManifestOfAnotherVersionIsOneError() throws IOException {
    Path newer =
        Files.writeString(directory.resolve("newer.json"), MANIFEST.replace("\"version\": 1", "\"version\": 3"));
    assertManifestCannotBeUsed(newer, "[P4J-MANIFEST-VERSION]",
        ": it is version 3 of the format, and this processor reads packed4j-manifest versions 1 to 2. Write it"
            + " again with the packed4j describe of the same packed4j version. Nothing was checked against the"
            + " native side");
  }

  @Compilers
  void anOptionalArgumentForAPlainNativeParameterIsReportedOnTheParameter() {
    JavaFileObject calculator = source("p.Calculator", """
        package p;
        import dev.packed4j.annotations.Global;
        import java.util.Optional;
        public interface Calculator {
          @Global("calculator.Mul") long mul(Optional<Long> a, long b);
          @Global("calculator.Rate") double rate(Optional<CalculatorRef> calculator);
          @Global("calculator.Echo") Optional<String> echo(String text);
        }
        """);
    Compilation compilation = compile(manifest, calculator, source("p.CalculatorRef", CALCULATOR_REF));
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-PARAMETER-TYPE] parameter a of Calculator.mul(Optional<Long>,long) is Optional<Long>, which"
                + " cannot convert to int64, argument 0 of calculator.Mul registered as (int64, int64) -> int64: the"
                + " native side takes int64, never None (it is not optional<int64>), so an empty Optional always"
                + " fails. Declare it as long")
        .inFile(calculator)
        .onLineContaining("Optional<Long> a");
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-PARAMETER-TYPE] parameter calculator of Calculator.rate(Optional<CalculatorRef>) is"
                + " Optional<CalculatorRef>, which cannot convert to Calculator, argument 0 of calculator.Rate"
                + " registered as (Calculator) -> float64: the native side takes Calculator, never None")
        .inFile(calculator)
        .onLineContaining("Optional<CalculatorRef> calculator");
    assertThat(compilation).hadErrorCount(2); // an Optional result of a plain result is fine: it is never empty
  }

  @Compilers
  void aManifestNestedTooDeeplyIsOneErrorNotAStackOverflow() throws IOException {
    String start = "{\"format\": \"packed4j-manifest\", \"version\": 2, \"globals\": ";
    Path deep = Files.writeString(directory.resolve("deep.json"),
        start + "[".repeat(10_000) + "]".repeat(10_000) + "}");
    // The root object is the first level, so the 256th bracket is the 257th level.
    assertManifestCannotBeUsed(deep, "[P4J-MANIFEST-UNREADABLE]",
        ": it nests arrays and objects more than 256 levels deep at line 1, column " + (start.length() + 256)
            + ", deeper than packed4j reads (a manifest nests six): it is not a manifest packed4j describe wrote."
            + " Nothing was checked against the native side");
  }

  @Compilers
  void aVersionWrittenAsAStringIsCalledOne() throws IOException {
    Path quoted =
        Files.writeString(directory.resolve("quoted.json"), MANIFEST.replace("\"version\": 1", "\"version\": \"2\""));
    assertManifestCannotBeUsed(quoted, "[P4J-MANIFEST-VERSION]",
        ": its \"version\" is the string \"2\", not a number (write \"version\": 1 or 2), and this"
            + " processor reads packed4j-manifest versions 1 to 2. Write it again with the packed4j describe of the"
            + " same packed4j version. Nothing was checked against the native side");
  }

  @Compilers
  void aGlobalTwoManifestsRegisterIsOneErrorAndTheFirstIsChecked() throws IOException {
    Path other = Files.writeString(directory.resolve("other-mul.manifest.json"), """
        {"format": "packed4j-manifest", "version": 1, "library": "libother.so",
         "globals": [{"name": "calculator.Mul", "typed": true, "parameters": ["string"], "result": "string"}],
         "objectTypes": [{"key": "Calculator", "parent": "Object", "fields": []}],
         "coreGlobals": [{"name": "packed4j.ListSize", "typed": true, "parameters": ["list<any>"],
           "result": "int64"}],
         "coreObjectTypes": [{"key": "Object", "fields": []}]}
        """);
    JavaFileObject calculator = calculator("@Global(\"calculator.Mul\") long mul(long a, long b);");
    JavaFileObject more = source("p.More", """
        package p;
        import dev.packed4j.annotations.Global;
        public interface More {
          @Global("calculator.Mul") long times(long a, long b);
        }
        """);
    Compilation compilation =
        compile(Path.of(manifest + java.io.File.pathSeparator + other), calculator, more);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-MANIFEST-DUPLICATE] the global function \"calculator.Mul\" is registered twice in the manifests"
                + " given with -Apacked4j.manifest: first by " + manifest + " (as (int64, int64) -> int64), then by "
                + other + " (as (string) -> string). The native registry keeps the first registration and refuses the"
                + " second (Packed4j.loadLibrary throws for the library loaded second), so declarations are checked"
                + " against the first. Rename one of them in its C++ registration, or pass only the manifest of the"
                + " library the program loads");
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-MANIFEST-DUPLICATE] the object type \"Calculator\" is registered twice in the manifests given with"
                + " -Apacked4j.manifest: first by " + manifest + ", then by " + other + ". The native registry");
    assertThat(compilation).hadErrorCount(2); // once each, and mul(long,long) fits the first registration

    Compilation reversed =
        compile(Path.of(other + java.io.File.pathSeparator + manifest), calculator);
    assertThat(reversed).hadErrorContaining("first by " + other + " (as (string) -> string), then by " + manifest);
    assertThat(reversed)
        .hadErrorContaining("[P4J-NATIVE-ARITY] Calculator.mul(long,long) has 2 parameters, but calculator.Mul takes 1")
        .inFile(calculator)
        .onLineContaining("long mul(");
  }

  @Compilers
  void aGlobalOneManifestListsTwiceIsReported() throws IOException {
    Path twice = Files.writeString(directory.resolve("twice.manifest.json"), MANIFEST.replace(
        "\"globals\": [",
        "\"globals\": [\n    {\"name\": \"calculator.Mul\", \"typed\": false},"));
    Compilation compilation =
        compile(twice, calculator("@Global(\"calculator.Mul\") long mul(long a, long b);"));
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-MANIFEST-DUPLICATE] the global function \"calculator.Mul\" is registered twice in the manifests"
                + " given with -Apacked4j.manifest: first by " + twice + " (untyped, set_body), then by " + twice
                + " again (as (int64, int64) -> int64).");
    assertThat(compilation).hadErrorCount(1);
  }

  /**
   * Compiles an interface of one global against {@code manifest} and checks that the only diagnostic is the error
   * {@code id} (in brackets, as DiagnosticCatalogTest looks for it) saying that the manifest cannot be used, for the
   * reason that follows its path, {@code why}.
   */
  private void assertManifestCannotBeUsed(Path manifest, String id, String why) {
    Compilation compilation = compile(manifest, calculator("@Global(\"calculator.Mul\") long multiply(long a);"));
    assertThat(compilation).hadErrorContaining(
        id + " the manifest given with -Apacked4j.manifest cannot be used: " + manifest + why);
    assertThat(compilation).hadErrorCount(1);
  }

  /**
   * A primitive array inside a container or an Optional is reported with the container of NDArray to declare in its
   * place, which is what a native {@code list<NDArray>} result and {@code optional<NDArray>} argument take; the
   * List of boxed numbers once suggested is not.
   */
  @Compilers
  void arraysInsideContainersSuggestTheContainerOfNDArrayTheNativeSideTakes() throws IOException {
    Path tensors = Files.writeString(directory.resolve("tensors.manifest.json"), """
        {
          "format": "packed4j-manifest",
          "version": 2,
          "library": "libtensors.so",
          "globals": [
            {"name": "t.Rows", "typed": true, "parameters": ["NDArray"], "result": "list<NDArray>"},
            {"name": "t.Maybe", "typed": true, "parameters": ["optional<NDArray>"], "result": "float64"}
          ],
          "objectTypes": [],
          "coreGlobals": [],
          "coreObjectTypes": [{"key": "Object", "fields": []}, {"key": "NDArray", "parent": "Object", "fields": []}]
        }
        """);
    JavaFileObject wrong = source("p.Tensors", """
        package p;
        import dev.packed4j.annotations.Global;
        import dev.packed4j.runtime.NDArray;
        import java.util.List;
        import java.util.Optional;
        public interface Tensors {
          @Global("t.Rows") List<float[]> rowsArr(NDArray a);
          @Global("t.Maybe") double maybe(Optional<float[]> a);
        }
        """);
    Compilation compilation = compile(tensors, wrong);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] List<float[]> is not a supported type for the result of"
                + " Tensors.rowsArr(NDArray): float[] crosses only as a parameter of its own (copied into a 1-D"
                + " NDArray); in List<float[]> declare List<NDArray>")
        .inFile(wrong)
        .onLine(7)
        .atColumn(35);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] Optional<float[]> is not a supported type for parameter a of"
                + " Tensors.maybe(Optional<float[]>): float[] crosses only as a parameter of its own (copied into a"
                + " 1-D NDArray); in Optional<float[]> declare Optional<NDArray>")
        .inFile(wrong)
        .onLine(8)
        .atColumn(53);
    assertThat(compilation).hadErrorCount(2);
    JavaFileObject suggested = source("p.Tensors", """
        package p;
        import dev.packed4j.annotations.Global;
        import dev.packed4j.runtime.NDArray;
        import java.util.List;
        import java.util.Optional;
        public interface Tensors {
          @Global("t.Rows") List<NDArray> rowsArr(NDArray a);
          @Global("t.Maybe") double maybe(Optional<NDArray> a);
        }
        """);
    assertThat(compile(tensors, suggested)).succeededWithoutWarnings();
  }

  /**
   * The getter types the array field diagnostic names (NativeObject for a tensor field, List<Double> for a
   * {@code list<float64>} field) are ones the native field check takes.
   */
  @Compilers
  void typesTheArrayFieldDiagnosticSuggestsMeetTheNativeFields() throws IOException {
    Path images = Files.writeString(directory.resolve("images.manifest.json"), """
        {
          "format": "packed4j-manifest",
          "version": 2,
          "library": "libimages.so",
          "globals": [],
          "objectTypes": [
            {"key": "img.Image", "parent": "Object", "fields": [
              {"name": "pixels", "type": "NDArray", "declaredBy": "img.Image"},
              {"name": "weights", "type": "list<float64>", "declaredBy": "img.Image"}]}
          ],
          "coreGlobals": [],
          "coreObjectTypes": [{"key": "Object", "fields": []}]
        }
        """);
    JavaFileObject image = source("p.ImageRef", """
        package p;
        import dev.packed4j.annotations.Object;
        import dev.packed4j.runtime.NativeObject;
        import java.util.List;
        @Object("img.Image")
        public interface ImageRef {
          NativeObject pixels();
          List<Double> weights();
        }
        """);
    Compilation compilation = compile(images, image);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadErrorCount(0);
    assertThat(compilation).hadWarningCount(0);
  }

  /**
   * A result the native side may return as None ({@code optional<T>}) needs a Java type that holds it: a primitive
   * does not, and the call that returns None fails ({@code returned None, expected long}). A box, an {@code Optional},
   * a String or an object holds it. The same for methods and static methods of an {@code @Object} type.
   */
  @Compilers
  void aPrimitiveResultOfAnOptionalNativeResultIsReportedOnTheMethod() throws IOException {
    Path optionals = Files.writeString(directory.resolve("optionals.manifest.json"), """
        {
          "format": "packed4j-manifest",
          "version": 2,
          "library": "libinventory.so",
          "globals": [
            {"name": "inv.FindCount", "typed": true, "parameters": ["list<inv.Item>", "string"],
             "result": "optional<int64>"},
            {"name": "inv.FindName", "typed": true, "parameters": ["int64"], "result": "optional<string>"},
            {"name": "inv.Find", "typed": true, "parameters": ["string"], "result": "optional<inv.Item>"}
          ],
          "objectTypes": [
            {"key": "inv.Item", "parent": "Object", "fields": [{"name": "name", "type": "string"}],
             "methods": [
              {"name": "discount", "kind": "method", "typed": true, "parameters": ["inv.Item", "float64"],
               "result": "optional<float64>"},
              {"name": "inStock", "kind": "method", "typed": true, "parameters": ["inv.Item"],
               "result": "optional<bool>"},
              {"name": "lookup", "kind": "static", "typed": true, "parameters": ["string"],
               "result": "optional<int32>"}]}
          ],
          "coreGlobals": [],
          "coreObjectTypes": [{"key": "Object", "fields": []}]
        }
        """);
    JavaFileObject inventory = source("p.Inventory", """
        package p;
        import dev.packed4j.annotations.Global;
        import dev.packed4j.annotations.Method;
        import java.util.List;
        import java.util.Optional;
        public interface Inventory {
          @Global("inv.FindCount") long findCount(List<ItemRef> items, String name);
          @Global("inv.FindCount") Optional<Long> findCountIfAny(List<ItemRef> items, String name);
          @Global("inv.FindCount") Long findCountOrNull(List<ItemRef> items, String name);
          @Global("inv.FindCount") Object findCountAsObject(List<ItemRef> items, String name);
          @Global("inv.FindCount") void findCountOnly(List<ItemRef> items, String name);
          @Global("inv.FindName") String findName(long id);
          @Global("inv.Find") ItemRef find(String name);
          @Method(of = ItemRef.class) int lookup(String name);
          @Method(of = ItemRef.class, value = "lookup") Optional<Integer> lookupIfAny(String name);
        }
        """);
    JavaFileObject item = source("p.ItemRef", """
        package p;
        import dev.packed4j.annotations.Method;
        import dev.packed4j.annotations.Object;
        @Object("inv.Item")
        public interface ItemRef extends AutoCloseable {
          String name();
          double discount(double rate);
          @Method boolean inStock();
          @Method("discount") Double discountOrNull(double rate);
          @Override void close();
        }
        """);
    Compilation compilation = compile(optionals, inventory, item);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-RESULT-TYPE] the result of Inventory.findCount(List<ItemRef>,String) is long, but"
                + " inv.FindCount returns optional<int64> (registered as (list<inv.Item>, string) -> optional<int64>):"
                + " the native side may return None, which a long cannot hold. Declare the result as Optional<Long>")
        .inFile(inventory)
        .onLineContaining("long findCount(");
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-RESULT-TYPE] the result of Inventory.lookup(String) is int, but inv.Item.lookup returns"
                + " optional<int32> (registered as (string) -> optional<int32>): the native side may return None,"
                + " which an int cannot hold. Declare the result as Optional<Integer>")
        .inFile(inventory)
        .onLineContaining("int lookup(");
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-RESULT-TYPE] the result of ItemRef.discount(double) is double, but inv.Item.discount"
                + " returns optional<float64> (registered as (inv.Item, float64) -> optional<float64>): the native"
                + " side may return None, which a double cannot hold. Declare the result as Optional<Double>")
        .inFile(item)
        .onLineContaining("double discount(");
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-RESULT-TYPE] the result of ItemRef.inStock() is boolean, but inv.Item.inStock returns"
                + " optional<bool> (registered as (inv.Item) -> optional<bool>): the native side may return None,"
                + " which a boolean cannot hold. Declare the result as Optional<Boolean>")
        .inFile(item)
        .onLineContaining("boolean inStock(");
    assertThat(compilation).hadErrorCount(4); // a box, an Optional, Object, void, a String, an object: None fits
  }

  /** {@code p.Calculator} holding {@code members} on line 5 on. */
  private static JavaFileObject calculator(String members) {
    return source(
        "p.Calculator",
        "package p;\nimport dev.packed4j.annotations.Global;\nimport java.util.List;\npublic interface Calculator {\n  "
            + members
            + "\n}\n");
  }
}
