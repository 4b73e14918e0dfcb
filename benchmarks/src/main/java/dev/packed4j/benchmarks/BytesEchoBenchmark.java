package dev.packed4j.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * A {@code byte[]} argument and result of 64 bytes ({@code bench.EchoBytes}, on its typed entry): the generated
 * method against a C function that copies into a buffer the caller passes, the result copied into a new array as
 * the binding returns one. {@code generatedView} calls {@code bench.EchoBytesView}, whose body takes and returns a
 * {@code BytesView}: the same bytes without the {@code Bytes} object {@code bench.EchoBytes} makes per call.
 */
public class BytesEchoBenchmark extends BenchmarkSettings {
  private byte[] data = new byte[64];
  private BenchFunctions functions;
  private MemorySegment input;
  private MemorySegment output;

  @Setup
  public void setUp() throws Throwable {
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 7);
    }
    functions = BenchLibrary.bind();
    Arena arena = Arena.ofAuto();
    input = arena.allocate(data.length);
    output = arena.allocate(data.length);
    Expect.equal(true, Arrays.equals(data, generated()), "generated bench.EchoBytes");
    Expect.equal(true, Arrays.equals(data, rawFfm()), "raw FFM bench_echo_bytes");
    Expect.equal(true, Arrays.equals(data, generatedView()), "generated bench.EchoBytesView");
  }

  @Benchmark
  public byte[] generated() {
    return functions.echoBytes(data);
  }

  @Benchmark
  public byte[] generatedView() {
    return functions.echoBytesView(data);
  }

  @Benchmark
  public byte[] rawFfm() throws Throwable {
    MemorySegment.copy(data, 0, input, JAVA_BYTE, 0, data.length);
    int size = (int) (long) RawFfm.ECHO_BYTES.invokeExact(input, (long) data.length, output, output.byteSize());
    byte[] result = new byte[size];
    MemorySegment.copy(output, JAVA_BYTE, 0, result, 0, size);
    return result;
  }
}
