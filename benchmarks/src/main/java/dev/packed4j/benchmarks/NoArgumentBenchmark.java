package dev.packed4j.benchmarks;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/** A call with no argument and no result ({@code bench.Nop}, typed): the fixed cost of each convention. */
public class NoArgumentBenchmark extends BenchmarkSettings {
  private BenchFunctions functions;
  private PackedFunction nop;

  @Setup
  public void setUp() {
    functions = BenchLibrary.bind();
    nop = Registry.global("bench.Nop");
    Expect.equal(null, nop.invoke(), "PackedFunction bench.Nop");
  }

  @Benchmark
  public void generated() {
    functions.nop();
  }

  @Benchmark
  public Object packedFunction() {
    return nop.invoke();
  }

  @Benchmark
  public void rawFfm() throws Throwable {
    RawFfm.NOP.invokeExact();
  }

  @Benchmark
  public void jni() {
    Jni.nop();
  }

  @Benchmark
  public void jnaDirect() {
    JnaDirect.bench_nop();
  }

  @Benchmark
  public void jnaInterface() {
    JnaLibrary.INSTANCE.bench_nop();
  }
}
