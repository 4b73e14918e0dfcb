package dev.packed4j.tests;

import dev.packed4j.runtime.Packed4j;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A JVM in which libpacked4j.so is already loaded, from a file of its own, before packed4j-runtime loads the core
 * ({@link OneRuntimePerProcessTest} starts it): as in a native host that links the core and then starts a JVM. The
 * host's core is in the global scope, where the plugin's symbols and a second core's own calls would bind, so the
 * runtime must use it rather than load another. Prints {@code add <result>} and {@code balance <result>}, or the
 * failure.
 */
public final class CoreLoadedFirst {
  private CoreLoadedFirst() {}

  private static final int RTLD_NOW = 0x2;
  private static final int RTLD_GLOBAL = 0x100;

  @SuppressWarnings("restricted") // the host's dlopen
  public static void main(String[] args) throws Throwable {
    String given = System.getProperty("packed4j.library.path");
    Path core;
    if (given != null) {
      core = Path.of(given); // the sanitize profile's core: the one the runtime would load too
    } else {
      Path directory = Files.createTempDirectory("packed4j-host-");
      core = directory.resolve("libpacked4j.so");
      try (InputStream in = Packed4j.class.getResourceAsStream(
          "/dev/packed4j/runtime/native/linux-x86_64/libpacked4j.so")) {
        Files.copy(in, core, StandardCopyOption.REPLACE_EXISTING);
      }
      core.toFile().deleteOnExit();
      directory.toFile().deleteOnExit();
    }
    // What a host linked against the core did: this JVM's first copy of it, in the global scope.
    Linker linker = Linker.nativeLinker();
    MethodHandle dlopen = linker.downcallHandle(linker.defaultLookup().find("dlopen").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    try (Arena arena = Arena.ofConfined()) {
      long handle = (long) dlopen.invokeExact(arena.allocateFrom(core.toString()), RTLD_NOW | RTLD_GLOBAL);
      if (handle == 0) {
        throw new IllegalStateException("dlopen " + core + " failed");
      }
    }
    TestLibrary.load();
    Accounts accounts = Packed4j.bind(Accounts.class);
    System.out.println("add " + accounts.add(40, 2));
    try (AccountRef account = accounts.open(7, "host")) {
      account.balance(5);
      System.out.println("balance " + accounts.balanceOf(account));
    }
  }
}
