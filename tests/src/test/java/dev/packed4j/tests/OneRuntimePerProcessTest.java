package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.types.Conversions;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One native core per process, driven by one runtime: a second copy of packed4j-runtime (another class loader) is
 * refused with a LoadError saying what to do, and a core loaded before the runtime (by a native host) is the one the
 * runtime uses, since plugins bind to it.
 */
class OneRuntimePerProcessTest {
  @BeforeAll
  static void load() {
    TestLibrary.load();
  }

  @Test
  void aSecondCopyOfTheRuntimeIsRefusedAndTheFirstCarriesOn() throws Exception {
    URL runtime = Packed4j.class.getProtectionDomain().getCodeSource().getLocation();
    URL types = Conversions.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader second = new URLClassLoader("second-packed4j", new URL[] {runtime, types},
        ClassLoader.getPlatformClassLoader())) {
      Class<?> copy = Class.forName("dev.packed4j.runtime.Packed4j", true, second);
      for (int attempt = 0; attempt < 4; attempt++) { // the refusal stays the same, whatever the entry point
        InvocationTargetException thrown = assertThrows(InvocationTargetException.class, attempt % 2 == 0
            ? () -> copy.getMethod("abiVersion").invoke(null)
            : () -> copy.getMethod("toJson", Object.class).invoke(null, List.of(1L)));
        RuntimeException failure = assertInstanceOf(RuntimeException.class, thrown.getCause());
        assertEquals("dev.packed4j.runtime.Packed4jException", failure.getClass().getName());
        assertEquals("LoadError", failure.getClass().getMethod("kind").invoke(failure));
        String message = failure.getMessage();
        assertTrue(message.contains("packed4j's native core is already in use in this process by another copy of"
            + " the runtime, packed4j-runtime at "), message);
        assertTrue(message.contains("(class loader second-packed4j"), message);
        assertTrue(message.contains("load packed4j-runtime and packed4j-types once, from a class loader that every"
            + " user of packed4j shares"), message);
      }
    }
    Accounts accounts = Packed4j.bind(Accounts.class);
    assertEquals(42, accounts.add(40, 2));
  }

  @Test
  void aCoreLoadedBeforeTheRuntimeIsTheOneItUses() throws IOException, InterruptedException {
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
    command.add("-cp");
    command.add(System.getProperty("java.class.path").replace(File.pathSeparator + File.pathSeparator,
        File.pathSeparator));
    command.add(CoreLoadedFirst.class.getName());
    // The environment is inherited: under the sanitize profile the child preloads the same sanitizer runtimes.
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] bytes = process.getInputStream().readAllBytes();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("timed out: " + command);
    }
    String output = new String(bytes, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), "the child JVM ended with " + process.exitValue() + ":\n" + output);
    assertTrue(output.contains("add 42\n"), output);
    assertTrue(output.contains("balance 5\n"), output);
  }
}
