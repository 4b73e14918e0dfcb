package dev.packed4j.benchmarks;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code add(int, int)} as {@link AddBenchmark} calls it, in JVMs started with {@code -Dpacked4j.routes.direct=false}:
 * every generated method takes the call frame the runtime builds from its codecs, the route of every method without
 * a direct entry (object and container arguments or results, String results, more than four arguments).
 *
 * <p>{@code generatedPacked} here against {@code AddBenchmark.generatedPacked} is what the register call earns for a
 * {@code set_body} function; {@code generatedTyped} against {@code AddBenchmark.generatedTyped} what the typed entry
 * earns. {@code rawFfm} is this case's own baseline, measured in the same JVMs.
 */
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Dpacked4j.routes.direct=false"})
public class AddFrameRouteBenchmark extends BenchmarkSettings {
  private int a = 20;
  private int b = 22;
  private BenchFunctions functions;

  @Setup
  public void setUp() throws Throwable {
    if (!"false".equals(System.getProperty("packed4j.routes.direct"))) {
      throw new IllegalStateException("AddFrameRouteBenchmark runs with -Dpacked4j.routes.direct=false");
    }
    functions = BenchLibrary.bind();
    Expect.equal(42L, functions.addPacked(a, b), "generated bench.AddPacked on the call frame");
    Expect.equal(42L, functions.addTyped(a, b), "generated bench.AddTyped on the call frame");
    Expect.equal(42L, rawFfm(), "raw FFM bench_add");
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
  public int rawFfm() throws Throwable {
    return (int) (long) RawFfm.ADD.invokeExact((long) a, (long) b);
  }
}
