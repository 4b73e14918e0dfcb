package dev.packed4j.userprojects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;

/**
 * src/it/inventory: a project with only C++ sources under src/main. packed4j-maven-plugin's generate goal writes its
 * Java interfaces, javac checks them against the manifest, and the project's tests call its functions, objects (a
 * constructor, a setter, a method) and callbacks through them. A second build with the same library rewrites no
 * generated file.
 */
class GeneratedProjectTest {
  private static final String GUIDE_COPIES = "tests/user-projects/src/test/resources/inventory/";

  private static String withoutHash(String source) {
    return source.replaceAll("sha-256 [0-9a-f]{64}", "sha-256 <hash>");
  }

  @Test
  void aProjectWithOnlyCppSourcesGetsItsJavaApiFromTheGenerateGoal() throws Exception {
    Path project = UserBuilds.copyProject("inventory");
    UserBuilds.Run build = UserBuilds.maven(project, "verify").succeeded();
    assertTrue(build.output().contains("packed4j: 3 interfaces in"), build.output());
    assertTrue(build.output().contains("Tests run: 5, Failures: 0, Errors: 0, Skipped: 0"), build.output());

    Path sources = project.resolve("target/generated-sources/packed4j/com/example/inventory");
    for (String name : new String[] {"Inventory.java", "Item.java", "Perishable.java"}) {
      assertTrue(Files.isRegularFile(sources.resolve(name)), name);
    }
    Path inventory = sources.resolve("Inventory.java");
    // The files docs/guide.md shows: the same but for the library's hash, which depends on the compiler.
    for (String name : new String[] {"Inventory.java", "Item.java"}) {
      String copy = GUIDE_COPIES + name;
      assertEquals(withoutHash(Files.readString(UserBuilds.ROOT.resolve(copy))),
          withoutHash(Files.readString(sources.resolve(name))),
          "the generated " + name + " differs from " + copy + ", which docs/guide.md quotes: copy it there");
    }
    FileTime old = FileTime.fromMillis(1_000_000_000_000L);
    Files.setLastModifiedTime(inventory, old);

    UserBuilds.Run again = UserBuilds.maven(project, "verify").succeeded();
    assertTrue(again.output().contains("(0 written, 3 unchanged, 0 stale deleted)"), again.output());
    assertEquals(old, Files.getLastModifiedTime(inventory), "an unchanged generated file is not rewritten");
  }
}
