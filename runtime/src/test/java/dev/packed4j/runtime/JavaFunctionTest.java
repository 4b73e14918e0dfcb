package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallbackBodies;
import dev.packed4j.runtime.binding.Callbacks;
import dev.packed4j.runtime.internal.errors.PendingThrowables;
import dev.packed4j.runtime.internal.upcall.JavaFunctions;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** PackedFunction.of: a Java body behind a native function object, called through its packed safe_call. */
class JavaFunctionTest {
  private static PackedFunction echo;
  private static PackedFunction fail;

  @BeforeAll
  static void functions() {
    TestPlugin.load();
    echo = Registry.global("test.Echo");
    fail = Registry.global("test.Fail");
  }

  @AfterAll
  static void close() {
    echo.close();
    fail.close();
  }

  @Test
  void bodyRunsWithConvertedArgumentsAndResult() {
    try (PackedFunction add = PackedFunction.of(args -> (Long) args[0] + (Long) args[1])) {
      assertEquals(5L, add.invoke(2, 3));
      assertEquals("", add.signature());
    }
    try (PackedFunction describe = PackedFunction.of(args -> args[0] + "/" + args[1] + "/" + args[2])) {
      assertEquals("x/1.5/true", describe.invoke("x", 1.5, true));
    }
    try (PackedFunction bytes = PackedFunction.of(args -> new byte[] {1, 2, 3})) {
      assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) bytes.invoke());
    }
    try (PackedFunction list = PackedFunction.of(args -> List.of(1L, "two"));
        NativeList<?> result = (NativeList<?>) list.invoke()) {
      assertEquals(List.of(1L, "two"), List.copyOf(result));
    }
  }

  @Test
  void resultWithoutNativeFormIsATypeErrorNamingIt() {
    try (PackedFunction bad = PackedFunction.of(args -> new Object())) {
      Packed4jException error = assertThrows(Packed4jException.class, bad::invoke);
      assertEquals("TypeError", error.kind());
      assertTrue(error.getMessage().contains("a Java function returned a java.lang.Object"), error.getMessage());
    }
  }

  @Test
  void echoedFunctionIsTheSameObject() {
    try (PackedFunction twice = PackedFunction.of(args -> 2 * (Long) args[0])) {
      Object back = echo.invoke(twice);
      assertSame(twice, back);
      assertEquals(42L, ((PackedFunction) back).invoke(21));
    }
  }

  @Test
  void exceptionComesBackAsTheSameObjectWithTheNativeErrorSuppressed() {
    IllegalStateException thrown = new IllegalStateException("boom");
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw thrown;
    })) {
      IllegalStateException caught = assertThrows(IllegalStateException.class, failing::invoke);
      assertSame(thrown, caught);
      Packed4jException crossed = assertInstanceOf(Packed4jException.class, caught.getSuppressed()[0]);
      assertEquals("RuntimeError", crossed.kind());
      assertTrue(crossed.nativeMessage().contains("java.lang.IllegalStateException: boom"), crossed.getMessage());
      assertTrue(crossed.nativeBacktrace().contains("java: at "), crossed.nativeBacktrace());
    }
  }

  @Test
  void checkedExceptionComesBackUnwrapped() {
    IOException thrown = new IOException("disk gone");
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw thrown;
    })) {
      Throwable caught = assertThrows(Throwable.class, failing::invoke);
      assertSame(thrown, caught);
    }
  }

  @Test
  void nativeErrorThroughAJavaBodyKeepsItsKindAndIdentity() {
    Packed4jException[] seen = new Packed4jException[1];
    try (PackedFunction relay = PackedFunction.of(args -> {
      try {
        return fail.invoke("KeyError", "inner failure");
      } catch (Packed4jException e) {
        seen[0] = e;
        throw e;
      }
    })) {
      Packed4jException inner = assertThrows(Packed4jException.class, relay::invoke);
      assertSame(seen[0], inner);
      assertEquals("KeyError", inner.kind());
      assertEquals("inner failure", inner.nativeMessage());
    }
  }

  @Test
  void reentrantCallsStackOnTheSameThreadStack() {
    ThreadStack stack = ThreadStack.current();
    int depthBefore = stack.depth();
    AtomicInteger deepest = new AtomicInteger();
    try (PackedFunction inner = PackedFunction.of(args -> {
      deepest.set(ThreadStack.current().depth());
      return echo.invoke("inner " + args[0]);
    });
        PackedFunction outer = PackedFunction.of(args -> inner.invoke(echo.invoke(args[0])))) {
      assertEquals("inner x", outer.invoke("x"));
    }
    // outer's call frame, then inner's, each a frame above the one that called it.
    assertTrue(deepest.get() >= depthBefore + 2, "depth " + deepest.get());
    assertEquals(depthBefore, stack.depth());
  }

  @Test
  void functionLivesWhileNativeCodeHoldsItAndIsReleasedOnce() {
    int before = JavaFunctions.liveCount();
    PackedFunction function = PackedFunction.of(args -> "kept");
    String name = "java_function_test.Kept";
    Registry.register(name, function, true);
    function.close();
    // The registry's reference keeps the body: the Java object is gone, the function is not.
    assertEquals(before + 1, JavaFunctions.liveCount());
    try (PackedFunction found = Registry.global(name)) {
      assertEquals("kept", found.invoke());
    }
    try (PackedFunction temporary = PackedFunction.of(args -> null)) {
      assertEquals(before + 2, JavaFunctions.liveCount());
      assertEquals(null, temporary.invoke());
    }
    assertEquals(before + 1, JavaFunctions.liveCount());
  }

  @Test
  void registerRefusesATakenNameUnlessOverriding() {
    String name = "java_function_test.Registered";
    try (PackedFunction first = PackedFunction.of(args -> 1L);
        PackedFunction second = PackedFunction.of(args -> 2L)) {
      Registry.register(name, first);
      assertTrue(Registry.list().contains(name));
      Packed4jException taken = assertThrows(Packed4jException.class, () -> Registry.register(name, second));
      assertEquals("ValueError", taken.kind());
      assertTrue(taken.getMessage().contains("'" + name + "' is already registered"), taken.getMessage());
      try (PackedFunction found = Registry.global(name)) {
        assertEquals(1L, found.invoke());
      }
      Registry.register(name, second, true);
      try (PackedFunction found = Registry.global(name)) {
        assertEquals(2L, found.invoke());
      }
    }
    assertThrows(IllegalArgumentException.class, () -> Registry.register("", echo));
    PackedFunction closed = PackedFunction.of(args -> null);
    closed.close();
    assertThrows(IllegalStateException.class, () -> Registry.register("java_function_test.Closed", closed));
  }

  @Test
  void stackOverflowInTheBodyIsAnExceptionNotACrash() {
    try (PackedFunction deep = PackedFunction.of(args -> recurse(0))) {
      assertThrows(StackOverflowError.class, deep::invoke);
    }
    try (PackedFunction add = PackedFunction.of(args -> (Long) args[0] + 1)) {
      assertEquals(2L, add.invoke(1)); // the thread works on
    }
  }

  @Test
  void anErrorThrownByTheBodyComesBackAsTheSameObject() {
    OutOfMemoryError thrown = new OutOfMemoryError("simulated: no heap left for the callback");
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw thrown;
    })) {
      assertSame(thrown, assertThrows(OutOfMemoryError.class, failing::invoke));
    }
  }

  private static long recurse(long depth) {
    return recurse(depth + 1) + 1;
  }

  @Test
  void typedJavaFunctionCalledFromCppAllocatesNothingPerCall() {
    long calls = 100_000;
    try (PackedFunction add =
            Callbacks.typedFunction("(int64, int64) -> int64", (CallbackBodies.Wire2) (a, b) -> a + b);
        PackedFunction loop = Registry.global("test.CallTypedLoop")) {
      assertEquals("(int64, int64) -> int64", add.signature());
      assertEquals(calls * (calls - 1) / 2, loop.invoke(add, calls));
      // One packed call of the loop per round (a few boxes), then 100,000 upcalls through the typed entry.
      List<Long> rounds = SteadyStateAllocation.measure(() -> loop.invoke(add, calls), 4096, 60);
      assertTrue(rounds.get(rounds.size() - 1) < 4096, "bytes per round of 100,000 callbacks: " + rounds);
    }
  }

  @Test
  void manyFailuresKeepBoundedMemory() {
    long objectsBefore = Packed4j.liveObjectCount();
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw new IllegalArgumentException("again");
    })) {
      for (int i = 0; i < 1_000; i++) {
        assertThrows(IllegalArgumentException.class, failing::invoke);
      }
    }
    assertTrue(PendingThrowables.pendingCount() <= 256);
    assertEquals(objectsBefore, Packed4j.liveObjectCount());
  }
}
