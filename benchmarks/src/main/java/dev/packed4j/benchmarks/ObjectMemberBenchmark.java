package dev.packed4j.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.packed4j.runtime.ObjectRef;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Objects as classes (issue 22), each against its raw FFM twin in the same run: a method {@code (int64, int64) ->
 * int64} on an object against a C function taking the object pointer and two longs; a numeric setter (a store)
 * and a String setter (one call) against C functions writing the field; construct + close against a C create +
 * free of the same struct.
 */
public class ObjectMemberBenchmark extends BenchmarkSettings {
  private BenchFunctions functions;
  private Counter counter;
  private MemorySegment handle;
  private MemorySegment labelBytes;
  private long handleWord;
  private long a = 1;
  private long b = 2;
  private long value = 7;
  private String label = "a label of 24 characters";

  @Setup
  public void setUp() throws Throwable {
    functions = BenchLibrary.bind();
    counter = functions.newCounter(40);
    handle = MemorySegment.ofAddress(((ObjectRef) counter).handle());
    labelBytes = Arena.ofAuto().allocate(64);
    Expect.equal(43L, counter.add(a, b), "generated Counter.add");
    Expect.equal(43L, (long) RawFfm.COUNTER_ADD.invokeExact(handle, a, b), "raw FFM bench_counter_add");
    handleWord = handle.address();
    Expect.equal(43L, methodTypedEntryFfm(), "the typed entry of Counter.add through raw FFM");
    counter.value(40);
    Expect.equal(40L, counter.value(), "generated Counter.value(long)");
    counter.label(label);
    Expect.equal(label, counter.label(), "generated Counter.label(String)");
    try (Counter made = functions.newCounter(5)) {
      Expect.equal(5L, made.value(), "generated constructor");
    }
  }

  @TearDown
  public void tearDown() {
    counter.close();
  }

  @Benchmark
  public long methodGenerated() {
    return counter.add(a, b);
  }

  @Benchmark
  public long methodRawFfm() throws Throwable {
    return (long) RawFfm.COUNTER_ADD.invokeExact(handle, a, b);
  }

  /**
   * Diagnostic, not a user's code: the typed entry of {@code add} (the native side of {@link #methodGenerated})
   * called through a raw FFM downcall with the object's handle as its object word, without the Java route (no
   * override check, no hold, no sentinel test). {@code methodTypedEntryFfm - methodRawFfm} is what the entry adds
   * natively, {@code methodGenerated - methodTypedEntryFfm} what the Java route adds.
   */
  @Benchmark
  public long methodTypedEntryFfm() throws Throwable {
    return (long) AddEntry.HANDLE.invokeExact(handleWord, a, b);
  }

  /** The entry's handle, read once the plugin is loaded (at the first {@link #methodTypedEntryFfm}, in setUp). */
  private static final class AddEntry {
    static final MethodHandle HANDLE;

    static {
      try {
        HANDLE = RawFfm.counterMethodEntry("add", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_LONG));
      } catch (Throwable e) {
        throw new ExceptionInInitializerError(e);
      }
    }
  }

  @Benchmark
  public void numericSetterGenerated() {
    counter.value(value);
  }

  @Benchmark
  public void numericSetterRawFfm() throws Throwable {
    RawFfm.COUNTER_SET_VALUE.invokeExact(handle, value);
  }

  @Benchmark
  public void stringSetterGenerated() {
    counter.label(label);
  }

  @Benchmark
  public void stringSetterRawFfm() throws Throwable {
    byte[] utf8 = label.getBytes(StandardCharsets.UTF_8);
    MemorySegment.copy(utf8, 0, labelBytes, JAVA_BYTE, 0, utf8.length);
    RawFfm.COUNTER_SET_LABEL.invokeExact(handle, labelBytes, (long) utf8.length);
  }

  @Benchmark
  public Counter constructGenerated() {
    Counter made = functions.newCounter(value);
    made.close();
    return made;
  }

  @Benchmark
  public long constructRawFfm() throws Throwable {
    MemorySegment made = (MemorySegment) RawFfm.COUNTER_NEW.invokeExact(value);
    RawFfm.COUNTER_FREE.invokeExact(made);
    return made.address();
  }
}
