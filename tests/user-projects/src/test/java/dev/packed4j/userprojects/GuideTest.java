package dev.packed4j.userprojects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/guide.md cannot drift: every code block is a file, or an exact run of lines of a file, of the projects
 * ShapesProjectTest and ArchetypeProjectTest build and run; every command block holds only commands those tests
 * run; the output block is the output ShapesProjectTest expects.
 */
class GuideTest {
  private static final String FROM = "<!-- from ";
  private static final String COMMAND = "<!-- command -->";
  private static final String OUTPUT = "<!-- output of tests/user-projects/src/it/shapes -->";

  record Block(int line, String marker, String info, List<String> lines) {}

  static List<Block> blocks(List<String> markdown) {
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < markdown.size(); i++) {
      String line = markdown.get(i);
      if (!line.startsWith("```")) {
        continue;
      }
      int start = i;
      List<String> body = new ArrayList<>();
      for (i++; i < markdown.size() && !markdown.get(i).equals("```"); i++) {
        body.add(markdown.get(i));
      }
      String marker = start > 0 ? markdown.get(start - 1).strip() : "";
      blocks.add(new Block(start + 1, marker, line.substring(3).strip(), body));
    }
    return blocks;
  }

  @Test
  void everyCodeBlockIsPartOfATestedProject() throws IOException {
    Path guide = UserBuilds.ROOT.resolve("docs/guide.md");
    List<Block> blocks = blocks(Files.readAllLines(guide));
    Set<String> commands = Set.of(ArchetypeProjectTest.GENERATE, ArchetypeProjectTest.RUN, ShapesProjectTest.BUILD,
        ShapesProjectTest.RUN);
    int checked = 0;
    for (Block block : blocks) {
      String where = "docs/guide.md:" + block.line();
      if (block.marker().startsWith(FROM)) {
        String file = block.marker().substring(FROM.length(), block.marker().length() - "-->".length()).strip();
        List<String> source = Files.readAllLines(UserBuilds.ROOT.resolve(file));
        if (Collections.indexOfSubList(source, block.lines()) < 0) {
          fail(where + ": the block is not an exact run of lines of " + file + "; copy it from the file again");
        }
      } else if (block.marker().equals(COMMAND)) {
        for (String command : block.lines()) {
          assertTrue(commands.contains(command), where + ": '" + command + "' is not a command the tests run "
              + commands);
        }
      } else if (block.marker().equals(OUTPUT)) {
        assertEquals(ShapesProjectTest.EXPECTED_OUTPUT, String.join("\n", block.lines()) + "\n", where);
      } else if (!block.info().equals("text")) {
        fail(where + ": a code block needs a marker line before it (" + FROM + "<file> -->, " + COMMAND + " or "
            + OUTPUT + ")");
      } else {
        continue;
      }
      checked++;
    }
    assertTrue(checked >= 15, "the guide's blocks were found: " + checked);
  }

  @Test
  void aDriftedBlockIsFound() {
    // The check itself: a block changed by one character is no run of lines of its file.
    List<String> source = List.of("a", "b", "c");
    List<Block> blocks = blocks(List.of("<!-- from x -->", "```cpp", "b", "c!", "```"));
    assertEquals(1, blocks.size());
    assertEquals(-1, Collections.indexOfSubList(source, blocks.get(0).lines()));
    assertEquals(1, Collections.indexOfSubList(source, List.of("b", "c")));
  }

  @Test
  void theGeneratedReadmeGivesTheCommandItsTestRuns() throws IOException {
    Path readme = UserBuilds.ROOT.resolve("tools/archetype/src/main/resources/archetype-resources/README.md");
    assertTrue(Files.readString(readme).contains(ArchetypeProjectTest.RUN));
  }
}
