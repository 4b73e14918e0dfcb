package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 14's leak run: over 10 million mixed calls and one million lifecycles each of strings, containers and
 * objects, the live native object count comes back to where it was and the resident set stays within 5%.
 *
 * <p>Runs in a JVM of its own (tests/pom.xml, execution leak-test) whose heap is fixed and touched up front, so
 * the resident set measures native memory and code rather than how far the Java heap has grown.
 */
class LeakTest {
  private static final long MIXED_CALLS = StressSizes.of(10_000_000);
  private static final long LIFECYCLES = StressSizes.of(1_000_000);

  private static Values values;
  private static ObjectFunctions objects;
  private static Containers containers;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    values = Packed4j.bind(Values.class);
    objects = Packed4j.bind(ObjectFunctions.class);
    containers = Packed4j.bind(Containers.class);
  }

  @Test
  void liveObjectsAndResidentMemoryStayFlat() throws Exception {
    try (Node shared = objects.makeNode(1, 2, 0, 0.5, true, "shared")) {
      // A warm-up of the same work first: the JIT's code, the per-thread stacks and the allocator's arenas grow
      // to their working size there, not in the measured run.
      run(shared, Math.max(MIXED_CALLS / 10, 200_000), Math.max(LIFECYCLES / 10, 20_000));
      long liveBefore = StressSizes.settledLiveObjectCount();
      long residentBefore = StressSizes.residentBytes();
      run(shared, MIXED_CALLS, LIFECYCLES);
      long liveAfter = StressSizes.settledLiveObjectCount();
      long residentAfter = StressSizes.residentBytes();
      System.out.printf("LeakTest: %,d mixed calls and %,d lifecycles each: live objects %,d -> %,d, resident "
          + "%,d KiB -> %,d KiB (%+.2f%%)%n", MIXED_CALLS, LIFECYCLES, liveBefore, liveAfter, residentBefore / 1024,
          residentAfter / 1024, 100.0 * (residentAfter - residentBefore) / residentBefore);
      assertEquals(liveBefore, liveAfter, "live native objects");
      assertTrue(residentAfter <= residentBefore * 1.05, "resident memory grew from " + residentBefore + " to "
          + residentAfter + " bytes, more than 5%");
    }
  }

  private static void run(Node shared, long mixedCalls, long lifecycles) {
    long checksum = 0;
    for (long i = 0; i < mixedCalls; i++) {
      switch ((int) (i % 8)) {
        case 0 -> checksum += values.addInt32(1, i);
        case 1 -> checksum += values.echoLong(i);
        case 2 -> checksum += (long) values.echoDouble(i);
        case 3 -> checksum += values.utf8Length("caf\u00e9");
        case 4 -> checksum += containers.sum(List.of(i, 1L));
        case 5 -> checksum += objects.nameOf(shared).length();
        case 6 -> checksum += shared.big();
        default -> {
          // An error: a native error object made, turned into an exception and released.
          try {
            values.raise("KeyError", "missing");
          } catch (Packed4jException e) {
            checksum++;
          }
        }
      }
    }
    for (long i = 0; i < lifecycles; i++) {
      // A string: a native String object made for the result and released once read.
      checksum += values.echoString("lifecycle " + i).length();
      // Containers: a temporary list and map for the arguments, a result copied and released, and a live view
      // closed.
      checksum += containers.echoLongs(List.of(i, i + 1)).size();
      checksum += containers.echoStringMap(Map.of("k", i)).size();
      try (NativeList<Long> live = containers.rangeLive(4)) {
        checksum += live.size();
      }
      // An object with a string field, read and closed.
      try (Node node = objects.makeNode(1, i, 0, 0.5, false, "node")) {
        checksum += node.big() + node.name().length();
      }
    }
    assertTrue(checksum != 0);
  }
}
