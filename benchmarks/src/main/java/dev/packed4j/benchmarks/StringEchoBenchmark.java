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
 * A String argument and a String result ({@code bench.EchoString}). The C twin copies the result into a buffer
 * the caller passes, so raw FFM and JNA reuse both buffers; the packed function returns a new native string
 * object that the binding decodes and releases; JNI returns {@code NewStringUTF}.
 */
public class StringEchoBenchmark extends BenchmarkSettings {
  private String text = "hello, packed4j";
  private BenchFunctions functions;
  private PackedFunction echoString;
  private MemorySegment input;
  private MemorySegment output;
  private byte[] outputBytes;

  @Setup
  public void setUp() throws Throwable {
    functions = BenchLibrary.bind();
    echoString = Registry.global("bench.EchoString");
    int size = text.getBytes(StandardCharsets.UTF_8).length;
    // Automatic: no acquire or release per downcall, as with a shared or confined arena; the GC frees it.
    Arena arena = Arena.ofAuto();
    input = arena.allocate(size);
    output = arena.allocate(size);
    outputBytes = new byte[size];
    Expect.equal(text, generated(), "generated bench.EchoString");
    Expect.equal(text, packedFunction(), "PackedFunction bench.EchoString");
    Expect.equal(text, rawFfm(), "raw FFM bench_echo_string");
    Expect.equal(text, jni(), "JNI echoString");
    Expect.equal(text, jnaDirect(), "JNA direct bench_echo_string");
    Expect.equal(text, jnaInterface(), "JNA interface bench_echo_string");
  }

  @Benchmark
  public String generated() {
    return functions.echoString(text);
  }

  @Benchmark
  public String packedFunction() {
    return (String) echoString.invoke(text);
  }

  @Benchmark
  public String rawFfm() throws Throwable {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    MemorySegment.copy(utf8, 0, input, JAVA_BYTE, 0, utf8.length);
    int size = (int) (long) RawFfm.ECHO_STRING.invokeExact(input, (long) utf8.length, output, output.byteSize());
    MemorySegment.copy(output, JAVA_BYTE, 0, outputBytes, 0, size);
    return new String(outputBytes, 0, size, StandardCharsets.UTF_8);
  }

  @Benchmark
  public String jni() {
    return Jni.echoString(text);
  }

  @Benchmark
  public String jnaDirect() {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    int size = (int) JnaDirect.bench_echo_string(utf8, utf8.length, outputBytes, outputBytes.length);
    return new String(outputBytes, 0, size, StandardCharsets.UTF_8);
  }

  @Benchmark
  public String jnaInterface() {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    int size = (int) JnaLibrary.INSTANCE.bench_echo_string(utf8, utf8.length, outputBytes, outputBytes.length);
    return new String(outputBytes, 0, size, StandardCharsets.UTF_8);
  }
}
