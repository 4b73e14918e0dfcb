package dev.packed4j.tests;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
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
 * runtime must use it rather than load another.
 *
 * <p>Argument {@code host}: prints {@code add <result>} and {@code balance <result>}, or fails. Argument
 * {@code property}: {@code packed4j.library.path} names yet another copy, and the first call prints
 * {@code refused <message>}.
 */
public final class CoreLoadedFirst {
  private CoreLoadedFirst() {}

  private static final int RTLD_NOW = 0x2;
  private static final int RTLD_GLOBAL = 0x100;

  @SuppressWarnings("restricted") // the host's dlopen
  public static void main(String[] args) throws Throwable {
    Path directory = Files.createTempDirectory("packed4j-host-");
    Path core = copyOfTheCore(directory.resolve("libpacked4j.so"));
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
    if (args[0].equals("property")) {
      Path other = copyOfTheCore(directory.resolve("other-libpacked4j.so"));
      System.setProperty("packed4j.library.path", other.toString());
      for (int attempt = 0; attempt < 2; attempt++) {
        try {
          System.out.println("loaded " + Packed4j.abiVersion());
        } catch (Packed4jException e) {
          System.out.println("refused " + e.getMessage());
        }
      }
      return;
    }
    TestLibrary.load();
    Accounts accounts = Packed4j.bind(Accounts.class);
    System.out.println("add " + accounts.add(40, 2));
    try (AccountRef account = accounts.open(7, "host")) {
      account.balance(5);
      System.out.println("balance " + accounts.balanceOf(account));
    }
  }

  /** A copy of the core the tests use (the sanitize profile's, else the runtime jar's) at {@code file}. */
  private static Path copyOfTheCore(Path file) throws Exception {
    String source = System.getProperty("packed4j.test.coreSource");
    try (InputStream in = source != null ? Files.newInputStream(Path.of(source))
        : Packed4j.class.getResourceAsStream("/dev/packed4j/runtime/native/linux-x86_64/libpacked4j.so")) {
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    }
    file.toFile().deleteOnExit();
    file.getParent().toFile().deleteOnExit();
    return file;
  }
}
