package dev.packed4j.benchmarks;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/** JNA interface mapping ({@code Library}, a reflective proxy) of the plugin's {@code extern "C"} twins. */
interface JnaLibrary extends Library {
  JnaLibrary INSTANCE = Native.load(BenchLibrary.path().toString(), JnaLibrary.class);

  long bench_add(long a, long b);

  void bench_nop();

  long bench_count_code_points(byte[] utf8, long size);

  long bench_echo_string(byte[] utf8, long size, byte[] out, long capacity);

  long bench_counter_value(Pointer counterHandle);

  long bench_sum(long[] values, long count);
}
