package dev.packed4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.packed4j.cli.generate.ApiModel;
import dev.packed4j.cli.generate.ModelReader;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.types.NativeType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line and the manifest text; describing a real plugin is tested end to end in packed4j-tests. */
class MainTest {
  @Test
  void signaturesSplitAtTopLevelCommas() {
    GlobalFunction index = GlobalFunction.of("data.Index", "(map<string, list<int64>>, int64) -> optional<string>");
    assertEquals(List.of("map<string, list<int64>>", "int64"), index.parameterTypes());
    assertEquals(Optional.of("optional<string>"), index.resultType());
    assertEquals(List.of(), GlobalFunction.of("f", "() -> void").parameterTypes());
    GlobalFunction untyped = GlobalFunction.of("calculator.MyAdd", "");
    assertEquals(false, untyped.typed());
    assertEquals(Optional.empty(), untyped.resultType());
    assertThrows(IllegalArgumentException.class, () -> GlobalFunction.of("f", "int64"));
  }

  @Test
  void theManifestIsVersionedJsonWithEscapedStrings() {
    LibraryDescription description = new LibraryDescription("lib\"x\".so",
        List.of(GlobalFunction.of("a.Typed", "(int64, list<string>) -> bool"), GlobalFunction.of("a.Untyped", "")),
        List.of(new ObjectTypeInfo("a.Node", Optional.of("Object"),
            List.of(new ObjectTypeInfo.Field("next", "a.Node", "a.Node")))),
        List.of(), List.of(new ObjectTypeInfo("Object", Optional.empty(), List.of())));
    String json = Manifest.toJson(description);
    assertTrue(json.contains("\"format\": \"packed4j-manifest\",\n  \"version\": 2,"), json);
    assertTrue(json.contains("\"library\": \"lib\\\"x\\\".so\""), json);
    assertTrue(json.contains("{\"name\": \"a.Typed\", \"typed\": true, \"parameters\": [\"int64\", \"list<string>\"],"
        + " \"result\": \"bool\"}"), json);
    assertTrue(json.contains("{\"name\": \"a.Untyped\", \"typed\": false}"), json);
    assertTrue(json.contains("{\"key\": \"a.Node\", \"parent\": \"Object\", \"doc\": \"\", \"fields\": [{\"name\":"
        + " \"next\", \"type\": \"a.Node\", \"declaredBy\": \"a.Node\", \"mutable\": false, \"doc\": \"\"}],"
        + " \"methods\": []}"), json);
    assertTrue(json.contains("\"coreGlobals\": [],"), json);
    assertTrue(json.contains("{\"key\": \"Object\", \"doc\": \"\", \"fields\": [], \"methods\": []}"), json);
  }

  /** A library with doc strings, parameter names, a writable field and members, as describe sees it. */
  private static LibraryDescription documented() {
    return new LibraryDescription("libgeo.so",
        List.of(GlobalFunction.of("geo.Distance", "(geo.Point, geo.Point) -> float64", "How far apart", List.of("a",
            "b")), GlobalFunction.of("geo.Untyped", "")),
        List.of(new ObjectTypeInfo("geo.Point", Optional.of("Object"),
            List.of(new ObjectTypeInfo.Field("x", "int64", "geo.Point", true, "across"),
                new ObjectTypeInfo.Field("y", "int64", "geo.Point", false, "")),
            List.of(new ObjectTypeInfo.Member("Dot", ObjectTypeInfo.MemberKind.METHOD, "(geo.Point, int64, int64) ->"
                    + " int64", List.of("dx", "dy"), "the dot product\nwith (dx, dy)", "geo.Point"),
                new ObjectTypeInfo.Member("Origin", ObjectTypeInfo.MemberKind.STATIC_METHOD, "() -> geo.Point",
                    List.of(), "", "geo.Point"),
                new ObjectTypeInfo.Member("Raw", ObjectTypeInfo.MemberKind.METHOD, "", List.of(), "", "geo.Point"),
                new ObjectTypeInfo.Member("__init__", ObjectTypeInfo.MemberKind.CONSTRUCTOR,
                    "(int64, int64) -> geo.Point", List.of("x", "y"), "a point", "geo.Point")),
            "A point")),
        List.of(), List.of());
  }

  @Test
  void describePrintsDocsParameterNamesMutabilityAndMembers() {
    String text = documented().toText();
    assertTrue(text.contains("""
        Global functions (2):
          geo.Distance  (a: geo.Point, b: geo.Point) -> float64  -- How far apart
          geo.Untyped   untyped (set_body)

        Object types (1):
          geo.Point extends Object  -- A point
            rw x: int64  -- across
            ro y: int64
            method Dot(dx: int64, dy: int64) -> int64  -- the dot product with (dx, dy)
            static Origin() -> geo.Point
            method Raw untyped
            constructor __init__(x: int64, y: int64) -> geo.Point  -- a point
        """), text);
  }

  @Test
  void describeEscapesControlCharactersAndKeepsItsColumnsForOneLongName() {
    String longName = "geo." + "x".repeat(200);
    LibraryDescription odd = new LibraryDescription("libodd.so",
        List.of(GlobalFunction.of("geo.Red\u001b[31m", "() -> int64", "a doc\u0007 with a bell", List.of()),
            GlobalFunction.of("geo.Short", "() -> int64", "", List.of()),
            GlobalFunction.of(longName, "() -> int64", "", List.of())),
        List.of(), List.of(), List.of());
    String text = odd.toText();
    assertTrue(text.contains("  geo.Red\\x1b[31m  () -> int64  -- a doc\\x07 with a bell\n"), text);
    assertTrue(text.contains("  geo.Short     () -> int64\n"), text); // padded to the name of 12 chars
    assertTrue(text.contains("  " + longName + "  () -> int64\n"), text);
    assertFalse(text.chars().anyMatch(c -> c < 0x20 && c != '\n'), text);
  }

  @Test
  void manifestVersionTwoCarriesDocsNamesMutabilityAndMembersAndReadsBack(@TempDir Path directory)
      throws Exception {
    String json = Manifest.toJson(documented());
    assertTrue(json.contains("{\"name\": \"geo.Distance\", \"typed\": true, \"parameters\": [\"geo.Point\","
        + " \"geo.Point\"], \"result\": \"float64\", \"doc\": \"How far apart\", \"parameterNames\": [\"a\", \"b\"]}"),
        json);
    assertTrue(json.contains("{\"name\": \"geo.Untyped\", \"typed\": false}"), json);
    assertTrue(json.contains("{\"name\": \"x\", \"type\": \"int64\", \"declaredBy\": \"geo.Point\", \"mutable\": true,"
        + " \"doc\": \"across\"}"), json);
    assertTrue(json.contains("{\"name\": \"Dot\", \"kind\": \"method\", \"typed\": true, \"parameters\":"
        + " [\"geo.Point\", \"int64\", \"int64\"], \"result\": \"int64\", \"doc\": \"the dot product\\nwith (dx, dy)\","
        + " \"parameterNames\": [\"dx\", \"dy\"]}"), json);
    assertTrue(json.contains("{\"name\": \"Raw\", \"kind\": \"method\", \"typed\": false, \"doc\": \"\","
        + " \"parameterNames\": []}"), json);
    assertTrue(json.contains("{\"name\": \"__init__\", \"kind\": \"constructor\", \"typed\": true, \"parameters\":"
        + " [\"int64\", \"int64\"], \"result\": \"geo.Point\", \"doc\": \"a point\", \"parameterNames\": [\"x\","
        + " \"y\"]}"), json);

    // generate reads back what describe saw, from the manifest as from the loaded library.
    Path manifest = directory.resolve("geo.manifest.json");
    Manifest.write(documented(), manifest);
    ApiModel fromManifest = ModelReader.fromManifests(List.of(manifest));
    ApiModel.Function distance = fromManifest.functions().get(0);
    assertEquals(Optional.of("How far apart"), distance.doc());
    assertEquals(List.of("a", "b"), distance.parameterNames());
    ApiModel.ObjectType point = fromManifest.objectTypes().get(0);
    assertEquals(Optional.of("A point"), point.doc());
    assertEquals(List.of(new ApiModel.Field("x", NativeType.of("int64"), true, Optional.of("across")),
        ApiModel.Field.readOnly("y", NativeType.of("int64"))), point.fields());
    assertEquals(List.of("Dot", "Origin", "Raw", "__init__"), point.methods().stream().map(ApiModel.Method::name)
        .toList());
    assertEquals(List.of(ApiModel.MemberKind.METHOD, ApiModel.MemberKind.STATIC, ApiModel.MemberKind.METHOD,
        ApiModel.MemberKind.CONSTRUCTOR), point.methods().stream().map(ApiModel.Method::kind).toList());
    assertEquals(List.of(NativeType.of("int64"), NativeType.of("int64")), point.methods().get(0).javaParameters());
    assertEquals(Optional.empty(), point.methods().get(2).signature());
    ApiModel fromLibrary = ModelReader.fromDescriptions(java.util.Map.of(manifest, documented()));
    assertEquals(fromManifest.functions(), fromLibrary.functions());
    assertEquals(fromManifest.objectTypes(), fromLibrary.objectTypes());
  }

  @Test
  void generateStillReadsAVersionOneManifestAndRefusesAnUnknownVersion(@TempDir Path directory) throws Exception {
    Path v1 = Files.writeString(directory.resolve("v1.json"), """
        {"format": "packed4j-manifest", "version": 1, "library": "libv1.so",
         "globals": [{"name": "v.Add", "typed": true, "parameters": ["int64", "int64"], "result": "int64"}],
         "objectTypes": [{"key": "v.Box", "parent": "Object", "fields": [
           {"name": "size", "type": "int32", "declaredBy": "v.Box"}]}],
         "coreGlobals": [], "coreObjectTypes": []}
        """);
    ApiModel model = ModelReader.fromManifests(List.of(v1));
    assertEquals(List.of(new ApiModel.Function("v.Add", Optional.of(dev.packed4j.types.Signature.parse(
        "(int64, int64) -> int64")), Optional.empty(), List.of())), model.functions());
    assertEquals(List.of(ApiModel.Field.readOnly("size", NativeType.of("int32"))),
        model.objectTypes().get(0).fields());
    assertEquals(List.of(), model.objectTypes().get(0).methods());
    Path v3 = Files.writeString(directory.resolve("v3.json"), Files.readString(v1).replace("\"version\": 1",
        "\"version\": 3"));
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> ModelReader.fromManifests(List.of(v3)));
    assertTrue(refused.getMessage().contains("its format is not packed4j-manifest version 1 to 2"),
        refused.getMessage());
  }

  @Test
  void aWrongCommandLineIsStatusTwoWithTheUsage() {
    assertEquals(2, run().status);
    Result unknown = run("explain", "x.so");
    assertEquals(2, unknown.status);
    assertTrue(unknown.err.contains("unknown command 'explain'"), unknown.err);
    assertTrue(unknown.err.contains("usage: packed4j describe <library.so>"), unknown.err);
    assertTrue(run("describe", "x.so", "--json").err.contains("--json needs a file name"));
    assertTrue(run("describe").err.contains("describe needs a library"));
    assertTrue(run("describe", "a.so", "b.so").err.contains("unexpected argument 'b.so'"));
  }

  @Test
  void aLibraryThatDoesNotLoadIsStatusOneNamingTheFile(@TempDir Path directory) throws Exception {
    Path notElf = Files.writeString(directory.resolve("libnot.so"), "not a library");
    Result result = run("describe", notElf.toString());
    assertEquals(1, result.status);
    assertTrue(result.err.startsWith("packed4j describe: "), result.err);
    assertTrue(result.err.contains("libnot.so"), result.err);
  }

  @Test
  void generateFromAManifestWritesTheInterfacesAndWarnsOfWhatItSkips(@TempDir Path directory) throws Exception {
    LibraryDescription description = new LibraryDescription("libcalc.so",
        List.of(GlobalFunction.of("calc.Mul", "(int64, int64) -> int64"), GlobalFunction.of("calc.Add", "")),
        List.of(new ObjectTypeInfo("calc.Casio", Optional.of("Object"),
            List.of(new ObjectTypeInfo.Field("price", "int64", "calc.Casio")))),
        List.of(), List.of());
    Path manifest = directory.resolve("calc.manifest.json");
    Manifest.write(description, manifest);
    Path out = directory.resolve("out");
    Result result = run("generate", "--manifest=" + manifest, "--package", "com.example", "--out", out.toString(),
        "--untyped", "skip");
    assertEquals(0, result.status, result.err);
    assertEquals("packed4j generate: warning: calc.Add is registered with set_body (no signature): no method"
        + " generated (--untyped=skip)\n", result.err);
    assertTrue(result.out.startsWith("packed4j generate: 2 interfaces in " + out + " (2 written, 0 unchanged, 0 stale"
        + " deleted)\n"), result.out);
    String calc = Files.readString(out.resolve("com/example/Calc.java"));
    assertTrue(calc.contains("  @Global(\"calc.Mul\")\n  long mul(long arg0, long arg1);\n"), calc);
    assertTrue(Files.readString(out.resolve("com/example/Casio.java")).contains("  long price();\n"));

    Result again = run("generate", "--manifest", manifest.toString(), "--package", "com.example", "--out",
        out.toString(), "--untyped", "skip");
    assertTrue(again.out.contains("(0 written, 2 unchanged, 0 stale deleted)"), again.out);
  }

  @Test
  void generateRefusesAWrongCommandLineWithStatusTwo() {
    assertTrue(run("generate", "--package", "p", "--out", "o").err.contains("generate needs libraries or --manifest"));
    assertTrue(run("generate", "a.so", "--out", "o").err.contains("generate needs --package and --out"));
    assertTrue(run("generate", "a.so", "--package", "p", "--out", "o", "--untyped", "maybe").err
        .contains("--untyped takes object-varargs or skip, not 'maybe'"));
    Result badPackage = run("generate", "a.so", "--package", "com.new", "--out", "o");
    assertEquals(2, badPackage.status);
    assertTrue(badPackage.err.startsWith("--package com.new is not a Java package name"), badPackage.err);
    assertTrue(run("generate", "a.so", "--packages", "p").err.contains("unexpected argument '--packages'"));
    Result missing = run("generate", "--manifest", "no-such.json", "--package", "p", "--out", "o");
    assertEquals(1, missing.status);
    assertTrue(missing.err.startsWith("packed4j generate: cannot read no-such.json"), missing.err);
  }

  @Test
  void describeWarnsAboutALibraryThatIsNoPlugin(@TempDir Path directory) {
    // A system library named by mistake (I14): it registers nothing and does not link libpacked4j.so.
    Optional<Path> zlib = Stream.of("/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1",
        "/usr/lib64/libz.so.1", "/lib64/libz.so.1").map(Path::of).filter(Files::isRegularFile).findFirst();
    assumeTrue(zlib.isPresent(), "no libz.so.1 to describe");
    Path manifest = directory.resolve("z.manifest.json");
    Result described = run("describe", zlib.get().toString(), "--json", manifest.toString());
    assertEquals(0, described.status, described.err);
    assertTrue(described.err.startsWith("packed4j describe: warning: libz.so.1 registers no global function and no"
        + " object type, and does not link libpacked4j.so: it is not a packed4j plugin"), described.err);
    assertTrue(described.out.contains("Global functions (0):"), described.out);
    assertTrue(Files.isRegularFile(manifest), "the manifest is still written");
  }

  private record Result(int status, String out, String err) {}

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
