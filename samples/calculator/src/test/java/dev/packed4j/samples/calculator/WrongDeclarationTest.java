package dev.packed4j.samples.calculator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample's own build wrote target/native/calculator.manifest.json from the library it built, and compiled the
 * sample's interfaces against it. A deliberately wrong declaration compiled the same way fails with the expected
 * messages, on its lines.
 */
class WrongDeclarationTest {
  @Test
  void aWrongDeclarationFailsAgainstTheSamplesManifest(@TempDir Path directory) throws IOException {
    Path manifest = Path.of(System.getProperty("packed4j.manifest"));
    assertTrue(Files.isRegularFile(manifest), manifest + " was not written by the build");
    Path source = Files.writeString(directory.resolve("Calculator.java"), """
        package wrong;

        import dev.packed4j.annotations.Global;
        import dev.packed4j.annotations.Object;

        public interface Calculator {
          @Global("calculator.MyAd") int add(int a, int b);
          @Global("calculator.Mul") String multiply(long a, long b);
          @Global("calculator.Describe") String describe(int brand, long price);

          @Object("Calculator")
          interface Ref {
            String brand();
            String price();
          }
        }
        """);
    String classPath = System.getProperty("java.class.path");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter output = new StringWriter();
    boolean compiled = javac.getTask(output, null, null,
        List.of("-processorpath", classPath, "-cp", classPath, "-Apacked4j.manifest=" + manifest,
            "-d", directory.resolve("classes").toString()),
        null, javac.getStandardFileManager(null, null, null).getJavaFileObjects(source.toFile())).call();
    String messages = output.toString();
    assertFalse(compiled, messages);
    String file = source.toString() + ":";
    assertTrue(messages.contains(file + "7: error: [P4J-NATIVE-UNKNOWN-GLOBAL] no global function"
        + " \"calculator.MyAd\" is registered by the libraries of the manifest (calculator.manifest.json)"), messages);
    assertTrue(messages.contains("Did you mean \"calculator.MyAdd\"?"), messages);
    assertTrue(messages.contains(file + "8: error: [P4J-NATIVE-RESULT-TYPE] the result of"
        + " Calculator.multiply(long,long) is String, but calculator.Mul returns int64"), messages);
    assertTrue(messages.contains(file + "9: error: [P4J-NATIVE-PARAMETER-TYPE] parameter brand of"
        + " Calculator.describe(int,long) is int, which cannot convert to string"), messages);
    assertTrue(messages.contains(file + "14: error: [P4J-NATIVE-FIELD-TYPE] Calculator.Ref.price() returns String,"
        + " but the field \"price\" of \"Calculator\" is int32"), messages);
    assertEquals(4, messages.lines().filter(line -> line.contains(": error: ")).count(), messages);
  }
}
