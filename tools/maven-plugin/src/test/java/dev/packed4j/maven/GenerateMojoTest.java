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
    GenerateMojo goal = goal("com.example.inventory", "target/generated-sources/packed4j", "skip");
    goal.prefixes = List.of("inventory.", "stats.");
    goal.existing = Map.of("inventory.Perishable", "com.example.Fresh", "inventory.Item", "com.example.Goods");
    assertEquals(List.of("generate", "lib/libinventory.so", "--package", "com.example.inventory", "--out",
        "target/generated-sources/packed4j", "--untyped", "skip", "--prefix", "inventory.", "--prefix", "stats.",
        "--existing", "inventory.Item=com.example.Goods", "--existing", "inventory.Perishable=com.example.Fresh"),
        goal.cliArguments(List.of(Path.of("lib/libinventory.so"))));
  }

  @Test
  void withoutPrefixesOrExistingInterfacesNoneIsPassed() {
    GenerateMojo goal = goal("p", "out", "object-varargs");
    assertEquals(List.of("generate", "--package", "p", "--out", "out", "--untyped", "object-varargs"),
        goal.cliArguments(List.of()));
  }

  private static GenerateMojo goal(String packageName, String outputDirectory, String untyped) {
    GenerateMojo goal = new GenerateMojo();
    goal.packageName = packageName;
    goal.outputDirectory = new File(outputDirectory);
    goal.untyped = untyped;
    return goal;
  }
}
