package dev.packed4j.maven;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.inject.Inject;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.ToolchainManager;

/**
 * The base of the goals that run packed4j-cli on the project's native libraries ({@code describe},
 * {@code generate}): the parameters that choose the libraries, and a run of the CLI in a JVM of the project's JDK
 * toolchain that fails the build with the CLI's own output when it fails.
 */
abstract class LibraryCliMojo extends AbstractMojo {
  /** The libraries to use; by default every library in the classes' {@code META-INF/native/<platform>/}. */
  @Parameter
  List<File> libraries;

  /** The class output directory, where {@code build-native} puts the libraries. */
  @Parameter(defaultValue = "${project.build.outputDirectory}", readonly = true)
  File classesDirectory;

  @Parameter(defaultValue = "${project}", readonly = true)
  MavenProject project;

  @Parameter(defaultValue = "${session}", readonly = true)
  MavenSession session;

  // JSR-330 injection (Sisu), which Maven recommends over the deprecated @Component.
  @Inject
  ToolchainManager toolchains;

  /**
   * The configured libraries, or every {@code *.so} that build-native put into the classes for this platform.
   *
   * @param goal the goal's name, for the messages
   */
  final List<Path> targetLibraries(String goal) throws MojoExecutionException {
    return PackedCli.libraries(libraries, classesDirectory, goal);
  }

  /**
   * Runs {@code packed4j <arguments>} in a JVM of the project's JDK toolchain (else of the JDK Maven runs on).
   *
   * @param what what the run does, for the messages, such as {@code "describe libshapes.so"}
   * @return the CLI's output, which the caller reports as it sees fit
   * @throws MojoExecutionException when the CLI cannot start or ends with a non-zero status, saying what the CLI said
   *     went wrong; the rest of its output is logged first, as an error, unless it rejected its command line, which
   *     the exception then says in the goal's names
   */
  final String runCli(List<String> arguments, String what) throws MojoExecutionException {
    PackedCli.Run run = PackedCli.run(PackedCli.java(toolchains, session), arguments, what);
    if (run.status() != 0) {
      if (run.status() != 2 || PackedCli.tooOld(run.output())) {
        // What the exception says is not logged before it as well.
        String rest = PackedCli.withoutCause(run.output());
        if (!rest.isBlank()) {
          getLog().error(rest);
        }
      } else {
        // A wrong command line is logged for -X only: the CLI's usage text names options the pom does not have.
        getLog().debug(run.output());
      }
      throw new MojoExecutionException("packed4j: packed4j " + what + " failed with status " + run.status()
          + PackedCli.hint(run.status(), run.output(), parameterOptions()));
    }
    return run.output();
  }

  /**
   * The goal's parameter for each CLI option it passes, such as {@code --package} for {@code packageName}: a wrong
   * command line is reported in the goal's names.
   */
  Map<String, String> parameterOptions() {
    return Map.of();
  }
}
