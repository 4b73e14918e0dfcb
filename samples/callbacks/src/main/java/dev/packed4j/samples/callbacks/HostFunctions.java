package dev.packed4j.samples.callbacks;

import dev.packed4j.annotations.Global;

/** Java functions for C++ to call by name, registered with Packed4j.register(HostFunctions.class). */
public final class HostFunctions {
  private HostFunctions() {}

  @Global("host.Greet")
  static String greet(String name) {
    return "hello, " + name;
  }

  @Global("host.Log")
  static void log(String line) {
    System.out.println("[host.Log] " + line);
  }
}
