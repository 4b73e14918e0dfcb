package dev.packed4j.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the goals say after the CLI's own output when its JVM ended with a failure status. */
class PackedCliTest {
  @Test
  void aJvmEndedByASignalIsNamedWithWhatUsuallyCausesIt() {
    // 134 is what a JVM whose library's static initialiser threw ends with: terminate, then abort.
    String abort = PackedCli.hint(128 + 6);
    assertTrue(abort.startsWith(": the JVM that loaded the library ended with signal 6 (SIGABRT: C++ called"
        + " terminate or abort, as for an exception that escaped a static initialiser"), abort);
    // A JVM that crashes in native code (a static initialiser's null write) writes its report and aborts too.
    assertTrue(abort.contains("or the JVM aborted after a crash in native code, whose hs_err_pid*.log file"), abort);
    assertTrue(PackedCli.hint(128 + 11).contains("signal 11 (SIGSEGV"), PackedCli.hint(139));
    assertEquals(": the JVM that loaded the library ended with signal 15; the output above is all it wrote",
        PackedCli.hint(128 + 15));
  }

  @Test
  void theCliStatusesKeepTheirMeaning() {
    assertTrue(PackedCli.hint(2).contains("needs a JDK 25"));
    assertEquals(": the library does not load or a file cannot be written (the output above says why)",
        PackedCli.hint(1));
  }
}
