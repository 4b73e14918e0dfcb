package com.example.modular;

import dev.packed4j.runtime.Packed4j;

/** Loads the plugin from this module's jar, binds its functions and calls them. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    Packed4j.loadLibrary("modular");
    Greeter greeter = Packed4j.bind(Greeter.class);
    System.out.println(greeter.greet("module"));
    System.out.println(greeter.add(40, 2));
  }
}
