package dev.packed4j.runtime.internal.upcall;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JBytesView;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JFunction;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JStrView;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.ConversionFailure;
import dev.packed4j.runtime.internal.Errors;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeLibraries;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.RuntimeAccess;
import dev.packed4j.runtime.internal.ThreadStack;
import dev.packed4j.runtime.internal.Values;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.P4JAny;
import dev.packed4j.runtime.internal.codec.AnyCodec;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.WeakReference;

/**
 * Native function objects whose body is Java: {@link PackedFunction#of}.
 *
 * <p>One upcall stub serves every such function: the packed {@code safe_call}, made once per JVM. What tells the
 * functions apart is the cell's {@code self}, an index into {@link HandleTable}, where the Java body waits. The
 * native function object owns that slot: its deleter, a second shared upcall stub, frees it when the last native
 * reference goes, on whatever thread that is (a native thread the JVM has not seen is attached by FFM for the
 * call). So the body is reachable exactly while native code holds the function, and released exactly once.
 *
 * <p>No exception leaves an upcall target: each catches {@link Throwable} and reports it the only way the C ABI
 * allows (a raised error and -1 for a call; nothing for the deleter, whose only work cannot fail).
 */
public final class JavaFunctions {
  private JavaFunctions() {}

  /** Where a Java body's result is converted; named in a conversion error. */
  private static final CallTarget RESULT = CallTarget.operation("the result of a Java function");
  private static final CallTarget CREATE = CallTarget.operation("PackedFunction.of");

  /** A Java function's slot: its body, and the PackedFunction that made it, for an echo to find again. */
  static final class Entry {
    final Object body;
    private volatile WeakReference<PackedFunction> function;

    Entry(Object body) {
      this.body = body;
    }
  }

  private static final HandleTable<Entry> TABLE = new HandleTable<>();

  /** The two upcall stubs every Java function shares, made on first use and kept for the life of the JVM. */
  private static final class Stubs {
    static final MemorySegment SAFE_CALL;
    static final MemorySegment DELETER;

    static {
      NativeLibraries.ensureLoaded();
      JavaErrors.prepare();
      Linker linker = Linker.nativeLinker();
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      try {
        SAFE_CALL = linker.upcallStub(
            lookup.findStatic(JavaFunctions.class, "safeCall",
                MethodType.methodType(int.class, long.class, long.class, int.class, long.class)),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
            Arena.global());
        DELETER = linker.upcallStub(
            lookup.findStatic(JavaFunctions.class, "release", MethodType.methodType(void.class, long.class)),
            FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG), Arena.global());
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
    }
  }

  /** A new native function object calling {@code body}; the returned PackedFunction owns its one reference. */
  public static PackedFunction create(PackedFunction.Body body) {
    MemorySegment safeCall = Stubs.SAFE_CALL;
    Entry entry = new Entry(body);
    int index = TABLE.add(entry);
    long handle;
    try (Frame frame = ThreadStack.current().push(CREATE, 0)) {
      long cell = frame.scratch(32, 8);
      NativeMemory.putLong(cell, index);               // self: the slot
      NativeMemory.putLong(cell + 8, safeCall.address());
      NativeMemory.putLong(cell + 16, 0);              // no typed entry
      NativeMemory.putLong(cell + 24, 0);              // the core's scalars entry, through safe_call
      long out = frame.scratch(8, 8);
      Errors.check(CApi.P4JFunctionCreateFromCell(cell, 32, Stubs.DELETER.address(), 0, out), null);
      handle = NativeMemory.getLong(out);
    } catch (RuntimeException | Error e) {
      TABLE.remove(index);  // no function object owns the slot
      throw e;
    }
    // From here the function object owns the slot: its deleter frees it.
    PackedFunction function = RuntimeAccess.get().newPackedFunction(handle, null);
    entry.function = new WeakReference<>(function);
    return function;
  }

  /**
   * The PackedFunction that made the Java function at {@code handle}, when it is one and that object is still open;
   * null otherwise. An echo of a Java function comes back as the object that was passed.
   */
  public static PackedFunction knownFunction(long handle) {
    Entry entry = entryOf(handle);
    if (entry == null) {
      return null;
    }
    WeakReference<PackedFunction> reference = entry.function;
    PackedFunction function = reference == null ? null : reference.get();
    return function == null || function.isClosed() ? null : function;
  }

  /** Remembers {@code function} as the Java view of its native function, for the next echo. */
  public static void rememberView(long handle, PackedFunction function) {
    Entry entry = entryOf(handle);
    if (entry != null) {
      entry.function = new WeakReference<>(function);
    }
  }

  /** The Java body of the function at {@code handle} when it is a Java function, else null. */
  public static Object bodyOf(long handle) {
    Entry entry = entryOf(handle);
    return entry == null ? null : entry.body;
  }

  private static Entry entryOf(long handle) {
    if (handle == 0 || NativeMemory.objectTypeIndex(handle) != kP4JFunction) {
      return null;
    }
    long cell = NativeMemory.cell(handle);
    if (NativeMemory.getLong(cell + 8) != Stubs.SAFE_CALL.address()) {
      return null;
    }
    return TABLE.get((int) NativeMemory.getLong(cell));
  }

  /** Java functions alive (held by native code), for leak tests. */
  public static int liveCount() {
    return TABLE.size();
  }

  // ---------------------------------------------------------------- upcall targets

  /** The packed {@code safe_call} of every Java function. Never throws. */
  private static int safeCall(long self, long arguments, int count, long result) {
    try {
      Entry entry = TABLE.get((int) self);
      Object[] values = new Object[count];
      for (int i = 0; i < count; i++) {
        values[i] = AnyCodec.ANY.decode(arguments + (long) i * P4JAny.SIZE, false);
      }
      Object value = ((PackedFunction.Body) entry.body).call(values);
      writeResult(value, result);
      return 0;
    } catch (Throwable thrown) {
      return JavaErrors.raise(thrown);
    }
  }

  /** The deleter of every Java function: frees its slot. Never throws. */
  private static void release(long self) {
    try {
      TABLE.remove((int) self);
    } catch (Throwable ignored) {
      // The deleter returns nothing, so nothing can be reported; freeing a slot fails only on a corrupt index.
    }
  }

  /**
   * Writes {@code value} to {@code result} as an owned value, as the C ABI's result is: a string or bytes becomes a
   * new object, an object takes a reference of its own, a Java list or map becomes a native one.
   */
  public static void writeResult(Object value, long result) {
    try (Frame frame = ThreadStack.current().push(RESULT, 1)) {
      long slot = frame.slot(0);
      try {
        AnyCodec.ANY.encode(value, slot, frame);
      } catch (ConversionFailure failure) {
        throw failure.toResultException("a Java function", null);
      }
      writeOwned(slot, result, frame);
    }
  }

  /** Copies the borrowed value at {@code slot} to {@code result}, owned. */
  static void writeOwned(long slot, long result, Frame frame) {
    int type = NativeMemory.anyTypeIndex(slot);
    if (type == kP4JStrView || type == kP4JBytesView) {
      long span = frame.scratch(16, 8);
      NativeMemory.putLong(span, NativeMemory.anyPayload(slot));
      NativeMemory.putLong(span + 8, Integer.toUnsignedLong(NativeMemory.getInt(slot + 4)));
      int status = type == kP4JStrView
          ? CApi.P4JStringFromByteArray(span, result)
          : CApi.P4JBytesFromByteArray(span, result);
      Errors.check(status, null);
      return;
    }
    if (Values.isObject(type)) {
      CApi.P4JObjectIncRef(NativeMemory.anyPayload(slot));
    }
    NativeMemory.putLong(result, NativeMemory.getLong(slot));
    NativeMemory.putLong(result + 8, NativeMemory.getLong(slot + 8));
  }
}
