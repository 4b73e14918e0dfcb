package dev.packed4j.samples.calculator;

import dev.packed4j.annotations.Object;

/** A native {@code CalculatorObject}; its getters read the fields its {@code VisitAttrs} declares. */
@Object("Calculator")
public interface CalculatorRef extends AutoCloseable {
  String brand();

  int price();

  /** Releases the native reference; no checked exception. */
  @Override
  void close();
}
