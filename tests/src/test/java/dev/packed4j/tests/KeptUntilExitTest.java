package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Java function that C++ keeps in a global until the process exits is called and released by the global's
 * destructor after the JVM has gone: the core's exit guard turns the call into a RuntimeError C++ catches and drops
 * the release, so the process ends with its own exit status instead of a crash in a dead JVM.
 */
class KeptUntilExitTest {
  @ParameterizedTest
  @ValueSource(strings = {"return", "exit", "closed", "thread-local", "late-threads", "late-threads",
      "late-threads"})
  void theProcessEndsCleanlyWhateverCppDoesWithItAtExit(String mode) throws Exception {
    Path directory = Files.createTempDirectory("packed4j-kept-");
    boolean passed = false;
    try {
      // A crash ends the child with another status than 0, which run reports with the output.
      String output = ChildJvm.run(ChildJvm.command(KeptUntilExit.class, true,
          List.of("-XX:ErrorFile=" + directory.resolve("hs_err_pid%p.log")), List.of(mode)), directory, 2);
      try (var files = Files.list(directory)) {
        assertFalse(files.anyMatch(file -> file.getFileName().toString().startsWith("hs_err")),
            "the child JVM wrote a crash report:\n" + output);
      }
      assertTrue(output.contains("main done\n"), output);
      if (!mode.equals("late-threads")) { // late threads each got a result or an error: nothing to read of them
        String kept = mode.equals("thread-local") ? "thread-local function at thread end" : "kept function at exit";
        assertTrue(output.contains(kept + ": RuntimeError: the host VM has exited: a function of the host (Java)"
            + " cannot be called once the JVM has ended (from a static destructor, an atexit handler, or a thread"
            + " still running after it)"), output);
      }
      passed = true;
    } finally {
      if (passed) { // else a crash report stays in the directory, for whoever reads the failure
        try (var files = Files.list(directory)) {
          for (Path file : files.toList()) {
            Files.delete(file);
          }
        }
        Files.delete(directory);
      }
    }
  }
}
