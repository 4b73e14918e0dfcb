package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.packed4j.runtime.Packed4j;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Many threads calling at once: each has its own argument stack, and objects and errors stay per call. */
class ConcurrencyTest {
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
  void mixedCallsFromEightPlatformAndManyVirtualThreads() throws Exception {
    try (ExecutorService platform = Executors.newFixedThreadPool(8);
        ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Long>> results = new ArrayList<>();
      for (int task = 0; task < 64; task++) {
        int seed = task;
        ExecutorService executor = task % 2 == 0 ? platform : virtual;
        results.add(executor.submit(() -> work(seed)));
      }
      for (int task = 0; task < results.size(); task++) {
        assertEquals(expected(task), results.get(task).get(), "task " + task);
      }
    }
  }

  /** Strings, objects, lists and a native error, checked as it goes; returns a checksum. */
  private static long work(int seed) {
    long checksum = 0;
    for (int i = 0; i < 2_000; i++) {
      String text = "t\u00e9" + seed + "-" + i;
      if (!values.echoString(text).equals(text)) {
        throw new AssertionError("string mixed up: " + text);
      }
      try (Node node = objects.makeNode(seed, i, 0, 0, false, text)) {
        if (node.big() != i || !node.name().equals(text)) {
          throw new AssertionError("object mixed up at " + seed + "/" + i);
        }
      }
      checksum += containers.sum(List.of((long) seed, (long) i));
      try {
        values.raise("ValueError", "task " + seed);
        throw new AssertionError("no error raised");
      } catch (dev.packed4j.runtime.Packed4jException e) {
        if (!e.nativeMessage().equals("task " + seed)) {
          throw new AssertionError("error of another thread: " + e.nativeMessage());
        }
      }
    }
    return checksum;
  }

  private static long expected(int seed) {
    return 2_000L * seed + 1_999L * 2_000L / 2;
  }
}
