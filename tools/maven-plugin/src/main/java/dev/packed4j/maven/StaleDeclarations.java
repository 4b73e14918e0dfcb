package dev.packed4j.maven;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Makes maven-compiler-plugin compile again the sources that declare packed4j bindings, so that the processor
 * checks them against a manifest that changed.
 *
 * <p>The compiler plugin (3.x, with its default {@code useIncrementalCompilation}) runs javac when a source is newer
 * than its class file or has none, when the set of sources changed, or when a dependency changed, and then compiles
 * every source of the module. A new manifest is none of these, so it removes the class files of the declarations:
 * each class file whose constant pool names an annotation of {@code dev.packed4j.annotations} ({@code @Global},
 * {@code @Object}, ... are kept in the class file, retention {@code CLASS}), and the class file the compiler plugin
 * maps its source file to ({@code Api.java} to {@code Api.class}, also for a nested or second top-level type, by the
 * class file's {@code SourceFile} attribute), when that source is one of the project's. The next compile finds those
 * sources stale. Nothing else of the project is touched: not the sources (an editor holding one open would see it
 * change), not the compiler plugin's own state, not a class file of no source of the project.
 */
final class StaleDeclarations {
  /** The descriptor of a packed4j annotation, as its uses name it in the constant pool. */
  private static final Pattern ANNOTATION_DESCRIPTOR = Pattern.compile("Ldev/packed4j/annotations/\\w+;");

  private StaleDeclarations() {}

  /**
   * Removes the class files of the declarations in {@code classDirectories} (missing ones are skipped) whose source
   * file is in one of {@code sourceRoots}: a class file of no source there (unpacked from a dependency, written by
   * another compiler) is left alone, since nothing would make it again. A class file this cannot read is skipped with
   * a warning, never a failure of the build.
   *
   * @param warn where a skipped class file is reported
   * @return the removed files, sorted
   */
  static List<Path> remove(List<Path> classDirectories, List<Path> sourceRoots, Consumer<String> warn)
      throws IOException {
    Set<Path> stale = new TreeSet<>();
    for (Path directory : classDirectories) {
      if (!Files.isDirectory(directory)) {
        continue;
      }
      List<Path> classFiles;
      try (Stream<Path> files = Files.walk(directory)) {
        classFiles = files.filter(file -> file.getFileName().toString().endsWith(".class") && Files.isRegularFile(file))
            .toList();
      }
      for (Path classFile : classFiles) {
        String sourceFile;
        try {
          sourceFile = declaringSourceFile(classFile);
        } catch (IOException | RuntimeException unreadable) {
          warn.accept("packed4j: " + classFile + " is not a class file packed4j reads (" + unreadable
              + "); if it declares packed4j bindings, run mvn clean to check them against the new manifest");
          continue;
        }
        if (sourceFile == null) {
          continue;
        }
        Path packageDirectory = directory.relativize(classFile.getParent());
        boolean compiledHere = sourceFile.endsWith(".java") && sourceFile.indexOf('/') < 0
            && sourceFile.indexOf('\\') < 0 && !sourceFile.equals("..")
            && sourceRoots.stream().anyMatch(root -> Files.isRegularFile(root.resolve(packageDirectory)
                .resolve(sourceFile)));
        if (compiledHere) {
          stale.add(classFile);
          stale.add(classFile.resolveSibling(sourceFile.substring(0, sourceFile.length() - ".java".length())
              + ".class"));
        }
      }
    }
    List<Path> removed = new ArrayList<>();
    for (Path file : stale) {
      if (Files.deleteIfExists(file)) {
        removed.add(file);
      }
    }
    return removed;
  }

  /**
   * The source file a class file was compiled from ({@code Api.java}) when it uses a packed4j annotation, else null.
   * Without a {@code SourceFile} attribute ({@code -g:none}), the top-level class's name stands for it.
   */
  static String declaringSourceFile(Path classFile) throws IOException {
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(classFile)))) {
      if (in.readInt() != 0xCAFEBABE) {
        return null;
      }
      in.skipNBytes(4); // minor and major version
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      int[] classNames = new int[count];
      boolean declares = false;
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> {
            utf8[i] = in.readUTF(); // the class file's modified UTF-8, with its two-byte length, is readUTF's
            declares |= ANNOTATION_DESCRIPTOR.matcher(utf8[i]).matches();
          }
          case 7 -> classNames[i] = in.readUnsignedShort();
          case 8, 16, 19, 20 -> in.skipNBytes(2); // String, MethodType, Module, Package
          case 15 -> in.skipNBytes(3); // MethodHandle
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
          case 5, 6 -> { // Long and Double take two entries
            in.skipNBytes(8);
            i++;
          }
          default -> throw new IOException(classFile + " is not a class file this plugin reads (constant pool tag "
              + tag + ")");
        }
      }
      if (!declares) {
        return null;
      }
      in.skipNBytes(2); // access flags
      String thisClass = utf8[classNames[in.readUnsignedShort()]];
      in.skipNBytes(2); // super class
      in.skipNBytes(2L * in.readUnsignedShort()); // interfaces
      for (int members = 0; members < 2; members++) { // fields, then methods
        int memberCount = in.readUnsignedShort();
        for (int m = 0; m < memberCount; m++) {
          in.skipNBytes(6); // access flags, name, descriptor
          skipAttributes(in);
        }
      }
      int attributes = in.readUnsignedShort();
      for (int a = 0; a < attributes; a++) {
        String name = utf8[in.readUnsignedShort()];
        int length = in.readInt();
        if ("SourceFile".equals(name)) {
          return utf8[in.readUnsignedShort()];
        }
        in.skipNBytes(length);
      }
      String simpleName = thisClass.substring(thisClass.lastIndexOf('/') + 1);
      return simpleName.split("\\$", 2)[0] + ".java";
    }
  }

  private static void skipAttributes(DataInputStream in) throws IOException {
    int attributes = in.readUnsignedShort();
    for (int a = 0; a < attributes; a++) {
      in.skipNBytes(2);
      in.skipNBytes(Integer.toUnsignedLong(in.readInt()));
    }
  }
}
