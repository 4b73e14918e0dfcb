package dev.packed4j.userprojects;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs Maven and java the way a user does, on projects outside the reactor: Maven from the build's own
 * installation, the local repository target/it-repo (this build's artifacts, installed by the invoker plugin), and
 * settings that read everything else from the build's own local repository first, so nothing is downloaded that
 * the build did not already have.
 */
final class UserBuilds {
  private UserBuilds() {}

  static final Path WORK = Path.of(property("packed4j.it.work"));
  static final Path PROJECTS = Path.of(property("packed4j.it.projects"));
  static final Path ROOT = Path.of(property("packed4j.it.root")).toAbsolutePath().normalize();
  static final String VERSION = property("packed4j.it.version");

  /** What a finished command printed and its exit code. */
  record Run(List<String> command, int exitCode, String output) {
    Run succeeded() {
      if (exitCode != 0) {
        fail(String.join(" ", command) + " exited with " + exitCode + ":\n" + output);
      }
      return this;
    }
  }

  static String property(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("system property " + name + " is not set: run the tests through Maven");
    }
    return value;
  }

  /** A fresh copy of src/it/{name} under target/it. */
  static Path copyProject(String name) throws IOException {
    Path target = WORK.resolve(name);
    deleteTree(target);
    Path source = PROJECTS.resolve(name);
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path copy = target.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(copy);
        } else {
          Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return target;
  }

  static void deleteTree(Path directory) throws IOException {
    if (Files.exists(directory)) {
      try (Stream<Path> paths = Files.walk(directory)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
  }

  private static Path settings() throws IOException {
    Path settings = WORK.resolve("settings.xml");
    String mirror = Path.of(property("packed4j.it.mirror")).toUri().toString();
    String repository = """
              <id>build-local-repository</id>
              <url>%s</url>
              <releases><enabled>true</enabled><checksumPolicy>ignore</checksumPolicy></releases>
              <snapshots><enabled>false</enabled></snapshots>
        """.formatted(mirror);
    Files.createDirectories(WORK);
    // Test classes run in two JVMs at once (packed4j.test.forks), and a Maven started by one must never read the
    // file half written by the other: each writes its own copy and renames it over the shared name.
    Path written = Files.createTempFile(WORK, "settings-", ".xml");
    Files.writeString(written, """
        <settings>
          <profiles>
            <profile>
              <id>build-local-repository</id>
              <repositories>
                <repository>
        %s        </repository>
              </repositories>
              <pluginRepositories>
                <pluginRepository>
        %s        </pluginRepository>
              </pluginRepositories>
            </profile>
          </profiles>
          <activeProfiles>
            <activeProfile>build-local-repository</activeProfile>
          </activeProfiles>
        </settings>
        """.formatted(repository, repository));
    return Files.move(written, settings, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** {@code mvn -B <arguments>} in {@code directory}. */
  static Run maven(Path directory, String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(property("packed4j.it.mavenHome"), "bin", "mvn").toString());
    command.add("-B");
    command.add("-s");
    command.add(settings().toString());
    command.add("-Dmaven.repo.local=" + property("packed4j.it.repository"));
    command.addAll(List.of(arguments));
    // A short Maven run spends much of its CPU in C2 compiling Maven itself: C1 alone and one GC thread took this
    // module from 300 to 259 s of CPU (one run each, other work beside them) without changing what a build does.
    return run(directory, command, Map.of("MAVEN_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"));
  }

  /** The JDK this test runs on (the build's JDK 25 toolchain), as a user's {@code java}. */
  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  static Run run(Path directory, List<String> command, Map<String, String> environment)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    builder.environment().remove("MAVEN_OPTS");
    builder.environment().putAll(environment);
    Path log = Files.createTempFile(WORK, "run-", ".log");
    builder.redirectOutput(log.toFile());
    Process process = builder.start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail("timed out after 10 minutes: " + String.join(" ", command));
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.delete(log);
    return new Run(command, process.exitValue(), output);
  }
}
