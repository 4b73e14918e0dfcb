package dev.packed4j.benchmarks;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code add(int, int)}: the smallest call with arguments and a result. {@code bench.AddPacked} is registered with
 * {@code set_body} (untyped: arguments arrive packed), {@code bench.AddTyped} with {@code set_body_typed}.
 */
public class AddBenchmark extends BenchmarkSettings {
  private int a = 20;
  private int b = 22;
  private BenchFunctions functions;
  private PackedFunction addPacked;
  private PackedFunction addTyped;

  @Setup
  public void setUp() throws Throwable {
    functions = BenchLibrary.bind();
    addPacked = Registry.global("bench.AddPacked");
    addTyped = Registry.global("bench.AddTyped");
    Expect.equal(42L, functions.addPacked(a, b), "generated bench.AddPacked");
    Expect.equal(42L, functions.addTyped(a, b), "generated bench.AddTyped");
    Expect.equal(42L, packedFunctionPacked(), "PackedFunction bench.AddPacked");
    Expect.equal(42L, packedFunctionTyped(), "PackedFunction bench.AddTyped");
    Expect.equal(42L, rawFfm(), "raw FFM bench_add");
    Expect.equal(42L, jni(), "JNI add");
    Expect.equal(42L, jnaDirect(), "JNA direct bench_add");
    Expect.equal(42L, jnaInterface(), "JNA interface bench_add");
  }

  @Benchmark
  public int generatedPacked() {
    return functions.addPacked(a, b);
  }

  @Benchmark
  public int generatedTyped() {
    return functions.addTyped(a, b);
  }

  @Benchmark
  public long packedFunctionPacked() {
    return (Long) addPacked.invoke(a, b);
  }

  @Benchmark
  public long packedFunctionTyped() {
    return (Long) addTyped.invoke(a, b);
  }

  @Benchmark
  public int rawFfm() throws Throwable {
    return (int) (long) RawFfm.ADD.invokeExact((long) a, (long) b);
  }

  @Benchmark
  public int jni() {
    return Jni.add(a, b);
  }

  @Benchmark
  public int jnaDirect() {
    return (int) JnaDirect.bench_add(a, b);
  }

  @Benchmark
  public int jnaInterface() {
    return (int) JnaLibrary.INSTANCE.bench_add(a, b);
  }
}
