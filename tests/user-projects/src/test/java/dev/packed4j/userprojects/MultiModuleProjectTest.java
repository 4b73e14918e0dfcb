package dev.packed4j.userprojects;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The layout docs/guide.md gives for a library built in one Maven module and its interfaces declared in another
 * (src/it/multimodule): the api module describes the sibling's built library, so that a C++ rename fails the api
 * module's build on the declaration, not the shipped application at its first call (userK K3).
 */
class MultiModuleProjectTest {
  @Test
  void theApiModuleIsCheckedAgainstTheSiblingsLibrary() throws Exception {
    Path project = UserBuilds.copyProject("multimodule");
    UserBuilds.maven(project, "package").succeeded();
    assertTrue(Files.isRegularFile(project.resolve("api/target/packed4j/greeting.manifest.json")),
        "the api module described the native module's library");

    Path source = project.resolve("native/src/main/native/greeting.cc");
    Files.writeString(source, Files.readString(source).replace("\"greeting.Hello\"", "\"greeting.Welcome\""));
    UserBuilds.Run renamed = UserBuilds.maven(project, "package");
    assertNotEquals(0, renamed.exitCode(), renamed.output());
    assertTrue(renamed.output().contains("[P4J-NATIVE-UNKNOWN-GLOBAL] no global function \"greeting.Hello\" is"
        + " registered"), renamed.output());
  }
}
