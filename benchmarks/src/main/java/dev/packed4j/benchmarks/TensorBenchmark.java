package dev.packed4j.benchmarks;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Passing tensors (issue 11). The native function reads one byte, so each time is what crossing costs:
 *
 * <ul>
 *   <li>{@code passSmall} / {@code passLarge}: an existing 1 KiB / 256 MiB NDArray through the generated binding;
 *       the ratio shows that nothing is copied (target: large at most 1.2x small), and {@code -prof gc} shows
 *       0 B/op;
 *   <li>{@code wrapPassCloseSmall}: {@code NDArray.wrap} of a 1 KiB segment, the call, {@code close} (target: at most
 *       3x {@code rawFfm}), to a C++ function taking a {@code TensorView};
 *   <li>{@code wrapPassCloseSmallNDArrayParameter}: the same to a function taking an {@code NDArray}, which makes a
 *       native object from the borrowed tensor at each call;
 *   <li>{@code rawFfm}: the baseline, a downcall of {@code bench_first_byte(pointer, length)}.
 * </ul>
 */
public class TensorBenchmark extends BenchmarkSettings {
  static final long SMALL_BYTES = 1024;
  static final long LARGE_BYTES = 256L << 20;

  private BenchFunctions functions;
  private Arena arena;
  private MemorySegment smallSegment;
  private NDArray small;
  private NDArray large;

  @Setup
  public void setUp() throws Throwable {
    functions = BenchLibrary.bind();
    arena = Arena.ofShared();
    smallSegment = arena.allocate(SMALL_BYTES, 64);
    smallSegment.set(ValueLayout.JAVA_BYTE, 0, (byte) 7);
    MemorySegment largeSegment = arena.allocate(LARGE_BYTES, 64);
    largeSegment.set(ValueLayout.JAVA_BYTE, 0, (byte) 7);
    small = NDArray.wrap(smallSegment, DType.UINT8, SMALL_BYTES);
    large = NDArray.wrap(largeSegment, DType.UINT8, LARGE_BYTES);
    Expect.equal(7L, passSmall(), "generated bench.TensorFirstByte, 1 KiB");
    Expect.equal(7L, passLarge(), "generated bench.TensorFirstByte, 256 MiB");
    Expect.equal(7L, wrapPassCloseSmall(), "wrap + bench.TensorFirstByte + close");
    Expect.equal(7L, wrapPassCloseSmallNDArrayParameter(), "wrap + bench.TensorFirstByteNDArray + close");
    Expect.equal(7L, rawFfm(), "raw FFM bench_first_byte");
  }

  @TearDown
  public void tearDown() {
    small.close();
    large.close();
    arena.close();
  }

  @Benchmark
  public long passSmall() {
    return functions.firstByte(small);
  }

  @Benchmark
  public long passLarge() {
    return functions.firstByte(large);
  }

  @Benchmark
  public long wrapPassCloseSmall() {
    try (NDArray tensor = NDArray.wrap(smallSegment, DType.UINT8, SMALL_BYTES)) {
      return functions.firstByte(tensor);
    }
  }

  @Benchmark
  public long wrapPassCloseSmallNDArrayParameter() {
    try (NDArray tensor = NDArray.wrap(smallSegment, DType.UINT8, SMALL_BYTES)) {
      return functions.firstByteOfNDArrayParameter(tensor);
    }
  }

  @Benchmark
  public long rawFfm() throws Throwable {
    return (long) RawFfm.FIRST_BYTE.invokeExact(smallSegment, SMALL_BYTES);
  }
}
