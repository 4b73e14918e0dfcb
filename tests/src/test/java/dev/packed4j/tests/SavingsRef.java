package dev.packed4j.tests;

import dev.packed4j.annotations.Method;
import dev.packed4j.annotations.Object;

/** test.Savings: inherits AccountRef's members, overrides label natively, adds a field and a method. */
@Object("test.Savings")
public interface SavingsRef extends AccountRef {
  long bonus();

  void bonus(long bonus);

  @Method
  long interest();
}
