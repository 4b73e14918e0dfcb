package dev.packed4j.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the goals say after the CLI's own output when its JVM ended with a failure status. */
class PackedCliTest {
  /** The start of packed4j-cli's usage text, which follows its message on a wrong command line. */
  private static final String CLI_USAGE = "usage: packed4j describe <library.so> [--json <manifest.json>]";

  @Test
  void aJvmEndedByASignalIsNamedWithWhatUsuallyCausesIt() {
    // 134 is what a JVM whose library's static initialiser threw ends with: terminate, then abort.
    String abort = PackedCli.hint(128 + 6, "", Map.of());
    assertTrue(abort.startsWith(": the JVM that loaded the library ended with signal 6 (SIGABRT: C++ called"
        + " terminate or abort, as for an exception that escaped a static initialiser"), abort);
    // A JVM that crashes in native code (a static initialiser's null write) writes its report and aborts too.
    assertTrue(abort.contains("or the JVM aborted after a crash in native code, whose hs_err_pid*.log file"), abort);
    String segv = PackedCli.hint(128 + 11, "", Map.of());
    assertTrue(segv.contains("signal 11 (SIGSEGV"), segv);
    assertEquals(": the JVM that loaded the library ended with signal 15; the output above is all it wrote",
        PackedCli.hint(128 + 15, "", Map.of()));
  }

  @Test
  void theCliStatusesKeepTheirMeaning() {
    String tooOld = "Picked up JAVA_TOOL_OPTIONS: -Xmx1g\npacked4j needs Java 25 or later, and this is Java 17";
    assertTrue(PackedCli.hint(2, tooOld, Map.of()).contains("needs a JDK 25; let the project select one"));
    assertEquals(": the output above says why", PackedCli.hint(1, "", Map.of()));
  }

  @Test
  void aFailedRunIsReportedWithWhatTheCliSaidOnce() {
    // userK K4: "the library does not load or a file cannot be written" was said for a name two libraries register;
    // the refusal, which names both, was printed twice before it (the plugin's stderr line and the CLI's line).
    String refusal = "ValueError: global function \"ledger.Audit\" is already registered by /l/libledger.so, and"
        + " /l/libcatalog.so registers it again (the first one is kept): give one of them another name";
    String output = "WARNING: a JVM warning\n"
        + "packed4j: cannot register global function \"ledger.Audit\": " + refusal + "\n"
        + "packed4j generate: warning: a warning of the generator\n"
        + "packed4j generate: [ValueError] loading /l/libcatalog.so, the native registry refused a registration: "
        + refusal + " (the library is loaded without what was refused)\n";
    String hint = PackedCli.hint(1, output, Map.of());
    assertEquals(": [ValueError] loading /l/libcatalog.so, the native registry refused a registration: " + refusal
        + " (the library is loaded without what was refused)", hint);
    assertEquals("WARNING: a JVM warning\npacked4j generate: warning: a warning of the generator",
        PackedCli.withoutCause(output));
    String describe = "packed4j describe: cannot write the manifest /t/m.json: java.nio.file.AccessDeniedException";
    assertEquals(": cannot write the manifest /t/m.json: java.nio.file.AccessDeniedException",
        PackedCli.hint(1, describe, Map.of()));
    assertEquals("", PackedCli.withoutCause(describe));
    assertEquals("plain output", PackedCli.withoutCause("plain output"));
  }

  @Test
  void aRejectedCommandLineIsReportedInTheGoalsParameterNames() {
    // I4: a JDK 25 is selected; the CLI's status 2 is for its command line, whose first line says what is wrong.
    Map<String, String> parameters = new GenerateMojo().parameterOptions();
    String badPackage = PackedCli.hint(2, "--package com.1bad is not a Java package name, such as"
        + " com.example.calculator\n" + CLI_USAGE, parameters);
    assertEquals(": a parameter of the goal is wrong: packageName com.1bad is not a Java package name, such as"
        + " com.example.calculator", badPackage);
    String badUntyped = PackedCli.hint(2, "--untyped takes object-varargs or skip, not 'bogus'\n" + CLI_USAGE,
        parameters);
    assertEquals(": a parameter of the goal is wrong: untyped takes object-varargs or skip, not 'bogus'", badUntyped);
    assertFalse(badUntyped.contains("JDK"), badUntyped);
    // The JVM's own lines before the CLI's (JDK_JAVA_OPTIONS, a warning) are not taken for the cause.
    String afterJvmLines = PackedCli.hint(2, "NOTE: Picked up JDK_JAVA_OPTIONS: -Xss2m\nWARNING: a JVM warning\n"
        + "--untyped takes object-varargs or skip, not 'bogus'\n" + CLI_USAGE, parameters);
    assertEquals(badUntyped, afterJvmLines);
  }

  @Test
  void anEmptyLibraryEntryIsAConfigurationError(@TempDir Path directory) {
    // I5: <library></library>, or <library>${lib}</library> with lib unset, reaches the goal as null.
    MojoExecutionException empty = assertThrows(MojoExecutionException.class,
        () -> PackedCli.libraries(Arrays.asList((File) null), directory.toFile(), "describe"));
    assertTrue(empty.getMessage().startsWith("packed4j: the parameter libraries of the describe goal has an empty"
        + " <library> entry"), empty.getMessage());
    MojoExecutionException blank = assertThrows(MojoExecutionException.class,
        () -> PackedCli.libraries(List.of(new File("")), directory.toFile(), "generate"));
    assertTrue(blank.getMessage().contains("leave out <libraries> to generate every library"), blank.getMessage());
  }

  @Test
  void aMissingLibrarySaysToBuildWhatMakesIt(@TempDir Path directory) {
    // Trial userU: the API module built alone, its sibling's library never built.
    File sibling = directory.resolve("native/target/classes/libgraph.so").toFile();
    MojoExecutionException missing = assertThrows(MojoExecutionException.class,
        () -> PackedCli.libraries(List.of(sibling), directory.toFile(), "generate"));
    assertEquals("packed4j: the library " + sibling + " to generate does not exist: build the module whose"
        + " build-native goal writes it in the same run (mvn -pl <this module> -am builds the modules it depends on"
        + " too), or correct the <library> path", missing.getMessage());
  }
}
