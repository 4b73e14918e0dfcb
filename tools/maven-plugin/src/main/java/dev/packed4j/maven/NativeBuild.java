package dev.packed4j.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.maven.plugin.logging.Log;

/**
 * One native build: check the tools, configure and build with CMake when an input changed, and copy the shared
 * libraries into the classes directory under {@code META-INF/native/<platform>/}.
 */
final class NativeBuild {
  /** The oldest CMake that builds against packed4j's CMake package (native-core's cmake_minimum_required). */
  static final int[] MINIMUM_CMAKE = {3, 16};
  /** Where the built libraries go, below the classes directory; Packed4j.loadLibrary(String) looks there. */
  static final String RESOURCE_ROOT = "META-INF/native/";

  private static final Pattern CMAKE_VERSION = Pattern.compile("cmake version (\\d+)\\.(\\d+)(\\.\\d+)?");

  private final Path sourceDirectory;
  private final Path buildDirectory;
  private final Path nativeCoreDirectory;
  private final Path classesDirectory;
  private final String buildType;
  private final List<String> cmakeOptions;
  private final String cmake;
  private final int jobs;
  private final boolean verbose;
  private final Log log;

  NativeBuild(Path sourceDirectory, Path buildDirectory, Path nativeCoreDirectory, Path classesDirectory,
      String buildType, List<String> cmakeOptions, String cmake, int jobs, boolean verbose, Log log) {
    this.sourceDirectory = sourceDirectory.toAbsolutePath().normalize();
    this.buildDirectory = buildDirectory.toAbsolutePath().normalize();
    this.nativeCoreDirectory = nativeCoreDirectory.toAbsolutePath().normalize();
    this.classesDirectory = classesDirectory.toAbsolutePath().normalize();
    this.buildType = buildType;
    this.cmakeOptions = List.copyOf(cmakeOptions);
    this.cmake = cmake;
    this.jobs = jobs;
    this.verbose = verbose;
    this.log = log;
  }

  /** The libraries' folder in the classes directory. */
  Path libraryFolder() {
    return classesDirectory.resolve(RESOURCE_ROOT + BuildNativeMojo.platform());
  }

  void run() throws IOException, NativeBuildException {
    if (!Files.isRegularFile(sourceDirectory.resolve("CMakeLists.txt"))) {
      throw new NativeBuildException("packed4j: no native project: " + sourceDirectory.resolve("CMakeLists.txt")
          + " does not exist. Put the CMake project of your plugin library in src/main/native (a CMakeLists.txt "
          + "with find_package(packed4j CONFIG REQUIRED) and add_library(<name> SHARED ...), see docs/guide.md), "
          + "or point <sourceDirectory> at it");
    }
    NativeCore core = NativeCore.unpack(nativeCoreDirectory);
    List<String> configure = configureCommand(core.packageDirectory());
    List<String> states = sourceStates();
    String fingerprint = fingerprint(configure, core.stamp(), states);
    Path stamp = buildDirectory.resolve("packed4j-build.stamp");
    Path libraries = buildDirectory.resolve("lib");
    if (fingerprint.equals(readOrEmpty(stamp)) && !builtLibraries(libraries).isEmpty()) {
      log.info("packed4j: native library up to date (" + sourceDirectory + ")");
      copyLibraries(builtLibraries(libraries));
      return;
    }
    checkCMake();
    Files.createDirectories(buildDirectory);
    // A build that fails half-way must not count as up to date next time.
    Files.deleteIfExists(stamp);
    Path sources = buildDirectory.resolve("packed4j-build.sources");
    List<String> unseen = changedButNotNewer(sources);
    Path configured = buildDirectory.resolve("packed4j-configure.args");
    if (!unseen.isEmpty()) {
      log.info("packed4j: " + String.join(", ", unseen) + " changed since the last native build but "
          + (unseen.size() == 1 ? "is" : "are") + " not newer than it (restored with its old time?), which make would"
          + " not see: configuring and building from scratch");
    }
    if (!unseen.isEmpty() || !Files.isRegularFile(buildDirectory.resolve("CMakeCache.txt"))
        || !String.join("\n", configure).equals(readOrEmpty(configured))) {
      String output = runStep("configure", configure);
      Files.writeString(configured, String.join("\n", configure), StandardCharsets.UTF_8);
      show(output);
    }
    List<String> buildCommand = new ArrayList<>(List.of(cmake, "--build", buildDirectory.toString(), "--parallel",
        Integer.toString(jobs)));
    if (!unseen.isEmpty()) {
      buildCommand.add("--clean-first");
    }
    show(runStep("build", buildCommand));
    List<Path> built = builtLibraries(libraries);
    if (built.isEmpty()) {
      throw new NativeBuildException("packed4j: the CMake project " + sourceDirectory + " built no shared library "
          + "in " + libraries + ": declare one with add_library(<name> SHARED ...) (or MODULE), and leave "
          + "CMAKE_LIBRARY_OUTPUT_DIRECTORY to packed4j-maven-plugin");
    }
    if (!copyLibraries(built)) {
      log.info("packed4j: native library rebuilt, unchanged (" + sourceDirectory + ")");
    }
    Files.writeString(sources, String.join("\n", states), StandardCharsets.UTF_8);
    Files.writeString(stamp, fingerprint, StandardCharsets.UTF_8);
  }

  /**
   * The sources that changed since the last successful build (as {@code sources}, written then, lists them) but
   * whose time is not after it: a file restored from a backup, an archive or {@code cp -p} keeps its old time, and
   * make, which compares times, would keep the objects built from what it replaced.
   */
  private List<String> changedButNotNewer(Path sources) throws IOException {
    if (!Files.isRegularFile(sources)) {
      return List.of();
    }
    long builtAt = Files.getLastModifiedTime(sources).toMillis();
    Set<String> before = new HashSet<>(Files.readAllLines(sources, StandardCharsets.UTF_8));
    List<String> unseen = new ArrayList<>();
    try (Stream<Path> files = Files.walk(sourceDirectory)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        if (!before.contains(sourceState(file)) && Files.getLastModifiedTime(file).toMillis() <= builtAt) {
          unseen.add(sourceDirectory.relativize(file).toString());
        }
      }
    }
    return unseen;
  }

  /** Each source file as its path, size and time: what the fingerprint reads of it. */
  private List<String> sourceStates() throws IOException {
    try (Stream<Path> files = Files.walk(sourceDirectory)) {
      List<String> states = new ArrayList<>();
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        states.add(sourceState(file));
      }
      return states;
    }
  }

  private String sourceState(Path file) throws IOException {
    return sourceDirectory.relativize(file) + "\t" + Files.size(file) + "\t"
        + Files.getLastModifiedTime(file).toMillis();
  }

  private List<String> configureCommand(Path packageDirectory) {
    List<String> command = new ArrayList<>(List.of(cmake, "-S", sourceDirectory.toString(), "-B",
        buildDirectory.toString(), "-DCMAKE_BUILD_TYPE=" + buildType, "-Dpacked4j_DIR=" + packageDirectory,
        "-DCMAKE_LIBRARY_OUTPUT_DIRECTORY=" + buildDirectory.resolve("lib")));
    command.addAll(cmakeOptions);
    return command;
  }

  /** What decides whether the last build is still good: the configure arguments and every source file. */
  private String fingerprint(List<String> configure, String coreStamp, List<String> states) {
    MessageDigest digest = sha256();
    digest.update(String.join("\n", configure).getBytes(StandardCharsets.UTF_8));
    digest.update(("\n" + coreStamp + "\n" + jobs + "\n").getBytes(StandardCharsets.UTF_8));
    for (String state : states) {
      digest.update((state + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return java.util.HexFormat.of().formatHex(digest.digest());
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JDK has SHA-256", e);
    }
  }

  private void checkCMake() throws NativeBuildException {
    String output;
    try {
      output = execute(List.of(cmake, "--version")).output();
    } catch (IOException e) {
      throw new NativeBuildException("packed4j: CMake was not found ('" + cmake + "' cannot be run: "
          + e.getMessage() + "). Install CMake " + MINIMUM_CMAKE[0] + "." + MINIMUM_CMAKE[1] + " or later "
          + "(Debian/Ubuntu: apt-get install cmake; or https://cmake.org/download), or name it with "
          + "-Dpacked4j.cmake=/path/to/cmake");
    }
    Matcher version = CMAKE_VERSION.matcher(output);
    if (!version.find()) {
      throw new NativeBuildException("packed4j: '" + cmake + " --version' does not report a CMake version (it "
          + "printed: " + output.strip() + "): name a CMake " + MINIMUM_CMAKE[0] + "." + MINIMUM_CMAKE[1]
          + " or later with -Dpacked4j.cmake=/path/to/cmake");
    }
    int major = Integer.parseInt(version.group(1));
    int minor = Integer.parseInt(version.group(2));
    if (major < MINIMUM_CMAKE[0] || major == MINIMUM_CMAKE[0] && minor < MINIMUM_CMAKE[1]) {
      throw new NativeBuildException("packed4j: CMake " + version.group().substring("cmake version ".length())
          + " ('" + cmake + "') is too old: packed4j needs CMake " + MINIMUM_CMAKE[0] + "." + MINIMUM_CMAKE[1]
          + " or later. Install a newer one (pip install cmake, or https://cmake.org/download) and name it with "
          + "-Dpacked4j.cmake=/path/to/cmake");
    }
  }

  private String runStep(String step, List<String> command) throws IOException, NativeBuildException {
    Result result;
    try {
      result = execute(command);
    } catch (IOException e) {
      throw new NativeBuildException("packed4j: cannot run CMake's " + step + " step (" + String.join(" ", command)
          + "): " + e.getMessage());
    }
    if (result.exitCode() == 0) {
      return result.output();
    }
    for (String line : result.output().split("\n", -1)) {
      log.error(line);
    }
    String output = result.output();
    if (output.contains("No CMAKE_CXX_COMPILER could be found") || output.contains("CMAKE_CXX_COMPILER:")
        || output.contains("is not able to compile a simple test program")) {
      throw new NativeBuildException("packed4j: no working C++ compiler for the native build (CMake's output is "
          + "above). Install one (Debian/Ubuntu: apt-get install g++), or name it with the CXX environment "
          + "variable or -DCMAKE_CXX_COMPILER=/path/to/c++ in <cmakeOptions>");
    }
    throw new NativeBuildException("packed4j: the native " + step + " of " + sourceDirectory + " failed with exit "
        + "code " + result.exitCode() + " (CMake's output is above; the command was: " + String.join(" ", command)
        + ")");
  }

  private void show(String output) {
    if (verbose) {
      for (String line : output.split("\n")) {
        log.info(line);
      }
    }
  }

  record Result(int exitCode, String output) {}

  private Result execute(List<String> command) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!process.waitFor(1, TimeUnit.HOURS)) {
        process.destroyForcibly();
        throw new IOException("timed out");
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    return new Result(process.exitValue(), output);
  }

  private static List<Path> builtLibraries(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(folder)) {
      // A versioned library (VERSION/SOVERSION) leaves symlinks lib<name>.so -> lib<name>.so.1 -> ...; the
      // unversioned name is the one loaded by name, so it is copied with the content it points at.
      return files.filter(file -> file.getFileName().toString().endsWith(".so") && Files.isRegularFile(file))
          .sorted().toList();
    }
  }

  /** Copies the built libraries into the classes; {@return whether one of them changed there} */
  private boolean copyLibraries(List<Path> libraries) throws IOException {
    Path folder = libraryFolder();
    Files.createDirectories(folder);
    boolean changed = false;
    List<String> names = new ArrayList<>();
    for (Path library : libraries) {
      Path target = folder.resolve(library.getFileName());
      names.add(library.getFileName().toString());
      // An unchanged library keeps its timestamp, so the jar is not rebuilt for nothing.
      if (!Files.isRegularFile(target) || !Arrays.equals(Files.readAllBytes(library), Files.readAllBytes(target))) {
        Files.copy(library, target, StandardCopyOption.REPLACE_EXISTING);
        log.info("packed4j: " + classesDirectory.relativize(target) + " built from " + sourceDirectory);
        changed = true;
      }
    }
    try (Stream<Path> present = Files.list(folder)) {
      for (Path stale : present.filter(file -> !names.contains(file.getFileName().toString())).toList()) {
        Files.delete(stale);
        changed = true;
      }
    }
    return changed;
  }

  private static String readOrEmpty(Path file) throws IOException {
    return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
  }
}
