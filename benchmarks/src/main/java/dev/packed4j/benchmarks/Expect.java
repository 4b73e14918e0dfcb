package dev.packed4j.benchmarks;

import java.util.Objects;

/** Checks, in each case's setup, that every binding computes the same result: a benchmark of a wrong call is void. */
final class Expect {
  private Expect() {}

  static void equal(Object expected, Object actual, String binding) {
    boolean same = expected instanceof Number e && actual instanceof Number n
        ? e.longValue() == n.longValue()
        : Objects.equals(expected, actual);
    if (!same) {
      throw new IllegalStateException(binding + " returned " + actual + ", expected " + expected);
    }
  }
}
