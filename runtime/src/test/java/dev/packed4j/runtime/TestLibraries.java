package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.packed4j.runtime.internal.capi.NativeLibraries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** libpacked4j.so and test plugins compiled on the fly with the system C/C++ compiler. */
public final class TestLibraries {
  private TestLibraries() {}

  private static String coreProblem;

  /** Whether libpacked4j.so loads in this JVM. */
  public static boolean coreAvailable() {
    try {
      NativeLibraries.ensureLoaded();
      return true;
    } catch (Packed4jException e) {
      coreProblem = e.getMessage();
      return false;
    }
  }

  /** Why the core does not load. */
  public static String coreProblem() {
    return coreProblem;
  }

  /** Loads the core or fails the test with the reason. */
  public static void requireCore() {
    if (!coreAvailable()) {
      fail("libpacked4j.so is not available to the tests (build native-core first): " + coreProblem);
    }
  }

  /** The directory of c_api.h's include root (native-core/include). */
  public static Path includeDirectory() {
    return Path.of(System.getProperty("packed4j.test.capiHeader")).getParent().getParent();
  }

  /** The libpacked4j.so file the JVM loaded. */
  public static Path coreFile() {
    requireCore();
    String path = NativeLibraries.corePath();
    Path file = Path.of(path);
    if (!Files.isRegularFile(file)) {
      fail("the loaded core " + path + " is not a plain file a plugin can be linked against");
    }
    return file;
  }

  /** Compiles {@code source} (C, or C++ when the name ends with .cc) into {@code output} with extra arguments. */
  public static Path compile(Path directory, String sourceName, String source, String outputName,
      String... arguments) throws IOException, InterruptedException {
    Path sourceFile = directory.resolve(sourceName);
    Files.writeString(sourceFile, source);
    Path output = directory.resolve(outputName);
    List<String> command = new ArrayList<>();
    command.add(sourceName.endsWith(".cc") ? "g++" : "gcc");
    if (sourceName.endsWith(".cc")) {
      command.add("-std=c++17");
    }
    command.addAll(List.of("-fPIC", "-O1", "-I" + includeDirectory()));
    // Libraries after the source: the linker (--as-needed) records only those that resolve a symbol seen before.
    command.add(sourceFile.toString());
    command.addAll(List.of(arguments));
    command.addAll(List.of("-o", output.toString()));
    run(command);
    return output;
  }

  /**
   * The live native object count once the Cleaner has released what earlier tests dropped: the count no longer
   * changes between collections.
   */
  public static long settledLiveObjectCount() throws InterruptedException {
    // Ten unchanged rounds in a row (or a minute): on a busy machine one round can end before the Cleaner thread
    // has run the releases the last GC found, and a count taken then drops later.
    long current = Packed4j.liveObjectCount();
    int unchanged = 0;
    for (int round = 0; round < 3000 && unchanged < 10; round++) {
      System.gc();
      Thread.sleep(20);
      long next = Packed4j.liveObjectCount();
      unchanged = next == current ? unchanged + 1 : 0;
      current = next;
    }
    return current;
  }

  /** Compiles a plugin linked against the loaded libpacked4j.so (by SONAME, no RPATH). */
  public static Path plugin(Path directory, String sourceName, String source, String libraryName)
      throws IOException, InterruptedException {
    Path core = coreFile();
    return compile(directory, sourceName, source, libraryName, "-shared", "-L" + core.getParent(), "-lpacked4j");
  }

  /** Runs a command, failing the test with its output when it does not exit with 0; returns the output. */
  public static String run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("timed out: " + command);
    }
    assertEquals(0, process.exitValue(), () -> String.join(" ", command) + "\n" + output);
    return output;
  }
}
