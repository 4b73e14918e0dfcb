package dev.packed4j.userprojects;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The quick start's {@code -q} hides CMake: the native core's configure and build, run by exec-maven-plugin, print
 * nothing when they succeed (issue 21: "the quick start prints CMake lines despite -q").
 */
class QuietBuildTest {
  @Test
  void theNativeCoreBuildsWithoutCMakeLinesUnderQ() throws Exception {
    Path build = UserBuilds.WORK.resolve("quiet-native-core");
    UserBuilds.deleteTree(build);
    // Its own CMake build directory, so the reactor's native-core/target/cmake-build is left alone; and the core
    // unoptimised (Debug), whose build prints what the Release build prints and compiles without -O3's cost.
    UserBuilds.Run run = UserBuilds.maven(UserBuilds.ROOT.resolve("native-core"), "-q", "-DskipTests",
        "-Dcmake.build.dir=" + build, "-Dpacked4j.cmake.buildType=Debug", "compile").succeeded();
    assertTrue(Files.isRegularFile(build.resolve("libpacked4j.so")), "the core was built:\n" + run.output());
    for (String line : List.of("-- Configuring done", "-- Build files have been written", "Built target")) {
      assertFalse(run.output().contains(line), "'" + line + "' under -q:\n" + run.output());
    }
  }
}
