package dev.packed4j.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which class files the describe goal removes when a manifest changed (I1): those of the sources that declare packed4j
 * bindings, so that maven-compiler-plugin finds exactly those sources stale; none of the others.
 */
class StaleDeclarationsTest {
  private static final Map<String, String> SOURCES = Map.of(
      // Stand-ins of the annotations with their retention, so the test needs no packed4j-annotations jar.
      "dev/packed4j/annotations/Global.java", """
          package dev.packed4j.annotations;
          @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
          public @interface Global { String value(); }
          """,
      "dev/packed4j/annotations/Object.java", """
          package dev.packed4j.annotations;
          @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
          public @interface Object { String value(); }
          """,
      "p/Api.java", """
          package p;
          public interface Api { @dev.packed4j.annotations.Global("shop.Add") long add(long a, long b); }
          """,
      "p/Item.java", """
          package p;
          @dev.packed4j.annotations.Object("shop.Item") public interface Item { String name(); }
          """,
      "p/Outer.java", """
          package p;
          public class Outer {
            static final double PI = 3.14; // a two-entry constant before the annotation's
            interface Inner { @dev.packed4j.annotations.Global("shop.Name") String name(String s, long n); }
          }
          """,
      "p/Main.java", """
          package p;
          public class Main { long use(Api api) { return api.add(1, 2); } }
          // A second top-level type: its class file is Hidden.class, its source Main.java.
          interface Hidden { @dev.packed4j.annotations.Global("shop.Qty") long qty(Item i); }
          """,
      "p/Plain.java", """
          package p;
          public class Plain { String text = "Ldev/packed4j/annotations/ in a string constant"; }
          """);

  @Test
  void removesTheClassesOfTheDeclaringSourcesAndNoOthers(@TempDir Path directory) throws IOException {
    Path classes = compile(directory, List.of());
    List<String> warnings = new ArrayList<>();
    List<Path> removed = StaleDeclarations.remove(List.of(classes, directory.resolve("no-test-classes")),
        List.of(directory.resolve("src")), warnings::add);
    // Main.class goes with Hidden.class: the compiler plugin maps Main.java to Main.class only.
    assertEquals(List.of("p/Api.class", "p/Hidden.class", "p/Item.class", "p/Main.class", "p/Outer$Inner.class",
        "p/Outer.class"), removed.stream().map(file -> classes.relativize(file).toString()).toList());
    assertTrue(Files.isRegularFile(classes.resolve("p/Plain.class")));
    assertTrue(Files.isRegularFile(classes.resolve("dev/packed4j/annotations/Global.class")));
    assertEquals(List.of(), warnings);
    assertEquals(List.of(), StaleDeclarations.remove(List.of(classes), List.of(directory.resolve("src")),
        warnings::add), "nothing is left to remove");
  }

  @Test
  void aClassFileOfNoSourceOfTheProjectIsKeptAndAnUnreadableOneSkipped(@TempDir Path directory) throws IOException {
    Path classes = compile(directory, List.of());
    // Unpacked from a dependency, say: no source of the project declares it, and nothing would make it again.
    Path unpacked = classes.resolve("q/Api.class");
    Files.createDirectories(unpacked.getParent());
    Files.copy(classes.resolve("p/Api.class"), unpacked);
    Path truncated = classes.resolve("p/Broken.class");
    Files.write(truncated, new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0});
    Files.createDirectories(classes.resolve("p/Directory.class"));
    List<String> warnings = new ArrayList<>();
    List<Path> removed = StaleDeclarations.remove(List.of(classes), List.of(directory.resolve("src")),
        warnings::add);
    assertTrue(Files.isRegularFile(unpacked), "a class file of another origin is kept");
    assertTrue(removed.contains(classes.resolve("p/Api.class")));
    assertTrue(Files.isRegularFile(truncated));
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith("packed4j: " + truncated + " is not a class file packed4j reads"),
        warnings.get(0));
    // Without the sources, nothing at all.
    Path other = compile(directory.resolve("other"), List.of());
    assertEquals(List.of(), StaleDeclarations.remove(List.of(other), List.of(directory.resolve("none")),
        warnings::add));
  }

  @Test
  void withoutSourceFileAttributesTheTopLevelClassStandsForTheSource(@TempDir Path directory) throws IOException {
    Path classes = compile(directory, List.of("-g:none"));
    assertEquals(null, StaleDeclarations.declaringSourceFile(classes.resolve("p/Plain.class")));
    assertEquals("Outer.java", StaleDeclarations.declaringSourceFile(classes.resolve("p/Outer$Inner.class")));
    assertEquals("Api.java", StaleDeclarations.declaringSourceFile(classes.resolve("p/Api.class")));
  }

  private static Path compile(Path directory, List<String> options) throws IOException {
    Path sources = directory.resolve("src");
    Path classes = directory.resolve("classes");
    for (Map.Entry<String, String> source : SOURCES.entrySet()) {
      Path file = sources.resolve(source.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
    }
    List<String> arguments = new ArrayList<>(options);
    arguments.addAll(List.of("-proc:none", "-d", classes.toString()));
    try (Stream<Path> files = Files.walk(sources)) {
      files.filter(Files::isRegularFile).forEach(file -> arguments.add(file.toString()));
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertEquals(0, javac.run(null, null, null, arguments.toArray(String[]::new)));
    return classes;
  }
}
