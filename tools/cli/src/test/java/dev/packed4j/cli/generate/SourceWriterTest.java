package dev.packed4j.cli.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unchanged files are not rewritten; stale generated files go, hand-written ones stay. */
class SourceWriterTest {
  @TempDir Path directory;

  @Test
  void aSecondRunWithTheSameSourcesWritesNothing() throws Exception {
    SortedMap<String, String> files = new TreeMap<>();
    files.put("demo/A.java", SourceWriter.MARKER + "\npackage demo;\ninterface A {}\n");
    files.put("demo/B.java", SourceWriter.MARKER + "\npackage demo;\ninterface B {}\n");
    SourceWriter.Result first = SourceWriter.write(directory, files, "demo");
    assertEquals(List.of("demo/A.java", "demo/B.java"), first.written());

    Path a = directory.resolve("demo/A.java");
    FileTime old = FileTime.fromMillis(1_000_000_000_000L);
    Files.setLastModifiedTime(a, old);
    SourceWriter.Result second = SourceWriter.write(directory, files, "demo");
    assertEquals(List.of(), second.written());
    assertEquals(List.of("demo/A.java", "demo/B.java"), second.unchanged());
    assertEquals(old, Files.getLastModifiedTime(a), "an unchanged file keeps its modification time");

    files.put("demo/B.java", SourceWriter.MARKER + "\npackage demo;\ninterface B { void b(); }\n");
    SourceWriter.Result third = SourceWriter.write(directory, files, "demo");
    assertEquals(List.of("demo/B.java"), third.written());
    assertEquals(old, Files.getLastModifiedTime(a));
  }

  @Test
  void staleGeneratedFilesAreDeletedAndOthersKept() throws Exception {
    Path demo = Files.createDirectories(directory.resolve("demo"));
    Path stale = Files.writeString(demo.resolve("Old.java"), SourceWriter.MARKER + "\npackage demo;\n");
    Path own = Files.writeString(demo.resolve("Own.java"), "package demo;\ninterface Own {}\n");
    SortedMap<String, String> files = new TreeMap<>();
    files.put("demo/A.java", SourceWriter.MARKER + "\npackage demo;\ninterface A {}\n");
    SourceWriter.Result result = SourceWriter.write(directory, files, "demo");
    assertEquals(List.of("demo/Old.java"), result.deleted());
    assertFalse(Files.exists(stale));
    assertTrue(Files.exists(own));
  }
}
