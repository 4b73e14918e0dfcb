package dev.packed4j.maven;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.Comparator;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The packed4j CMake package (headers, libpacked4j.so, lib/cmake/packed4j) of the packed4j-native-core artifact
 * this plugin depends on: used in place when it is a directory (a reactor build), unpacked once otherwise.
 *
 * @param packageDirectory what {@code packed4j_DIR} is set to
 * @param stamp identifies the artifact's content, so a new native core rebuilds the plugin library
 */
record NativeCore(Path packageDirectory, String stamp) {
  static final String CONFIG = "lib/cmake/packed4j/packed4jConfig.cmake";

  static NativeCore unpack(Path unpackDirectory) throws IOException, NativeBuildException {
    URL config = NativeCore.class.getClassLoader().getResource(CONFIG);
    if (config == null) {
      throw new NativeBuildException("packed4j: the packed4j-native-core artifact on this plugin's class path has "
          + "no " + CONFIG + ": use packed4j-maven-plugin and packed4j-native-core of the same release");
    }
    if (config.getProtocol().equals("file")) {
      try {
        Path file = Path.of(config.toURI());
        return new NativeCore(file.getParent(), file + "@" + Files.getLastModifiedTime(file).toMillis());
      } catch (URISyntaxException e) {
        throw new IOException("cannot read " + config, e);
      }
    }
    URLConnection connection = config.openConnection();
    if (!(connection instanceof JarURLConnection jarConnection)) {
      throw new NativeBuildException("packed4j: cannot read the native core's CMake package at " + config);
    }
    Path jarPath;
    try {
      jarPath = Path.of(jarConnection.getJarFileURL().toURI());
    } catch (URISyntaxException e) {
      throw new IOException("cannot read " + config, e);
    }
    String stamp = jarPath + "@" + Files.size(jarPath) + "@" + Files.getLastModifiedTime(jarPath).toMillis();
    Path stampFile = unpackDirectory.resolve(".unpacked-from");
    Path packageDirectory = unpackDirectory.resolve(CONFIG).getParent();
    if (Files.isRegularFile(stampFile) && Files.readString(stampFile, StandardCharsets.UTF_8).equals(stamp)) {
      return new NativeCore(packageDirectory, stamp);
    }
    deleteTree(unpackDirectory);
    Files.createDirectories(unpackDirectory);
    try (JarFile jar = new JarFile(jarPath.toFile())) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        if (entry.isDirectory() || entry.getName().startsWith("META-INF/")) {
          continue;
        }
        Path target = unpackDirectory.resolve(entry.getName()).normalize();
        if (!target.startsWith(unpackDirectory)) {
          throw new IOException("entry " + entry.getName() + " of " + jarPath + " leaves the unpack directory");
        }
        Files.createDirectories(target.getParent());
        try (InputStream in = jar.getInputStream(entry)) {
          Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    Files.writeString(stampFile, stamp, StandardCharsets.UTF_8);
    return new NativeCore(packageDirectory, stamp);
  }

  private static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
