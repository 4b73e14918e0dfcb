package dev.packed4j.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The command line the generate goal gives packed4j-cli, which GenerateTest (packed4j-tests) runs for real. */
class GenerateMojoTest {
  @Test
  void everyParameterBecomesItsOption() {
    GenerateMojo goal = new GenerateMojo();
    goal.packageName = "com.example.inventory";
    goal.outputDirectory = new File("target/generated-sources/packed4j");
    goal.untyped = "skip";
    goal.prefixes = List.of("inventory.", "stats.");
    goal.existing = Map.of("inventory.Perishable", "com.example.Fresh", "inventory.Item", "com.example.Goods");
    assertEquals(List.of("generate", "lib/libinventory.so", "--package", "com.example.inventory", "--out",
        "target/generated-sources/packed4j", "--untyped", "skip", "--prefix", "inventory.", "--prefix", "stats.",
        "--existing", "inventory.Item=com.example.Goods", "--existing", "inventory.Perishable=com.example.Fresh"),
        goal.cliArguments(List.of(Path.of("lib/libinventory.so"))));
  }

  @Test
  void withoutPrefixesOrExistingInterfacesNoneIsPassed() {
    GenerateMojo goal = new GenerateMojo();
    goal.packageName = "p";
    goal.outputDirectory = new File("out");
    goal.untyped = "object-varargs";
    assertEquals(List.of("generate", "--package", "p", "--out", "out", "--untyped", "object-varargs"),
        goal.cliArguments(List.of()));
  }
}
