package dev.packed4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.ObjectTypeInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
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
    assertTrue(json.contains("\"format\": \"packed4j-manifest\",\n  \"version\": 1,"), json);
    assertTrue(json.contains("\"library\": \"lib\\\"x\\\".so\""), json);
    assertTrue(json.contains("{\"name\": \"a.Typed\", \"typed\": true, \"parameters\": [\"int64\", \"list<string>\"],"
        + " \"result\": \"bool\"}"), json);
    assertTrue(json.contains("{\"name\": \"a.Untyped\", \"typed\": false}"), json);
    assertTrue(json.contains("{\"key\": \"a.Node\", \"parent\": \"Object\", \"fields\": [{\"name\": \"next\","
        + " \"type\": \"a.Node\", \"declaredBy\": \"a.Node\"}]}"), json);
    assertTrue(json.contains("\"coreGlobals\": [],"), json);
    assertTrue(json.contains("{\"key\": \"Object\", \"fields\": []}"), json);
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

  private record Result(int status, String out, String err) {}

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
