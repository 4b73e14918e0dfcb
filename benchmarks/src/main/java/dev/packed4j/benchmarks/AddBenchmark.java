package dev.packed4j.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code add(int, int)}: the smallest call with arguments and a result. {@code bench.AddPacked} is registered with
 * {@code set_body} (untyped: arguments arrive packed), {@code bench.AddTyped} with {@code set_body_typed}.
 *
 * <p>{@code rawFfmPackedCall} is not a binding a user would pick but the floor under every packed call from Java:
 * the two arguments written as {@code P4JAny} into a segment allocated once and one raw FFM downcall of
 * {@code P4JFunctionCall}, with none of packed4j's runtime (no thread stack, no checks, no error conversion).
 *
 * <p>{@code generatedPacked}, a method over primitives, reaches the {@code set_body} function by its register call
 * route (the function's scalars entry): its arguments travel in registers, no argument memory is written. The same
 * methods on the call frame, the route of every {@code @Global} method without a direct entry, are
 * {@link AddFrameRouteBenchmark}: their distance to {@code rawFfmPackedCall} is what packed4j's Java runtime adds to
 * a packed call.
 */
public class AddBenchmark extends BenchmarkSettings {
  /** {@code kP4JInt} of c_api.h. */
  private static final int K_P4J_INT = 1;
  /** {@code sizeof(P4JAny)}; its payload sits at offset 8. */
  private static final long ANY_SIZE = 16;

  private int a = 20;
  private int b = 22;
  private BenchFunctions functions;
  private PackedFunction addPacked;
  private PackedFunction addTyped;
  private MemorySegment addPackedHandle;
  private MemorySegment packedArguments;
  private MemorySegment packedResult;

  @Setup
  public void setUp() throws Throwable {
    functions = BenchLibrary.bind();
    addPacked = Registry.global("bench.AddPacked");
    addTyped = Registry.global("bench.AddTyped");
    addPackedHandle = MemorySegment.ofAddress(addPacked.handle());
    // Automatic: no acquire or release per downcall, as with a shared or confined arena; the GC frees it.
    Arena arena = Arena.ofAuto();
    packedArguments = arena.allocate(2 * ANY_SIZE, 16);
    packedResult = arena.allocate(ANY_SIZE, 16);
    Expect.equal(42L, functions.addPacked(a, b), "generated bench.AddPacked");
    Expect.equal(42L, functions.addTyped(a, b), "generated bench.AddTyped");
    Expect.equal(42L, packedFunctionPacked(), "PackedFunction bench.AddPacked");
    Expect.equal(42L, packedFunctionTyped(), "PackedFunction bench.AddTyped");
    Expect.equal(42L, rawFfm(), "raw FFM bench_add");
    Expect.equal(42L, rawFfmPackedCall(), "raw FFM P4JFunctionCall of bench.AddPacked");
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
  public int rawFfmPackedCall() throws Throwable {
    packedArguments.set(JAVA_INT, 0, K_P4J_INT);
    packedArguments.set(JAVA_LONG, 8, a);
    packedArguments.set(JAVA_INT, ANY_SIZE, K_P4J_INT);
    packedArguments.set(JAVA_LONG, ANY_SIZE + 8, b);
    int status = (int) RawFfm.FUNCTION_CALL.invokeExact(addPackedHandle, packedArguments, 2, packedResult);
    if (status != 0 || packedResult.get(JAVA_INT, 0) != K_P4J_INT) {
      throw new IllegalStateException("P4JFunctionCall of bench.AddPacked failed: status " + status);
    }
    return (int) packedResult.get(JAVA_LONG, 8);
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
