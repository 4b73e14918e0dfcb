package dev.packed4j.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.PackedFunction;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * C++ calling a Java {@code (int64, int64) -> int64} function, per call. Each invocation is one downcall into a C++
 * loop that calls the Java function {@value #CALLS} times, so the figure is the upcall, not the downcall.
 *
 * <ul>
 *   <li>{@code rawFfm}, the baseline: a C loop calling a function pointer to an FFM upcall stub of a static method.
 *   <li>{@code typedCallback}: a {@code LongBinaryOperator} passed to a {@code @Global} as a functional interface,
 *       kept by C++ in a {@code TypedPackedFunc<int64_t(int64_t, int64_t)>}, called through its typed entry.
 *   <li>{@code javaGlobal}: a static {@code @Global} method registered by {@code Packed4j.register}, looked up once
 *       by name from C++, then called the same way.
 *   <li>{@code packedCallback}: {@code PackedFunction.of}, called packed (boxed arguments): for comparison.
 *   <li>{@code callbackInOnce}, per call (not per 1000): Java passes a {@code LongBinaryOperator} to a
 *       {@code @Global} whose C++ body calls it once; the callback takes the typed entry (a Java function object
 *       made and released per call, as on the call frame). Its raw twin {@code rawFfmApplyOnce} passes a function
 *       pointer to an FFM upcall stub made once to a C function that calls it once.
 * </ul>
 *
 * Run with {@code -prof gc}: the Java side of the first three allocates nothing per call.
 */
@OperationsPerInvocation(CallbackBenchmark.CALLS)
public class CallbackBenchmark extends BenchmarkSettings {
  static final int CALLS = 1000;

  private static final long EXPECTED = (long) CALLS * (CALLS - 1) / 2;

  private CallbackFunctions callbacks;
  private MemorySegment upcall;
  private Arena arena;
  private PackedFunction packed;
  private long a = 20;
  private long b = 22;

  /** The Java side of every case: what the callback computes. */
  static long add(long a, long b) {
    return a + b;
  }

  @Setup
  @SuppressWarnings("restricted") // the raw FFM baseline: an upcall stub of add's own (long, long) -> long
  public void setUp() throws Throwable {
    BenchLibrary.bind();
    callbacks = Packed4j.bind(CallbackFunctions.class);
    arena = Arena.ofShared();
    upcall = Linker.nativeLinker().upcallStub(
        MethodHandles.lookup().findStatic(CallbackBenchmark.class, "add",
            MethodType.methodType(long.class, long.class, long.class)),
        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), arena);
    callbacks.holdTyped(CallbackBenchmark::add);
    packed = PackedFunction.of(args -> (Long) args[0] + (Long) args[1]);
    callbacks.holdPacked(packed);
    if (!dev.packed4j.runtime.Registry.list().contains("bench.java.Add")) {
      Packed4j.register(BenchHost.class);
    }
    callbacks.lookUpGlobal("bench.java.Add");
    Expect.equal(EXPECTED, rawFfmTotal(), "raw FFM upcall loop");
    Expect.equal(EXPECTED, callbacks.callHeldTyped(CALLS), "typed callback loop");
    Expect.equal(EXPECTED, callbacks.callGlobal(CALLS), "Java global loop");
    Expect.equal(EXPECTED, callbacks.callHeldPacked(CALLS), "packed callback loop");
    Expect.equal(42L, callbackInOnce(), "callback in, called once");
    Expect.equal(42L, rawFfmApplyOnce(), "raw FFM upcall called once");
  }

  @TearDown
  public void tearDown() {
    callbacks.dropHeld();
    packed.close();
    arena.close();
  }

  private long rawFfmTotal() throws Throwable {
    return (long) RawFfm.CALL_UPCALL.invokeExact(upcall, (long) CALLS);
  }

  @Benchmark
  public long rawFfm() throws Throwable {
    return rawFfmTotal();
  }

  @Benchmark
  public long typedCallback() {
    return callbacks.callHeldTyped(CALLS);
  }

  @Benchmark
  public long javaGlobal() {
    return callbacks.callGlobal(CALLS);
  }

  @Benchmark
  public long packedCallback() {
    return callbacks.callHeldPacked(CALLS);
  }

  @Benchmark
  @OperationsPerInvocation(1)
  public long callbackInOnce() {
    return callbacks.applyOnce(CallbackBenchmark::add, a, b);
  }

  @Benchmark
  @OperationsPerInvocation(1)
  public long rawFfmApplyOnce() throws Throwable {
    return (long) RawFfm.APPLY_UPCALL.invokeExact(upcall, a, b);
  }
}
