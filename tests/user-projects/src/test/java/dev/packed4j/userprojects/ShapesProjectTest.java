package dev.packed4j.userprojects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The guide's project (src/it/shapes): built by Maven alone through packed4j-maven-plugin, outside the reactor,
 * and run with {@code java -jar}, its native library loaded by name from inside the jar; then built again
 * unchanged (nothing runs again), and after C++ edits (javac checks the declarations again when the manifest changed).
 */
class ShapesProjectTest {
  /** The guide's commands, run here exactly as written (GuideTest checks the guide quotes them). */
  static final String BUILD = "mvn -B -q package";
  static final String RUN = "java -jar target/shapes.jar";
  /** What maven-compiler-plugin says when it runs no javac. */
  static final String NOTHING_TO_COMPILE = "Nothing to compile - all classes are up to date.";

  static final String EXPECTED_OUTPUT = """
      5.0
      Hello, packed4j!
      ababab
      shapes.Circle{name=wheel, radius=1.0}
      door 3.0
      6.0
      60000.0
      9.1416
      [wheel, door]
      coin 12.5664
      150.0
      [2.0, 5.0]
      TypeError: expected a shape, got a string
      ValueError: a radius must not be negative
      IndexError: index 3 is out of range for 2 shapes
      KeyError: no shape named 'hexagon'
      AttributeError: a circle has no field 'width'
      RuntimeError: the drawing surface is gone
      GeometryError: the triangle inequality does not hold
      [ValueError] shapes.Circle: radius -1.000000 is negative
      10.0
      60000.0
      """;

  @Test
  void buildsWithMavenAloneAndRunsFromItsJar() throws Exception {
    Path project = UserBuilds.copyProject("shapes");
    UserBuilds.Run build = UserBuilds.maven(project, "package").succeeded();
    assertTrue(build.output().contains("packed4j: META-INF/native/linux-x86_64/libshapes.so built from"),
        build.output());
    assertTrue(build.output().contains("packed4j: META-INF/native/linux-x86_64/libunits.so built from"),
        build.output());
    // CMake's own output stays hidden when the native build succeeds.
    assertFalse(build.output().contains("Building CXX object"), build.output());

    byte[] firstUnits =
        Files.readAllBytes(project.resolve("target/classes/META-INF/native/linux-x86_64/libunits.so"));
    Path jar = project.resolve("target/shapes.jar");
    try (JarFile file = new JarFile(jar.toFile())) {
      assertNotNull(file.getEntry("META-INF/native/linux-x86_64/libshapes.so"), "the jar carries its plugin");
      assertNotNull(file.getEntry("META-INF/native/linux-x86_64/libunits.so"), "and its second library");
      assertEquals("ALL-UNNAMED", file.getManifest().getMainAttributes().getValue("Enable-Native-Access"));
    }

    // Two JVMs starting at once share one extracted copy in a fresh cache.
    Path cache = UserBuilds.WORK.resolve("shapes-cache");
    UserBuilds.deleteTree(cache);
    List<String> command = List.of(UserBuilds.java(), "-Dpacked4j.cache.dir=" + cache, "-jar",
        "target/shapes.jar");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<UserBuilds.Run>> runs = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        runs.add(pool.submit(() -> UserBuilds.run(project, command, Map.of())));
      }
      for (Future<UserBuilds.Run> run : runs) {
        // Exactly the program's output: no native-access warning, no loader noise.
        assertEquals(EXPECTED_OUTPUT, run.get().succeeded().output());
      }
    } finally {
      pool.shutdownNow();
    }
    try (var files = Files.walk(cache)) {
      assertEquals(List.of("libshapes.so", "libunits.so"), files.filter(Files::isRegularFile)
          .map(file -> file.getFileName().toString()).sorted().toList());
    }

    // Nothing changed: CMake does not run again, and javac does not either.
    UserBuilds.Run again = UserBuilds.maven(project, "package").succeeded();
    assertTrue(again.output().contains("packed4j: native library up to date"), again.output());
    assertTrue(again.output().contains("packed4j: manifest of libunits.so up to date"), again.output());
    assertFalse(again.output().contains("built from"), again.output());
    assertTrue(again.output().contains(NOTHING_TO_COMPILE), again.output());

    // A C++ edit recompiles the Java declarations exactly when it changes what the library registers: the describe
    // goal's new manifest makes javac check them again, though no Java source changed (I1: the build was green, and
    // the first call failed).
    Path units = project.resolve("src/main/native/units.cc");
    String source = Files.readString(units);

    // A new body (other machine code), the same signature: the library is rebuilt, its manifest is the same, and
    // nothing recompiles.
    Files.writeString(units, source.replace("return metres * 100.0;", "return metres * 1000.0 / 10.0;"));
    UserBuilds.Run body = UserBuilds.maven(project, "compile").succeeded();
    assertTrue(body.output().contains("packed4j: META-INF/native/linux-x86_64/libunits.so built from"),
        body.output());
    assertTrue(body.output().contains(NOTHING_TO_COMPILE), body.output());

    // A second parameter: Units.toCentimetres(double) no longer matches, and javac says so on the declaration.
    Files.writeString(units, source.replace("[](double metres)", "[](double metres, double digits)"));
    UserBuilds.Run signature = UserBuilds.maven(project, "compile");
    assertEquals(1, signature.exitCode(), signature.output());
    assertTrue(signature.output().contains("Units.java:[8,"), signature.output());
    assertTrue(signature.output().contains("error: [P4J-NATIVE-ARITY] Units.toCentimetres(double) has 1 parameter,"
        + " but units.ToCentimetres takes 2"), signature.output());
    // Until the declaration is corrected: the next build checks it again.
    UserBuilds.Run unchanged = UserBuilds.maven(project, "compile");
    assertEquals(1, unchanged.exitCode(), unchanged.output());
    assertTrue(unchanged.output().contains("[P4J-NATIVE-ARITY]"), unchanged.output());

    // The first library copied back with an old time (cp -p, an archive): its manifest is made again, as the
    // library's content decides, not its time, and the declarations that match it compile (trial userU, finding 3).
    Path library = project.resolve("target/classes/META-INF/native/linux-x86_64/libunits.so");
    Files.write(library, firstUnits);
    Files.setLastModifiedTime(library, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
    UserBuilds.Run restored = UserBuilds.maven(project, "compile", "-Dpacked4j.native.skip=true").succeeded();
    assertTrue(restored.output().contains("packed4j: described libunits.so"), restored.output());
  }
}
