package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Objects dropped unclosed on four threads do not outrun the {@code packed4j-cleaner} thread without bound (user L's
 * L2: a 256 MiB heap filled with references waiting for it within 30 s). Before the cleaner held the threads that make
 * objects back while it was behind, this child JVM ended with an OutOfMemoryError after about 12 s; in the 8 s it now
 * runs, the backlog at the end is what tells the two apart.
 */
class DroppedObjectsTest {
  @Test
  void objectsDroppedOnSeveralThreadsDoNotOutrunTheCleaner() throws Exception {
    Path directory = Files.createTempDirectory("packed4j-dropped-");
    try {
      String output = ChildJvm.run(ChildJvm.command(DroppedObjects.class, true,
          List.of("-Xms64m", "-Xmx64m", "-XX:+ExitOnOutOfMemoryError"), List.of("4", "8")), directory, 2);
      System.out.print(output);
      assertTrue(output.contains("main done\n"), output);
      Matcher counts = Pattern.compile("live before (\\d+) at the end (\\d+) after (\\d+)").matcher(output);
      assertTrue(counts.find(), output);
      // What the cleaner holds back is bounded (BEHIND_AT, one per KiB of heap: 65,536 here, and what the threads
      // made before they next waited); the old code's backlog grew by about 140,000 objects a second, machine speed
      // permitting, until the heap was full (and this JVM ended: no "main done"). A 2-core Zen 1 host that made 7.7
      // million objects in the 8 s ended at 532,105, just over 8 x 65,536: the bound leaves room for a fast maker.
      long atEnd = Long.parseLong(counts.group(2));
      assertTrue(atEnd < 12 * 65_536, "the backlog stays bounded:\n" + output);
      assertEquals(Long.parseLong(counts.group(1)), Long.parseLong(counts.group(3)),
          "every dropped object released once collected:\n" + output);
    } finally {
      Files.delete(directory);
    }
  }
}
