package dev.packed4j.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * A String argument and a long result ({@code bench.CountCodePoints}, which reads every byte). Raw FFM and JNA
 * encode to UTF-8 and, for raw FFM, copy into a segment allocated once; JNI copies with
 * {@code GetStringUTFRegion} into a stack buffer.
 */
public class StringArgumentBenchmark extends BenchmarkSettings {
  /** Short, as most names and keys are: the fixed cost of a string argument is what shows. */
  private String text = "hello, packed4j";
  private BenchFunctions functions;
  private PackedFunction countCodePoints;
  private MemorySegment input;

  @Setup
  public void setUp() throws Throwable {
    functions = BenchLibrary.bind();
    countCodePoints = Registry.global("bench.CountCodePoints");
    // Automatic: no acquire or release per downcall, as with a shared or confined arena; the GC frees it.
    Arena arena = Arena.ofAuto();
    input = arena.allocate(text.getBytes(StandardCharsets.UTF_8).length);
    long expected = text.codePointCount(0, text.length());
    Expect.equal(expected, generated(), "generated bench.CountCodePoints");
    Expect.equal(expected, packedFunction(), "PackedFunction bench.CountCodePoints");
    Expect.equal(expected, rawFfm(), "raw FFM bench_count_code_points");
    Expect.equal(expected, jni(), "JNI countCodePoints");
    Expect.equal(expected, jnaDirect(), "JNA direct bench_count_code_points");
    Expect.equal(expected, jnaInterface(), "JNA interface bench_count_code_points");
  }

  @Benchmark
  public long generated() {
    return functions.countCodePoints(text);
  }

  @Benchmark
  public long packedFunction() {
    return (Long) countCodePoints.invoke(text);
  }

  @Benchmark
  public long rawFfm() throws Throwable {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    MemorySegment.copy(utf8, 0, input, JAVA_BYTE, 0, utf8.length);
    return (long) RawFfm.COUNT_CODE_POINTS.invokeExact(input, (long) utf8.length);
  }

  @Benchmark
  public long jni() {
    return Jni.countCodePoints(text);
  }

  @Benchmark
  public long jnaDirect() {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    return JnaDirect.bench_count_code_points(utf8, utf8.length);
  }

  @Benchmark
  public long jnaInterface() {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    return JnaLibrary.INSTANCE.bench_count_code_points(utf8, utf8.length);
  }
}
