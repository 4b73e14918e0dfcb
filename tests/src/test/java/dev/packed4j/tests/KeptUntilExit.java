package dev.packed4j.tests;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;

/**
 * Hands a Java function to C++, which keeps it in a global until the process exits
 * ({@code test.cb.KeepUntilExit}, tests/native/callbacks.cc), in a JVM of its own ({@link KeptUntilExitTest}
 * starts it). Argument {@code return}: main returns; {@code exit}: {@code System.exit(0)}; {@code closed}: Java
 * closes its own reference first, so C++ holds the last one; {@code thread-local}: C++ keeps it in a thread_local of
 * the main thread ({@code test.cb.KeepInThreadLocal}), called and released when that thread ends after the JVM is
 * destroyed; {@code late-threads}: 200 one-shot C++ timers, each a thread of its own, call it over the next 40 ms
 * ({@code test.cb.CallFromTimers}), and main returns after 20. Prints {@code main done} last.
 */
public final class KeptUntilExit {
  private KeptUntilExit() {}

  public static void main(String[] args) throws InterruptedException {
    TestLibrary.load();
    PackedFunction square = PackedFunction.of(values -> (Long) values[0] * (Long) values[0]);
    String keeper = switch (args[0]) {
      case "thread-local" -> "test.cb.KeepInThreadLocal";
      case "late-threads" -> "test.cb.CallFromTimers";
      default -> "test.cb.KeepUntilExit";
    };
    try (PackedFunction keep = Registry.global(keeper)) {
      if (args[0].equals("late-threads")) {
        keep.invoke(square, 200L);
      } else {
        keep.invoke(square);
      }
    }
    if (args[0].equals("closed")) {
      square.close();
    }
    if (args[0].equals("late-threads")) {
      Thread.sleep(20);
    }
    System.out.println("main done");
    if (args[0].equals("exit")) {
      System.exit(0);
    }
  }
}
