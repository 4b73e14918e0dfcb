package dev.packed4j.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build-native goal's work, run for real with CMake and the packed4j-native-core artifact. */
class NativeBuildTest {
  @TempDir
  Path project;

  /** Keeps what the goal logs, to check what it says. */
  static final class RecordingLog extends SystemStreamLog {
    final List<String> infos = new ArrayList<>();
    final List<String> errors = new ArrayList<>();

    @Override
    public void info(CharSequence content) {
      infos.add(content.toString());
    }

    @Override
    public void error(CharSequence content) {
      errors.add(content.toString());
    }
  }

  private void writeNativeProject() throws IOException {
    Path sources = Files.createDirectories(project.resolve("src/main/native"));
    Files.writeString(sources.resolve("CMakeLists.txt"), """
        cmake_minimum_required(VERSION 3.16)
        project(demo LANGUAGES CXX)
        find_package(packed4j CONFIG REQUIRED)
        add_library(demo SHARED demo.cc)
        target_link_libraries(demo PRIVATE packed4j::core)
        """);
    Files.writeString(sources.resolve("demo.cc"), """
        #include <packed4j/packed4j.h>
        P4J_REGISTER_GLOBAL("demo.Twice").set_body_typed([](int64_t a) { return 2 * a; });
        """);
  }

  private NativeBuild build(RecordingLog log, String cmake, String... options) {
    return new NativeBuild(project.resolve("src/main/native"), project.resolve("target/native-build"),
        project.resolve("target/packed4j-native-core"), project.resolve("target/classes"), "Release",
        List.of(options), cmake, 2, false, log);
  }

  private NativeBuildException fails(NativeBuild build) {
    return assertThrows(NativeBuildException.class, build::run);
  }

  @Test
  void buildsTheLibraryIntoThePlatformFolderAndRebuildsOnlyWhenASourceChanges() throws Exception {
    writeNativeProject();
    RecordingLog first = new RecordingLog();
    NativeBuild build = build(first, "cmake");
    build.run();
    Path library = project.resolve("target/classes/META-INF/native/linux-x86_64/libdemo.so");
    assertTrue(Files.isRegularFile(library), first.infos.toString());
    assertTrue(first.infos.stream().anyMatch(line -> line.contains("libdemo.so built from")), first.infos.toString());
    // CMake's output is hidden when it succeeds.
    assertTrue(first.infos.stream().noneMatch(line -> line.contains("Building CXX object")), first.infos.toString());
    Path built = project.resolve("target/native-build/lib/libdemo.so");
    FileTime builtAt = Files.getLastModifiedTime(built);
    FileTime copiedAt = Files.getLastModifiedTime(library);

    RecordingLog second = new RecordingLog();
    build(second, "cmake").run();
    assertEquals(List.of("packed4j: native library up to date (" + project.resolve("src/main/native") + ")"),
        second.infos);
    assertEquals(builtAt, Files.getLastModifiedTime(built));
    assertEquals(copiedAt, Files.getLastModifiedTime(library));

    // A changed source is rebuilt; a changed option too.
    Path source = project.resolve("src/main/native/demo.cc");
    Files.writeString(source, Files.readString(source).replace("2 * a", "3 * a"));
    Files.setLastModifiedTime(source, FileTime.fromMillis(System.currentTimeMillis() + 2000));
    RecordingLog third = new RecordingLog();
    build(third, "cmake").run();
    assertTrue(third.infos.stream().anyMatch(line -> line.contains("libdemo.so built from")), third.infos.toString());
  }

  @Test
  void aSourceRestoredWithItsOldTimeIsBuiltFromScratch() throws Exception {
    // Trial userU: sources restored by cp -p (or rsync -a, tar x) keep times older than the last build, so make
    // rebuilt nothing and the jar kept a library the sources no longer made, with nothing logged.
    writeNativeProject();
    build(new RecordingLog(), "cmake").run();
    Path library = project.resolve("target/classes/META-INF/native/linux-x86_64/libdemo.so");
    byte[] twice = Files.readAllBytes(library);
    Path source = project.resolve("src/main/native/demo.cc");
    FileTime old = FileTime.fromMillis(Files.getLastModifiedTime(source).toMillis() - 3_600_000);
    Files.writeString(source, Files.readString(source).replace("2 * a", "5 * a"));
    Files.setLastModifiedTime(source, old);

    RecordingLog restored = new RecordingLog();
    build(restored, "cmake").run();
    assertTrue(restored.infos.contains("packed4j: demo.cc changed since the last native build but is not newer than"
        + " it (restored with its old time?), which make would not see: configuring and building from scratch"),
        restored.infos.toString());
    assertTrue(restored.infos.stream().anyMatch(line -> line.contains("libdemo.so built from")),
        restored.infos.toString());
    assertFalse(Arrays.equals(twice, Files.readAllBytes(library)), "the library of the restored source");

    // A rebuild that makes the same library says so, rather than nothing.
    Files.setLastModifiedTime(source, FileTime.fromMillis(System.currentTimeMillis() + 2000));
    RecordingLog touched = new RecordingLog();
    build(touched, "cmake").run();
    assertEquals(List.of("packed4j: native library rebuilt, unchanged (" + project.resolve("src/main/native") + ")"),
        touched.infos);
  }

  @Test
  void noNativeProjectSaysWhereItBelongs() {
    NativeBuildException e = fails(build(new RecordingLog(), "cmake"));
    assertTrue(e.getMessage().contains("no native project"), e.getMessage());
    assertTrue(e.getMessage().contains("src/main/native"), e.getMessage());
    assertTrue(e.getMessage().contains("add_library(<name> SHARED"), e.getMessage());
  }

  @Test
  void aMissingCMakeSaysHowToInstallIt() throws Exception {
    writeNativeProject();
    NativeBuildException e = fails(build(new RecordingLog(), project.resolve("no-such-cmake").toString()));
    assertTrue(e.getMessage().contains("CMake was not found"), e.getMessage());
    assertTrue(e.getMessage().contains("apt-get install cmake"), e.getMessage());
    assertTrue(e.getMessage().contains("-Dpacked4j.cmake="), e.getMessage());
  }

  @Test
  void anOldCMakeIsNamedWithTheVersionNeeded() throws Exception {
    writeNativeProject();
    Path oldCMake = project.resolve("old-cmake");
    Files.writeString(oldCMake, "#!/bin/sh\necho 'cmake version 3.10.2'\n");
    Files.setPosixFilePermissions(oldCMake, PosixFilePermissions.fromString("rwx------"));
    NativeBuildException e = fails(build(new RecordingLog(), oldCMake.toString()));
    assertTrue(e.getMessage().contains("CMake 3.10.2"), e.getMessage());
    assertTrue(e.getMessage().contains("too old: packed4j needs CMake 3.16 or later"), e.getMessage());
  }

  @Test
  void aMissingCompilerSaysWhatToInstallAndShowsCMakesOutput() throws Exception {
    writeNativeProject();
    RecordingLog log = new RecordingLog();
    NativeBuildException e = fails(build(log, "cmake",
        "-DCMAKE_CXX_COMPILER=" + project.resolve("no-such-c++")));
    assertTrue(e.getMessage().contains("no working C++ compiler"), e.getMessage());
    assertTrue(e.getMessage().contains("apt-get install g++"), e.getMessage());
    assertTrue(log.errors.stream().anyMatch(line -> line.contains("CMAKE_CXX_COMPILER")), log.errors.toString());
  }

  @Test
  void aCompileErrorShowsTheCompilersOutput() throws Exception {
    writeNativeProject();
    Files.writeString(project.resolve("src/main/native/demo.cc"), "int broken(;\n");
    RecordingLog log = new RecordingLog();
    NativeBuildException e = fails(build(log, "cmake"));
    assertTrue(e.getMessage().contains("the native build of"), e.getMessage());
    assertTrue(log.errors.stream().anyMatch(line -> line.contains("demo.cc")), log.errors.toString());
    assertTrue(Files.notExists(project.resolve("target/native-build/packed4j-build.stamp")));
  }
}
