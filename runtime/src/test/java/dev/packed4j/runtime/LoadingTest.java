package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
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
        P4J_REGISTER_GLOBAL("").set_body_typed([](int64_t a) { return a; });
        P4J_REGISTER_GLOBAL("test.plugin.Fresh").set_body_typed([](int64_t a) { return a + 1; });
        """, "libduplicate.so");
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(plugin));
    assertTrue(e.getMessage().contains("the native registry refused 2 registrations"), e.getMessage());
    assertTrue(e.getMessage().contains("packed4j.ListSize"), e.getMessage());
    assertTrue(e.getMessage().contains("global function name is empty"), e.getMessage());
    assertTrue(e.getMessage().contains(plugin.toAbsolutePath().toString()), e.getMessage());
    // The library itself is loaded: its other registrations stand.
    try (PackedFunction fresh = Registry.global("test.plugin.Fresh")) {
      assertEquals(8L, fresh.invoke(7L));
    }
  }

  @Test
  void everyRegistrationTheCoreRefusesIsReportedNotOnlyWrittenToStderr() throws Exception {
    // These three were written to stderr only: the load succeeded and the member, the parameter names or every
    // field of the type went missing without a word.
    Path plugin = TestLibraries.plugin(directory, "refusals.cc", """
        #include <packed4j/packed4j.h>
        using namespace packed4j;
        struct Counters { int64_t hits = 0; };
        class OddObject : public Object {
         public:
          Counters* impl = new Counters();  // a pImpl member: its field is outside the object
          int64_t size = 0;
          ~OddObject() override { delete impl; }
          void VisitAttrs(AttrVisitor* v) override { v->Visit("hits", &impl->hits); }
          static constexpr const char* _type_key = "test.plugin.Odd";
          P4J_DECLARE_OBJECT_TYPE_INFO(OddObject, Object);
        };
        P4J_REGISTER_OBJECT_TYPE(OddObject);
        class PlainObject : public Object {
         public:
          int64_t size = 0;
          static constexpr const char* _type_key = "test.plugin.Plain";
          P4J_DECLARE_OBJECT_TYPE_INFO(PlainObject, Object);
        };
        P4J_REGISTER_OBJECT_TYPE(PlainObject);
        P4J_REGISTER_OBJECT_DEF(PlainObject, "a plain object")
            .def_rw("size", &PlainObject::size, "its size")
            .def("twice", [](ObjectPtr<PlainObject> self, int64_t x) { return 2 * x * self->size; },
                 "one parameter after the object, two names", {"x", "y"});
        P4J_REGISTER_GLOBAL("test.plugin.Named").set_body_typed([](int64_t a) { return a; }).params({"a", "b"});
        P4J_REGISTER_GLOBAL("test.plugin.Works").set_body_typed([](int64_t a) { return a + 1; });
        """, "librefusals.so");
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(plugin));
    String message = e.getMessage();
    assertTrue(message.contains("the native registry refused 3 registrations"), message);
    assertTrue(message.contains("field \"hits\" of type \"test.plugin.Odd\""), message);
    assertTrue(message.contains("is not inside the object"), message);
    assertTrue(message.contains("method \"twice\" of type \"test.plugin.Plain\" has 1 parameter after the object"),
        message);
    assertTrue(message.contains("global function \"test.plugin.Named\" has 1 parameter"), message);
    assertTrue(message.contains("the library is loaded without what was refused"), message);
    try (PackedFunction works = Registry.global("test.plugin.Works")) {
      assertEquals(8L, works.invoke(7L));
    }
  }

  /** A plugin (in C: quick to compile) whose function answers 42, under its own global name. */
  private static Path answerPlugin(String name, String libraryName) throws Exception {
    return TestLibraries.plugin(directory, libraryName + ".c", """
        #include <packed4j/c_api.h>
        #include <string.h>

        static int answer(void* self, const P4JAny* args, int32_t num_args, P4JAny* result) {
          (void) self;
          (void) args;
          (void) num_args;
          result->type_index = kP4JInt;
          result->zero_padding = 0;
          result->v_int64 = 42;
          return 0;
        }

        __attribute__((constructor)) static void register_answer(void) {
          P4JObjectHandle function = NULL;
          if (P4JFunctionCreate(NULL, answer, NULL, &function) != 0) return;
          P4JByteArray name = {"%s", (int64_t) strlen("%s")};
          P4JFunctionSetGlobal(&name, function, 0);
          P4JObjectDecRef(function);
        }
        """.formatted(name, name), libraryName);
  }

  /** The runtime still loads plugins and calls functions after a failed load. */
  private static void assertRuntimeUsable(String tag) throws Exception {
    String name = "test.loading.Usable" + tag;
    Packed4j.loadLibrary(answerPlugin(name, "libusable" + tag + ".so"));
    try (PackedFunction answer = Registry.global(name)) {
      assertEquals(42L, answer.invoke());
    }
    try (PackedFunction size = Registry.global("packed4j.ListSize")) {
      assertEquals(3L, size.invoke(List.of(1L, 2L, 3L)));
    }
  }

  @Test
  void aTruncatedPluginIsALoadErrorBeforeTheDynamicLoaderMapsIt() throws Exception {
    Path whole = answerPlugin("test.loading.Truncated", "libwhole.so");
    assertTrue(Files.size(whole) > 4096, "the plugin must be larger than the part kept: " + Files.size(whole));
    // The case of the report: a real plugin cut to its first 4 KiB made the loader fault (SIGBUS) in the JVM.
    for (int kept : new int[] {4096, 200, 64}) {
      Path cut = directory.resolve("libcut" + kept + ".so");
      try (var in = Files.newInputStream(whole)) {
        Files.write(cut, in.readNBytes(kept));
      }
      Packed4jException e = loadFails(cut);
      assertTrue(e.getMessage().contains("truncated or damaged"), e.getMessage());
      assertTrue(e.getMessage().contains("the file has " + kept + " bytes"), e.getMessage());
    }
    assertFalse(Registry.list().contains("test.loading.Truncated"));
    assertRuntimeUsable("AfterTruncated");
  }

  @Test
  void aSegmentOutsideTheFileIsNamed() throws Exception {
    Path whole = answerPlugin("test.loading.Damaged", "libdamaged-source.so");
    byte[] bytes = Files.readAllBytes(whole);
    java.nio.ByteBuffer elf = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long programHeaders = elf.getLong(32);
    // Move the first segment's file range past the end of the file, as a corrupted copy might.
    int first = Math.toIntExact(programHeaders);
    elf.putLong(first + 8, bytes.length + 4096L);
    Path damaged = Files.write(directory.resolve("libdamaged.so"), bytes);
    Packed4jException e = loadFails(damaged);
    assertTrue(e.getMessage().contains("segment 0 needs bytes " + (bytes.length + 4096L)), e.getMessage());
  }

  /** A plugin declaring type key test.loading.Shared with the given fields and a function making one. */
  private static Path sharedTypePlugin(String libraryName, String fields, String visits, String maker)
      throws Exception {
    return TestLibraries.plugin(directory, libraryName + ".cc", """
        #include <packed4j/packed4j.h>
        using namespace packed4j;
        class SharedObject : public Object {
         public:
          %s
          void VisitAttrs(AttrVisitor* v) final { %s }
          static constexpr const char* _type_key = "test.loading.Shared";
          P4J_DECLARE_OBJECT_TYPE_INFO(SharedObject, Object);
        };
        P4J_REGISTER_OBJECT_TYPE(SharedObject);
        P4J_REGISTER_GLOBAL("%s").set_body([](Args, RetValue* rv) { *rv = make_object<SharedObject>(); });
        """.formatted(fields, visits, maker), libraryName);
  }

  @Test
  void aTypeKeyRegisteredAgainWithAnotherLayoutIsALoadErrorNamingBothLibraries() throws Exception {
    Path first = sharedTypePlugin("libsharedfirst.so", "double value = 2.5;", "v->Visit(\"value\", &value);",
        "test.loading.MakeShared");
    Path same = sharedTypePlugin("libsharedsame.so", "double value = 4.5;", "v->Visit(\"value\", &value);",
        "test.loading.MakeSharedToo");
    Path other = sharedTypePlugin("libsharedother.so", "int64_t count = 7; std::string name = \"b\";",
        "v->Visit(\"count\", &count); v->Visit(\"name\", &name);", "test.loading.MakeSharedOther");
    Packed4j.loadLibrary(first);
    Packed4j.loadLibrary(same); // the same layout from another library is the same type
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(other));
    assertEquals("LoadError", e.kind(), e.getMessage());
    String message = e.getMessage();
    assertTrue(message.contains("type key \"test.loading.Shared\""), message);
    assertTrue(message.contains(first.toAbsolutePath().toString()), "names the first library: " + message);
    assertTrue(message.contains(other.toAbsolutePath().toString()), "names the second library: " + message);
    assertTrue(message.contains("value: float64") && message.contains("count: int64"), message);
    // The first layout stays: objects of the first two libraries read right.
    try (PackedFunction make = Registry.global("test.loading.MakeShared");
        PackedFunction makeToo = Registry.global("test.loading.MakeSharedToo");
        NativeObject made = (NativeObject) make.invoke();
        NativeObject madeToo = (NativeObject) makeToo.invoke()) {
      assertEquals(List.of("value"), made.fieldNames());
      assertEquals(2.5, made.get("value"));
      assertEquals(4.5, madeToo.get("value"));
    }
    assertRuntimeUsable("AfterTypeConflict");
  }

  @Test
  void aCopyOfALoadedPluginIsRefusedForItsDuplicateNames() throws Exception {
    Path original = answerPlugin("test.loading.Twice", "libtwice.so");
    Path copy = Files.copy(original, directory.resolve("libtwicecopy.so"));
    Packed4j.loadLibrary(original);
    Packed4j.loadLibrary(original); // the same file again: nothing happens
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(copy));
    assertTrue(e.getMessage().contains("test.loading.Twice"), e.getMessage());
    assertTrue(e.getMessage().contains(copy.toAbsolutePath().toString()), e.getMessage());
    // Its initialisers do not run again, so loading it again reports what the first load found.
    Packed4jException again = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(copy));
    assertEquals(e.getMessage(), again.getMessage());
    assertEquals(e.kind(), again.kind());
    try (PackedFunction answer = Registry.global("test.loading.Twice")) {
      assertEquals(42L, answer.invoke());
    }
    assertRuntimeUsable("AfterCopy");
  }

  @Test
  void aPluginBuiltAgainstAnotherAbiVersionIsNamedAtLoad() throws Exception {
    // What a plugin compiled against a newer c_api.h looks like to this core: it needs a P4J function the core
    // does not define.
    Path newer = TestLibraries.plugin(directory, "newer.c", """
        #include <packed4j/c_api.h>
        extern int P4JFunctionFromALaterAbi(void);
        __attribute__((constructor)) static void register_newer(void) { P4JFunctionFromALaterAbi(); }
        """, "libnewer.so");
    Packed4jException e = loadFails(newer);
    assertTrue(e.getMessage().contains("P4JFunctionFromALaterAbi") && e.getMessage().contains("another packed4j "
        + "version"), e.getMessage());
    assertRuntimeUsable("AfterNewerAbi");
  }

  @Test
  void theRuntimeStaysUsableAfterEveryKindOfLoadFailure() throws Exception {
    byte[] arm = new byte[64];
    arm[0] = 0x7f;
    arm[1] = 'E';
    arm[2] = 'L';
    arm[3] = 'F';
    arm[4] = 2;
    arm[5] = 1;
    arm[16] = 3;
    arm[18] = (byte) 183;
    List<Path> broken = List.of(directory.resolve("libabsent.so"),
        Files.writeString(directory.resolve("libtext.so"), "not a library"),
        Files.write(directory.resolve("libarm64.so"), arm));
    for (Path library : broken) {
      loadFails(library);
      loadFails(library); // the same failure again, not a stale state
    }
    assertRuntimeUsable("AfterBroken");
  }

  @Test
  void explainTurnsLoaderMessagesIntoAdvice() {
    Path path = Path.of("/x/libplugin.so");
    assertTrue(NativeLibraries.explain("/x/libplugin.so: undefined symbol: P4JNewThing", path)
        .contains("another packed4j version"));
    assertTrue(NativeLibraries.explain("/x/libplugin.so: undefined symbol: _Z3foov", path)
        .contains("_Z3foov"));
    assertTrue(NativeLibraries.explain("libdw.so.1: cannot open shared object file: No such file or directory", path)
        .startsWith("a library it depends on cannot be found: install it"));
  }

  @Test
  void anOlderGlibcOrLibstdcxxSaysWhatToBuildOn() {
    // userK K6: the loader's message said what is missing, not what to do.
    String glibc = NativeLibraries.explain("/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.99' not found"
        + " (required by /o/libpacked4j.so)", Path.of("/o/libpacked4j.so"));
    assertTrue(glibc.startsWith("it needs the symbol version GLIBC_2.99 of the C library (glibc), and this machine's"
        + " is older: build packed4j and the plugins on the oldest Linux distribution you ship to"), glibc);
    assertTrue(glibc.contains("needs glibc 2.34 and the libstdc++ of GCC 11 (GLIBCXX_3.4.29)"), glibc);
    assertTrue(glibc.endsWith("(required by /o/libpacked4j.so))"), glibc);
    String cxx = NativeLibraries.explain("/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not found"
        + " (required by /x/libplugin.so)", Path.of("/x/libplugin.so"));
    assertTrue(cxx.startsWith("it needs the symbol version GLIBCXX_3.4.29 of the C++ runtime (libstdc++)"), cxx);
  }

  @Test
  void theGlibcAndLibstdcxxTheMessageNamesAreWhatTheCoreNeeds() throws Exception {
    // The versions are measured as docs/guide.md says: objdump -T libpacked4j.so; a build on a newer system needs
    // the message, README and guide updated together.
    NativeLibraries.ensureLoaded();
    Process objdump;
    try {
      objdump = new ProcessBuilder("objdump", "-T", NativeLibraries.corePath()).redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("no objdump: " + e);
      return;
    }
    String symbols = new String(objdump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, objdump.waitFor(), symbols);
    assertEquals("GLIBC_2.34", newest(symbols, "GLIBC_"));
    assertEquals("GLIBCXX_3.4.29", newest(symbols, "GLIBCXX_"));
    String message = NativeLibraries.explain("libc.so.6: version `GLIBC_9.9' not found", Path.of("/x/l.so"));
    assertTrue(message.contains("needs glibc 2.34 and the libstdc++ of GCC 11 (GLIBCXX_3.4.29)"), message);
  }

  /** The newest version of {@code prefix} the symbols need, such as GLIBC_2.34. */
  private static String newest(String symbols, String prefix) {
    Matcher versions = Pattern.compile("\\b" + prefix + "([0-9.]+)\\b")
        .matcher(symbols);
    String newest = null;
    Comparator<String> byNumbers = Comparator.comparing(version -> version.split("\\."),
        (a, b) -> Arrays.compare(Arrays.stream(a).mapToInt(Integer::parseInt).toArray(),
            Arrays.stream(b).mapToInt(Integer::parseInt).toArray()));
    while (versions.find()) {
      if (newest == null || byNumbers.compare(versions.group(1), newest) > 0) {
        newest = versions.group(1);
      }
    }
    return prefix + newest;
  }

  @Test
  void aDamagedLibrarysLoaderMessageIsEscapedAndNotTakenForAMissingDependency() {
    // userK K10: random bytes where the file names its dependencies came out raw, with "install it" advice.
    byte[] name = {(byte) 0xd4, (byte) 0xb5, (byte) 0xff, 0x1b, '[', 's', 'u', (byte) 0x80, '"', 0x01};
    byte[] tail = ": cannot open shared object file: No such file or directory".getBytes(StandardCharsets.UTF_8);
    byte[] message = new byte[name.length + tail.length];
    System.arraycopy(name, 0, message, 0, name.length);
    System.arraycopy(tail, 0, message, name.length, tail.length);
    String printable = NativeLibraries.printable(message);
    assertEquals("\u0535\\xff\\x1b[su\\x80\"\\x01: cannot open shared object file: No such file or directory",
        printable);
    String explained = NativeLibraries.explain(printable, Path.of("/x/libledger.so"));
    assertTrue(explained.startsWith("the file looks damaged: the dependency name the loader read from it is not a"
        + " file name; rebuild the library, or download or copy it again ("), explained);
    assertFalse(explained.contains("LD_LIBRARY_PATH"), explained);
    assertFalse(NativeLibraries.explain("\u0535K[su\"op: cannot open shared object file", Path.of("/x/l.so"))
        .contains("LD_LIBRARY_PATH"));
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
  void aTruncatedCoreIsALoadErrorNotACrash() throws Exception {
    Path core = TestLibraries.coreFile();
    Path cut = directory.resolve("truncated/libpacked4j.so");
    Files.createDirectories(cut.getParent());
    try (var in = Files.newInputStream(core)) {
      Files.write(cut, in.readNBytes(4096));
    }
    String output = probe(cut);
    assertTrue(output.contains("LoadError") && output.contains("truncated or damaged"), output);
    assertTrue(output.contains(cut.toString()), output);
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
