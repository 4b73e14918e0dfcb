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
  void aPlainLibraryThePluginLinksTravelsWithItOutOfTheBuildTree() throws Exception {
    // As build-native packs them (trial userU): a plain library made by the same CMake build, with the SONAME CMake
    // gives it, and a plugin linked against it whose RUNPATH names only the build tree. Once the tree is gone (a
    // clean, another machine), the loader finds the helper only because packed4j loads it from beside the plugin.
    Path build = Files.createDirectories(directory.resolve("dependency-build"));
    Path helper = TestLibraries.compile(build, "helper.c", """
        long helper_triple(long x) { return 3 * x; }
        """, "libp4jhelper.so", "-shared", "-Wl,-soname,libp4jhelper.so");
    Path core = TestLibraries.coreFile();
    Path linked = TestLibraries.compile(build, "linked.cc", """
        #include <packed4j/packed4j.h>
        extern "C" long helper_triple(long x);
        P4J_REGISTER_GLOBAL("test.byname.Triple").set_body_typed([](int64_t a) { return helper_triple(a); });
        """, "libp4jlinked.so", "-shared", "-L" + build, "-lp4jhelper", "-Wl,-rpath," + build,
        "-L" + core.getParent(), "-lpacked4j");
    String folder = "META-INF/native/linux-x86_64/";
    Path jar = directory.resolve("linked.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Path file : List.of(linked, helper)) {
        out.putNextEntry(new JarEntry(folder + file.getFileName()));
        Files.copy(file, out);
        out.closeEntry();
      }
    }
    Path classes = directory.resolve("linked-classes");
    Files.createDirectories(classes.resolve(folder));
    Files.copy(linked, classes.resolve(folder + "libp4jlinked.so"));
    Files.copy(helper, classes.resolve(folder + "libp4jhelper.so"));
    Files.delete(helper); // the build tree's copy, which the RUNPATH names

    try (URLClassLoader loader = loaderOf(jar)) {
      Path extracted = BundledLibraries.locate("p4jlinked", loader);
      assertTrue(Files.isRegularFile(extracted.resolveSibling("libp4jhelper.so")), "extracted beside the plugin");
      assertTrue(BundledLibraries.isBundleFolder(extracted.getParent()));
      // The folder is named by both files: another helper under the same plugin gets a folder of its own.
      assertNotEquals(sha256Of(linked), extracted.getParent().getFileName().toString());
      Packed4j.loadLibrary(extracted);
      try (PackedFunction triple = Registry.global("test.byname.Triple")) {
        assertEquals(63L, triple.invoke(21L));
      }
    }
    // A class path directory's platform folder is laid out by build-native the same way: its siblings count too.
    assertTrue(BundledLibraries.isBundleFolder(classes.resolve(folder)));
    assertFalse(BundledLibraries.isBundleFolder(build), "a folder of any other shape is left to the loader");
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
