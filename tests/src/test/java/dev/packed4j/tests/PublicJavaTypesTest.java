package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/java-api.md's table of public Java types cannot drift: it lists every public top-level type of the public
 * packages, each in the package it names, and nothing else; the Maven goals it names are the mojos' goals; and
 * where it says packed4j-cli.jar is, is where the build puts the runnable jar.
 */
class PublicJavaTypesTest {
  private static final Path ROOT = Path.of("..");
  private static final Path DOC = ROOT.resolve("docs/java-api.md");

  /** The public packages and the source folder of each. */
  static final Map<String, String> PUBLIC_PACKAGES = Map.of(
      "dev.packed4j.annotations", "annotations/src/main/java",
      "dev.packed4j.runtime", "runtime/src/main/java",
      "dev.packed4j.runtime.binding", "runtime/src/main/java",
      "dev.packed4j.processor", "processor/src/main/java",
      "dev.packed4j.types", "types/src/main/java",
      "dev.packed4j.cli", "tools/cli/src/main/java",
      "dev.packed4j.maven", "tools/maven-plugin/src/main/java");

  /** Packages with public types that are implementation, as the document says. */
  private static final Pattern INTERNAL =
      Pattern.compile("dev\\.packed4j\\.runtime\\.internal(\\..*)?|dev\\.packed4j\\.processor\\."
          + "(validate|model|generate|diagnostics|manifest)(\\..*)?|dev\\.packed4j\\.cli\\.generate");

  private static final Pattern ROW = Pattern.compile("^\\| `(\\w+)` \\| `([\\w.]+)` \\| (.+) \\|$");
  private static final Pattern PUBLIC_TOP_LEVEL = Pattern.compile(
      "^public\\s+(?:(?:abstract|final|sealed|non-sealed|strictfp)\\s+)*(?:class|interface|@interface|enum|record)"
          + "\\s+(\\w+)", Pattern.MULTILINE);
  private static final Pattern GOAL = Pattern.compile("goal `([\\w-]+)`");

  record Row(String type, String packageName, String description) {}

  static List<Row> rows(List<String> markdown) {
    List<Row> rows = new ArrayList<>();
    for (String line : markdown) {
      Matcher row = ROW.matcher(line);
      if (row.matches()) {
        rows.add(new Row(row.group(1), row.group(2), row.group(3)));
      }
    }
    return rows;
  }

  /** What differs between the documented types and the types found (qualified names). */
  static List<String> differences(List<Row> documented, Set<String> found) {
    List<String> problems = new ArrayList<>();
    Map<String, Row> byName = new LinkedHashMap<>();
    for (Row row : documented) {
      if (byName.put(row.packageName() + "." + row.type(), row) != null) {
        problems.add(row.type() + " is listed twice");
      }
    }
    Set<String> inAnotherPackage = new TreeSet<>();
    for (String qualified : found) {
      if (!byName.containsKey(qualified)) {
        String simple = qualified.substring(qualified.lastIndexOf('.') + 1);
        Optional<Row> elsewhere = documented.stream().filter(row -> row.type().equals(simple)).findFirst();
        if (elsewhere.isPresent()) {
          inAnotherPackage.add(elsewhere.get().packageName() + "." + simple);
          problems.add(simple + " is listed in package " + elsewhere.get().packageName() + ", but it is " + qualified);
        } else {
          problems.add(qualified + " is a public type the table does not list");
        }
      }
    }
    for (String qualified : byName.keySet()) {
      if (!found.contains(qualified) && !inAnotherPackage.contains(qualified)) {
        problems.add(qualified + " is listed, but there is no such public type");
      }
    }
    return problems;
  }

  /** The public top-level types of each package under the given source folders, as qualified names. */
  static Map<String, Set<String>> publicTypesByPackage(Set<String> sourceFolders) throws IOException {
    Map<String, Set<String>> types = new TreeMap<>();
    for (String folder : sourceFolders) {
      Path root = ROOT.resolve(folder);
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
          String name = file.getFileName().toString().replace(".java", "");
          if (name.contains("-")) {
            continue; // package-info, module-info
          }
          Matcher declaration = PUBLIC_TOP_LEVEL.matcher(Files.readString(file));
          if (declaration.find() && declaration.group(1).equals(name)) {
            String packageName = root.relativize(file.getParent()).toString().replace(File.separatorChar, '.');
            types.computeIfAbsent(packageName, key -> new TreeSet<>()).add(packageName + "." + name);
          }
        }
      }
    }
    return types;
  }

  @Test
  void theTableListsEveryPublicTypeOfThePublicPackagesInItsPackage() throws IOException {
    List<Row> documented = rows(Files.readAllLines(DOC));
    Map<String, Set<String>> byPackage = publicTypesByPackage(new TreeSet<>(PUBLIC_PACKAGES.values()));
    Set<String> found = new TreeSet<>();
    for (Map.Entry<String, Set<String>> entry : byPackage.entrySet()) {
      if (PUBLIC_PACKAGES.containsKey(entry.getKey())) {
        found.addAll(entry.getValue());
      } else {
        assertTrue(INTERNAL.matcher(entry.getKey()).matches(), entry.getKey() + " has public types " + entry.getValue()
            + " but is neither a public package of docs/java-api.md nor one it calls implementation");
      }
    }
    for (String publicPackage : PUBLIC_PACKAGES.keySet()) {
      assertTrue(byPackage.containsKey(publicPackage), publicPackage + " has public types in "
          + PUBLIC_PACKAGES.get(publicPackage));
    }
    List<String> problems = differences(documented, found);
    assertTrue(problems.isEmpty(), "docs/java-api.md: " + String.join("; ", problems));
    assertTrue(documented.size() >= 30, "rows found: " + documented.size());
  }

  @Test
  void theDocumentedTypesAreThoseOnTheClassPath() throws ClassNotFoundException {
    // The Maven plugin is not on this module's class path; its types are checked from their sources above.
    for (Row row : rowsOfDoc()) {
      if (row.packageName().equals("dev.packed4j.maven")) {
        continue;
      }
      Class<?> type = Class.forName(row.packageName() + "." + row.type(), false, getClass().getClassLoader());
      assertTrue(Modifier.isPublic(type.getModifiers()), type + " is public");
      assertNull(type.getEnclosingClass(), type + " is top-level");
    }
  }

  @Test
  void theRuntimeModuleExportsExactlyItsPublicPackages() throws IOException {
    String moduleInfo = Files.readString(ROOT.resolve("runtime/src/main/java/module-info.java"));
    Matcher export = Pattern.compile("exports\\s+([\\w.]+);").matcher(moduleInfo);
    Set<String> exported = new TreeSet<>();
    while (export.find()) {
      exported.add(export.group(1));
    }
    assertEquals(Set.of("dev.packed4j.runtime", "dev.packed4j.runtime.binding"), exported);
  }

  @Test
  void theGoalsAreTheMojosGoals() throws IOException {
    Path mojos = ROOT.resolve("tools/maven-plugin/src/main/java/dev/packed4j/maven");
    Set<String> documentedMojos = new TreeSet<>();
    for (Row row : rowsOfDoc()) {
      Matcher goal = GOAL.matcher(row.description());
      if (row.packageName().equals("dev.packed4j.maven") && goal.find()) {
        String source = Files.readString(mojos.resolve(row.type() + ".java"));
        assertTrue(source.contains("@Mojo(name = \"" + goal.group(1) + "\""), row.type() + " is goal " + goal.group(1));
        documentedMojos.add(row.type());
      }
    }
    Set<String> allMojos = new TreeSet<>();
    try (Stream<Path> files = Files.list(mojos)) {
      for (Path file : files.toList()) {
        if (Files.readString(file).contains("@Mojo(")) {
          allMojos.add(file.getFileName().toString().replace(".java", ""));
        }
      }
    }
    assertEquals(allMojos, documentedMojos, "every goal is in the table, with its name");
  }

  @Test
  void theCliJarIsWhereTheDocumentSays() throws IOException {
    String doc = Files.readString(DOC);
    String parent = Files.readString(ROOT.resolve("pom.xml"));
    String version = between(parent, "<artifactId>packed4j-parent</artifactId>", "<version>", "</version>");
    String groupId = between(parent, "<modelVersion>", "<groupId>", "</groupId>");
    String cliPom = Files.readString(ROOT.resolve("tools/cli/pom.xml"));
    assertTrue(cliPom.contains("<artifactId>packed4j-cli</artifactId>"), "tools/cli is packed4j-cli");
    // The shaded jar replaces the module's artifact: no other final name, no attached second jar.
    assertTrue(cliPom.contains("<artifactId>maven-shade-plugin</artifactId>"), "tools/cli shades its jar");
    assertTrue(!cliPom.contains("<finalName>") && !cliPom.contains("shadedArtifactAttached"), cliPom);
    String jar = "packed4j-cli-" + version + ".jar";
    String target = "tools/cli/target/" + jar;
    String installed = "~/.m2/repository/" + groupId.replace('.', '/') + "/packed4j-cli/" + version + "/" + jar;
    assertTrue(doc.contains("`" + target + "`"), "docs/java-api.md names " + target);
    assertTrue(doc.contains("`" + installed + "`"), "docs/java-api.md names " + installed);

    // In a reactor build this module's class path has the jar itself (DescribeAndCheckTest runs it with -jar).
    Optional<String> onClassPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> entry.endsWith("/" + jar))
        .findFirst();
    if (onClassPath.isPresent()) {
      String path = onClassPath.get().replace(File.separatorChar, '/');
      assertTrue(path.endsWith("/" + target) || path.endsWith("/packed4j-cli/" + version + "/" + jar), path);
      try (JarFile runnable = new JarFile(onClassPath.get())) {
        assertEquals("dev.packed4j.cli.Launcher", runnable.getManifest().getMainAttributes().getValue("Main-Class"));
        assertNotNull(runnable.getEntry("dev/packed4j/runtime/Packed4j.class"), "the runtime is shaded in");
      }
    }
  }

  @Test
  void theCheckFindsAMissingTypeAndAWrongPackage() {
    List<Row> documented = rows(List.of(
        "| Type | Package | What it is |",
        "| `Packed4j` | `dev.packed4j.runtime` | entry points |",
        "| `Codec` | `dev.packed4j.runtime` | in the wrong package |",
        "| `Gone` | `dev.packed4j.runtime` | no longer exists |"));
    assertEquals(3, documented.size());
    Set<String> found = new TreeSet<>(Set.of("dev.packed4j.runtime.Packed4j", "dev.packed4j.runtime.binding.Codec",
        "dev.packed4j.runtime.Registry"));
    assertEquals(List.of(
        "dev.packed4j.runtime.Registry is a public type the table does not list",
        "Codec is listed in package dev.packed4j.runtime, but it is dev.packed4j.runtime.binding.Codec",
        "dev.packed4j.runtime.Gone is listed, but there is no such public type"),
        differences(documented, found));
  }

  private static List<Row> rowsOfDoc() {
    try {
      return rows(Files.readAllLines(DOC));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** The text between open and close after the first after. */
  private static String between(String text, String after, String open, String close) {
    int from = text.indexOf(open, text.indexOf(after)) + open.length();
    return text.substring(from, text.indexOf(close, from)).strip();
  }
}
