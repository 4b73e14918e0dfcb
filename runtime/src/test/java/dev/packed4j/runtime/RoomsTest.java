package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runtime's rooms stay as drawn (docs/architecture.md, "runtime inside"): each internal package says in its
 * package comment what it may import ("May import: ..."), every import and qualified name of its sources keeps to
 * that, the public types a room may use are leaves (they import nothing internal, so no import runs from a room
 * up through the public packages and back), the public package does not import the binding package, and the
 * architecture document's table of rooms says the same as the package comments.
 */
class RoomsTest {
  private static final Path SOURCES = Path.of("src/main/java/dev/packed4j/runtime");
  private static final Path ARCHITECTURE = Path.of("../docs/architecture.md");
  private static final String RUNTIME = "dev.packed4j.runtime";
  private static final String INTERNAL = RUNTIME + ".internal";
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern QUALIFIED = Pattern.compile("\\bdev\\.packed4j\\.runtime\\.[\\w.]+");
  private static final Pattern MAY_IMPORT = Pattern.compile("May import: (.*?)\\.\\s*(?:\\*/|\\n\\s*\\*\\s*\\n)",
      Pattern.DOTALL);
  private static final Pattern CODE = Pattern.compile("\\{@code ([\\w.]+)}");

  @Test
  void everyRoomImportsOnlyWhatItsPackageCommentAllows() throws IOException {
    Map<String, Set<String>> rules = rules();
    assertTrue(rules.keySet().containsAll(List.of("errors", "capi", "objects", "tensor", "values", "upcall",
        "route")), "the rooms: " + rules.keySet());
    List<String> violations = new ArrayList<>();
    for (Map.Entry<String, Set<String>> room : rules.entrySet()) {
      for (Path source : sources(SOURCES.resolve("internal").resolve(room.getKey()))) {
        for (String target : references(source)) {
          String allowedAs = allowedAs(target);
          if (allowedAs != null && !allowedAs.equals(room.getKey()) && !room.getValue().contains(allowedAs)) {
            violations.add(SOURCES.relativize(source) + " uses " + target + " (" + allowedAs + "), not allowed in "
                + room.getKey() + ": " + room.getValue());
          }
        }
      }
    }
    assertEquals(List.of(), violations);
  }

  @Test
  void thePublicTypesARoomMayUseAreLeaves() throws IOException {
    for (Set<String> allowed : rules().values()) {
      for (String token : allowed) {
        if (Character.isUpperCase(token.charAt(token.lastIndexOf('.') + 1))) {
          Path source = SOURCES.resolve(token.replace('.', '/') + ".java");
          assertTrue(Files.exists(source), token + " is a public type of the runtime");
          assertLeaf(source, new LinkedHashSet<>());
        }
      }
    }
  }

  @Test
  void thePublicPackageDoesNotImportTheBindingPackage() throws IOException {
    for (Path source : sources(SOURCES)) {
      if (source.getParent().equals(SOURCES)) {
        for (String target : references(source)) {
          assertFalse(target.startsWith(RUNTIME + ".binding."), source + " uses " + target + ": the binding "
              + "package sits above the public one (generated code's API over the user's)");
        }
      }
    }
  }

  @Test
  void theArchitectureTableSaysWhatThePackageCommentsSay() throws IOException {
    String architecture = Files.readString(ARCHITECTURE);
    for (Map.Entry<String, Set<String>> room : rules().entrySet()) {
      Matcher row = Pattern.compile("^\\|[^|]*\\| `internal\\." + room.getKey() + "` \\|.*\\| ([^|]*) \\|$",
          Pattern.MULTILINE).matcher(architecture);
      assertTrue(row.find(), "docs/architecture.md has a row for internal." + room.getKey());
      Set<String> documented = new LinkedHashSet<>();
      Matcher token = Pattern.compile("`([\\w.]+)`").matcher(row.group(1));
      while (token.find()) {
        documented.add(token.group(1));
      }
      assertEquals(room.getValue(), documented, "internal." + room.getKey() + ": docs/architecture.md against "
          + "its package comment");
    }
  }

  /** Each room's "May import" tokens: other rooms by their last name, public types as {@code binding.Codec}. */
  static Map<String, Set<String>> rules() throws IOException {
    Map<String, Set<String>> rules = new TreeMap<>();
    try (Stream<Path> rooms = Files.list(SOURCES.resolve("internal"))) {
      for (Path room : rooms.filter(Files::isDirectory).toList()) {
        Path info = room.resolve("package-info.java");
        assertTrue(Files.exists(info), room + " has a package comment");
        Matcher may = MAY_IMPORT.matcher(Files.readString(info));
        assertTrue(may.find(), info + " says what the room may import (\"May import: ...\")");
        Set<String> allowed = new LinkedHashSet<>();
        Matcher token = CODE.matcher(may.group(1));
        while (token.find()) {
          allowed.add(token.group(1));
        }
        rules.put(room.getFileName().toString(), allowed);
      }
    }
    return rules;
  }

  /**
   * What a reference counts as for the rules: a room by its last name, a public type as its name under
   * {@code dev.packed4j.runtime}, or null for what any room may use (the JDK, packed4j-types).
   */
  private static String allowedAs(String target) {
    if (target.startsWith(INTERNAL + ".")) {
      return target.substring(INTERNAL.length() + 1).split("\\.")[0];
    }
    if (target.startsWith(RUNTIME + ".")) {
      String rest = target.substring(RUNTIME.length() + 1);
      List<String> parts = List.of(rest.split("\\."));
      StringBuilder name = new StringBuilder();
      for (String part : parts) {
        name.append(name.isEmpty() ? "" : ".").append(part);
        if (Character.isUpperCase(part.charAt(0))) {
          return name.toString(); // the outermost type: a nested type or member belongs to it
        }
      }
      return rest;
    }
    return null;
  }

  /** Every runtime type a source imports or names in code by its qualified name. */
  private static Set<String> references(Path source) throws IOException {
    String text = Files.readString(source);
    Set<String> targets = new LinkedHashSet<>();
    Matcher imports = IMPORT.matcher(text);
    while (imports.find()) {
      targets.add(imports.group(1));
    }
    Matcher qualified = QUALIFIED.matcher(withoutComments(text).replaceAll("(?m)^import [^\\n]*;$", "")
        .replaceAll("(?m)^package [^\\n]*;$", ""));
    while (qualified.find()) {
      targets.add(qualified.group());
    }
    targets.removeIf(target -> !target.startsWith(RUNTIME + "."));
    return targets;
  }

  /** A public type a room may use imports nothing internal, and only leaves of the runtime's public types. */
  private static void assertLeaf(Path source, Set<Path> seen) throws IOException {
    if (!seen.add(source)) {
      return;
    }
    String code = withoutComments(Files.readString(source));
    for (String target : references(source)) {
      assertFalse(target.startsWith(INTERNAL + "."), source + " may be used by the internal rooms, so it must not "
          + "use " + target);
      String type = allowedAs(target);
      Path next = SOURCES.resolve(type.replace('.', '/') + ".java");
      if (Files.exists(next)) {
        assertLeaf(next, seen);
      }
    }
    // Types of its own package need no import: those it names must be leaves too.
    try (Stream<Path> siblings = Files.list(source.getParent())) {
      for (Path sibling : siblings.filter(p -> p.toString().endsWith(".java")).toList()) {
        String name = sibling.getFileName().toString().replace(".java", "");
        if (!sibling.equals(source) && !name.equals("package-info")
            && Pattern.compile("\\b" + name + "\\b").matcher(code).find()) {
          assertLeaf(sibling, seen);
        }
      }
    }
  }

  private static String withoutComments(String text) {
    return text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "")
        .replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
  }

  private static List<Path> sources(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }
}
