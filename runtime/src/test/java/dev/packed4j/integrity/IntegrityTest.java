package dev.packed4j.integrity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.TestLibraries;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.types.Signature;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Code without native access cannot reach native memory through packed4j: {@link IntegrityProbe} runs in a child
 * JVM with packed4j as a named module that has native access and the probe in the unnamed module, once without
 * native access under {@code --illegal-native-access=deny}, once with it, once with the JDK's default (warn).
 */
class IntegrityTest {
  @Test
  void withoutNativeAccessEveryGatedEntryPointIsRefusedAndTheRestWorks() throws Exception {
    String output = probe("denied", "--illegal-native-access=deny");
    assertTrue(output.contains("PASS Packed4j.loadLibrary refused: Packed4j.loadLibrary reaches native memory"),
        output);
    assertTrue(output.contains("PASS NDArray.fromDLPack refused"), output);
    assertTrue(output.contains("PASS NDArray.fromDLPackVersioned refused"), output);
    assertTrue(output.contains("PASS Callbacks.withStringSpans refused"), output);
    assertTrue(output.contains("PASS a Java function called through native code works"), output);
    assertFalse(output.contains("WARNING: A restricted method"), output);
  }

  @Test
  void withNativeAccessTheGatedEntryPointsWorkSilently() throws Exception {
    String output = probe("allowed", "--illegal-native-access=deny", "--enable-native-access=ALL-UNNAMED");
    assertTrue(output.contains("PASS Packed4j.loadLibrary passes the gate, then: [LoadError]"), output);
    assertTrue(output.contains("PASS a DLPack round trip gives the tensor back"), output);
    assertTrue(output.contains("PASS withStringSpans hands the reader over"), output);
    assertFalse(output.contains("WARNING"), output);
  }

  @Test
  void byDefaultTheJdkWarnsOnceNamingTheCallersModuleAndTheCallsWork() throws Exception {
    String output = probe("warned");
    assertTrue(output.contains("WARNING: A restricted method in java.lang.foreign.MemorySegment has been called"),
        output);
    assertTrue(output.contains("in an unnamed module"), output);
    assertTrue(output.contains("WARNING: Use --enable-native-access=ALL-UNNAMED"), output);
    assertEquals(output.indexOf("WARNING: A restricted method"), output.lastIndexOf("WARNING: A restricted method"),
        output);
    assertTrue(output.contains("PASS Packed4j.loadLibrary passes the gate, then: [LoadError]"), output);
    assertTrue(output.contains("PASS withStringSpans hands the reader over"), output);
  }

  @Test
  void withoutNativeAccessForPacked4jItselfTheFirstCallSaysWhichFlagToAdd() throws Exception {
    String output = probe("runtime-denied", "--illegal-native-access=deny");
    assertTrue(output.contains("PASS Packed4j.abiVersion refused: packed4j-runtime (module dev.packed4j.runtime) may"
        + " not access native memory, which it needs to load its native core: run with"
        + " --enable-native-access=dev.packed4j.runtime,<your module>"), output);
    assertTrue(output.contains("PASS NDArray.allocate refused: packed4j-runtime (module dev.packed4j.runtime) may"
        + " not access native memory"), output);
    assertFalse(output.contains("FAIL"), output);
  }

  /** Runs the probe in {@code mode}; returns its output once it printed ALL PASSED and exited with 0. */
  private static String probe(String mode, String... options) throws IOException, InterruptedException,
      URISyntaxException {
    Path core = TestLibraries.coreFile();
    Path runtime = Path.of(Packed4j.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    // The runtime's module requires dev.packed4j.types: both go on the module path.
    Path types = Path.of(Signature.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path tests = Path.of(IntegrityProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--module-path");
    command.add(runtime + File.pathSeparator + types);
    command.add("--add-modules");
    command.add("dev.packed4j.runtime");
    if (!mode.equals("runtime-denied")) {
      command.add("--enable-native-access=dev.packed4j.runtime");
    }
    command.addAll(List.of(options));
    command.add("-D" + NativeLibraries.LIBRARY_PATH_PROPERTY + "=" + core);
    command.add("-cp");
    command.add(tests.toString());
    command.add(IntegrityProbe.class.getName());
    command.add(mode);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), output);
    assertEquals(0, process.exitValue(), String.join(" ", command) + "\n" + output);
    assertTrue(output.contains("ALL PASSED"), output);
    return output;
  }
}
