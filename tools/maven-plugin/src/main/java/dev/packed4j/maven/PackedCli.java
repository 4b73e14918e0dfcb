package dev.packed4j.maven;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.toolchain.Toolchain;
import org.apache.maven.toolchain.ToolchainManager;

/**
 * What the describe and generate goals share: the libraries build-native made, and running packed4j-cli in a JVM of
 * the project's JDK toolchain (the plugin runs in Maven's JVM, which may be older than the JDK 25 the CLI needs, and
 * loading a library into Maven's JVM would keep it loaded for the rest of the build).
 */
final class PackedCli {
  private PackedCli() {}

  /** How packed4j-cli's launcher starts its message when the {@code java} running it is older than JDK 25. */
  static final String TOO_OLD = "packed4j needs Java ";

  /** Whether the output is the launcher's, refusing a {@code java} older than JDK 25. */
  static boolean tooOld(String output) {
    return output.lines().anyMatch(line -> line.startsWith(TOO_OLD));
  }

  /** The output of a finished CLI run. */
  record Run(int status, String output) {}

  /**
   * The configured libraries, or every {@code *.so} that build-native put into the classes for this platform.
   *
   * @param goal the goal's name, for the messages
   */
  static List<Path> libraries(List<File> configured, File classesDirectory, String goal)
      throws MojoExecutionException {
    if (configured != null && !configured.isEmpty()) {
      List<Path> libraries = new ArrayList<>();
      for (File library : configured) {
        if (library == null || library.getPath().isBlank()) {
          // <library></library>, or <library>${lib}</library> with lib unset: Maven passes null.
          throw new MojoExecutionException("packed4j: the parameter libraries of the " + goal + " goal has an empty"
              + " <library> entry (a property that is not set, such as ${lib}?): name a library file in each"
              + " <library>, or leave out <libraries> to " + goal + " every library build-native put into the"
              + " classes");
        }
        if (!library.isFile()) {
          // A sibling module's library, say, read from its target folder: built only when that module is part of
          // this build (trial userU: mvn -pl of the API module alone).
          throw new MojoExecutionException("packed4j: the library " + library + " to " + goal + " does not exist:"
              + " build the module whose build-native goal writes it in the same run (mvn -pl <this module> -am"
              + " builds the modules it depends on too), or correct the <library> path");
        }
        libraries.add(library.toPath());
      }
      return libraries;
    }
    Path platformDirectory = classesDirectory.toPath().resolve("META-INF/native/" + BuildNativeMojo.platform());
    List<Path> found = new ArrayList<>();
    if (Files.isDirectory(platformDirectory)) {
      try (Stream<Path> files = Files.list(platformDirectory)) {
        files.filter(file -> file.getFileName().toString().endsWith(".so")).sorted().forEach(found::add);
      } catch (IOException e) {
        throw new MojoExecutionException("packed4j: cannot list " + platformDirectory + ": " + e, e);
      }
    }
    if (found.isEmpty()) {
      throw new MojoExecutionException("packed4j: no native library to " + goal + " in " + platformDirectory
          + ": run the build-native goal before " + goal + " (list both in one execution, build-native first), or"
          + " name the libraries with <libraries>");
    }
    return found;
  }

  /** The {@code java} of the project's JDK toolchain, else of the JDK Maven runs on. */
  static String java(ToolchainManager toolchains, MavenSession session) {
    Toolchain toolchain = toolchains == null ? null : toolchains.getToolchainFromBuildContext("jdk", session);
    String tool = toolchain == null ? null : toolchain.findTool("java");
    if (tool != null) {
      return tool;
    }
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** Runs {@code packed4j <arguments>} with {@code java}; the output is returned, not logged. */
  static Run run(String java, List<String> arguments, String what) throws MojoExecutionException {
    List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
        String.join(File.pathSeparator, classpath()), "dev.packed4j.cli.Launcher"));
    command.addAll(arguments);
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output;
      try (InputStream in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      return new Run(process.waitFor(), output);
    } catch (IOException e) {
      throw new MojoExecutionException("packed4j: cannot run " + java + " to " + what + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MojoExecutionException("packed4j: interrupted while running " + what, e);
    }
  }

  /**
   * What a failed run's status means, after the command's own output.
   *
   * @param output what the run printed: status 2 is both the launcher's "this java is too old" and the CLI's "wrong
   *     command line", and only the launcher's message tells them apart
   * @param parameters the goal's parameter for each CLI option ({@code --package} to {@code packageName}): the
   *     CLI's message names the option, the pom the parameter
   */
  static String hint(int status, String output, Map<String, String> parameters) {
    if (status == 2 && tooOld(output)) {
      return ": packed4j-cli needs a JDK 25; let the project select one with maven-toolchains-plugin's "
          + "select-jdk-toolchain goal (see docs/guide.md)";
    }
    if (status == 2) {
      // The CLI's first line says what is wrong with its command line; the usage text follows. The JVM's own lines
      // may come first (JAVA_TOOL_OPTIONS' "Picked up ...", JDK_JAVA_OPTIONS' "NOTE: Picked up ...", "WARNING: ...").
      String cause = output.lines().filter(line -> !line.isBlank() && !line.startsWith("Picked up ")
          && !line.startsWith("NOTE: Picked up ") && !line.startsWith("WARNING: ")).findFirst().orElse("no message");
      for (Map.Entry<String, String> option : parameters.entrySet()) {
        cause = cause.replaceAll(Pattern.quote(option.getKey()) + "\\b", Matcher.quoteReplacement(option.getValue()));
      }
      return ": a parameter of the goal is wrong: " + cause;
    }
    if (status > 128) { // the shell's convention for a process ended by a signal, which the JVM's launcher follows
      int signal = status - 128;
      String cause = switch (signal) {
        case 6 -> " (SIGABRT: C++ called terminate or abort, as for an exception that escaped a static initialiser"
            + " of the library or of one it links (keep static initialisers to the registration macros,"
            + " docs/reliability.md), or the JVM aborted after a crash in native code, whose hs_err_pid*.log file in"
            + " the working directory names the frame)";
        case 11 -> " (SIGSEGV: native code crashed where the JVM could not catch it)";
        case 9 -> " (SIGKILL: killed from outside, for example for lack of memory)";
        default -> "";
      };
      return ": the JVM that loaded the library ended with signal " + signal + cause + "; the output above is all"
          + " it wrote";
    }
    String cause = cause(output);
    return cause != null ? ": " + cause : ": the output above says why";
  }

  /**
   * What packed4j-cli said went wrong: its last line {@code packed4j describe: ...} or {@code packed4j generate: ...}
   * that is not a warning (a library that does not load, a manifest or source that cannot be written), without that
   * prefix; null when it printed none (the JVM ended first).
   */
  static String cause(String output) {
    String cause = null;
    for (String line : output.lines().toList()) {
      for (String prefix : List.of("packed4j describe: ", "packed4j generate: ")) {
        if (line.startsWith(prefix) && !line.startsWith(prefix + "warning: ")) {
          cause = line.substring(prefix.length());
        }
      }
    }
    return cause;
  }

  /**
   * The output of a failed run without what the goal's exception says: the CLI's cause line, and the lines a plugin's
   * static initialisers wrote to stderr for a refused registration ({@code packed4j: cannot register ...: <refusal>})
   * whose refusal the cause repeats (the runtime reports every refusal in its LoadError too).
   */
  static String withoutCause(String output) {
    String cause = cause(output);
    if (cause == null) {
      return output;
    }
    return output.lines()
        .filter(line -> !line.endsWith(": " + cause) && !(line.startsWith("packed4j: cannot register ")
            && repeats(cause, line)))
        .collect(Collectors.joining("\n"));
  }

  /** Whether {@code cause} holds what {@code line} reports, the text after one of its {@code ": "} separators. */
  private static boolean repeats(String cause, String line) {
    for (int at = line.indexOf(": "); at >= 0; at = line.indexOf(": ", at + 1)) {
      String refusal = line.substring(at + 2);
      if (refusal.contains(": ") && cause.contains(refusal)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where packed4j-cli, packed4j-runtime and packed4j-types are on this plugin's class path: jars (the shaded CLI jar
   * holds all three, so the set keeps one entry), or a reactor's classes.
   */
  private static List<String> classpath() throws MojoExecutionException {
    Set<String> entries = new LinkedHashSet<>();
    entries.add(location("dev/packed4j/cli/Launcher.class", "packed4j-cli"));
    entries.add(location("dev/packed4j/runtime/Packed4j.class", "packed4j-runtime"));
    entries.add(location("dev/packed4j/types/Signature.class", "packed4j-types"));
    return new ArrayList<>(entries);
  }

  private static String location(String resource, String artifact) throws MojoExecutionException {
    URL url = PackedCli.class.getClassLoader().getResource(resource);
    if (url == null) {
      throw new MojoExecutionException("packed4j: " + artifact + " is not on the class path of "
          + "packed4j-maven-plugin: use the plugin and " + artifact + " of the same release");
    }
    try {
      if (url.getProtocol().equals("file")) {
        Path root = Path.of(url.toURI());
        for (int i = resource.split("/").length; i > 0; i--) {
          root = root.getParent();
        }
        return root.toString();
      }
      URLConnection connection = url.openConnection();
      if (connection instanceof JarURLConnection jar) {
        return Path.of(jar.getJarFileURL().toURI()).toString();
      }
    } catch (IOException | URISyntaxException e) {
      throw new MojoExecutionException("packed4j: cannot locate " + artifact + " (" + url + "): " + e, e);
    }
    throw new MojoExecutionException("packed4j: cannot locate " + artifact + " at " + url);
  }
}
