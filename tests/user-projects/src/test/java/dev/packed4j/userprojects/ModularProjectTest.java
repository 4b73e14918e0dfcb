package dev.packed4j.userprojects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An application that is a named module (src/it/modular): built by Maven with its module-info.java, run from the
 * module path as the README says, and what a missing native-access flag gives.
 */
class ModularProjectTest {
  @Test
  void runsOnTheModulePathWithNativeAccessForBothModules() throws Exception {
    Path project = UserBuilds.copyProject("modular");
    UserBuilds.maven(project, "package").succeeded();

    // The README's flags, under deny: no warning, no fallback.
    UserBuilds.Run run = UserBuilds.run(project, command(project,
        "--enable-native-access=dev.packed4j.runtime,com.example.modular", "--illegal-native-access=deny"), Map.of())
        .succeeded();
    assertEquals("Hello, module!\n42\n", run.output());

    // Without the application's own flag, loading its library is refused, naming the flag to add.
    UserBuilds.Run withoutApplication = UserBuilds.run(project, command(project,
        "--enable-native-access=dev.packed4j.runtime"), Map.of());
    assertNotEquals(0, withoutApplication.exitCode(), withoutApplication.output());
    assertTrue(withoutApplication.output().contains("java.lang.IllegalCallerException: Packed4j.loadLibrary reaches"
        + " native memory and needs native access, which module com.example.modular (of com.example.modular.Main)"
        + " does not have: run with --enable-native-access=com.example.modular"), withoutApplication.output());

    // Without packed4j's, under deny: its first call says so.
    UserBuilds.Run withoutPacked4j = UserBuilds.run(project, command(project,
        "--enable-native-access=com.example.modular", "--illegal-native-access=deny"), Map.of());
    assertNotEquals(0, withoutPacked4j.exitCode(), withoutPacked4j.output());
    assertTrue(withoutPacked4j.output().contains("java.lang.IllegalCallerException: packed4j-runtime (module"
        + " dev.packed4j.runtime) may not access native memory, which it needs to load its native core: run with"
        + " --enable-native-access=dev.packed4j.runtime,<your module>"), withoutPacked4j.output());
  }

  /** {@code java <options> --module-path <the jar, packed4j-runtime, packed4j-types> -m <the main class>}. */
  private static List<String> command(Path project, String... options) {
    Path repository = Path.of(UserBuilds.property("packed4j.it.repository"), "dev", "packed4j");
    List<String> modulePath = new ArrayList<>();
    modulePath.add(project.resolve("target/modular.jar").toString());
    for (String artifact : List.of("packed4j-runtime", "packed4j-types")) {
      modulePath.add(repository.resolve(artifact).resolve(UserBuilds.VERSION)
          .resolve(artifact + "-" + UserBuilds.VERSION + ".jar").toString());
    }
    List<String> command = new ArrayList<>();
    command.add(UserBuilds.java());
    command.addAll(List.of(options));
    command.add("--module-path");
    command.add(String.join(File.pathSeparator, modulePath));
    command.add("-m");
    command.add("com.example.modular/com.example.modular.Main");
    return command;
  }
}
