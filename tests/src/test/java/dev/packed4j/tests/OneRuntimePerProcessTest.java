package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.types.Conversions;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

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
      Class<?> dtype = Class.forName("dev.packed4j.runtime.DType", true, second);
      Class<?> ndarray = Class.forName("dev.packed4j.runtime.NDArray", true, second);
      List<Executable> entryPoints = List.of(
          () -> copy.getMethod("abiVersion").invoke(null),
          () -> copy.getMethod("toJson", Object.class).invoke(null, List.of(1L)),
          () -> ndarray.getMethod("allocate", dtype, long[].class)
              .invoke(null, dtype.getField("FLOAT32").get(null), new long[] {2}));
      for (int attempt = 0; attempt < 6; attempt++) { // the refusal stays the same, whatever the entry point
        InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
            entryPoints.get(attempt % entryPoints.size()));
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
  void aCoreLoadedBeforeTheRuntimeIsTheOneItUses() throws Exception {
    String output = runChild("host");
    assertTrue(output.contains("add 42\n"), output);
    assertTrue(output.contains("balance 5\n"), output);
  }

  @Test
  void aLibraryPathNamingAnotherCoreThanTheLoadedOneIsRefused() throws Exception {
    String output = runChild("property");
    Matcher refusal = Pattern.compile("refused \\[LoadError\\] system property packed4j.library.path names (\\S+),"
        + " but libpacked4j.so from (\\S+) \\(already loaded in this process\\) is the core plugins bind to \\(by"
        + " its SONAME\\): load that same file, or let nothing else load the core before packed4j does\n")
        .matcher(output);
    assertTrue(refusal.find(), output);
    assertTrue(refusal.group(1).endsWith("/other-libpacked4j.so"), output);
    assertTrue(refusal.group(2).endsWith("/libpacked4j.so") && !refusal.group(2).contains("other-"), output);
    assertTrue(refusal.find(), "the second call is refused the same way:\n" + output);
  }

  /** Runs {@link CoreLoadedFirst} with {@code mode} in a new JVM like this one; its output. */
  private static String runChild(String mode) throws IOException, InterruptedException {
    String core = System.getProperty("packed4j.library.path");
    // The sanitize profile's core: the child copies it, and loads it as the host.
    List<String> options = core == null ? List.of() : List.of("-Dpacked4j.test.coreSource=" + core);
    return ChildJvm.run(ChildJvm.command(CoreLoadedFirst.class, false, options, List.of(mode)),
        Path.of(System.getProperty("user.dir")), 2);
  }
}
