package dev.packed4j.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * A million longs summed in C++. The generated binding takes the {@code List<Long>} its interface declares;
 * raw FFM copies a {@code long[]} into a segment allocated once and passes a pointer; JNI pins the array
 * ({@code GetPrimitiveArrayCritical}); JNA copies the array in and out of native memory. ns/op here is the time
 * for all {@value #SIZE} elements; scripts/ratios.py also prints elements per second.
 *
 * <p>The {@code ...Sixteen} rows are issue 24's: a {@code List<Long>} of {@value #SMALL} summed, where the call
 * costs more than the work. The raw twin copies a {@code long[]} of {@value #SMALL} into a segment allocated once
 * and passes its address; the generated methods pass the list to bodies taking {@code List<int64_t>} (a list object
 * made per call), {@code std::vector<int64_t>} (a vector per call) and {@code ListView<int64_t>} (nothing made). Since
 * ABI 2.7 the list crosses as a dense list word: the count and the 16 values as plain 8-byte longs in the thread's
 * scratch memory, which a {@code ListView<int64_t>} reads in place.
 */
public class ListSumBenchmark extends BenchmarkSettings {
  static final int SIZE = 1_000_000;
  static final int SMALL = 16;

  private List<Long> values;
  private long[] array;
  private BenchFunctions functions;
  private PackedFunction sumList;
  private MemorySegment nativeValues;
  private List<Long> small;
  private long[] smallArray;
  private MemorySegment nativeSmall;

  @Setup
  public void setUp() throws Throwable {
    functions = BenchLibrary.bind();
    sumList = Registry.global("bench.SumList");
    array = new long[SIZE];
    values = new ArrayList<>(SIZE);
    for (int i = 0; i < SIZE; i++) {
      array[i] = i;
      values.add((long) i);
    }
    // Automatic: no acquire or release per downcall, as with a shared or confined arena; the GC frees it.
    Arena arena = Arena.ofAuto();
    nativeValues = arena.allocate(JAVA_LONG, SIZE);
    small = new ArrayList<>(values.subList(0, SMALL));
    smallArray = java.util.Arrays.copyOf(array, SMALL);
    nativeSmall = arena.allocate(JAVA_LONG, SMALL);
    long expectedSmall = (long) SMALL * (SMALL - 1) / 2;
    Expect.equal(expectedSmall, generatedSixteen(), "generated bench.SumList of 16");
    Expect.equal(expectedSmall, generatedSixteenVector(), "generated bench.SumVector of 16");
    Expect.equal(expectedSmall, generatedSixteenView(), "generated bench.SumView of 16");
    Expect.equal(expectedSmall, rawFfmSixteen(), "raw FFM bench_sum of 16");
    Expect.equal(expectedSmall + 1 + 16 + 8, generatedSeveral(), "generated bench.Several");
    Expect.equal((long) SIZE * (SIZE - 1) / 2, functions.sumView(values), "generated bench.SumView");
    long expected = (long) SIZE * (SIZE - 1) / 2;
    Expect.equal(expected, generated(), "generated bench.SumList");
    Expect.equal(expected, packedFunction(), "PackedFunction bench.SumList");
    Expect.equal(expected, rawFfm(), "raw FFM bench_sum");
    Expect.equal(expected, jni(), "JNI sum");
    Expect.equal(expected, jnaDirect(), "JNA direct bench_sum");
    Expect.equal(expected, jnaInterface(), "JNA interface bench_sum");
  }

  @Benchmark
  public long generated() {
    return functions.sum(values);
  }

  @Benchmark
  public long generatedSixteen() {
    return functions.sum(small);
  }

  @Benchmark
  public long generatedSixteenVector() {
    return functions.sumVector(small);
  }

  @Benchmark
  public long generatedSixteenView() {
    return functions.sumView(small);
  }

  /** {@code bench.Several}: 16 longs, an Optional, 16 bytes and a String of 8 chars (docs/benchmarks.md, inlining). */
  @Benchmark
  public long generatedSeveral() {
    return functions.several(small, EXTRA, BYTES, TEXT);
  }

  private static final java.util.Optional<Long> EXTRA = java.util.Optional.of(1L);
  private static final byte[] BYTES = new byte[16];
  private static final String TEXT = "eight ch";

  @Benchmark
  public long rawFfmSixteen() throws Throwable {
    MemorySegment.copy(smallArray, 0, nativeSmall, JAVA_LONG, 0, SMALL);
    return (long) RawFfm.SUM.invokeExact(nativeSmall, (long) SMALL);
  }

  @Benchmark
  public long packedFunction() {
    return (Long) sumList.invoke(values);
  }

  @Benchmark
  public long rawFfm() throws Throwable {
    MemorySegment.copy(array, 0, nativeValues, JAVA_LONG, 0, SIZE);
    return (long) RawFfm.SUM.invokeExact(nativeValues, (long) SIZE);
  }

  @Benchmark
  public long jni() {
    return Jni.sum(array);
  }

  @Benchmark
  public long jnaDirect() {
    return JnaDirect.bench_sum(array, array.length);
  }

  @Benchmark
  public long jnaInterface() {
    return JnaLibrary.INSTANCE.bench_sum(array, array.length);
  }
}
