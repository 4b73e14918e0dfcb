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
 * objects back while it was behind, this child JVM ended with an OutOfMemoryError after about 12 s.
 */
class DroppedObjectsTest {
  @Test
  void objectsDroppedOnSeveralThreadsDoNotOutrunTheCleaner() throws Exception {
    Path directory = Files.createTempDirectory("packed4j-dropped-");
    try {
      String output = ChildJvm.run(ChildJvm.command(DroppedObjects.class, true,
          List.of("-Xms64m", "-Xmx64m", "-XX:+ExitOnOutOfMemoryError"), List.of("4", "20")), directory, 2);
      System.out.print(output);
      assertTrue(output.contains("main done\n"), output);
      Matcher counts = Pattern.compile("live before (\\d+) after (\\d+)").matcher(output);
      assertTrue(counts.find(), output);
      assertEquals(Long.parseLong(counts.group(1)), Long.parseLong(counts.group(2)),
          "every dropped object released once collected:\n" + output);
    } finally {
      Files.delete(directory);
    }
  }
}
