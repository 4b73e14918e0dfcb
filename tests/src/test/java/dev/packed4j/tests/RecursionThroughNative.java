package dev.packed4j.tests;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Recursion through C++ until the stack runs out, in a JVM of its own ({@link RecursionThroughNativeTest} starts
 * it): a Java callback calls {@code test.cb.Apply}, which calls the callback again. Prints one line per case,
 * {@code <case> <depth reached> <what the outermost caller got>}, then {@code alive <result of a plain call>}, so a
 * JVM that dies on the way is seen in the output and the exit code.
 */
public final class RecursionThroughNative {
  private RecursionThroughNative() {}

  public static void main(String[] args) throws Exception {
    TestLibrary.load();
    Callbacks callbacks = Packed4j.bind(Callbacks.class);
    for (String kind : args) {
      AtomicReference<String> outcome = new AtomicReference<>();
      AtomicLong deepest = new AtomicLong();
      String variant = kind.contains("-") && !kind.equals("small-stack") ? kind.substring(0, kind.indexOf('-')) : "";
      String thread = variant.isEmpty() ? kind : kind.substring(variant.length() + 1);
      Runnable recurse = () -> outcome.set(switch (variant) {
        case "typed" -> recurseTyped(callbacks, deepest);
        case "java" -> recurseInJava(deepest);
        case "direct" -> recurseDirect(deepest);
        default -> recurse(callbacks, deepest);
      });
      switch (thread) {
        case "platform" -> join(Thread.ofPlatform().start(recurse));
        case "small-stack" -> join(Thread.ofPlatform().stackSize(256 * 1024).start(recurse));
        case "virtual" -> join(Thread.ofVirtual().start(recurse));
        case "main" -> recurse.run();
        default -> throw new IllegalArgumentException(kind);
      }
      System.out.println(kind + " " + deepest.get() + " " + outcome.get());
    }
    // Still usable afterwards: callbacks work.
    try (PackedFunction twice = PackedFunction.of(a -> 2 * (Long) a[0])) {
      System.out.println("alive " + callbacks.apply(twice, 21L));
    }
  }

  private static void join(Thread thread) throws InterruptedException {
    thread.join();
  }

  /**
   * The same through typed entries: a Java global of (int64, int64) -> int64, called by C++ through its typed entry
   * ({@code test.cb.CallGlobalTyped}), calls C++ again.
   */
  private static String recurseTyped(Callbacks callbacks, AtomicLong deepest) {
    String name = "test.recursion.Typed" + Thread.currentThread().threadId();
    var codec = Callbacks2.codec();
    try (PackedFunction down = dev.packed4j.runtime.binding.Callbacks.function(codec,
        (java.util.function.LongBinaryOperator) (depth, unused) -> {
          deepest.accumulateAndGet(depth, Math::max);
          return callbacks.callGlobalTyped(name, depth + 1, unused);
        })) {
      Registry.register(name, down, true);
      return "returned " + callbacks.callGlobalTyped(name, 1, 0);
    } catch (Throwable thrown) {
      return outcome(thrown);
    }
  }

  /** The adapters a generated registrar makes for a (long, long) -> long method. */
  private static final class Callbacks2 {
    static dev.packed4j.runtime.binding.Codec<java.util.function.LongBinaryOperator> codec() {
      return dev.packed4j.runtime.binding.Callbacks.<java.util.function.LongBinaryOperator>typed(
          java.util.function.LongBinaryOperator.class, "(int64, int64) -> int64",
          f -> (dev.packed4j.runtime.binding.CallbackBodies.Wire2) (a0, a1) -> f.applyAsLong(a0, a1),
          function -> (a0, a1) -> dev.packed4j.runtime.binding.Callbacks.call(function,
              dev.packed4j.runtime.binding.Codecs.LONG, a0, a1));
    }
  }

  /**
   * No C++ of the plugin's: a Java function that invokes itself, so each level goes through the core's packed call
   * ({@code P4JFunctionCall}) and back into Java.
   */
  private static String recurseInJava(AtomicLong deepest) {
    AtomicReference<PackedFunction> self = new AtomicReference<>();
    try (PackedFunction down = PackedFunction.of(a -> {
      long depth = (Long) a[0];
      deepest.accumulateAndGet(depth, Math::max);
      return self.get().invoke(depth + 1);
    })) {
      self.set(down);
      return "returned " + down.invoke(1L);
    } catch (Throwable thrown) {
      return outcome(thrown);
    }
  }

  /**
   * A typed Java global whose body calls the generated method bound to its own name: the method links the Java
   * function's typed entry, so each level is a typed downcall straight into the guarded upcall.
   */
  private static String recurseDirect(AtomicLong deepest) {
    Replaceable replaceable = Packed4j.bind(Replaceable.class);
    try (PackedFunction down = dev.packed4j.runtime.binding.Callbacks.function(Callbacks2.codec(),
        (java.util.function.LongBinaryOperator) (depth, unused) -> {
          deepest.accumulateAndGet(depth, Math::max);
          return replaceable.combine(depth + 1, unused);
        })) {
      Registry.register("test.replace.Combine", down, true);
      return "returned " + replaceable.combine(1, 0);
    } catch (Throwable thrown) {
      return outcome(thrown);
    }
  }

  /**
   * The exception's class and first line, then how many native calls it carries as suppressed Packed4jExceptions
   * and the message of what counts the others: {@code Packed4jException: [RecursionError] ... | attached 16 | 180
   * more native calls crossed ...}.
   */
  private static String outcome(Throwable thrown) {
    long attached = java.util.Arrays.stream(thrown.getSuppressed())
        .filter(dev.packed4j.runtime.Packed4jException.class::isInstance).count();
    String more = java.util.Arrays.stream(thrown.getSuppressed())
        .filter(suppressed -> !(suppressed instanceof dev.packed4j.runtime.Packed4jException))
        .map(Throwable::getMessage).filter(message -> message != null && message.contains("more native call"))
        .findFirst().orElse("none more");
    return thrown.getClass().getSimpleName() + ": " + String.valueOf(thrown.getMessage()).lines().findFirst()
        .orElse("") + " | attached " + attached + " | " + more;
  }

  private static String recurse(Callbacks callbacks, AtomicLong deepest) {
    AtomicReference<PackedFunction> self = new AtomicReference<>();
    try (PackedFunction down = PackedFunction.of(a -> {
      long depth = (Long) a[0];
      deepest.accumulateAndGet(depth, Math::max);
      return callbacks.apply(self.get(), depth + 1);
    })) {
      self.set(down);
      Object result = callbacks.apply(down, 1L);
      return "returned " + result;
    } catch (Throwable thrown) {
      return outcome(thrown);
    }
  }
}
