package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The code blocks of README's "Tensors" are excerpts of samples/tensor, which the reactor builds and runs: every line
 * of the C++ block is a line of native/tensor.cc, every line of the Java block a line of the sample's Java sources.
 */
class ReadmeTensorsTest {
  @Test
  void readmeTensorBlocksAreLinesOfTheTensorSample() throws IOException {
    String readme = Files.readString(Path.of("../README.md"));
    int start = readme.indexOf("## Tensors");
    assertTrue(start >= 0, "README has no section \"Tensors\"");
    String section = readme.substring(start, readme.indexOf("\n## ", start + 1));
    List<String> blocks = blocks(section);
    assertEquals(2, blocks.size(), "the Tensors section shows a C++ and a Java block");
    Path sample = Path.of("../samples/tensor");
    Set<String> cpp = lines(Files.readString(sample.resolve("native/tensor.cc")));
    Set<String> java = lines(Files.readString(sample.resolve("src/main/java/dev/packed4j/samples/tensor/TensorOps.java"))
        + Files.readString(sample.resolve("src/main/java/dev/packed4j/samples/tensor/TensorApp.java")));
    assertEquals(List.of(), missing(blocks.get(0), cpp), "README C++ lines not in samples/tensor/native/tensor.cc");
    assertEquals(List.of(), missing(blocks.get(1), java), "README Java lines not in samples/tensor's sources");
  }

  private static List<String> blocks(String markdown) {
    List<String> blocks = new ArrayList<>();
    int from = 0;
    while (true) {
      int open = markdown.indexOf("```", from);
      if (open < 0) {
        return blocks;
      }
      int body = markdown.indexOf('\n', open) + 1;
      int close = markdown.indexOf("```", body);
      blocks.add(markdown.substring(body, close));
      from = close + 3;
    }
  }

  private static Set<String> lines(String text) {
    return text.lines().map(String::strip).filter(line -> !line.isEmpty()).collect(Collectors.toSet());
  }

  private static List<String> missing(String block, Set<String> source) {
    return block.lines().map(String::strip).filter(line -> !line.isEmpty() && !source.contains(line)).toList();
  }
}
