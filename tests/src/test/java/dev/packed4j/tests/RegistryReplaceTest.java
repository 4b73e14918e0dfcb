package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import dev.packed4j.runtime.binding.CallbackBodies;
import dev.packed4j.runtime.binding.Callbacks;
import dev.packed4j.runtime.binding.Codecs;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongBinaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code Registry.register(name, f, true)} replaces a global for the methods already bound to it: the next call of
 * a generated method, whatever its route, calls the new function (issue 21, item 5).
 */
class RegistryReplaceTest {

  private static Replaceable replaceable;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    replaceable = Packed4j.bind(Replaceable.class);
  }

  /** A function with a typed entry, as a generated registrar makes for a static (long, long) -> long method. */
  private static PackedFunction typed(LongBinaryOperator operator) {
    var codec = Callbacks.<LongBinaryOperator>typed(LongBinaryOperator.class, "(int64, int64) -> int64",
        f -> (CallbackBodies.Wire2) (a0, a1) -> f.applyAsLong(a0, a1),
        function -> (a0, a1) -> Callbacks.call(function, Codecs.LONG, a0, a1));
    return Callbacks.function(codec, operator);
  }

  @Test
  void aReplacedTypedGlobalIsCalledByTheMethodsLinkedToTheOldOne() {
    try (PackedFunction add = typed((a, b) -> a + b)) {
      Registry.register("test.replace.Combine", add, true);
    }
    assertEquals(5L, replaceable.combine(2, 3));
    try (PackedFunction multiply = typed((a, b) -> a * b)) {
      Registry.register("test.replace.Combine", multiply, true);
    }
    assertEquals(6L, replaceable.combine(2, 3), "the linked direct route follows the replacement");
    // A packed function (no typed entry) replaces a typed one: the route changes kind too.
    try (PackedFunction subtract = PackedFunction.of(args -> (Long) args[0] - (Long) args[1])) {
      Registry.register("test.replace.Combine", subtract, true);
    }
    assertEquals(-1L, replaceable.combine(2, 3));
  }

  @Test
  void aReplacedGlobalIsCalledOnTheCallFrameToo() {
    try (PackedFunction first = PackedFunction.of(args -> "first " + args[0]);
        PackedFunction count = PackedFunction.of(args -> (long) ((List<?>) args[0]).size())) {
      Registry.register("test.replace.Name", first, true);
      Registry.register("test.replace.Count", count, true);
    }
    assertEquals("first 1", replaceable.name(1));
    assertEquals(3L, replaceable.count(List.of(1L, 2L, 3L)));
    try (PackedFunction second = PackedFunction.of(args -> "second " + args[0]);
        PackedFunction sum = PackedFunction.of(
            args -> ((List<?>) args[0]).stream().mapToLong(v -> (Long) v).sum())) {
      Registry.register("test.replace.Name", second, true);
      Registry.register("test.replace.Count", sum, true);
    }
    assertEquals("second 2", replaceable.name(2));
    assertEquals(6L, replaceable.count(List.of(1L, 2L, 3L)));
    // A function looked up before the replacement stays the one it was.
    try (PackedFunction third = PackedFunction.of(args -> "third " + args[0]);
        PackedFunction held = Registry.global("test.replace.Name")) {
      Registry.register("test.replace.Name", third, true);
      assertEquals("second 3", held.invoke(3L));
      assertEquals("third 3", replaceable.name(3));
    }
  }

  @Test
  void callersOnOtherThreadsSeeTheReplacementWhileCalling() throws InterruptedException {
    try (PackedFunction add = typed((a, b) -> a + b)) {
      Registry.register("test.replace.Combine", add, true);
    }
    AtomicLong afterReplacement = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    Thread caller = Thread.ofPlatform().start(() -> {
      // Calls until it has seen the new function many times: a route the JIT inlined into this hot loop must be
      // deoptimized by the relink. Once the new result came, the old one never comes again.
      while (afterReplacement.get() < 10_000) {
        long result = replaceable.combine(4, 5);
        if (result == 20) {
          afterReplacement.incrementAndGet();
        } else if (result != 9 || afterReplacement.get() > 0) {
          wrong.incrementAndGet();
        }
      }
    });
    Thread.sleep(300);
    try (PackedFunction multiply = typed((a, b) -> a * b)) {
      Registry.register("test.replace.Combine", multiply, true);
    }
    caller.join(30_000);
    assertEquals(10_000L, afterReplacement.get(), "the caller saw the new function");
    assertEquals(0L, wrong.get(), "no call returned the old function's result after the new one's");
  }
}
