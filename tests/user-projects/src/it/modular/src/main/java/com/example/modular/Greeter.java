package com.example.modular;

import dev.packed4j.annotations.Global;

/** The functions of libmodular.so. */
public interface Greeter {
  @Global("modular.Greet")
  String greet(String name);

  @Global("modular.Add")
  long add(long a, long b);
}
