package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Java function that C++ keeps in a global until the process exits is called and released by the global's
 * destructor after the JVM has gone: the core's exit guard turns the call into a RuntimeError C++ catches and drops
 * the release, so the process ends with its own exit status instead of a crash in a dead JVM.
 */
class KeptUntilExitTest {
  @ParameterizedTest
  @ValueSource(strings = {"return", "exit", "closed"})
  void theProcessEndsCleanlyWhateverCppDoesWithItAtExit(String mode) throws Exception {
    Path directory = Files.createTempDirectory("packed4j-kept-");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (argument.startsWith("--enable-native-access") || argument.startsWith("-Dpacked4j.")) {
        command.add(argument);
      }
    }
    for (String property : List.of("packed4j.test.library", "packed4j.library.path")) {
      String value = System.getProperty(property);
      if (value != null) {
        command.add("-D" + property + "=" + value);
      }
    }
    command.add("-XX:ErrorFile=" + directory.resolve("hs_err_pid%p.log"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path").replace(File.pathSeparator + File.pathSeparator,
        File.pathSeparator));
    command.add(KeptUntilExit.class.getName());
    command.add(mode);
    // The environment is inherited: under the sanitize profile the child preloads the same sanitizer runtimes.
    Path log = directory.resolve("output.log");
    Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("timed out: " + command + "\n" + Files.readString(log));
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    try (var files = Files.list(directory)) {
      assertFalse(files.anyMatch(file -> file.getFileName().toString().startsWith("hs_err")),
          "the child JVM crashed:\n" + output);
    }
    assertEquals(0, process.exitValue(), "the child JVM ended with " + process.exitValue() + ":\n" + output);
    assertTrue(output.contains("main done\n"), output);
    assertTrue(output.contains("kept function at exit: RuntimeError: the host VM has exited: a function of the host"
        + " (Java) cannot be called once the process is exiting (from a static destructor or an atexit handler)"),
        output);
    try (var files = Files.list(directory)) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    Files.delete(directory);
  }
}
