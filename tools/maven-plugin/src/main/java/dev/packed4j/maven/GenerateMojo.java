package dev.packed4j.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Generates the Java interfaces of the project's native plugin libraries with {@code packed4j generate}: one
 * {@code @Global} interface per registry name prefix and one {@code @Object} interface per object type, written to
 * {@code target/generated-sources/packed4j} and added as a compile source root, so that a project with only C++
 * sources has a typed Java API.
 *
 * <p>Each library {@code build-native} put into the classes for this platform (or each of {@code <libraries>}) is
 * loaded in a JVM of the project's JDK toolchain. The goal runs in {@code process-resources}, after
 * {@code build-native} (which builds the libraries in {@code generate-resources}) and before {@code compile}. Files
 * whose content is unchanged are not rewritten, so an unchanged library recompiles nothing.
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.packed4j</groupId>
 *   <artifactId>packed4j-maven-plugin</artifactId>
 *   <version>0.1.0-SNAPSHOT</version>
 *   <executions>
 *     <execution>
 *       <goals><goal>build-native</goal><goal>generate</goal><goal>describe</goal></goals>
 *       <configuration><packageName>com.example.shapes</packageName></configuration>
 *     </execution>
 *   </executions>
 * </plugin>
 * }</pre>
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.PROCESS_RESOURCES, threadSafe = true)
public final class GenerateMojo extends LibraryCliMojo {
  /** Made by Maven, which then sets the parameters below. */
  public GenerateMojo() {}

  /** The type key of a generated {@code @Object} interface. */
  private static final Pattern OBJECT_KEY = Pattern.compile("(?m)^@Object\\(\"([^\"]+)\"\\)");

  /** The Java package of the generated interfaces, such as {@code com.example.shapes}. */
  @Parameter(property = "packed4j.generate.package", required = true)
  String packageName;

  /** Only the globals whose names start with one of these ({@code shapes.}); all when none is given. */
  @Parameter
  List<String> prefixes;

  /**
   * The object types that have an {@code @Object} interface already, by type key: the qualified name of that
   * interface ({@code <existing><inventory.Item>com.example.Item</inventory.Item></existing>}). None is generated for
   * them, and the generated interfaces use the given ones.
   */
  @Parameter
  Map<String, String> existing;

  /** What a {@code set_body} function becomes: {@code object-varargs} (a method of Object...) or {@code skip}. */
  @Parameter(property = "packed4j.generate.untyped", defaultValue = "object-varargs")
  String untyped;

  /** Where the sources are written; added as a compile source root. */
  @Parameter(property = "packed4j.generate.outputDirectory",
      defaultValue = "${project.build.directory}/generated-sources/packed4j")
  File outputDirectory;

  /** Skips generating; sources generated before stay, and remain a source root. */
  @Parameter(property = "packed4j.generate.skip", defaultValue = "false")
  boolean skip;

  @Override
  public void execute() throws MojoExecutionException {
    project.addCompileSourceRoot(outputDirectory.getPath());
    if (skip) {
      getLog().info("packed4j: generate skipped (packed4j.generate.skip)");
      return;
    }
    List<Path> targets = targetLibraries("generate");
    String output = runCli(cliArguments(targets), "generate " + targets);
    for (String line : output.split("\n")) {
      if (line.startsWith("packed4j generate: warning: ")) {
        getLog().warn("packed4j: " + line.substring("packed4j generate: warning: ".length()));
      } else if (line.startsWith("packed4j generate: ")) {
        getLog().info("packed4j: " + line.substring("packed4j generate: ".length()));
      }
    }
    List<String> clashes = clashes(outputDirectory.toPath(), packageName, project.getCompileSourceRoots().stream()
        .map(Path::of).toList());
    if (!clashes.isEmpty()) {
      throw new MojoExecutionException("packed4j: generate wrote classes that other source roots have too, which"
          + " javac would report as duplicate classes:\n  " + String.join("\n  ", clashes));
    }
  }

  /**
   * The files generate wrote into {@code output} for {@code packageName} that another of {@code roots} has at the
   * same path, each with what to change: a hand-written interface that the widened {@code prefixes} of the
   * archetype's README now generate too, say. Files of another package there are an earlier configuration's.
   */
  static List<String> clashes(Path output, String packageName, List<Path> roots) throws MojoExecutionException {
    List<String> clashes = new ArrayList<>();
    Path written = output.resolve(packageName.replace('.', File.separatorChar));
    if (!Files.isDirectory(written)) {
      return clashes;
    }
    Path absoluteOutput = output.toAbsolutePath().normalize();
    try (Stream<Path> files = Files.list(written)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        Path relative = output.relativize(file);
        for (Path root : roots) {
          Path other = root.resolve(relative);
          if (!root.toAbsolutePath().normalize().equals(absoluteOutput) && Files.isRegularFile(other)) {
            Matcher object = OBJECT_KEY.matcher(Files.readString(file));
            String className = relative.toString().replace(File.separatorChar, '.').replaceAll("\\.java$", "");
            clashes.add(other + " and the generated " + file + (object.find()
                ? ": map the type key to your interface, <existing><" + object.group(1) + ">" + className + "</"
                    + object.group(1) + "></existing> (--existing " + object.group(1) + "=" + className + ")"
                : ": narrow <prefixes> (--prefix) to leave the functions of " + className + " to your interface"));
          }
        }
      }
    } catch (IOException e) {
      throw new MojoExecutionException("packed4j: cannot read the generated sources in " + output + ": " + e, e);
    }
    return clashes;
  }

  @Override
  Map<String, String> parameterOptions() {
    return Map.of("--package", "packageName", "--untyped", "untyped", "--existing", "existing", "--prefix",
        "prefixes", "--out", "outputDirectory");
  }

  /** The command line of {@code packed4j generate} for {@code targets} and this goal's parameters. */
  List<String> cliArguments(List<Path> targets) {
    List<String> arguments = new ArrayList<>(List.of("generate"));
    targets.forEach(library -> arguments.add(library.toString()));
    arguments.addAll(List.of("--package", packageName, "--out", outputDirectory.getPath(), "--untyped", untyped));
    if (prefixes != null) {
      prefixes.forEach(prefix -> arguments.addAll(List.of("--prefix", prefix)));
    }
    if (existing != null) {
      new TreeMap<>(existing).forEach((key, name) -> arguments.addAll(List.of("--existing", key + "=" + name)));
    }
    return arguments;
  }
}
