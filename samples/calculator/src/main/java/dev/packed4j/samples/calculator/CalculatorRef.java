package dev.packed4j.samples.calculator;

import dev.packed4j.annotations.Method;
import dev.packed4j.annotations.Object;

/**
 * A native {@code CalculatorObject}: its getters read the fields its {@code VisitAttrs} declares, its setter writes
 * the field its object definition declares writable ({@code def_rw}), and its methods call the methods the object
 * definition registers, with the object first.
 */
@Object("Calculator")
public interface CalculatorRef extends AutoCloseable {
  String brand();

  int price();

  /** Writes the price: a store into the object's memory, no call. */
  void price(int price);

  /** The calculator's own add: a method, called with the object first. */
  long add(long a, long b);

  /** A method without parameters is marked, or it would be a getter. */
  @Method
  String describe();

  /** Releases the native reference; no checked exception. */
  @Override
  void close();
}
