package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.internal.capi.BundledLibraries;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Packed4j.loadLibrary(String): a plugin found on the class path, in a directory or inside a jar. */
class LoadByNameTest {
  @TempDir
  static Path directory;

  private static Path plugin;
  private static String previousCache;

  @BeforeAll
  static void compilePlugin() throws Exception {
    TestLibraries.requireCore();
    plugin = TestLibraries.plugin(directory, "byname.cc", """
        #include <packed4j/packed4j.h>
        using namespace packed4j;
        P4J_REGISTER_GLOBAL("test.byname.Twice").set_body_typed([](int64_t a) { return 2 * a; });
        """, "libbyname.so");
    previousCache = System.getProperty(BundledLibraries.CACHE_DIRECTORY_PROPERTY);
    System.setProperty(BundledLibraries.CACHE_DIRECTORY_PROPERTY, directory.resolve("cache").toString());
  }

  @AfterAll
  static void restoreCache() {
    if (previousCache == null) {
      System.clearProperty(BundledLibraries.CACHE_DIRECTORY_PROPERTY);
    } else {
      System.setProperty(BundledLibraries.CACHE_DIRECTORY_PROPERTY, previousCache);
    }
  }

  private static Path jarWith(String jarName, String... entries) throws IOException {
    Path jar = directory.resolve(jarName);
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String entry : entries) {
        out.putNextEntry(new JarEntry(entry));
        if (!entry.endsWith("/")) {
          Files.copy(plugin, out);
        }
        out.closeEntry();
      }
    }
    return jar;
  }

  private static URLClassLoader loaderOf(Path... jars) throws IOException {
    List<URL> urls = new ArrayList<>();
    for (Path jar : jars) {
      urls.add(jar.toUri().toURL());
    }
    return new URLClassLoader(urls.toArray(URL[]::new), null);
  }

  @Test
  void theRunningPlatformIsNamedAsNettyNamesIt() {
    assertEquals("linux-x86_64", BundledLibraries.platform("Linux", "amd64"));
    assertEquals("linux-aarch_64", BundledLibraries.platform("Linux", "aarch64"));
    assertEquals("osx-aarch_64", BundledLibraries.platform("Mac OS X", "aarch64"));
    assertEquals("windows-x86_64", BundledLibraries.platform("Windows 11", "amd64"));
    assertEquals("libcalc.so", BundledLibraries.fileName("calc", "linux-x86_64"));
    assertEquals("calc.dll", BundledLibraries.fileName("calc", "windows-x86_64"));
  }

  @Test
  void aLibraryInAClassPathDirectoryIsLoadedByName() throws Exception {
    // The test classes directory is on the class path, as target/classes is for an application run by Maven.
    Path classes = Path.of(LoadByNameTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path folder = Files.createDirectories(
        classes.resolve(BundledLibraries.RESOURCE_ROOT + BundledLibraries.currentPlatform()));
    Path library = folder.resolve("libbyname.so");
    Files.copy(plugin, library, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    try {
      Packed4j.loadLibrary("byname");
      try (PackedFunction twice = Registry.global("test.byname.Twice")) {
        assertEquals(42L, twice.invoke(21L));
      }
    } finally {
      Files.delete(library);
    }
  }

  @Test
  void aLibraryInsideAJarIsExtractedOnceToACacheKeyedByItsContent() throws Exception {
    Path jar = jarWith("app.jar", "META-INF/", "META-INF/native/", "META-INF/native/linux-x86_64/",
        "META-INF/native/linux-x86_64/libbyname.so");
    try (URLClassLoader loader = loaderOf(jar)) {
      Path first = BundledLibraries.locate("byname", loader);
      assertTrue(first.startsWith(directory.resolve("cache")), first.toString());
      assertEquals("libbyname.so", first.getFileName().toString());
      assertArrayEquals(Files.readAllBytes(plugin), Files.readAllBytes(first));
      long modified = Files.getLastModifiedTime(first).toMillis();
      Thread.sleep(20);
      assertEquals(first, BundledLibraries.locate("byname", loader));
      assertEquals(modified, Files.getLastModifiedTime(first).toMillis(), "a valid cached copy is not rewritten");

      // A damaged copy (not the content its folder names) is replaced, never loaded.
      Files.writeString(first, "damaged");
      assertEquals(first, BundledLibraries.locate("byname", loader));
      assertArrayEquals(Files.readAllBytes(plugin), Files.readAllBytes(first));
    }
  }

  @Test
  void theLibrariesAPluginLinksTravelWithItOutOfTheBuildTree() throws Exception {
    // As build-native packs them (trial userU): libraries made by the same CMake build, with the SONAMEs CMake gives
    // them (a versioned one copied under its unversioned name), and plugins linked against them whose RUNPATH names
    // only the build tree. Once the tree is gone (a clean, another machine), the loader finds them only because
    // packed4j loads them from beside the plugin first.
    Path build = Files.createDirectories(directory.resolve("dependency-build"));
    Path plain = helper(build, "p4jplain", "libp4jplain.so", 3);
    Path versioned = helper(build, "p4jversioned", "libp4jversioned.so.1", 5);
    Path linked = linkedPlugin(build, "p4jlinked", "test.byname.Linked",
        "p4jplain_apply(a) + p4jversioned_apply(a)", "p4jplain", "p4jversioned");
    String folder = "META-INF/native/linux-x86_64/";
    Path jar = directory.resolve("linked.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Path file : List.of(linked, plain, versioned)) {
        out.putNextEntry(new JarEntry(folder + file.getFileName()));
        Files.copy(file, out);
        out.closeEntry();
      }
    }
    // A second plugin, in a class path directory, with a versioned library of its own.
    Path inPlace = helper(build, "p4jinplace", "libp4jinplace.so.2", 7);
    Path directoryPlugin = linkedPlugin(build, "p4jdirectory", "test.byname.InPlace", "p4jinplace_apply(a)",
        "p4jinplace");
    Path classes = Files.createDirectories(directory.resolve("linked-classes").resolve(folder));
    Files.copy(directoryPlugin, classes.resolve(directoryPlugin.getFileName()));
    Files.copy(inPlace, classes.resolve(inPlace.getFileName()));
    String linkedHash = sha256Of(linked);
    deleteTree(build); // the tree the RUNPATHs name

    try (URLClassLoader loader = loaderOf(jar)) {
      Path extracted = BundledLibraries.locate("p4jlinked", loader);
      // Each dependency under the name the plugin asks for: the versioned one under its SONAME.
      assertTrue(Files.isRegularFile(extracted.resolveSibling("libp4jplain.so")), "extracted beside the plugin");
      assertTrue(Files.isRegularFile(extracted.resolveSibling("libp4jversioned.so.1")), "under its SONAME");
      assertTrue(BundledLibraries.isBundleFolder(extracted.getParent()));
      // The folder is named by every file: another library under the same plugin gets a folder of its own.
      assertNotEquals(linkedHash, extracted.getParent().getFileName().toString());
      Packed4j.loadLibrary(extracted);
      try (PackedFunction function = Registry.global("test.byname.Linked")) {
        assertEquals(3L * 21 + 5L * 21, function.invoke(21L));
      }
    }
    assertTrue(BundledLibraries.isBundleFolder(classes));
    Packed4j.loadLibrary(classes.resolve(directoryPlugin.getFileName()));
    try (PackedFunction function = Registry.global("test.byname.InPlace")) {
      assertEquals(7L * 6, function.invoke(6L));
    }
    assertFalse(BundledLibraries.isBundleFolder(directory), "a folder of any other shape is left to the loader");
  }

  /**
   * A plain shared library made as CMake makes one: {@code lib<name>.so}, with the SONAME {@code soname} (the file
   * name, or a versioned one), and {@code <name>_apply(x)} returning {@code factor * x}.
   */
  private static Path helper(Path build, String name, String soname, int factor) throws Exception {
    return TestLibraries.compile(build, name + ".c", "long " + name + "_apply(long x) { return " + factor
        + " * x; }\n", "lib" + name + ".so", "-shared", "-Wl,-soname," + soname);
  }

  /** A plugin registering {@code global} as {@code body}, linked against {@code helpers} with a RUNPATH to them. */
  private static Path linkedPlugin(Path build, String name, String global, String body, String... helpers)
      throws Exception {
    StringBuilder source = new StringBuilder("#include <packed4j/packed4j.h>\n");
    List<String> arguments = new ArrayList<>(List.of("-shared", "-L" + build));
    for (String helper : helpers) {
      source.append("extern \"C\" long ").append(helper).append("_apply(long x);\n");
      arguments.add("-l" + helper);
    }
    source.append("P4J_REGISTER_GLOBAL(\"").append(global).append("\").set_body_typed([](int64_t a) { return ")
        .append(body).append("; });\n");
    arguments.add("-Wl,-rpath," + build);
    Path core = TestLibraries.coreFile();
    arguments.addAll(List.of("-L" + core.getParent(), "-lpacked4j"));
    return TestLibraries.compile(build, name + ".cc", source.toString(), "lib" + name + ".so",
        arguments.toArray(String[]::new));
  }

  private static void deleteTree(Path root) throws IOException {
    try (var files = Files.walk(root)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }

  private static String sha256Of(Path file) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }

  @Test
  void extractorsRacingEachOtherAllGetTheWholeFile() throws Exception {
    Path jar = jarWith("race.jar", "META-INF/native/linux-x86_64/libbyname.so");
    Path cache = directory.resolve("race-cache");
    String previous = System.getProperty(BundledLibraries.CACHE_DIRECTORY_PROPERTY);
    System.setProperty(BundledLibraries.CACHE_DIRECTORY_PROPERTY, cache.toString());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (URLClassLoader loader = loaderOf(jar)) {
      List<Callable<Path>> tasks = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        tasks.add(() -> BundledLibraries.locate("byname", loader));
      }
      byte[] expected = Files.readAllBytes(plugin);
      for (Future<Path> result : pool.invokeAll(tasks)) {
        assertArrayEquals(expected, Files.readAllBytes(result.get()));
      }
      try (var files = Files.walk(cache)) {
        assertEquals(1, files.filter(Files::isRegularFile).count(), "no temporary file is left behind");
      }
    } finally {
      pool.shutdownNow();
      System.setProperty(BundledLibraries.CACHE_DIRECTORY_PROPERTY, previous);
    }
  }

  @Test
  void aMissingPlatformListsThePlatformsTheJarCarries() throws Exception {
    Path jar = jarWith("arm.jar", "META-INF/native/", "META-INF/native/linux-aarch_64/",
        "META-INF/native/linux-aarch_64/libbyname.so", "META-INF/native/osx-aarch_64/libbyname.dylib");
    try (URLClassLoader loader = loaderOf(jar)) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> BundledLibraries.locate("byname", loader));
      assertTrue(e.getMessage().contains("not built for this platform (linux-x86_64)"), e.getMessage());
      assertTrue(e.getMessage().contains("linux-aarch_64, osx-aarch_64 only"), e.getMessage());
    }
  }

  @Test
  void aLibraryNowhereOnTheClassPathSaysWhereItWasExpected() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary("nosuchplugin"));
    assertEquals("LoadError", e.kind());
    assertTrue(e.getMessage().contains("META-INF/native/linux-x86_64/libnosuchplugin.so"), e.getMessage());
    assertTrue(e.getMessage().contains("build-native"), e.getMessage());
  }

  @Test
  void aFileNameOrPathIsNotALibraryName() {
    IllegalArgumentException fileName = assertThrows(IllegalArgumentException.class,
        () -> Packed4j.loadLibrary("libcalculator.so"));
    assertTrue(fileName.getMessage().contains("give the library name (calculator)"), fileName.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Packed4j.loadLibrary("../evil"));
    assertThrows(IllegalArgumentException.class, () -> Packed4j.loadLibrary(""));
  }
}
