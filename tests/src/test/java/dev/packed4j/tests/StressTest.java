package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 14's concurrency run: 16 threads x 1,000,000 calls over a mix of functions, a shared object and a shared
 * list, while another thread registers and replaces globals and loads a plugin. No crash, no wrong result, and the
 * shared object's reference count and the live object count are back at their baselines afterwards. Under the same
 * load each thread's own Java callback is called from native threads that C++ starts (every result checked in C++,
 * and the callback's reference count back where it was when they end).
 */
class StressTest {
  private static final int THREADS = 16;
  private static final long CALLS_PER_THREAD = StressSizes.of(1_000_000);
  private static final int SHARED_SIZE = 1_000;
  private static final long SHARED_SUM = SHARED_SIZE * (SHARED_SIZE - 1L) / 2;
  /** One call in this many is a callback from native threads: each starts native threads, the costly part. */
  private static final int NATIVE_THREADS_EVERY = 1_000;
  private static final int NATIVE_THREADS = 3;
  private static final int CALLS_PER_NATIVE_THREAD = 4;

  private static Values values;
  private static ObjectFunctions objects;
  private static Containers containers;
  private static Callbacks callbacks;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    values = Packed4j.bind(Values.class);
    objects = Packed4j.bind(ObjectFunctions.class);
    containers = Packed4j.bind(Containers.class);
    callbacks = Packed4j.bind(Callbacks.class);
  }

  @Test
  void sixteenThreadsCallWhileAnotherChangesTheRegistryAndLoadsAPlugin() throws Exception {
    PackedFunction register = Registry.global("test.RegisterConstant");
    register.invoke("test.stress.Constant", 0L, false);
    long baseline = TestLibrary.settledLiveObjectCount();
    long registeredFunctions;
    try (Node shared = objects.makeNode(3, 7, 0, 0.5, true, "shared");
        NativeList<Long> sharedList = containers.share(LongStream.range(0, SHARED_SIZE).boxed().toList())) {
      long sharedReferences = containers.useCount(shared);
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicBoolean lateLoaded = new AtomicBoolean();
      CountDownLatch started = new CountDownLatch(THREADS);
      AtomicLong registrations = new AtomicLong();
      try (ExecutorService workers = Executors.newFixedThreadPool(THREADS + 1)) {
        Future<?> changer = workers.submit(() -> {
          started.await();
          Path late = Path.of(System.getProperty("packed4j.test.latePlugin"));
          for (long round = 1; running.get(); round++) {
            register.invoke("test.stress.Constant", round, true); // replace: callers see old or new, both valid
            register.invoke("test.stress.Added" + round, round, false); // a new name
            registrations.addAndGet(2);
            try {
              register.invoke("test.stress.Added" + round, round, false);
              throw new AssertionError("a second registration of a name was accepted");
            } catch (Packed4jException expected) {
              // refused: the name is taken and replace was not asked for
            }
            if (round == 20) {
              Packed4j.loadLibrary(late);
              lateLoaded.set(true);
            }
            Thread.sleep(1);
          }
          return null;
        });
        List<Future<Long>> results = new ArrayList<>();
        for (int thread = 0; thread < THREADS; thread++) {
          int seed = thread;
          results.add(workers.submit(() -> {
            started.countDown();
            return work(seed, shared, sharedList, lateLoaded);
          }));
        }
        try {
          for (int thread = 0; thread < THREADS; thread++) {
            assertEquals(CALLS_PER_THREAD, results.get(thread).get(), "thread " + thread);
          }
        } finally {
          running.set(false);
        }
        changer.get();
      }
      assertTrue(lateLoaded.get(), "the plugin was loaded during the run");
      try (PackedFunction answer = Registry.global("test.late.Answer")) {
        assertEquals(43L, answer.invoke(1L));
      }
      assertEquals(sharedReferences, containers.useCount(shared), "the shared object's references");
      assertEquals(SHARED_SUM, containers.sum(sharedList));
      // Each registration made one function object that stays (a replaced one too: callers may hold it); the
      // late plugin registered two functions and one object type, whose creation hook (a function object that
      // LoadJSON and DeepCopy make its objects with) the core keeps too.
      registeredFunctions = registrations.get() + 3;
    }
    register.close();
    assertEquals(baseline + registeredFunctions, TestLibrary.settledLiveObjectCount(), "live native objects");
  }

  /** {@code CALLS_PER_THREAD} calls, each checked; returns how many were made. */
  private static long work(int seed, Node shared, NativeList<Long> sharedList, AtomicBoolean lateLoaded) {
    // What test.stress.CallbackOnThreads expects back from each call on its native threads.
    try (PackedFunction callback = PackedFunction.of(args -> (Long) args[0] * 1_000_000 + (Long) args[1]
        + ((String) args[2]).getBytes(StandardCharsets.UTF_8).length)) {
      return work(seed, shared, sharedList, lateLoaded, callback);
    }
  }

  private static long work(int seed, Node shared, NativeList<Long> sharedList, AtomicBoolean lateLoaded,
      PackedFunction callback) {
    long calls = 0;
    for (long i = 0; calls < CALLS_PER_THREAD; i++) {
      int index = (int) (i % SHARED_SIZE);
      switch ((int) (i % 10)) {
        case 0 -> check(values.addInt32(seed, i) == seed + i, seed, i, "addInt32");
        case 1 -> {
          String text = "s\u00e9" + seed + ":" + i;
          check(values.echoString(text).equals(text), seed, i, "echoString");
        }
        case 2 -> {
          try (Node node = objects.makeNode(seed, i, 0, 0.25, false, "n")) {
            check(node.big() == i && node.small() == seed, seed, i, "makeNode");
          }
        }
        case 3 -> check(containers.sum(List.of((long) seed, i)) == seed + i, seed, i, "sum");
        case 4 -> check(shared.big() == 7 && shared.small() == 3 && shared.name().equals("shared"), seed, i,
            "shared object fields");
        case 5 -> check(objects.nameOf(shared).equals("shared"), seed, i, "shared object argument");
        case 6 -> check(sharedList.get(index) == index, seed, i, "shared list element");
        case 7 -> check(i % 100 != 7 || containers.sum(sharedList) == SHARED_SUM, seed, i, "shared list sum");
        case 8 -> {
          try (PackedFunction constant = Registry.global("test.stress.Constant")) {
            check((Long) constant.invoke() >= 0, seed, i, "replaced global");
          }
        }
        default -> {
          if (i % NATIVE_THREADS_EVERY == NATIVE_THREADS_EVERY - 1) {
            check(callbacks.callbackOnThreads(callback, NATIVE_THREADS, CALLS_PER_NATIVE_THREAD, "t\u00e9" + seed)
                == NATIVE_THREADS * CALLS_PER_NATIVE_THREAD, seed, i, "callback from native threads");
          } else if (lateLoaded.get() && i % 3 == 0) {
            try (PackedFunction make = Registry.global("test.late.Make");
                NativeObject thing = (NativeObject) make.invoke(i)) {
              check(Long.valueOf(i).equals(thing.get("serial")), seed, i, "late plugin object");
            }
          } else {
            try {
              values.raise("ValueError", "thread " + seed);
              check(false, seed, i, "no error raised");
            } catch (Packed4jException e) {
              check(e.nativeMessage().equals("thread " + seed), seed, i, "error of another thread");
            }
          }
        }
      }
      calls++;
    }
    return calls;
  }

  private static void check(boolean condition, int seed, long i, String what) {
    if (!condition) {
      throw new AssertionError(what + " wrong on thread " + seed + " at call " + i);
    }
  }
}
