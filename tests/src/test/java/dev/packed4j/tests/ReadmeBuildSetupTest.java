package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Maven setup README's "Catch mistakes at compile time" shows is the one the calculator sample builds with (the
 * reactor builds and runs it): every line of the README's block is a line of the sample's pom.
 */
class ReadmeBuildSetupTest {
  @Test
  void theReadmesMavenSetupIsTheCalculatorSamples() throws IOException {
    String readme = Files.readString(Path.of("../README.md"));
    int section = readme.indexOf("## Catch mistakes at compile time");
    assertTrue(section >= 0, "README has no section \"Catch mistakes at compile time\"");
    int start = readme.indexOf("```xml\n", section) + "```xml\n".length();
    List<String> block = readme.substring(start, readme.indexOf("```", start)).lines()
        .map(String::strip)
        .filter(line -> !line.isEmpty() && !line.equals("..."))
        .toList();
    Set<String> sample = Files.readString(Path.of("../samples/calculator/pom.xml"))
        .replace("${packed4j.nativeAccess}", "--enable-native-access=ALL-UNNAMED")
        .lines().map(String::strip).collect(Collectors.toSet());
    List<String> missing = block.stream().filter(line -> !sample.contains(line)).toList();
    assertTrue(missing.isEmpty(), "README lines not in samples/calculator/pom.xml: " + missing);
    assertTrue(block.size() > 15, block::toString);
  }
}
