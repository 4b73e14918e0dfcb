package dev.packed4j.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line the generate goal gives packed4j-cli, which GenerateTest (packed4j-tests) runs for real, and its
 * check of what was written against the project's other source roots.
 */
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

  @Test
  void aGeneratedClassThatAnotherSourceRootHasIsNamedWithWhatToChange(@TempDir Path project) throws Exception {
    Path generated = project.resolve("target/generated-sources/packed4j");
    Path sources = project.resolve("src/main/java");
    for (Path root : List.of(generated, sources)) {
      Files.createDirectories(root.resolve("com/example/docs"));
      Files.writeString(root.resolve("com/example/docs/Docs.java"), "package com.example.docs;\n");
    }
    Files.writeString(generated.resolve("com/example/docs/Document.java"),
        "package com.example.docs;\n\n@Object(\"docs.Document\")\npublic interface Document {}\n");
    Files.writeString(sources.resolve("com/example/docs/Document.java"), "package com.example.docs;\n");
    Files.writeString(generated.resolve("com/example/docs/Stats.java"), "package com.example.docs;\n");

    // An earlier configuration's package, left in the output directory: not this run's, not reported.
    Files.createDirectories(generated.resolve("com/example/old"));
    Files.createDirectories(sources.resolve("com/example/old"));
    Files.writeString(generated.resolve("com/example/old/Docs.java"), "package com.example.old;\n");
    Files.writeString(sources.resolve("com/example/old/Docs.java"), "package com.example.old;\n");

    List<String> clashes = GenerateMojo.clashes(generated, "com.example.docs", List.of(sources, generated));
    assertEquals(List.of(
        sources.resolve("com/example/docs/Docs.java") + " and the generated " + generated.resolve(
            "com/example/docs/Docs.java") + ": narrow <prefixes> (--prefix) to leave the functions of"
            + " com.example.docs.Docs to your interface",
        sources.resolve("com/example/docs/Document.java") + " and the generated " + generated.resolve(
            "com/example/docs/Document.java") + ": map the type key to your interface, <existing><docs.Document>"
            + "com.example.docs.Document</docs.Document></existing> (--existing"
            + " docs.Document=com.example.docs.Document)"), clashes);
    assertEquals(List.of(), GenerateMojo.clashes(generated, "com.example.docs", List.of(generated)),
        "its own root is no clash");
    assertEquals(List.of(), GenerateMojo.clashes(project.resolve("nothing"), "com.example.docs", List.of(sources)));
  }

  private static GenerateMojo goal(String packageName, String outputDirectory, String untyped) {
    GenerateMojo goal = new GenerateMojo();
    goal.packageName = packageName;
    goal.outputDirectory = new File(outputDirectory);
    goal.untyped = untyped;
    return goal;
  }
}
