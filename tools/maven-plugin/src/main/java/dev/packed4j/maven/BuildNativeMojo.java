package dev.packed4j.maven;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Builds the project's native plugin library with CMake and puts it into the project's classes, so the jar
 * carries it under {@code META-INF/native/<platform>/} and {@code Packed4j.loadLibrary("<name>")} finds it.
 *
 * <p>The CMake project (by default {@code src/main/native}) finds packed4j with
 * {@code find_package(packed4j CONFIG REQUIRED)}: the goal points {@code packed4j_DIR} at the CMake package of the
 * {@code packed4j-native-core} artifact of this plugin's version, unpacked under {@code target/}. Every shared
 * library the build makes ({@code add_library(<name> SHARED ...)} or {@code MODULE}) is carried.
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.packed4j</groupId>
 *   <artifactId>packed4j-maven-plugin</artifactId>
 *   <version>0.1.0-SNAPSHOT</version>
 *   <executions>
 *     <execution>
 *       <goals><goal>build-native</goal></goals>
 *     </execution>
 *   </executions>
 * </plugin>
 * }</pre>
 *
 * <p>The build is incremental: when no file of the CMake project, no option and not the native core changed since
 * the last successful build, CMake is not run at all. CMake's output is shown when a step fails and hidden
 * otherwise ({@code -Dpacked4j.native.verbose} shows it always).
 */
@Mojo(name = "build-native", defaultPhase = LifecyclePhase.GENERATE_RESOURCES, threadSafe = true)
public final class BuildNativeMojo extends AbstractMojo {
  /** Made by Maven, which then sets the parameters below. */
  public BuildNativeMojo() {}

  /** The CMake project of the native plugin. */
  @Parameter(property = "packed4j.native.sourceDirectory", defaultValue = "${project.basedir}/src/main/native")
  File sourceDirectory;

  /** Where CMake builds (its binary directory). */
  @Parameter(property = "packed4j.native.buildDirectory", defaultValue = "${project.build.directory}/native-build")
  File buildDirectory;

  /** The class output directory: the libraries go to {@code META-INF/native/<platform>/} below it. */
  @Parameter(defaultValue = "${project.build.outputDirectory}", readonly = true)
  File classesDirectory;

  /** Where the native core's CMake package is unpacked. */
  @Parameter(defaultValue = "${project.build.directory}/packed4j-native-core", readonly = true)
  File nativeCoreDirectory;

  /**
   * {@code CMAKE_BUILD_TYPE}: Release, Debug, RelWithDebInfo or MinSizeRel. RelWithDebInfo keeps the optimization
   * and adds debug info, so the native backtraces of the library's errors give {@code file:line}
   * ({@code packed4j_plugin_debug_info(<target>)} in the CMake project does the same for one target).
   */
  @Parameter(property = "packed4j.native.buildType", defaultValue = "Release")
  String buildType;

  /** Further arguments of the configure step, such as {@code -DMY_OPTION=ON}. */
  @Parameter
  List<String> cmakeOptions = new ArrayList<>();

  /** The cmake executable: a name looked up on the PATH, or a path. */
  @Parameter(property = "packed4j.cmake", defaultValue = "cmake")
  String cmake;

  /** Parallel compile jobs; 0 means one per processor. */
  @Parameter(property = "packed4j.native.jobs", defaultValue = "0")
  int jobs;

  /** Shows CMake's output even when it succeeds. */
  @Parameter(property = "packed4j.native.verbose", defaultValue = "false")
  boolean verbose;

  /** Skips the native build. */
  @Parameter(property = "packed4j.native.skip", defaultValue = "false")
  boolean skip;

  @Override
  public void execute() throws MojoExecutionException {
    if (skip) {
      getLog().info("packed4j: native build skipped (packed4j.native.skip)");
      return;
    }
    NativeBuild build = new NativeBuild(sourceDirectory.toPath(), buildDirectory.toPath(),
        nativeCoreDirectory.toPath(), classesDirectory.toPath(), buildType, cmakeOptions == null ? List.of()
            : cmakeOptions, cmake, jobs > 0 ? jobs : Runtime.getRuntime().availableProcessors(), verbose, getLog());
    try {
      build.run();
    } catch (NativeBuildException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    } catch (IOException e) {
      throw new MojoExecutionException("packed4j: the native build failed: " + e, e);
    }
  }

  static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String osPart = os.startsWith("linux") ? "linux" : os.startsWith("mac") ? "osx"
        : os.startsWith("windows") ? "windows" : os.replaceAll("[^a-z0-9]", "");
    String archPart = switch (arch) {
      case "amd64", "x86_64" -> "x86_64";
      case "aarch64", "arm64" -> "aarch_64";
      default -> arch.replaceAll("[^a-z0-9_]", "");
    };
    return osPart + "-" + archPart;
  }
}
