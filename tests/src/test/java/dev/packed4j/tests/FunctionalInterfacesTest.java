package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.NativeClosure;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import dev.packed4j.runtime.binding.Codecs;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Functional interfaces as @Global parameters and results, through the adapters the processor generates. */
class FunctionalInterfacesTest {

  private static Callbacks callbacks;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    callbacks = Packed4j.bind(Callbacks.class);
  }

  @Test
  void typedCallbackIsCalledThroughItsTypedEntry() {
    assertEquals(4950L, callbacks.sumTyped((a, b) -> a + b, 100));
    assertEquals("(int64, int64) -> int64 typed", callbacks.describe((LongBinaryOperator) (a, b) -> a));
    assertEquals("(float64, int32) -> float64 typed", callbacks.describe((Callbacks.Scale) (v, t) -> v));
    assertEquals("(string) -> void typed", callbacks.describe((java.util.function.Consumer<String>) s -> { }));
    assertEquals("(int32, int32) -> int32 packed", callbacks.describe((IntBinaryOperator) (a, b) -> a));
    assertEquals("(string) -> string packed", callbacks.describe((Function<String, String>) s -> s));
  }

  @Test
  void usersOwnInterfaceWithFloatsAndNarrowing() {
    assertEquals(1.5 * 2 * 3, callbacks.scaleTwice((value, times) -> value * times, 1.5));
  }

  @Test
  void consumerAndFunctionOverLists() {
    List<String> seen = new ArrayList<>();
    callbacks.forEach(seen::add, List.of("a", "b\u00e9", ""));
    assertEquals(List.of("a", "b\u00e9", ""), seen);
    assertEquals(List.of("A!", "B!"), callbacks.mapStrings(s -> s.toUpperCase() + "!", List.of("a", "b")));
  }

  @Test
  void consumerOfAnObjectTypeGetsTheGeneratedView() {
    ObjectFunctions objects = Packed4j.bind(ObjectFunctions.class);
    List<String> names = new ArrayList<>();
    try (Node first = objects.makeNode(1, 2, 3, 0.5, true, "first");
        Node second = objects.makeNode(4, 5, 6, 0.25, false, "second")) {
      assertEquals("(test.Node) -> void packed", callbacks.describeNodeConsumer(n -> { }));
      callbacks.forEachNode(node -> {
        try (node) {
          names.add(node.name() + ":" + node.big());
        }
      }, List.of(first, second));
    }
    assertEquals(List.of("first:2", "second:5"), names);
  }

  @Test
  void exceptionInATypedCallbackComesBackAsTheSameObject() {
    IllegalStateException thrown = new IllegalStateException("typed failure");
    IllegalStateException caught = assertThrows(IllegalStateException.class, () -> callbacks.sumTyped((a, b) -> {
      if (b == 50) {
        throw thrown;
      }
      return a + b;
    }, 100));
    assertSame(thrown, caught);
  }

  @Test
  void functionalInterfaceEchoedBackIsTheSameObject() {
    LongBinaryOperator operator = (a, b) -> a * b;
    assertSame(operator, callbacks.echo(operator));
  }

  @Test
  void closureOutAsAFunctionalInterfaceIsReleasedWhenCollected() throws InterruptedException {
    long before = callbacks.liveObjects();
    LongUnaryOperator counter = callbacks.makeCounterOperator(100);
    assertEquals(101L, counter.applyAsLong(1));
    assertEquals(111L, counter.applyAsLong(10));
    assertTrue(callbacks.liveObjects() > before);
    counter = null;
    // The implementation holds the native closure; once it is collected, the Cleaner releases the closure.
    for (int i = 0; i < 200 && callbacks.liveObjects() > before; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertTrue(callbacks.liveObjects() <= before, callbacks.liveObjects() + " live objects, " + before + " before");
  }

  @Test
  void closureOutAsAFunctionalInterfaceIsClosedExplicitly() {
    long before = callbacks.liveObjects();
    LongUnaryOperator counter = callbacks.makeCounterOperator(100);
    assertEquals(101L, counter.applyAsLong(1));
    NativeClosure closure = assertInstanceOf(NativeClosure.class, counter);
    assertEquals("(int64) -> int64", closure.packedFunction().signature());
    closure.close();
    assertTrue(callbacks.liveObjects() <= before, callbacks.liveObjects() + " live objects, " + before + " before");
    IllegalStateException closed = assertThrows(IllegalStateException.class, () -> counter.applyAsLong(1));
    assertEquals("the LongUnaryOperator closure (int64) -> int64 is closed; it cannot be used after close()",
        closed.getMessage(), "names what it is, not just a Function object");
    IllegalStateException passedClosed =
        assertThrows(IllegalStateException.class, () -> callbacks.applyUnary(counter, 1L));
    assertTrue(passedClosed.getMessage().contains("closed"), passedClosed.getMessage());
    closure.close(); // a second close does nothing
  }

  @Test
  void closureOutPassedBackIsItsNativeFunction() {
    LongUnaryOperator counter = callbacks.makeCounterOperator(0);
    NativeClosure closure = (NativeClosure) counter;
    // Not a Java function calling the closure: the same native object, with the C++ closure's state.
    assertTrue(callbacks.sameFunction(counter, closure.packedFunction()));
    assertEquals(5L, callbacks.applyUnary(counter, 5L));
    assertEquals(7L, counter.applyAsLong(2));
    // Dynamic calls convert it the same way.
    try (PackedFunction apply = Registry.global("test.cb.Apply")) {
      assertEquals(10L, apply.invoke(counter, 3L));
      closure.close();
      IllegalStateException closed = assertThrows(IllegalStateException.class, () -> apply.invoke(counter, 1L));
      assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }
  }

  @Test
  void closingAClosureOutNeverClosesTheCallersFunction() {
    try (PackedFunction plusOne = PackedFunction.of(args -> (Long) args[0] + 1)) {
      // Each view owns a reference of its own to the Java function that came back.
      LongUnaryOperator first = callbacks.echoAsOperator(plusOne);
      LongUnaryOperator second = callbacks.echoAsOperator(plusOne);
      assertEquals(2L, first.applyAsLong(1));
      ((NativeClosure) first).close();
      assertFalse(plusOne.isClosed());
      assertEquals(3L, second.applyAsLong(2));
      assertEquals(4L, plusOne.invoke(3L));
      ((NativeClosure) second).close();
      assertFalse(plusOne.isClosed());
    }
  }

  @Test
  void aJavaImplementationIsNotANativeClosure() {
    LongUnaryOperator javaSide = x -> x + 1;
    assertFalse(javaSide instanceof NativeClosure);
    NativeClosure impostor = new NativeClosure() {};
    IllegalStateException error = assertThrows(IllegalStateException.class, impostor::packedFunction);
    assertTrue(error.getMessage().contains("was not returned by a packed4j binding"), error.getMessage());
  }

  @Test
  void packedCallOfATypedCallbackChecksArityAndTypes() {
    Packed4jException error = assertThrows(Packed4jException.class,
        () -> callbacks.applyOperator((a, b) -> a + b, 1L));
    assertEquals("TypeError", error.kind());
    assertTrue(error.getMessage().contains("the IntBinaryOperator callback (int32, int32) -> int32 takes 2 arguments,"
        + " 1 was passed"), error.getMessage());
    // Trial userW: the error named only the signature ("a Java callback of signature (int64) -> int64").
    Packed4jException wrongType = assertThrows(Packed4jException.class,
        () -> callbacks.applyUnary(x -> x + 1, "seven"));
    assertEquals("TypeError", wrongType.kind());
    assertTrue(wrongType.getMessage().contains("argument 0 of the LongUnaryOperator callback (int64) -> int64"),
        wrongType.getMessage());
  }

  @Test
  void javaGlobalWithATypedEntryCalledByNameFromCpp() {
    // What a generated registrar does for a static (long, long) -> long method.
    // The runtime's adapters; Callbacks in this package is the test's @Global interface.
    var codec = dev.packed4j.runtime.binding.Callbacks.<LongBinaryOperator>typed(LongBinaryOperator.class,
        "(int64, int64) -> int64",
        f -> (dev.packed4j.runtime.binding.CallbackBodies.Wire2) (a0, a1) -> f.applyAsLong(a0, a1),
        function -> (a0, a1) -> dev.packed4j.runtime.binding.Callbacks.call(function, Codecs.LONG, a0, a1));
    try (PackedFunction multiply =
        dev.packed4j.runtime.binding.Callbacks.function(codec, (LongBinaryOperator) (a, b) -> a * b)) {
      Registry.register("test.java.Multiply", multiply, true);
      assertEquals("(int64, int64) -> int64", multiply.signature());
    }
    assertEquals(42L, callbacks.callGlobalTyped("test.java.Multiply", 6, 7));
    assertEquals(42L, callbacks.callGlobal("test.java.Multiply", 6, 7));
  }
}
