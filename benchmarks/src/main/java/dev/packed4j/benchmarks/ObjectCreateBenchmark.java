package dev.packed4j.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Creating and closing a native object ({@code bench.CreateCounter}, {@code create(String, long)} on its typed
 * entry): the generated method against a C function that allocates and frees a plain struct of the same value, the
 * name copied to native memory as the binding copies it.
 */
public class ObjectCreateBenchmark extends BenchmarkSettings {
  private static final long VALUE = 42;

  private String name = "counter";
  private BenchFunctions functions;
  private MemorySegment input;

  @Setup
  public void setUp() throws Throwable {
    functions = BenchLibrary.bind();
    input = Arena.ofAuto().allocate(name.getBytes(StandardCharsets.UTF_8).length);
    try (Counter counter = functions.createCounter(name, VALUE)) {
      Expect.equal(VALUE, counter.value(), "generated bench.CreateCounter");
    }
    Expect.equal(true, rawFfm() != 0, "raw FFM bench_counter_create");
  }

  @Benchmark
  public Counter generated() {
    Counter counter = functions.createCounter(name, VALUE);
    counter.close();
    return counter;
  }

  @Benchmark
  public long rawFfm() throws Throwable {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    MemorySegment.copy(utf8, 0, input, JAVA_BYTE, 0, utf8.length);
    MemorySegment counter = (MemorySegment) RawFfm.COUNTER_CREATE.invokeExact(input, (long) utf8.length, VALUE);
    RawFfm.COUNTER_FREE.invokeExact(counter);
    return counter.address();
  }
}
