package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Functions as values: Java callbacks into C++, closures out of C++, Java functions in the global registry. */
class CallbacksTest {
  private static Callbacks callbacks;
  private static Values values;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    callbacks = Packed4j.bind(Callbacks.class);
    values = Packed4j.bind(Values.class);
  }

  @Test
  void cppAppliesAJavaFunctionOverAList() {
    try (PackedFunction square = PackedFunction.of(args -> (Long) args[0] * (Long) args[0])) {
      assertEquals(List.of(1L, 4L, 9L), callbacks.mapList(square, List.of(1L, 2L, 3L)));
    }
  }

  @Test
  void javaFunctionEchoedBackIsTheSameObject() {
    try (PackedFunction function = PackedFunction.of(args -> 1L);
        PackedFunction identity = PackedFunction.of(args -> args[0])) {
      assertSame(function, values.echoAny(function));
      assertSame(function, callbacks.apply(identity, function));
    }
  }

  /**
   * The one ownership rule for a function that comes back: it is the object that went out, with one owner, so
   * closing the result closes the original (and a second close, by try-with-resources, is harmless).
   */
  @Test
  void javaFunctionEchoedBackHasOneOwner() {
    try (PackedFunction function = PackedFunction.of(args -> 7L)) {
      PackedFunction back = (PackedFunction) values.echoAny(function);
      assertSame(function, back);
      back.close();
      IllegalStateException closed = assertThrows(IllegalStateException.class, () -> function.invoke());
      assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }
  }

  @Test
  void cppCatchesAJavaExceptionAsAnError() {
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw new IllegalStateException("no way");
    })) {
      assertEquals("RuntimeError|java.lang.IllegalStateException: no way|java frames", callbacks.catchError(failing));
    }
    try (PackedFunction relaying = PackedFunction.of(args -> {
      values.raise("KeyError", "missing key");
      return null;
    })) {
      // A native error that went through Java keeps its kind and message.
      assertEquals("KeyError|missing key|java frames", callbacks.catchError(relaying));
    }
    try (PackedFunction raising = PackedFunction.of(args -> {
      throw new Packed4jException("KeyError", "no entry named x");
    })) {
      // One Java code makes: the kind it names, as C++ raises its own.
      assertEquals("KeyError|no entry named x|java frames", callbacks.catchError(raising));
    }
    assertThrows(IllegalArgumentException.class, () -> new Packed4jException("Key Error", "a space"));
  }

  @Test
  void javaExceptionThroughCppComesBackAsTheSameObject() {
    IllegalArgumentException thrown = new IllegalArgumentException("bad argument");
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw thrown;
    })) {
      IllegalArgumentException caught = assertThrows(IllegalArgumentException.class,
          () -> callbacks.apply(failing, 1L));
      assertSame(thrown, caught);
      Packed4jException crossed = assertInstanceOf(Packed4jException.class, caught.getSuppressed()[0]);
      assertEquals("test.cb.Apply", crossed.functionName());
      assertTrue(crossed.nativeBacktrace().contains("java: at "), crossed.nativeBacktrace());
    }
  }

  @Test
  void anExceptionWhoseToStringThrowsComesBackAsTheSameObject() {
    // Trial userW: it was "could not be converted (out of memory or stack)", the exception itself lost.
    RuntimeException thrown = new IllegalStateException("unprintable") {
      @Override
      public String toString() {
        throw new UnsupportedOperationException("no text for you");
      }
    };
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw thrown;
    })) {
      RuntimeException caught = assertThrows(RuntimeException.class, () -> callbacks.apply(failing, 1L));
      assertSame(thrown, caught);
      Packed4jException crossed = assertInstanceOf(Packed4jException.class, caught.getSuppressed()[0]);
      assertTrue(crossed.nativeMessage().startsWith(thrown.getClass().getName() + " (its toString() threw"
          + " java.lang.UnsupportedOperationException)"), crossed.nativeMessage());
    }
  }

  @Test
  void nestingKeepsTheInnermostErrorAndTheOrderItCrossed() {
    Packed4jException[] innermost = new Packed4jException[1];
    PackedFunction inner = PackedFunction.of(args -> {
      try {
        values.raise("IndexError", "innermost");
        return null;
      } catch (Packed4jException e) {
        innermost[0] = e;
        throw e;
      }
    });
    PackedFunction middle = PackedFunction.of(args -> callbacks.apply(inner, args[0]));
    Packed4jException caught = assertThrows(Packed4jException.class, () -> callbacks.apply(middle, 1L));
    assertSame(innermost[0], caught);
    assertEquals("IndexError", caught.kind());
    assertEquals("innermost", caught.nativeMessage());
    // Crossed outward: the inner test.cb.Apply first, then the outer one.
    List<Packed4jException> crossed = new ArrayList<>();
    for (Throwable suppressed : caught.getSuppressed()) {
      if (suppressed instanceof Packed4jException packed) {
        crossed.add(packed);
      }
    }
    assertEquals(2, crossed.size());
    assertEquals("test.cb.Apply", crossed.get(0).functionName());
    assertEquals("test.cb.Apply", crossed.get(1).functionName());
    inner.close();
    middle.close();
  }

  @Test
  void tenThousandFailuresInARowLeaveTheJvmHealthy() {
    long objects = callbacks.liveObjects();
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw new IllegalStateException("failure " + args[0]);
    })) {
      assertEquals(10_000L, callbacks.countErrors(failing, 10_000));
    }
    try (PackedFunction fine = PackedFunction.of(args -> (Long) args[0] + 1)) {
      assertEquals(8L, callbacks.apply(fine, 7L));
    }
    assertNoMoreLiveObjectsThan(objects);
  }

  @Test
  void stackOverflowInACallbackIsAnException() {
    try (PackedFunction deep = PackedFunction.of(args -> recurse(0))) {
      assertThrows(StackOverflowError.class, () -> callbacks.apply(deep, 1L));
      assertTrue(callbacks.catchError(deep).startsWith("RuntimeError|java.lang.StackOverflowError"));
    }
    try (PackedFunction fine = PackedFunction.of(args -> "still here")) {
      assertEquals("still here", callbacks.apply(fine, null));
    }
  }

  /**
   * No native object made by the test is left: the count is back at (or, as other tests' objects left to the
   * Cleaner go meanwhile, below) the count before.
   */
  private static void assertNoMoreLiveObjectsThan(long before) {
    long now = callbacks.liveObjects();
    assertTrue(now <= before, now + " live native objects, " + before + " before");
  }

  private static long recurse(long depth) {
    return recurse(depth + 1) + 1;
  }

  @Test
  void callbackCalledFromEightNativeThreadsWhileTheCallerWaits() {
    // Each call also calls native code again, on the native thread's own argument stack.
    try (PackedFunction function = PackedFunction.of(args -> {
      long thread = (Long) args[0];
      long call = (Long) args[1];
      return values.echoLong(thread * 100_000 + call);
    })) {
      long threads = 8;
      long calls = 2_000;
      long expected = 0;
      for (long t = 0; t < threads; t++) {
        for (long i = 0; i < calls; i++) {
          expected += t * 100_000 + i;
        }
      }
      assertEquals(expected, callbacks.sumOnThreads(function, threads, calls));
    }
  }

  @Test
  void aMillionCallbacksCreatedAndDroppedLeaveTheLiveCountAtItsBaseline() {
    long objects = callbacks.liveObjects();
    for (int i = 0; i < 1_000_000; i++) {
      int captured = i;
      PackedFunction.of(args -> captured).close();
    }
    assertNoMoreLiveObjectsThan(objects); // a leak here would be a million
  }

  @Test
  void callbackHeldByCppOutlivesItsJavaReferenceAndIsReleasedOnANativeThread() throws Exception {
    long objects = callbacks.liveObjects();
    Object body = holdNewCallback();
    WeakReference<Object> bodyReference = new WeakReference<>(body);
    body = null;
    collectGarbage();
    // Native code holds the function: its Java body is reachable, and still runs.
    assertNotNull(bodyReference.get());
    assertEquals("held 5", callbacks.callHeld(5L));
    // The last reference goes on a thread C++ creates; then the body can be collected.
    callbacks.dropHeldOnNewThread();
    assertNoMoreLiveObjectsThan(objects);
    for (int i = 0; i < 50 && bodyReference.get() != null; i++) {
      collectGarbage();
    }
    assertNull(bodyReference.get());
  }

  /** Hands C++ a new callback and drops every Java reference to it; returns its body. */
  private static Object holdNewCallback() {
    String prefix = new String("held "); // captured: a lambda capturing nothing is a constant, never collected
    PackedFunction.Body body = args -> prefix + args[0];
    PackedFunction function = PackedFunction.of(body);
    callbacks.hold(function);
    function.close();
    return body;
  }

  private static void collectGarbage() throws InterruptedException {
    System.gc();
    Thread.sleep(20);
  }

  @Test
  void cppCallsAJavaGlobalByName() {
    String name = "test.java.Add";
    try (PackedFunction add = PackedFunction.of(args -> (Long) args[0] + (Long) args[1]);
        PackedFunction other = PackedFunction.of(args -> 0L)) {
      Registry.register(name, add, true);
      assertTrue(Registry.list().contains(name));
      assertEquals(5L, callbacks.callGlobal(name, 2, 3));
      Packed4jException taken = assertThrows(Packed4jException.class, () -> Registry.register(name, other));
      assertEquals("ValueError", taken.kind());
      assertTrue(taken.getMessage().contains("'test.java.Add' is already registered"), taken.getMessage());
    }
    assertEquals(5L, callbacks.callGlobal(name, 2, 3));
  }

  @Test
  void javaGlobalOverriddenWhileOtherThreadsCallIt() throws Exception {
    String name = "test.java.Versioned";
    try (PackedFunction first = PackedFunction.of(args -> (Long) args[0])) {
      Registry.register(name, first, true);
    }
    AtomicBoolean done = new AtomicBoolean();
    try (ExecutorService callers = Executors.newFixedThreadPool(4)) {
      List<Future<Integer>> checked = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        checked.add(callers.submit(() -> {
          int calls = 0;
          while (!done.get() || calls == 0) {
            List<Long> results = callbacks.callGlobalRepeatedly(name, 50);
            for (int i = 0; i < results.size(); i++) {
              // Version v returns v * 1000 + i: any version, but always the argument it was given.
              assertEquals(i, results.get(i) % 1000, "result " + i + " of a call");
            }
            calls++;
          }
          return calls;
        }));
      }
      for (long version = 1; version <= 200; version++) {
        long v = version;
        try (PackedFunction next = PackedFunction.of(args -> v * 1000 + (Long) args[0])) {
          Registry.register(name, next, true);
        }
      }
      done.set(true);
      for (Future<Integer> future : checked) {
        assertTrue(future.get() > 0);
      }
    }
    assertEquals(200_007L, callbacks.callGlobalRepeatedly(name, 8).get(7));
  }

  @Test
  void closureOutKeepsItsStateAfterTheFactoryIsGone() throws Exception {
    long objects = callbacks.liveObjects();
    PackedFunction counter = callbacks.makeCounter(10);
    assertEquals("(int64) -> int64", counter.signature());
    collectGarbage();
    assertEquals(11L, counter.invoke(1));
    assertEquals(16L, counter.invoke(5));
    counter.close();
    assertNoMoreLiveObjectsThan(objects);
  }

  @Test
  void closureOverJavaCallbacks() {
    try (PackedFunction plusOne = PackedFunction.of(args -> (Long) args[0] + 1);
        PackedFunction twice = PackedFunction.of(args -> (Long) args[0] * 2);
        PackedFunction composed = callbacks.compose(twice, plusOne)) {
      assertEquals(8L, composed.invoke(3));
    }
  }

  @Test
  void aCallbackReturningNullForAStringNamesTheCallbackAndTheFunction() {
    NullPointerException thrown = assertThrows(NullPointerException.class,
        () -> callbacks.mapStrings(s -> null, List.of("a")));
    assertEquals("the Function callback (string) -> string returned null for its String result, which cannot be null",
        thrown.getMessage());
    Packed4jException crossed = assertInstanceOf(Packed4jException.class, thrown.getSuppressed()[0]);
    assertEquals("test.cb.MapStrings", crossed.functionName());
    assertEquals(List.of("A!"), callbacks.mapStrings(s -> s.toUpperCase() + "!", List.of("a")));
  }

  @Test
  void aCallbackReturningAClosedObjectSaysSo() {
    NDArray closed = NDArray.allocate(DType.FLOAT32, 2);
    closed.close();
    try (PackedFunction returnsClosed = PackedFunction.of(args -> closed)) {
      IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> callbacks.apply(returnsClosed,
          1L));
      assertTrue(thrown.getMessage().startsWith("a Java function returned a value that cannot be used: the NDArray"
          + " object is closed"), thrown.getMessage());
    }
  }
}
