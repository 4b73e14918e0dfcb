package dev.packed4j.benchmarks;

import dev.packed4j.annotations.Object;

/** A native {@code bench::CounterObject}: one int64 field, read by the generated getter. */
@Object("bench.Counter")
public interface Counter extends AutoCloseable {
  long value();

  /** Releases the native reference; no checked exception. */
  @Override
  void close();
}
