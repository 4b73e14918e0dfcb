package dev.packed4j.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import com.sun.jna.Pointer;
import dev.packed4j.runtime.ObjectRef;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Reading the int64 field {@code value} of a native {@code bench.Counter}: the generated getter against a
 * downcall to a C accessor (raw FFM, JNI, JNA) and against a hand-written read of the field's memory, the floor.
 */
public class ObjectFieldBenchmark extends BenchmarkSettings {
  private static final long VALUE = 42;

  private Counter counter;
  private MemorySegment handle;
  private MemorySegment fieldMemory;
  private long handleAddress;
  private Pointer jnaHandle;
  private long valueOffset;
  private BenchFunctions functions;

  @SuppressWarnings("restricted") // the unguarded read of the getter before close was made safe
  private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

  @Setup
  @SuppressWarnings("restricted") // sizes a view of the field the C twin says is there
  public void setUp() throws Throwable {
    functions = BenchLibrary.bind();
    counter = functions.makeCounter(VALUE);
    handleAddress = ((ObjectRef) counter).handle();
    handle = MemorySegment.ofAddress(handleAddress);
    long offset = (long) RawFfm.COUNTER_VALUE_OFFSET.invokeExact();
    fieldMemory = MemorySegment.ofAddress(handleAddress + offset).reinterpret(JAVA_LONG.byteSize());
    valueOffset = offset;
    jnaHandle = new Pointer(handleAddress);
    Expect.equal(VALUE, generated(), "generated Counter.value()");
    Expect.equal(VALUE, rawFfm(), "raw FFM bench_counter_value");
    Expect.equal(VALUE, rawMemoryRead(), "raw FFM memory read");
    Expect.equal(VALUE, jni(), "JNI counterValue");
    Expect.equal(VALUE, unguardedGetter(), "the unguarded getter");
    Expect.equal(VALUE, passedToFunction(), "bench.CounterValue");
    Expect.equal(VALUE, passedToTypedFunction(), "bench.CounterValueTyped");
    Expect.equal(VALUE, typedEntryFfm(), "the typed entry of bench.CounterValueTyped through raw FFM");
    Expect.equal(VALUE, jnaDirect(), "JNA direct bench_counter_value");
    Expect.equal(VALUE, jnaInterface(), "JNA interface bench_counter_value");
  }

  @TearDown
  public void tearDown() {
    counter.close();
  }

  @Benchmark
  public long generated() {
    return counter.value();
  }

  @Benchmark
  public long rawFfm() throws Throwable {
    return (long) RawFfm.COUNTER_VALUE.invokeExact(handle);
  }

  /** What a user who knows the C++ layout could write: no call at all. */
  @Benchmark
  public long rawMemoryRead() {
    return fieldMemory.get(JAVA_LONG, 0);
  }

  /**
   * The getter as it was before a close on another thread was made safe (docs/reliability.md): the handle, then a
   * read through a segment over the whole address space that no close can end. Its difference from
   * {@link #generated()} is what that safety costs a field read.
   */
  @Benchmark
  public long unguardedGetter() {
    return ALL.get(JAVA_LONG_UNALIGNED, ((ObjectRef) counter).handle() + valueOffset);
  }

  /** The object passed to a packed function, which holds it (a pin) for the call. */
  @Benchmark
  public long passedToFunction() {
    return functions.valueOf(counter);
  }

  /**
   * The object passed to a {@code set_body_typed} function (its typed entry, no call frame): issue 24's
   * {@code long f(Counter)} against {@link #rawFfm()}, the C function taking the pointer.
   */
  @Benchmark
  public long passedToTypedFunction() {
    return functions.valueOfTyped(counter);
  }

  /**
   * Diagnostic, not a user's code: the typed entry of bench.CounterValueTyped (the native side of
   * {@link #passedToTypedFunction}) called through a raw FFM downcall with the object's handle as its object word,
   * without the Java route: {@code typedEntryFfm - rawFfm} is what the entry adds natively,
   * {@code passedToTypedFunction - typedEntryFfm} what the Java route adds.
   */
  @Benchmark
  public long typedEntryFfm() throws Throwable {
    return (long) ValueEntry.HANDLE.invokeExact(handleAddress);
  }

  /** The entry's handle, read once the plugin is loaded (at the first {@link #typedEntryFfm}, in setUp). */
  private static final class ValueEntry {
    static final MethodHandle HANDLE;

    static {
      try {
        HANDLE = RawFfm.globalEntry("bench.CounterValueTyped", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG,
            JAVA_LONG));
      } catch (Throwable e) {
        throw new ExceptionInInitializerError(e);
      }
    }
  }

  @Benchmark
  public long jni() {
    return Jni.counterValue(handleAddress);
  }

  @Benchmark
  public long jnaDirect() {
    return JnaDirect.bench_counter_value(jnaHandle);
  }

  @Benchmark
  public long jnaInterface() {
    return JnaLibrary.INSTANCE.bench_counter_value(jnaHandle);
  }
}
