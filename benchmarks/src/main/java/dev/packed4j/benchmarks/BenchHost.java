package dev.packed4j.benchmarks;

import dev.packed4j.annotations.Global;

/** A Java global for C++ to call by name (CallbackBenchmark.javaGlobal). */
public final class BenchHost {
  private BenchHost() {}

  @Global("bench.java.Add")
  static long add(long a, long b) {
    return a + b;
  }
}
