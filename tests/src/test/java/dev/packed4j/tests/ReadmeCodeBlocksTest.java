package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * README.md cannot drift: every fenced code block is either an excerpt of files the build compiles and runs, or
 * exempted by its first line in {@link #UNCHECKED}, which says why.
 *
 * <p>A checked block follows a marker line {@code <!-- from FILE -->} or {@code <!-- from FILE, FILE -->} naming
 * files of the repository (the calculator sample's sources and pom, the test plugin's interfaces, the user project
 * of tests/user-projects); several files are read one after the other. The block must be an in-order excerpt of
 * them, which here means:
 *
 * <ul>
 *   <li>each remaining line of the block occurs in the files, after the place where the previous line matched;
 *   <li>lines are compared with all whitespace removed, so indentation and line breaks may differ (a declaration
 *       written on one line in the README may span two lines in the file), but no character other than whitespace;
 *   <li>blank lines, elision lines ({@code ...}) and comment-only lines of the block are skipped, and a trailing
 *       comment is cut off ({@code //} in java, cpp and kotlin, {@code #} in cmake and shell): comments are the
 *       README's explanations to the reader. Lines of the files between matched lines are allowed, as are
 *       comments; the README marks such gaps with {@code ...} where a reader would otherwise be misled.
 * </ul>
 *
 * A renamed function, a changed type or argument, a reordered line or a line that is in none of the files fails.
 */
class ReadmeCodeBlocksTest {
  private static final Path ROOT = Path.of("..");
  private static final String FROM = "<!-- from ";

  /** Blocks not checked against a file, by their first line, and why. */
  static final Map<String, String> UNCHECKED = Map.of(
      "mvn -B -q -pl samples/calculator -am verify -DskipTests",
      "quick start, kept verbatim because the CI hook parses it; the reactor build runs the sample",
      "mvn -B verify",
      "quick start, kept verbatim because the CI hook parses it; it is the suite this test is part of",
      "java -jar packed4j-cli.jar describe build/libcalculator.so --json build/calculator.manifest.json",
      "a command: DescribeAndCheckTest runs packed4j-cli's describe with these arguments on the test plugin, with"
          + " its own class path instead of the jar name",
      "libcalculator.so",
      "output of describe on the calculator sample (abridged with ...); DescribeAndCheckTest asserts the layout on"
          + " the test plugin",
      "p/Calculator.java:6: error: [P4J-NATIVE-UNKNOWN-GLOBAL] no global function \"calculator.MyAd\" is registered"
          + " by the libraries of the manifest (calculator.manifest.json), so Calculator.add(int,int) would fail at"
          + " its first call. Correct the name, or add the manifest of the library that registers it. Did you mean"
          + " \"calculator.MyAdd\"?",
      "output of javac; the calculator sample's WrongDeclarationTest asserts these messages",
      "javac -processorpath packed4j-processor.jar:packed4j-types.jar:javapoet-1.13.0.jar \\",
      "a command: DescribeAndCheckTest runs javac with these options, with its own class path instead of jar names",
      "val manifest = layout.buildDirectory.file(\"native/calculator.manifest.json\")",
      "Gradle: no Gradle can be installed where packed4j is built; the README says the block is untested",
      "dev.packed4j.runtime.Packed4jException: [TypeError] calculator.MyAdd: argument 0 expected int32, got string"
          + " \"one\"",
      "output: an error message as the calculator sample prints it",
      "annotations/   @Global, @Object, @Field",
      "the source tree's layout, not code");

  record Block(int line, String marker, String info, List<String> lines) {}

  static List<Block> blocks(List<String> markdown) {
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < markdown.size(); i++) {
      if (!markdown.get(i).startsWith("```")) {
        continue;
      }
      int start = i;
      List<String> body = new ArrayList<>();
      for (i++; i < markdown.size() && !markdown.get(i).equals("```"); i++) {
        body.add(markdown.get(i));
      }
      String marker = start > 0 ? markdown.get(start - 1).strip() : "";
      blocks.add(new Block(start + 1, marker, markdown.get(start).substring(3).strip(), body));
    }
    return blocks;
  }

  /** The first line of the block that is not an in-order excerpt of {@code source}, if any. */
  static Optional<String> firstLineNotInOrder(String info, List<String> block, String source) {
    String text = withoutWhitespace(source);
    int from = 0;
    int compared = 0;
    for (String line : block) {
      String code = withoutWhitespace(withoutComment(info, line));
      if (code.isEmpty() || code.equals("...")) {
        continue;
      }
      int at = text.indexOf(code, from);
      if (at < 0) {
        return Optional.of(line);
      }
      from = at + code.length();
      compared++;
    }
    return compared == 0 ? Optional.of("(the block has no line to compare)") : Optional.empty();
  }

  private static String withoutWhitespace(String text) {
    return text.replaceAll("\\s+", "");
  }

  /** The line without its comment, for the block's language; quotes are honoured ("http://..." stays). */
  static String withoutComment(String info, String line) {
    if (info.equals("xml")) {
      return line.strip().startsWith("<!--") ? "" : line;
    }
    String start = switch (info) {
      case "java", "cpp", "kotlin" -> "//";
      case "cmake", "shell", "sh", "bash" -> "#";
      default -> throw new AssertionError("README block of unknown language '" + info + "': add it to the test");
    };
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && quoted) {
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && line.startsWith(start, i)) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  @Test
  void everyCodeBlockIsAnExcerptOfATestedFileOrExemptedByName() throws IOException {
    List<Block> blocks = blocks(Files.readAllLines(ROOT.resolve("README.md")));
    Set<String> exemptionsSeen = new HashSet<>();
    int checked = 0;
    for (Block block : blocks) {
      String where = "README.md:" + block.line();
      String first = block.lines().isEmpty() ? "" : block.lines().get(0);
      if (block.marker().startsWith(FROM)) {
        StringBuilder source = new StringBuilder();
        String files = block.marker().substring(FROM.length(), block.marker().length() - "-->".length()).strip();
        for (String file : files.split(",\\s*")) {
          source.append(Files.readString(ROOT.resolve(file))).append('\n');
        }
        Optional<String> drifted = firstLineNotInOrder(block.info(), block.lines(), source.toString());
        if (drifted.isPresent()) {
          fail(where + ": the line '" + drifted.get() + "' is not, in this order, in " + files
              + "; copy the block from the file again");
        }
        checked++;
      } else if (UNCHECKED.containsKey(first)) {
        exemptionsSeen.add(first);
      } else {
        fail(where + ": a code block needs a marker line before it (" + FROM + "<file> -->) or an entry in"
            + " ReadmeCodeBlocksTest.UNCHECKED saying why it is not checked");
      }
    }
    Set<String> stale = new HashSet<>(UNCHECKED.keySet());
    stale.removeAll(exemptionsSeen);
    assertTrue(stale.isEmpty(), "exemptions for blocks README.md no longer has: " + stale);
    assertTrue(checked >= 10, "README blocks checked against files: " + checked);
  }

  @Test
  void theCheckFindsADriftedBlockAndAcceptsAReformattedOne() {
    String source = """
        public interface Calculator {
          @Global("calculator.MyAdd")
          int add(int a, int b);

          @Global("calculator.Mul")
          long multiply(long a, long b);
        }
        """;
    List<String> reformatted = List.of("public interface Calculator {",
        "  @Global(\"calculator.MyAdd\") int add(int a, int b); // 3", "  ...", "}");
    assertEquals(Optional.empty(), firstLineNotInOrder("java", reformatted, source));
    List<String> renamed = List.of("  @Global(\"calculator.MyAd\") int add(int a, int b);");
    assertEquals(Optional.of(renamed.get(0)), firstLineNotInOrder("java", renamed, source));
    List<String> reordered = List.of("  @Global(\"calculator.Mul\") long multiply(long a, long b);",
        "  @Global(\"calculator.MyAdd\") int add(int a, int b);");
    assertEquals(Optional.of(reordered.get(1)), firstLineNotInOrder("java", reordered, source));
    assertFalse(firstLineNotInOrder("java", List.of("// only a comment", "..."), source).isEmpty());
  }

  @Test
  void commentsAreCutOutsideStringsOnly() {
    assertEquals("P4J_REGISTER_OBJECT_TYPE(X);  ", withoutComment("cpp", "P4J_REGISTER_OBJECT_TYPE(X);  // records"));
    assertEquals("String url = \"http://x\"; ", withoutComment("java", "String url = \"http://x\"; // a URL"));
    assertEquals("find_package(p CONFIG REQUIRED) ", withoutComment("cmake", "find_package(p CONFIG REQUIRED) # hint"));
    assertEquals("", withoutComment("xml", "  <!-- a note -->"));
  }
}
