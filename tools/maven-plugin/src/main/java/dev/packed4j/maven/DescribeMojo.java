package dev.packed4j.maven;

import dev.packed4j.cli.Manifest;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Describes the project's native plugin libraries with {@code packed4j describe} and makes the manifests the
 * processor's {@code -Apacked4j.manifest}, so a wrong declaration fails {@code javac} on the exact element.
 *
 * <p>Each library {@code build-native} put into the classes for this platform (or each of {@code <libraries>}) is
 * loaded in a JVM of the project's JDK toolchain (JDK 25; the one Maven runs on otherwise) and its manifest written
 * to {@code target/packed4j/<name>.manifest.json}; a manifest of the current format version, described from a
 * library of the same SHA-256 (recorded beside it in {@code <name>.manifest.json.library-sha256}), is kept. The goal
 * then sets the
 * project property {@code packed4j.manifest} to the manifests (joined with {@code :}), which the compiler plugin
 * passes on. When a manifest it writes differs from the one before (or there was none), it removes the class files of
 * the packed4j declarations ({@link StaleDeclarations}), so that the compiler plugin runs javac on their sources
 * again and the processor checks them against the new manifest; an unchanged manifest recompiles nothing:
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.packed4j</groupId>
 *   <artifactId>packed4j-maven-plugin</artifactId>
 *   <version>0.1.0-SNAPSHOT</version>
 *   <executions>
 *     <execution>
 *       <goals><goal>build-native</goal><goal>describe</goal></goals>
 *     </execution>
 *   </executions>
 * </plugin>
 * <plugin>
 *   <artifactId>maven-compiler-plugin</artifactId>
 *   <configuration>
 *     <compilerArgs><arg>-Apacked4j.manifest=${packed4j.manifest}</arg></compilerArgs>
 *   </configuration>
 * </plugin>
 * }</pre>
 */
@Mojo(name = "describe", defaultPhase = LifecyclePhase.PROCESS_RESOURCES, threadSafe = true)
public final class DescribeMojo extends LibraryCliMojo {
  /** Made by Maven, which then sets the parameters below. */
  public DescribeMojo() {}

  /** Where the manifests are written, one {@code <name>.manifest.json} per library. */
  @Parameter(property = "packed4j.manifest.directory", defaultValue = "${project.build.directory}/packed4j")
  File manifestDirectory;

  /** The project property set to the manifests, for {@code -Apacked4j.manifest=${packed4j.manifest}}. */
  @Parameter(property = "packed4j.manifest.property", defaultValue = "packed4j.manifest")
  String property;

  /** Skips describing: the property is set empty, and the processor checks without a manifest. */
  @Parameter(property = "packed4j.describe.skip", defaultValue = "false")
  boolean skip;

  @Override
  public void execute() throws MojoExecutionException {
    if (skip) {
      getLog().info("packed4j: describe skipped (packed4j.describe.skip)");
      project.getProperties().setProperty(property, "");
      return;
    }
    List<Path> targets = targetLibraries("describe");
    List<String> manifests = new ArrayList<>();
    try {
      Files.createDirectories(manifestDirectory.toPath());
      for (Path library : targets) {
        Path manifest = manifestDirectory.toPath().resolve(manifestName(library));
        // Which library the manifest describes, by content: a library copied in with an older time (cp -p, an
        // archive) would pass a comparison of times and keep the manifest of the one it replaced (trial userU).
        Path describedFrom = manifest.resolveSibling(manifest.getFileName() + ".library-sha256");
        String libraryHash = HexFormat.of().formatHex(NativeBuild.sha256().digest(Files.readAllBytes(library)));
        if (Files.isRegularFile(manifest) && isCurrentVersion(manifest) && Files.isRegularFile(describedFrom)
            && Files.readString(describedFrom).equals(libraryHash)) {
          getLog().info("packed4j: manifest of " + library.getFileName() + " up to date");
        } else {
          byte[] before = Files.isRegularFile(manifest) ? Files.readAllBytes(manifest) : null;
          Files.deleteIfExists(describedFrom); // until the new manifest is written whole
          describe(library, manifest);
          Files.writeString(describedFrom, libraryHash);
          getLog().info("packed4j: described " + library.getFileName() + " into " + manifest);
          if (before == null || !Arrays.equals(before, Files.readAllBytes(manifest))) {
            // At once, not after the other libraries: if describing one of them fails, this manifest is already
            // recorded as its library's and the next build would keep it without checking the declarations again.
            recompileDeclarations(manifest.getFileName().toString());
          }
        }
        manifests.add(manifest.toString());
      }
    } catch (IOException e) {
      throw new MojoExecutionException("packed4j: cannot write the manifests to " + manifestDirectory + ": " + e, e);
    }
    project.getProperties().setProperty(property, String.join(File.pathSeparator, manifests));
  }

  /**
   * Makes the next compile run javac again on the sources that declare packed4j bindings, which were checked against
   * the manifests before they changed (or against none): the compiler plugin would otherwise find every class up to
   * date, and a declaration the native side no longer matches would pass until its first call.
   */
  private void recompileDeclarations(String changed) throws IOException {
    List<Path> classDirectories = List.of(Path.of(project.getBuild().getOutputDirectory()),
        Path.of(project.getBuild().getTestOutputDirectory()));
    List<Path> sourceRoots = new ArrayList<>();
    project.getCompileSourceRoots().forEach(root -> sourceRoots.add(Path.of(root)));
    project.getTestCompileSourceRoots().forEach(root -> sourceRoots.add(Path.of(root)));
    List<Path> removed = StaleDeclarations.remove(classDirectories, sourceRoots, getLog()::warn);
    if (!removed.isEmpty()) {
      getLog().info("packed4j: " + changed + " changed: removed the " + removed.size()
          + " class files of the packed4j declarations, so that javac checks their sources against it again");
    }
  }

  /**
   * Whether the manifest is of the version this plugin's packed4j-cli writes: one an older packed4j wrote (version 1
   * has no methods, setters or doc strings) is written again even when its library is unchanged.
   */
  private static boolean isCurrentVersion(Path manifest) throws IOException {
    // Manifest.VERSION is a constant: javac copies its value here, and nothing of packed4j-cli is loaded into
    // Maven's JVM. The describe command writes the member exactly so: "version": <n>, on a line of its own.
    return Files.readString(manifest).contains("\n  \"version\": " + Manifest.VERSION + ",\n");
  }

  /** {@code libcalculator.so} as {@code calculator.manifest.json}. */
  static String manifestName(Path library) {
    String name = library.getFileName().toString();
    if (name.startsWith("lib")) {
      name = name.substring(3);
    }
    if (name.endsWith(".so")) {
      name = name.substring(0, name.length() - 3);
    }
    return name + ".manifest.json";
  }

  /** Runs {@code packed4j describe <library> --json <manifest>}; its output is shown when it fails. */
  private void describe(Path library, Path manifest) throws MojoExecutionException {
    String output = runCli(List.of("describe", library.toString(), "--json", manifest.toString()),
        "describe " + library);
    if (!Files.isRegularFile(manifest)) {
      getLog().error(output);
      throw new MojoExecutionException("packed4j: packed4j describe " + library + " wrote no manifest " + manifest);
    }
    String warning = "packed4j describe: warning: ";
    for (String line : output.split("\n")) {
      if (line.startsWith(warning)) {
        // Such as a library that is no packed4j plugin: a mistake when named in <libraries>, but build-native also
        // puts a plain shared library the plugin links into the classes, and its empty manifest does no harm.
        if (libraries != null && !libraries.isEmpty()) {
          getLog().warn("packed4j: " + line.substring(warning.length()));
        } else {
          getLog().info("packed4j: " + line.substring(warning.length()));
        }
      }
    }
  }
}
