package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The code of README's "Functions as values" is the callbacks sample's, which the reactor compiles and runs: every
 * line of every code block of the section is a line of the sample's sources.
 */
class ReadmeFunctionsAsValuesTest {
  @Test
  void theReadmesCodeIsTheCallbacksSamples() throws IOException {
    String readme = Files.readString(Path.of("../README.md"));
    int section = readme.indexOf("## Functions as values");
    assertTrue(section >= 0, "README has no section \"Functions as values\"");
    String text = readme.substring(section, readme.indexOf("\n## ", section + 1));
    List<String> lines = new ArrayList<>();
    int blocks = 0;
    for (int at = text.indexOf("```"); at >= 0; at = text.indexOf("```", text.indexOf("```", at + 3) + 3)) {
      int start = text.indexOf('\n', at) + 1;
      text.substring(start, text.indexOf("```", start)).lines().map(String::strip).filter(l -> !l.isEmpty())
          .forEach(lines::add);
      blocks++;
    }
    Set<String> sample;
    try (Stream<Path> files = Files.walk(Path.of("../samples/callbacks"))) {
      sample = files.filter(f -> f.toString().endsWith(".java") || f.toString().endsWith(".cc"))
          .filter(f -> !f.toString().contains("/target/"))
          .flatMap(f -> {
            try {
              return Files.readString(f).lines();
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          })
          .map(String::strip)
          .collect(Collectors.toSet());
    }
    List<String> missing = lines.stream().filter(line -> !sample.contains(line)).toList();
    assertTrue(missing.isEmpty(), "README lines not in samples/callbacks: " + missing);
    assertTrue(blocks >= 3 && lines.size() > 30, blocks + " blocks, " + lines.size() + " lines");
  }
}
