package dev.packed4j.tests;

import dev.packed4j.runtime.Packed4j;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Several threads (platform and virtual) that make objects and never close them, for a bounded time, in a JVM of
 * its own with a small heap ({@link DroppedObjectsTest} starts it with {@code -XX:+ExitOnOutOfMemoryError}): the
 * one {@code packed4j-cleaner} thread releases more slowly than they drop, and only holding them back while it is
 * behind keeps the references waiting for it from filling the heap. Arguments: threads, seconds. Prints the live
 * object count before, at the end and once collected, then {@code main done}.
 */
public final class DroppedObjects {
  private DroppedObjects() {}

  public static void main(String[] args) throws Exception {
    int threads = Integer.parseInt(args[0]);
    long seconds = Long.parseLong(args[1]);
    TestLibrary.load();
    ObjectFunctions objects = Packed4j.bind(ObjectFunctions.class);
    long before = TestLibrary.settledLiveObjectCount();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    AtomicLong made = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] producers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      Thread.Builder builder = t % 2 == 0 ? Thread.ofPlatform() : Thread.ofVirtual();
      producers[t] = builder.start(() -> {
        try {
          long count = 0;
          while (System.nanoTime() - end < 0) {
            Node node = objects.makeNode((int) count, count, count, 0.5, true, "dropped");
            objects.setChild(node, objects.makeLeaf("leaf"));
            count += 2;
          }
          made.addAndGet(count);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
    }
    for (Thread producer : producers) {
      producer.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("a producer failed", failure.get());
    }
    long atEnd = Packed4j.liveObjectCount();
    long after = TestLibrary.settledLiveObjectCount();
    System.out.printf("made %,d objects unclosed on %d threads in %d s; live objects: %,d before, %,d at the end,"
        + " %,d once collected%n", made.get(), threads, seconds, before, atEnd, after);
    System.out.println("live before " + before + " at the end " + atEnd + " after " + after);
    System.out.println("main done");
  }
}
