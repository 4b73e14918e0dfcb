package dev.packed4j.benchmarks;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/** JNA direct mapping ({@code Native.register}) of the plugin's {@code extern "C"} twins. */
final class JnaDirect {
  static {
    Native.register(JnaDirect.class, NativeLibrary.getInstance(BenchLibrary.path().toString()));
  }

  private JnaDirect() {}

  static native long bench_add(long a, long b);

  static native void bench_nop();

  static native long bench_count_code_points(byte[] utf8, long size);

  static native long bench_echo_string(byte[] utf8, long size, byte[] out, long capacity);

  static native long bench_counter_value(Pointer counterHandle);

  static native long bench_sum(long[] values, long count);
}
