package dev.packed4j.benchmarks;

import dev.packed4j.annotations.Object;

/**
 * A native {@code bench::CounterObject}: an int64 field read by the generated getter; with its object definition,
 * setters of its writable fields and its method {@code add}.
 */
@Object("bench.Counter")
public interface Counter extends AutoCloseable {
  long value();

  /** A numeric setter: a store into the object's memory. */
  void value(long value);

  String label();

  /** A String setter: one call. */
  void label(String label);

  /** The counter's method {@code add}: its value plus a and b. */
  long add(long a, long b);

  /** Releases the native reference; no checked exception. */
  @Override
  void close();
}
