package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.internal.NativeLibraries;
import dev.packed4j.runtime.internal.capi.CApi;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadingTest {
  @TempDir
  static Path directory;

  @BeforeAll
  static void core() {
    TestLibraries.requireCore();
  }

  @Test
  void theCoreHasTheRuntimesAbiVersion() {
    assertEquals(CApi.P4J_ABI_VERSION, Packed4j.abiVersion());
    assertTrue(Packed4j.liveObjectCount() >= 0);
  }

  private static Packed4jException loadFails(Path library) {
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(library));
    assertEquals("LoadError", e.kind());
    assertTrue(e.getMessage().contains(library.toAbsolutePath().normalize().toString()), e.getMessage());
    return e;
  }

  @Test
  void aMissingFileIsNamedWithWhatToDo() {
    Packed4jException e = loadFails(directory.resolve("libmissing.so"));
    assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    assertTrue(e.getMessage().contains("build the library first"), e.getMessage());
  }

  @Test
  void aDirectoryIsNotALibrary() throws IOException {
    Path folder = Files.createDirectories(directory.resolve("folder.so"));
    assertTrue(loadFails(folder).getMessage().contains("not a regular file"));
  }

  @Test
  void aTextFileIsNotASharedLibrary() throws IOException {
    Path text = Files.writeString(directory.resolve("notes.so"), "this is not an ELF file\n");
    Packed4jException e = loadFails(text);
    assertTrue(e.getMessage().contains("not a shared library"), e.getMessage());
  }

  @Test
  void aLibraryForAnotherArchitectureIsNamed() throws IOException {
    byte[] header = new byte[64];
    header[0] = 0x7f;
    header[1] = 'E';
    header[2] = 'L';
    header[3] = 'F';
    header[4] = 2; // 64-bit
    header[5] = 1; // little-endian
    header[16] = 3; // ET_DYN
    header[18] = (byte) 183; // EM_AARCH64
    Path arm = Files.write(directory.resolve("libarm.so"), header);
    Packed4jException e = loadFails(arm);
    assertTrue(e.getMessage().contains("aarch64") && e.getMessage().contains("rebuild"), e.getMessage());
  }

  @Test
  void aThirtyTwoBitLibraryIsNamed() throws IOException {
    byte[] header = new byte[64];
    header[0] = 0x7f;
    header[1] = 'E';
    header[2] = 'L';
    header[3] = 'F';
    header[4] = 1; // 32-bit
    header[5] = 1;
    Path i386 = Files.write(directory.resolve("lib32.so"), header);
    assertTrue(loadFails(i386).getMessage().contains("32-bit"));
  }

  @Test
  void anObjectFileIsNotASharedLibrary() throws Exception {
    Path object = TestLibraries.compile(directory, "object.c", "int p4j_test_object(void) { return 1; }\n",
        "object.o", "-c");
    assertTrue(loadFails(object).getMessage().contains("object file"));
  }

  @Test
  void anUnresolvedSymbolIsReportedAtLoadNotAtTheFirstCall() throws Exception {
    Path library = TestLibraries.compile(directory, "unresolved.c", """
        extern int p4j_test_nowhere(void);
        int p4j_test_calls_nowhere(void) { return p4j_test_nowhere(); }
        """, "libunresolved.so", "-shared");
    Packed4jException e = loadFails(library);
    assertTrue(e.getMessage().contains("p4j_test_nowhere"), e.getMessage());
    assertTrue(e.getMessage().contains("link it against"), e.getMessage());
  }

  @Test
  void aMissingDependencyIsNamed() throws Exception {
    Path dependency = TestLibraries.compile(directory, "dependency.c", "int p4j_test_dependency(void) { return 2; }\n",
        "libp4jdependency.so", "-shared");
    Path library = TestLibraries.compile(directory, "dependent.c", """
        extern int p4j_test_dependency(void);
        int p4j_test_dependent(void) { return p4j_test_dependency(); }
        """, "libdependent.so", "-shared", "-L" + directory, "-lp4jdependency");
    Files.delete(dependency);
    Packed4jException e = loadFails(library);
    assertTrue(e.getMessage().contains("libp4jdependency.so") && e.getMessage().contains("LD_LIBRARY_PATH"),
        e.getMessage());
  }

  @Test
  void aPluginBindsToTheLoadedCoreAndItsFunctionsAreVisible() throws Exception {
    Path plugin = TestLibraries.plugin(directory, "answer.c", """
        #include <packed4j/c_api.h>
        #include <string.h>

        static int answer(void* self, const P4JAny* args, int32_t num_args, P4JAny* result) {
          (void) self;
          result->type_index = kP4JInt;
          result->zero_padding = 0;
          result->v_int64 = num_args == 0 ? 42 : args[0].v_int64 + 41;
          return 0;
        }

        __attribute__((constructor)) static void register_answer(void) {
          P4JObjectHandle function = NULL;
          if (P4JFunctionCreate(NULL, answer, NULL, &function) != 0) return;
          P4JByteArray name = {"test.plugin.Answer", (int64_t) strlen("test.plugin.Answer")};
          P4JFunctionSetGlobal(&name, function, 0);
          P4JObjectDecRef(function);
        }
        """, "libanswer.so");
    String needed = TestLibraries.run(List.of("readelf", "-d", plugin.toString()));
    assertTrue(needed.contains("[libpacked4j.so]"), "the plugin names the core by SONAME:\n" + needed);
    Packed4j.loadLibrary(plugin);
    Packed4j.loadLibrary(plugin); // a second load is a no-op
    assertTrue(Registry.list().contains("test.plugin.Answer"));
    try (PackedFunction answer = Registry.global("test.plugin.Answer")) {
      assertEquals(42L, answer.invoke());
      assertEquals(43L, answer.invoke(2L));
    }
  }

  @Test
  void aRegistrationTheCoreRefusesIsReportedByTheLoad() throws Exception {
    Path plugin = TestLibraries.plugin(directory, "duplicate.cc", """
        #include <packed4j/packed4j.h>
        using namespace packed4j;
        P4J_REGISTER_GLOBAL("packed4j.ListSize").set_body_typed([](int64_t a) { return a; });
        P4J_REGISTER_GLOBAL("test.plugin.Fresh").set_body_typed([](int64_t a) { return a + 1; });
        """, "libduplicate.so");
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(plugin));
    assertTrue(e.getMessage().contains("packed4j.ListSize"), e.getMessage());
    assertTrue(e.getMessage().contains(plugin.toAbsolutePath().toString()), e.getMessage());
    // The library itself is loaded: its other registrations stand.
    try (PackedFunction fresh = Registry.global("test.plugin.Fresh")) {
      assertEquals(8L, fresh.invoke(7L));
    }
  }

  @Test
  void explainTurnsLoaderMessagesIntoAdvice() {
    Path path = Path.of("/x/libplugin.so");
    assertTrue(NativeLibraries.explain("/x/libplugin.so: undefined symbol: P4JNewThing", path)
        .contains("another packed4j version"));
    assertTrue(NativeLibraries.explain("/x/libplugin.so: undefined symbol: _Z3foov", path)
        .contains("_Z3foov"));
  }

  // ---- the core itself, in a fresh JVM each: loading happens once per process ----

  @Test
  void aMissingCoreFileNamesThePropertyAndThePath() throws Exception {
    Path missing = directory.resolve("nowhere/libpacked4j.so");
    String output = probe(missing);
    assertTrue(output.contains("LoadError"), output);
    assertTrue(output.contains(missing.toString()) && output.contains(NativeLibraries.LIBRARY_PATH_PROPERTY)
        && output.contains("no such file"), output);
  }

  @Test
  void anAbiMismatchNamesBothVersionsAndBothPaths() throws Exception {
    Path fake = TestLibraries.compile(directory, "fakecore.c",
        "int P4JAbiVersion(void) { return (1 << 16) | 3; }\n", "libfakecore.so", "-shared");
    String output = probe(fake);
    assertTrue(output.contains("ABI version 1.3"), output);
    assertTrue(output.contains("ABI version " + CApi.P4J_ABI_VERSION_MAJOR + "." + CApi.P4J_ABI_VERSION_MINOR
        + " (another major version)"), output);
    assertTrue(output.contains(fake.toString()), output);
    assertTrue(output.contains(NativeLibraries.runtimeLocation()), output);
  }

  @Test
  void aLibraryThatIsNotTheCoreIsNamed() throws Exception {
    Path other = TestLibraries.compile(directory, "other.c", "int p4j_test_other(void) { return 3; }\n",
        "libother.so", "-shared");
    String output = probe(other);
    assertTrue(output.contains("does not export P4JAbiVersion"), output);
  }

  /** Runs {@link LoadProbe} in a new JVM with the core at {@code core}; returns what it printed. */
  private static String probe(Path core) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-D" + NativeLibraries.LIBRARY_PATH_PROPERTY + "=" + core);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LoadProbe.class.getName());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(3, process.exitValue(), output);
    return output;
  }
}
