package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Native memory of the threads' argument stacks follows the calls in progress, not the threads that ever existed:
 * many short-lived virtual threads, each making a few calls with a String argument, a String result and a List
 * argument, leave the stacks' native memory where it was, without any garbage collection.
 */
class VirtualThreadMemoryTest {
  private static final FunctionSite ECHO = new FunctionSite("test.Echo", "Echo.echo", new String[] {"value"});
  private static final FunctionSite COUNT = new FunctionSite("test.Count", "Count.count", new String[] {"values"});
  private static final FunctionSite WEIGH =
      new FunctionSite("test.TypedWeigh", "Typed.weigh", new String[] {"text", "times", "tail"});

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
  }

  private static String echo(String text) {
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.putString(0, text);
      frame.invoke();
      return frame.returnString();
    }
  }

  private static long count(List<Long> values) {
    try (CallFrame frame = CallFrame.open(COUNT, 1)) {
      frame.put(0, Codecs.list(Codecs.LONG), values);
      frame.invoke();
      return frame.returnLong();
    }
  }

  private static final class WeighRoute {
    static final MethodHandle HANDLE = WEIGH.link(
        MethodType.methodType(long.class, String.class, int.class, String.class),
        Codecs.STRING, Codecs.INT, Codecs.STRING, Codecs.LONG);
  }

  /** A String argument through scratch marks, as a direct route takes it, without a frame: its UTF-8 length. */
  private static long spanLength(String text) {
    try {
      return (long) WeighRoute.HANDLE.invokeExact(text, 1, "");
    } catch (Throwable e) {
      throw FunctionSite.rethrow(e);
    }
  }

  @Test
  void manyShortLivedVirtualThreadsLeaveTheStacksNativeMemoryFlat() throws Exception {
    echo("warm up");
    long before = ThreadStack.nativeBytesInUse();
    long rssBefore = residentBytes();
    int threads = 200_000;
    Semaphore running = new Semaphore(1_000);
    AtomicLong done = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Long> values = List.of(1L, 2L, 3L);
    for (int i = 0; i < threads; i++) {
      running.acquire();
      String text = "thread " + i;
      Thread.ofVirtual().start(() -> {
        try {
          assertEquals(text, echo(text));
          assertEquals(1, count(values));
          assertEquals(text.length(), spanLength(text));
          done.incrementAndGet();
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        } finally {
          running.release();
        }
      });
    }
    running.acquire(1_000);
    if (failure.get() != null) {
      throw new AssertionError("a virtual thread failed", failure.get());
    }
    assertEquals(threads, done.get());
    long grown = ThreadStack.nativeBytesInUse() - before;
    long rssGrown = residentBytes() - rssBefore;
    System.out.println("VirtualThreadMemoryTest: " + threads + " virtual threads; argument stacks grew by " + grown
        + " bytes, resident memory outside the heap by " + rssGrown / (1024 * 1024) + " MiB");
    // Resident memory is printed, not asserted: the pages of the Java heap the threads' own objects touch count in
    // it, and vary with the collector.
    // 1,000 threads at a time could hold 1,000 first chunks at once; what stays is at most the pool.
    assertTrue(grown <= 64 * 8 * 1024, "the argument stacks grew by " + grown + " bytes over " + threads
        + " virtual threads");
  }

  /** VmRSS of this process (from /proc/self/status) less the committed Java heap. */
  private static long residentBytes() throws java.io.IOException {
    long heap = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
    for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024 - heap;
      }
    }
    throw new AssertionError("no VmRSS in /proc/self/status");
  }

  @Test
  void aPlatformThreadKeepsItsChunkAcrossCalls() throws Exception {
    List<Long> reserved = new ArrayList<>();
    Thread thread = Thread.ofPlatform().start(() -> {
      echo("first");
      long afterFirst = ThreadStack.nativeBytesInUse();
      for (int i = 0; i < 1_000; i++) {
        echo("again");
      }
      reserved.add(ThreadStack.nativeBytesInUse() - afterFirst);
    });
    thread.join();
    assertEquals(0, reserved.getFirst(), "calls on one platform thread allocate no new chunk");
  }
}
