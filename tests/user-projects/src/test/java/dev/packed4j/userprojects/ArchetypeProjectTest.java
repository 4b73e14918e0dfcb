package dev.packed4j.userprojects;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** mvn archetype:generate with packed4j-archetype, then the generated project's own build, test and run command. */
class ArchetypeProjectTest {
  /** The guide's command, run here as written (with this build's version). */
  static final String GENERATE = "mvn -B org.apache.maven.plugins:maven-archetype-plugin:3.3.1:generate "
      + "-DarchetypeCatalog=local -DarchetypeGroupId=dev.packed4j -DarchetypeArtifactId=packed4j-archetype "
      + "-DarchetypeVersion=0.1.0-SNAPSHOT -DgroupId=com.example -DartifactId=hello-app -Dpackage=com.example.hello";

  /** The command the generated README gives, run here as written. */
  static final String RUN = "mvn -B -q package exec:exec@run";

  @Test
  void generatesAProjectThatBuildsTestsAndRuns() throws Exception {
    Path work = UserBuilds.WORK.resolve("archetype");
    UserBuilds.deleteTree(work);
    Files.createDirectories(work);
    String generate = GENERATE.replace("0.1.0-SNAPSHOT", UserBuilds.VERSION);
    UserBuilds.maven(work, generate.substring("mvn -B ".length()).split(" ")).succeeded();
    Path project = work.resolve("hello-app");
    for (String file : List.of("pom.xml", "README.md", "src/main/native/CMakeLists.txt",
        "src/main/native/greeter.cc", "src/main/java/com/example/hello/Greeter.java",
        "src/main/java/com/example/hello/Counter.java", "src/main/java/com/example/hello/Main.java",
        "src/test/java/com/example/hello/GreeterTest.java")) {
      assertTrue(Files.isRegularFile(project.resolve(file)), file + " is generated");
    }
    String readme = Files.readString(project.resolve("README.md"));
    assertTrue(readme.contains(RUN), readme);
    // The native library is named after the artifactId ('-' as '_'), in CMake, in Java and in the README.
    assertTrue(readme.contains("libhello_app.so") && readme.contains("target/hello-app.jar"), readme);
    String cmake = Files.readString(project.resolve("src/main/native/CMakeLists.txt"));
    assertTrue(cmake.contains("add_library(hello_app SHARED greeter.cc)"), cmake);
    assertFalse(cmake.contains("greeter SHARED") || cmake.contains("${nativeLibrary}"), cmake);
    String main = Files.readString(project.resolve("src/main/java/com/example/hello/Main.java"));
    assertTrue(main.contains("Packed4j.loadLibrary(\"hello_app\")"), main);

    // The README's command, without -q so the test report shows: build, test, run.
    List<String> arguments = List.of(RUN.substring("mvn ".length()).replace("-q ", "").split(" "));
    UserBuilds.Run run = UserBuilds.maven(project, arguments.toArray(String[]::new)).succeeded();
    String output = run.output();
    assertTrue(output.contains("Tests run: 5, Failures: 0, Errors: 0, Skipped: 0"), output);
    assertTrue(output.contains("Hello, packed4j!\nsum = 6\ngreeter.Counter{label=clicks, count=5}\nmean = 3.0\n"
        + "two dice: 2 values, mean 3.5\nValueError: greeter.Greet: the name is empty\n"), output);
    // Stats and Tally were generated from the stats.* registrations only (the pom's <prefixes>).
    Path generated = project.resolve("target/generated-sources/packed4j/com/example/hello");
    assertTrue(Files.isRegularFile(generated.resolve("Stats.java")) && Files.isRegularFile(generated.resolve(
        "Tally.java")) && !Files.exists(generated.resolve("Greeter.java")), generated.toString());

    assertTrue(Files.isRegularFile(project.resolve("target/classes/META-INF/native/linux-x86_64/libhello_app.so")),
        "libhello_app.so is built into the classes");

    // And the jar alone.
    UserBuilds.Run jar = UserBuilds.run(project, List.of(UserBuilds.java(), "-jar", "target/hello-app.jar", "you"),
        Map.of()).succeeded();
    assertTrue(jar.output().startsWith("Hello, you!\n"), jar.output());
  }
}
