package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM like this test's, for a main class of the tests that must run alone in its process (recursion to the end of
 * the stack, the process's exit, the first load of the native core). The environment is inherited: under the
 * sanitize profile the child preloads the same sanitizer runtimes.
 */
final class ChildJvm {
  private ChildJvm() {}

  /**
   * {@code java <native access> [<this JVM's core>] <options> -cp <the tests' class path> <main> <arguments>}. With
   * {@code sameCore}, the child loads the core this JVM loaded (its {@code -Dpacked4j.} options and
   * {@code packed4j.library.path}); without, it finds one as a fresh process does. The test plugin's path is passed
   * either way.
   */
  static List<String> command(Class<?> main, boolean sameCore, List<String> options, List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (argument.startsWith("--enable-native-access") || (sameCore && argument.startsWith("-Dpacked4j."))) {
        command.add(argument);
      }
    }
    for (String property : sameCore ? List.of("packed4j.test.library", "packed4j.library.path")
        : List.of("packed4j.test.library")) {
      String value = System.getProperty(property);
      if (value != null) {
        command.add("-D" + property + "=" + value);
      }
    }
    command.addAll(options);
    command.add("-cp");
    command.add(System.getProperty("java.class.path").replace(File.pathSeparator + File.pathSeparator,
        File.pathSeparator));
    command.add(main.getName());
    command.addAll(arguments);
    return command;
  }

  /**
   * Runs {@code command} in {@code directory} until it exits (at most {@code minutes}), its output drained to a file
   * so that a child that hangs is stopped; asserts that it exited with 0 and returns its output.
   */
  static String run(List<String> command, Path directory, long minutes) throws IOException, InterruptedException {
    Path log = Files.createTempFile("packed4j-child-", ".log");
    try {
      Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError("timed out: " + command + "\n" + Files.readString(log, StandardCharsets.UTF_8));
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertEquals(0, process.exitValue(), "the child JVM ended with " + process.exitValue() + ":\n" + output);
      return output;
    } finally {
      Files.delete(log);
    }
  }
}
