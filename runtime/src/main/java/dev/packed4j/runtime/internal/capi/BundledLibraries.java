package dev.packed4j.runtime.internal.capi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Finds a plugin library carried on the class path by name, the way JNA and Netty find theirs.
 *
 * <p>A library {@code name} for a platform is the resource {@code META-INF/native/<platform>/lib<name>.so},
 * where the platform is named as Netty's and os-maven-plugin's classifiers name it ({@code linux-x86_64},
 * {@code linux-aarch_64}, ...); packed4j-maven-plugin puts the libraries it builds there. A library in a directory
 * of the class path ({@code target/classes}) is loaded where it is. A library inside a jar is copied once to a
 * per-user cache, in a folder named by the SHA-256 of its content (of every file's, when the jar also carries
 * libraries it links, copied beside it), and loaded from there: the dynamic loader needs a file, and a content-keyed
 * copy is never rewritten while another process has it mapped. Two processes extracting
 * at once each write a temporary file and rename it into place; a rename is atomic, so either copy wins whole.
 */
public final class BundledLibraries {
  private BundledLibraries() {}

  /** The class path folder holding one folder per platform. */
  public static final String RESOURCE_ROOT = "META-INF/native/";
  /** System property naming the cache directory instead of {@code $XDG_CACHE_HOME/packed4j}. */
  public static final String CACHE_DIRECTORY_PROPERTY = "packed4j.cache.dir";

  /** This JVM's platform folder name, such as {@code linux-x86_64}. */
  public static String currentPlatform() {
    return platform(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
  }

  /** The platform folder name for Java's {@code os.name} and {@code os.arch}. */
  public static String platform(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT);
    String arch = osArch.toLowerCase(Locale.ROOT);
    String osPart = os.startsWith("linux") ? "linux"
        : os.startsWith("mac") || os.startsWith("darwin") ? "osx"
        : os.startsWith("windows") ? "windows"
        : os.replaceAll("[^a-z0-9]", "");
    String archPart = switch (arch) {
      case "amd64", "x86_64", "x86-64" -> "x86_64";
      case "aarch64", "arm64" -> "aarch_64";
      case "x86", "i386", "i486", "i586", "i686" -> "x86_32";
      case "ppc64le" -> "ppcle_64";
      case "riscv64" -> "riscv64";
      default -> arch.replaceAll("[^a-z0-9_]", "");
    };
    return osPart + "-" + archPart;
  }

  /** The file name of library {@code name} on a platform: {@code lib<name>.so}, {@code .dylib} or {@code .dll}. */
  public static String fileName(String name, String platform) {
    if (platform.startsWith("windows-")) {
      return name + ".dll";
    }
    return "lib" + name + (platform.startsWith("osx-") ? ".dylib" : ".so");
  }

  /**
   * The file to load for library {@code name} on this platform: the class path directory's file, or the cached
   * copy of the jar's entry (extracted now if needed).
   *
   * @throws IllegalArgumentException for a name that is not a plain library name
   * @throws IllegalStateException with what is missing and what to do
   */
  public static Path locate(String name, ClassLoader loader) {
    checkName(name);
    ClassLoader classLoader = loader != null ? loader : BundledLibraries.class.getClassLoader();
    String platform = currentPlatform();
    String resource = RESOURCE_ROOT + platform + "/" + fileName(name, platform);
    URL url = classLoader.getResource(resource);
    if (url == null) {
      List<String> platforms = platformsCarrying(name, classLoader);
      if (platforms.isEmpty()) {
        throw new IllegalStateException("no native library '" + name + "' on the class path: expected the resource "
            + resource + " (packed4j-maven-plugin's build-native goal puts lib" + name + ".so there when the "
            + "project's CMake build makes a shared library named " + name + "); or load a file with "
            + "Packed4j.loadLibrary(Path)");
      }
      throw new IllegalStateException("native library '" + name + "' is not built for this platform (" + platform
          + "): the class path carries it for " + String.join(", ", platforms) + " only; build the native "
          + "library on " + platform + " and add it as " + resource);
    }
    if (url.getProtocol().equals("file")) {
      try {
        return Path.of(url.toURI());
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw new IllegalStateException("cannot read native library '" + name + "' at " + url + ": " + e);
      }
    }
    byte[] content = read(name, url);
    // The plain libraries it links that its jar carries beside it go into the same cache folder, where the loader
    // finds them (NativeLibraries.loadBundledDependencies); its RUNPATH names only the build tree.
    Map<String, byte[]> files = new TreeMap<>();
    files.put(fileName(name, platform), content);
    addCarriedDependencies(content, url, files);
    return cached(name, fileName(name, platform), files, url);
  }

  private static byte[] read(String name, URL url) {
    try (InputStream in = url.openStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read native library '" + name + "' from " + url + ": " + e);
    }
  }

  /**
   * Adds to {@code files}, under the name the loader looks for, each library {@code library} (the entry at
   * {@code url}) lists as a dependency that the same jar folder carries, and theirs in turn: by that file name, or
   * else the entry whose SONAME it is (a versioned {@code libhelper.so.1}, which {@code build-native} copies as
   * {@code libhelper.so}). Never the core, which the runtime loads from its own jar.
   */
  private static void addCarriedDependencies(byte[] library, URL url, Map<String, byte[]> files) {
    Map<String, byte[]> bySoname = null;
    for (String needed : ElfCheck.dynamic(ByteBuffer.wrap(library)).needed()) {
      if (files.containsKey(needed) || needed.equals(NativeLibraries.CORE_SONAME)) {
        continue;
      }
      byte[] content = readBeside(url, needed);
      if (content == null) {
        if (bySoname == null) {
          bySoname = jarFolderBySoname(url);
        }
        content = bySoname.get(needed);
      }
      if (content != null) {
        files.put(needed, content);
        addCarriedDependencies(content, url, files);
      }
    }
  }

  /** The entry {@code fileName} in the jar folder of {@code url}, or null when the jar carries none. */
  private static byte[] readBeside(URL url, String fileName) {
    try {
      String spec = url.toString();
      // The name is plain (ElfCheck.isPlainName), so it needs no escaping in the URL.
      URLConnection connection = URI.create(spec.substring(0, spec.lastIndexOf('/') + 1) + fileName).toURL()
          .openConnection();
      connection.setUseCaches(false);
      try (InputStream in = connection.getInputStream()) {
        return in.readAllBytes();
      }
    } catch (IOException | IllegalArgumentException notCarried) {
      return null; // FileNotFoundException for a missing entry; a broken jar fails the plugin's own read first
    }
  }

  /** The shared libraries in the jar folder of {@code url}, by SONAME (those that have one). */
  private static Map<String, byte[]> jarFolderBySoname(URL url) {
    Map<String, byte[]> libraries = new TreeMap<>();
    try {
      URLConnection connection = url.openConnection();
      connection.setUseCaches(false);
      if (!(connection instanceof JarURLConnection jarConnection)) {
        return libraries;
      }
      String entryName = jarConnection.getEntryName();
      String folder = entryName.substring(0, entryName.lastIndexOf('/') + 1);
      try (JarFile jar = jarConnection.getJarFile()) {
        for (JarEntry entry : Collections.list(jar.entries())) {
          String rest = entry.getName().startsWith(folder) ? entry.getName().substring(folder.length()) : "";
          if (!rest.contains(".so") || rest.contains("/") || entry.getName().equals(entryName)) {
            continue;
          }
          try (InputStream in = jar.getInputStream(entry)) {
            byte[] content = in.readAllBytes();
            String soname = ElfCheck.dynamic(ByteBuffer.wrap(content)).soname();
            if (!soname.isEmpty()) {
              libraries.putIfAbsent(soname, content);
            }
          }
        }
      }
    } catch (IOException | RuntimeException unreadable) {
      // Only a dependency fewer is found: the loader then says which one it misses.
    }
    return libraries;
  }

  /**
   * The library {@code name} beside a library in {@code folder}: the file of that name, or else the one whose SONAME
   * it is; null when the folder has neither.
   */
  static Path sibling(Path folder, String name) {
    Path exact = folder.resolve(name);
    if (Files.isRegularFile(exact)) {
      return exact;
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(file -> file.getFileName().toString().contains(".so") && Files.isRegularFile(file))
          .sorted()
          .filter(file -> ElfCheck.dynamic(file).soname().equals(name))
          .findFirst().orElse(null);
    } catch (IOException | UncheckedIOException unreadable) {
      return null;
    }
  }

  /** The file in a cache folder that says its libraries were extracted together, a plugin with what it links. */
  static final String BUNDLE_MARKER = "packed4j-bundle";

  /**
   * Whether {@code folder} holds libraries packed4j laid out together, so that a plugin's dependency found beside it
   * is the one to load: a class path directory's {@code META-INF/native/<platform>} (what {@code build-native}
   * writes), or a cache folder with {@link #BUNDLE_MARKER}.
   */
  public static boolean isBundleFolder(Path folder) {
    Path platform = folder.getFileName();
    Path nativeFolder = folder.getParent();
    Path metaInf = nativeFolder == null ? null : nativeFolder.getParent();
    if (platform != null && platform.toString().equals(currentPlatform()) && metaInf != null
        && nativeFolder.getFileName().toString().equals("native")
        && metaInf.getFileName() != null && metaInf.getFileName().toString().equals("META-INF")) {
      return true;
    }
    return Files.isRegularFile(folder.resolve(BUNDLE_MARKER));
  }

  private static void checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || !name.matches("[A-Za-z0-9_.+-]+") || name.startsWith(".")) {
      throw new IllegalArgumentException("'" + name + "' is not a library name: give the name CMake's "
          + "add_library gave it (calculator for libcalculator.so), or load a file with Packed4j.loadLibrary(Path)");
    }
    if (name.startsWith("lib") && name.endsWith(".so")) {
      throw new IllegalArgumentException("'" + name + "' is a file name: give the library name ("
          + name.substring(3, name.length() - 3) + "), or load a file with Packed4j.loadLibrary(Path)");
    }
  }

  /** The cache directory: the system property, else {@code $XDG_CACHE_HOME/packed4j}, else {@code ~/.cache/packed4j}. */
  public static Path cacheDirectory() {
    String property = System.getProperty(CACHE_DIRECTORY_PROPERTY);
    if (property != null && !property.isBlank()) {
      return Path.of(property).toAbsolutePath();
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg, "packed4j");
    }
    return Path.of(System.getProperty("user.home"), ".cache", "packed4j");
  }

  /**
   * Extracts {@code files} (file name to content: the library {@code fileName} and the libraries it links) into one
   * cache folder, named by the SHA-256 of the library's content alone, or of every file's name and content when
   * there are several, so that another version of a dependency gets a folder of its own.
   *
   * @return the library's file
   */
  private static Path cached(String name, String fileName, Map<String, byte[]> files, URL origin) {
    String hash;
    if (files.size() == 1) {
      hash = sha256(files.get(fileName));
    } else {
      StringBuilder names = new StringBuilder();
      files.forEach((file, content) -> names.append(file).append('\0').append(sha256(content)).append('\n'));
      hash = sha256(names.toString().getBytes(StandardCharsets.UTF_8));
    }
    Path folder = cacheDirectory().resolve(hash);
    Path target = folder.resolve(fileName);
    try {
      createPrivateDirectories(folder);
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        extract(folder, file.getKey(), file.getValue());
      }
      if (files.size() > 1) {
        extract(folder, BUNDLE_MARKER, new byte[0]); // last: a folder cut short is never taken for a bundle
      }
      return target;
    } catch (IOException | UncheckedIOException e) {
      throw new IllegalStateException("cannot extract native library '" + name + "' from " + origin + " to "
          + target + " (" + e + "): make that directory writable, or set -D" + CACHE_DIRECTORY_PROPERTY
          + "=<a writable directory>");
    }
  }

  /** Writes {@code content} to {@code folder/fileName} unless the file holds it already. */
  private static void extract(Path folder, String fileName, byte[] content) throws IOException {
    Path target = folder.resolve(fileName);
    if (Files.isRegularFile(target) && Files.size(target) == content.length
        && Arrays.equals(Files.readAllBytes(target), content)) {
      return;
    }
    // Write beside the target, then rename: a reader never sees a partial file, and a concurrent extractor's rename
    // over ours replaces identical bytes.
    Path temporary = Files.createTempFile(folder, fileName + ".", ".part");
    try {
      Files.write(temporary, content);
      try {
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  private static void createPrivateDirectories(Path folder) throws IOException {
    Path parent = folder.getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      createPrivateDirectories(parent);
    }
    if (Files.isDirectory(folder)) {
      return;
    }
    try {
      // Loaded code: only its owner may write it.
      if (folder.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } else {
        Files.createDirectory(folder);
      }
    } catch (FileAlreadyExistsException e) {
      // Another process created it first.
    }
  }

  private static String sha256(byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JDK has SHA-256", e);
    }
  }

  /** The platforms for which the class path carries library {@code name}, sorted. */
  public static List<String> platformsCarrying(String name, ClassLoader loader) {
    TreeSet<String> platforms = new TreeSet<>();
    Enumeration<URL> roots;
    try {
      roots = loader.getResources(RESOURCE_ROOT);
    } catch (IOException e) {
      return List.of();
    }
    for (URL root : Collections.list(roots)) {
      try {
        if (root.getProtocol().equals("file")) {
          try (DirectoryStream<Path> folders = Files.newDirectoryStream(Path.of(root.toURI()))) {
            for (Path folder : folders) {
              String platform = folder.getFileName().toString();
              if (Files.isRegularFile(folder.resolve(fileName(name, platform)))) {
                platforms.add(platform);
              }
            }
          }
        } else if (root.getProtocol().equals("jar")) {
          URLConnection connection = root.openConnection();
          connection.setUseCaches(false);
          try (JarFile jar = ((JarURLConnection) connection).getJarFile()) {
            for (JarEntry entry : Collections.list(jar.entries())) {
              String platform = platformOf(entry.getName(), name);
              if (platform != null) {
                platforms.add(platform);
              }
            }
          }
        }
      } catch (IOException | URISyntaxException | RuntimeException e) {
        // A root that cannot be listed only shortens the list in the message.
      }
    }
    return new ArrayList<>(platforms);
  }

  private static String platformOf(String entry, String name) {
    if (!entry.startsWith(RESOURCE_ROOT)) {
      return null;
    }
    String rest = entry.substring(RESOURCE_ROOT.length());
    int slash = rest.indexOf('/');
    if (slash <= 0 || rest.indexOf('/', slash + 1) >= 0) {
      return null;
    }
    String platform = rest.substring(0, slash);
    return rest.substring(slash + 1).equals(fileName(name, platform)) ? platform : null;
  }
}
