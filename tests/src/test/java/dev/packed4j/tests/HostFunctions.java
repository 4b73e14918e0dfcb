package dev.packed4j.tests;

import dev.packed4j.annotations.Global;
import java.util.ArrayList;
import java.util.List;

/** Java functions exported to the native registry by Packed4j.register (ExportsTest). */
public final class HostFunctions {
  static final List<String> LOG = new ArrayList<>();

  private HostFunctions() {}

  @Global("test.host.Add")
  static long add(long a, long b) {
    return a + b;
  }

  @Global("test.host.Log")
  static synchronized void log(String line) {
    LOG.add(line);
  }

  @Global("test.host.Greet")
  static String greet(String name, int times) {
    return ("hello " + name + " ").repeat(times).strip();
  }

  @Global("test.host.Total")
  static long total(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).sum();
  }

  @Global("test.host.Half")
  static double half(double value) {
    return value / 2;
  }

  @Global("test.host.Scale")
  static double scale(int factor, float by) {
    return factor * (double) by;
  }

  @Global("test.host.Fail")
  static long fail(long code) throws java.io.IOException {
    throw new java.io.IOException("failed with " + code);
  }
}
