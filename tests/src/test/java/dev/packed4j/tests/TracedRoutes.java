package dev.packed4j.tests;

import dev.packed4j.runtime.Packed4j;
import java.util.List;

/**
 * A JVM run with {@code -Dpacked4j.trace.routes=true} ({@link TracedRoutesTest} starts it): calls a method of a
 * typed entry and one that only the call frame takes, and prints {@code done}; the trace goes to standard error.
 */
public final class TracedRoutes {
  private TracedRoutes() {}

  public static void main(String[] args) {
    TestLibrary.load();
    Values values = Packed4j.bind(Values.class);
    Containers containers = Packed4j.bind(Containers.class);
    if (values.addInt32(2, 3) != 5 || !containers.range(3).equals(List.of(0L, 1L, 2L))) {
      throw new AssertionError("wrong results");
    }
    System.out.println("done");
  }
}
