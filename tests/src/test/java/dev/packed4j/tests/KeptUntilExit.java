package dev.packed4j.tests;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;

/**
 * Hands a Java function to C++, which keeps it in a global until the process exits
 * ({@code test.cb.KeepUntilExit}, tests/native/callbacks.cc), in a JVM of its own ({@link KeptUntilExitTest}
 * starts it). Argument {@code return}: main returns; {@code exit}: {@code System.exit(0)}; {@code closed}: Java
 * closes its own reference first, so C++ holds the last one. Prints {@code main done} last.
 */
public final class KeptUntilExit {
  private KeptUntilExit() {}

  public static void main(String[] args) {
    TestLibrary.load();
    PackedFunction square = PackedFunction.of(values -> (Long) values[0] * (Long) values[0]);
    try (PackedFunction keep = Registry.global("test.cb.KeepUntilExit")) {
      keep.invoke(square);
    }
    if (args[0].equals("closed")) {
      square.close();
    }
    System.out.println("main done");
    if (args[0].equals("exit")) {
      System.exit(0);
    }
  }
}
