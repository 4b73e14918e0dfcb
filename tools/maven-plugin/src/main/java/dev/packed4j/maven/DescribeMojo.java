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
import java.util.Set;
import java.util.stream.Stream;
import javax.inject.Inject;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.Toolchain;
import org.apache.maven.toolchain.ToolchainManager;

/**
 * Describes the project's native plugin libraries with {@code packed4j describe} and makes the manifests the
 * processor's {@code -Apacked4j.manifest}, so a wrong declaration fails {@code javac} on the exact element.
 *
 * <p>Each library {@code build-native} put into the classes for this platform (or each of {@code <libraries>}) is
 * loaded in a JVM of the project's JDK toolchain (JDK 25; the one Maven runs on otherwise) and its manifest written
 * to {@code target/packed4j/<name>.manifest.json}; a manifest newer than its library is kept. The goal then sets the
 * project property {@code packed4j.manifest} to the manifests (joined with {@code :}), which the compiler plugin
 * passes on:
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
public final class DescribeMojo extends AbstractMojo {
  /** Made by Maven, which then sets the parameters below. */
  public DescribeMojo() {}

  /** The libraries to describe; by default every library in the classes' {@code META-INF/native/<platform>/}. */
  @Parameter
  List<File> libraries;

  /** The class output directory, where {@code build-native} puts the libraries. */
  @Parameter(defaultValue = "${project.build.outputDirectory}", readonly = true)
  File classesDirectory;

  /** Where the manifests are written, one {@code <name>.manifest.json} per library. */
  @Parameter(property = "packed4j.manifest.directory", defaultValue = "${project.build.directory}/packed4j")
  File manifestDirectory;

  /** The project property set to the manifests, for {@code -Apacked4j.manifest=${packed4j.manifest}}. */
  @Parameter(property = "packed4j.manifest.property", defaultValue = "packed4j.manifest")
  String property;

  /** Skips describing: the property is set empty, and the processor checks without a manifest. */
  @Parameter(property = "packed4j.describe.skip", defaultValue = "false")
  boolean skip;

  @Parameter(defaultValue = "${project}", readonly = true)
  MavenProject project;

  @Parameter(defaultValue = "${session}", readonly = true)
  MavenSession session;

  // JSR-330 injection (Sisu), which Maven recommends over the deprecated @Component.
  @Inject
  ToolchainManager toolchains;

  @Override
  public void execute() throws MojoExecutionException {
    if (skip) {
      getLog().info("packed4j: describe skipped (packed4j.describe.skip)");
      project.getProperties().setProperty(property, "");
      return;
    }
    List<Path> targets = librariesToDescribe();
    String java = java();
    String classpath = String.join(File.pathSeparator, describeClasspath());
    List<String> manifests = new ArrayList<>();
    try {
      Files.createDirectories(manifestDirectory.toPath());
      for (Path library : targets) {
        Path manifest = manifestDirectory.toPath().resolve(manifestName(library));
        if (Files.isRegularFile(manifest)
            && Files.getLastModifiedTime(manifest).compareTo(Files.getLastModifiedTime(library)) > 0) {
          getLog().info("packed4j: manifest of " + library.getFileName() + " up to date");
        } else {
          describe(java, classpath, library, manifest);
          getLog().info("packed4j: described " + library.getFileName() + " into " + manifest);
        }
        manifests.add(manifest.toString());
      }
    } catch (IOException e) {
      throw new MojoExecutionException("packed4j: cannot write the manifests to " + manifestDirectory + ": " + e, e);
    }
    project.getProperties().setProperty(property, String.join(File.pathSeparator, manifests));
  }

  /** The configured libraries, or every {@code *.so} that build-native put into the classes for this platform. */
  private List<Path> librariesToDescribe() throws MojoExecutionException {
    if (libraries != null && !libraries.isEmpty()) {
      List<Path> configured = new ArrayList<>();
      for (File library : libraries) {
        if (!library.isFile()) {
          throw new MojoExecutionException("packed4j: the library " + library + " to describe does not exist");
        }
        configured.add(library.toPath());
      }
      return configured;
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
      throw new MojoExecutionException("packed4j: no native library to describe in " + platformDirectory
          + ": run the build-native goal before describe (list both in one execution, build-native first), or name"
          + " the libraries with <libraries>");
    }
    return found;
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

  /** The {@code java} of the project's JDK toolchain, else of the JDK Maven runs on. */
  private String java() {
    Toolchain toolchain = toolchains == null ? null : toolchains.getToolchainFromBuildContext("jdk", session);
    String tool = toolchain == null ? null : toolchain.findTool("java");
    if (tool != null) {
      return tool;
    }
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * Where packed4j-cli, packed4j-runtime and packed4j-types are on this plugin's class path: jars (the shaded CLI jar
   * holds all three, so the set keeps one entry), or a reactor's classes.
   */
  private List<String> describeClasspath() throws MojoExecutionException {
    Set<String> entries = new LinkedHashSet<>();
    entries.add(location("dev/packed4j/cli/Launcher.class", "packed4j-cli"));
    entries.add(location("dev/packed4j/runtime/Packed4j.class", "packed4j-runtime"));
    entries.add(location("dev/packed4j/types/Signature.class", "packed4j-types"));
    return new ArrayList<>(entries);
  }

  private static String location(String resource, String artifact) throws MojoExecutionException {
    URL url = DescribeMojo.class.getClassLoader().getResource(resource);
    if (url == null) {
      throw new MojoExecutionException("packed4j: " + artifact + " is not on the class path of "
          + "packed4j-maven-plugin: use the plugin and " + artifact + " of the same release");
    }
    try {
      if (url.getProtocol().equals("file")) {
        Path file = Path.of(url.toURI());
        Path root = file;
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

  /** Runs {@code packed4j describe <library> --json <manifest>}; its output is shown when it fails. */
  private void describe(String java, String classpath, Path library, Path manifest) throws MojoExecutionException {
    List<String> command = List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", classpath,
        "dev.packed4j.cli.Launcher", "describe", library.toString(), "--json", manifest.toString());
    String output;
    int status;
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      try (InputStream in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      status = process.waitFor();
    } catch (IOException e) {
      throw new MojoExecutionException("packed4j: cannot run " + java + " to describe " + library + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MojoExecutionException("packed4j: interrupted while describing " + library, e);
    }
    if (status != 0) {
      getLog().error(output);
      String hint = status == 2
          ? ": describing needs a JDK 25; let the project select one with maven-toolchains-plugin's "
              + "select-jdk-toolchain goal (see docs/guide.md)"
          : ": the library does not load (the output above says why)";
      throw new MojoExecutionException("packed4j: packed4j describe " + library + " failed with status " + status
          + hint);
    }
    if (!Files.isRegularFile(manifest)) {
      getLog().error(output);
      throw new MojoExecutionException("packed4j: packed4j describe " + library + " wrote no manifest " + manifest);
    }
  }
}
