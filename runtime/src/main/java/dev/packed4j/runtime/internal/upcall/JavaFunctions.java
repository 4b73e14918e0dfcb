package dev.packed4j.runtime.internal.upcall;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JBytesView;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JFunction;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JStrView;

import dev.packed4j.runtime.binding.CallbackBodies;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
import dev.packed4j.runtime.internal.capi.P4JObject;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.values.AnyCodec;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.FunctionEchoes;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.Values;
import dev.packed4j.types.Signature;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.invoke.MethodType;
import java.lang.ref.WeakReference;

/**
 * Native function objects whose body is Java: {@link PackedFunction#of}, functional interfaces passed to a
 * {@code @Global} ({@code CallbackCodec}), exported static methods ({@code Callbacks.typedFunction} and
 * {@code packedFunction}).
 *
 * <p>One upcall stub serves every such function: the packed {@code safe_call}, made once per JVM (a typed function
 * has, besides, the typed entry of its machine shape, {@link TypedStubs}). What tells the
 * functions apart is the cell's {@code self}, an index into {@link HandleTable}, where the Java body waits. The
 * native function object owns that slot: its deleter, a second shared upcall stub, frees it when the last native
 * reference goes, on whatever thread that is (a native thread the JVM has not seen is attached by FFM for the
 * call). So the body is reachable exactly while native code holds the function, and released exactly once.
 *
 * <p>No exception leaves an upcall target: each catches {@link Throwable} and reports it the only way the C ABI
 * allows (a raised error and -1 for a call; nothing for the deleter, whose only work cannot fail).
 */
public final class JavaFunctions {
  static {
    FunctionEchoes.install(new FunctionEchoes.Lookup() {
      @Override
      public Object knownFunction(long handle) {
        return JavaFunctions.knownFunction(handle);
      }

      @Override
      public void rememberView(long handle, Object function) {
        JavaFunctions.rememberView(handle, function);
      }
    });
  }

  private JavaFunctions() {}

  /** Where a Java body's result is converted; named in a conversion error. */
  private static final CallTarget RESULT = CallTarget.operation("the result of a Java function");
  private static final CallTarget CREATE = CallTarget.operation("creating a Java function");

  /**
   * A Java function's slot: the Java object it stands for (a Body, a functional interface implementation), how it is
   * called (exactly one of {@code body}, {@code packed}, {@code wire}), and the PackedFunction made for it, for an
   * echo to find again.
   */
  static final class Entry {
    /**
     * Set again when a pooled function is reused ({@link #reuse}); null while it waits in a pool. The fields a reuse
     * sets are plain: only the thread that took the function from its pool (an atomic exchange) writes them, before
     * it passes the function to native code, and the pool's compare-and-set publishes a function's return.
     */
    Object target;
    final JavaBody body;
    CallbackBodies.Packed packed;
    /** A {@code Callbacks.WireN} of the arity of {@code shape}. */
    Object wire;
    final WireShape shape;
    /** The codec whose pool may keep this function ({@link #pool}); null for functions never pooled. */
    volatile Object pooledBy;
    /** Whether it waits in its pool (left out of {@link #liveCount}). */
    boolean pooled;
    /** The {@code PackedFunction} made for it. */
    private volatile WeakReference<Object> function;
    /**
     * What its errors call it when it was made for a functional interface: {@code "the Function callback (string) ->
     * string"}; null otherwise.
     */
    final String callback;
    /**
     * The global it is exported as, with its Java method ({@code "host.Add (HostFunctions.add)"}), once
     * {@link #name} named it; null for a function passed as a value.
     */
    volatile String name;
    /**
     * What a packed body's errors call it once named: {@code "the Java function host.Echo (Host.echo) (string) ->
     * string"}.
     */
    volatile String namedCallback;
    /** A packed body's signature, as its codec or export recorded it; null for other bodies. */
    final String signature;
    /** How many arguments a packed body of a known signature takes (a call with more or fewer is refused), or -1. */
    final int arity;

    Entry(Object target, JavaBody body, CallbackBodies.Packed packed, Object wire, WireShape shape) {
      this(target, body, packed, wire, shape, null, null);
    }

    Entry(Object target, JavaBody body, CallbackBodies.Packed packed, Object wire, WireShape shape,
        String callback, String signature) {
      this.target = target;
      this.body = body;
      this.packed = packed;
      this.wire = wire;
      this.shape = shape;
      this.callback = callback;
      this.signature = signature;
      this.arity = arityOf(signature);
    }
  }

  /** The parameter count of a signature, or -1 when there is none or it does not parse. */
  private static int arityOf(String signature) {
    if (signature == null) {
      return -1;
    }
    try {
      return Signature.parse(signature).parameters().size();
    } catch (IllegalArgumentException notASignature) {
      return -1;
    }
  }

  private static final HandleTable<Entry> TABLE = new HandleTable<>();

  /** The system property giving the native stack a call into Java needs, in KiB (at least 64). */
  public static final String STACK_RESERVE_PROPERTY = "packed4j.callback.stackReserveKiB";

  /**
   * The two upcall stubs every Java function shares, made on first use and kept for the life of the JVM, and the
   * core's guarded entries in front of them: a function object's cell holds {@code P4JHostSafeCall} and
   * {@code P4JHostRelease}, which check the thread's remaining stack before they call these stubs, so a call into
   * Java never starts with too little stack for the JVM to run the upcall's own frames (c_api.h, "Host entries").
   */
  @SuppressWarnings("restricted") // upcall stubs with the ABI's safe_call and deleter signatures
  private static final class Stubs {
    static final MemorySegment SAFE_CALL;
    static final MemorySegment DELETER;
    /** What a Java function's cell holds as its safe_call and deleter: the core's guarded entries. */
    static final long GUARDED_SAFE_CALL;
    static final long GUARDED_RELEASE;

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
      Errors.check(CApi.P4JHostSetEntries(SAFE_CALL.address(), DELETER.address(), stackReserve()), null);
      GUARDED_SAFE_CALL = CApi.P4JHostSafeCall$address().address();
      GUARDED_RELEASE = CApi.P4JHostRelease$address().address();
    }

    /** The reserve in bytes: {@value #STACK_RESERVE_PROPERTY} KiB, or 0 for the core's default (192 KiB). */
    private static long stackReserve() {
      String value = System.getProperty(STACK_RESERVE_PROPERTY);
      if (value == null || value.isBlank()) {
        return 0;
      }
      try {
        long kib = Long.parseLong(value.strip());
        if (kib >= 64 && kib <= 1L << 30) {
          return kib * 1024;
        }
      } catch (NumberFormatException ignored) {
        // reported below
      }
      throw new IllegalArgumentException(STACK_RESERVE_PROPERTY + " is a number of KiB from 64, got '" + value
          + "'");
    }
  }

  /** What {@code PackedFunction.of} runs: its {@code Body}, seen from below the public package. */
  @FunctionalInterface
  public interface JavaBody {
    /** Runs the body on arguments decoded as {@code PackedFunction.invoke} results are. */
    Object call(Object[] args) throws Exception;
  }

  /**
   * A new native function object calling {@code body}; the returned PackedFunction owns its one reference.
   *
   * @param target the user's object, which an echo of the function gives back
   * @param body calls it
   */
  public static Object create(Object target, JavaBody body) {
    Entry entry = new Entry(target, body, null, null, null);
    long handle = createHandle(entry, NO_TYPED_ENTRY, null);
    Object function = RuntimeAccess.get().newPackedFunction(handle, null);
    entry.function = new WeakReference<>(function);
    return function;
  }

  /**
   * A new function object (an owned handle) for {@code target} with a typed entry of {@code shape}: C++ that
   * knows the signature calls {@code wire} through the shape's upcall stub; a packed call converts its arguments
   * to the wire values first.
   */
  public static long createTyped(Object target, WireShape shape, Object wire) {
    return createTyped(target, shape, wire, null);
  }

  /**
   * {@link #createTyped(Object, WireShape, Object)} of a functional interface's value, which its errors call
   * {@code callback} ({@code "the LongBinaryOperator callback (int64, int64) -> int64"}).
   */
  public static long createTyped(Object target, WireShape shape, Object wire, String callback) {
    Entry entry = new Entry(target, null, null, wireOfArity(wire, shape), shape, callback, null);
    return createHandle(entry, TypedStubs.indexOf(shape), shape.signature());
  }

  /** A new function object (an owned handle) for {@code target}, called packed with codec-decoded arguments. */
  public static long createPacked(Object target, String signature, CallbackBodies.Packed packed, String callback) {
    return createHandle(new Entry(target, null, packed, null, null, callback, signature), NO_TYPED_ENTRY, signature);
  }

  /**
   * Names the Java function at {@code handle} for its errors: its arity, argument and result errors then start with
   * {@code the Java function <name>}, as a C++ function's start with its name. Nothing for another handle.
   *
   * @param handle a function handle, the Java function's or any other
   * @param name the global it is exported as, with its Java method: {@code "host.Add (HostFunctions.add)"}
   */
  public static void name(long handle, String name) {
    Entry entry = entryOf(handle);
    if (entry != null) {
      entry.namedCallback = "the Java function " + name + (entry.signature == null ? "" : " " + entry.signature);
      entry.name = name;
    }
  }

  /**
   * Names the Java function at {@code handle} by the global it is registered as ({@code Registry.register}), unless
   * it has a name already (an exported method's, with its Java method).
   */
  public static void nameUnlessNamed(long handle, String name) {
    Entry entry = entryOf(handle);
    if (entry != null && entry.name == null) {
      name(handle, name);
    }
  }

  /** A PackedFunction owning a new typed Java function whose target is its wire body. */
  public static Object typedFunction(String signature, Object wire) {
    return view(createTyped(wire, WireShape.parse(signature), wire));
  }

  /** A PackedFunction owning a new Java function called packed, recording {@code signature}. */
  public static Object packedFunction(String signature, CallbackBodies.Packed body) {
    return view(createPacked(body, signature, body, "the Java function " + signature));
  }

  private static Object view(long handle) {
    Object function = RuntimeAccess.get().newPackedFunction(handle, null);
    rememberView(handle, function);
    return function;
  }

  private static Object wireOfArity(Object wire, WireShape shape) {
    boolean fits = switch (shape.parameters().size()) {
      case 0 -> wire instanceof CallbackBodies.Wire0;
      case 1 -> wire instanceof CallbackBodies.Wire1;
      case 2 -> wire instanceof CallbackBodies.Wire2;
      case 3 -> wire instanceof CallbackBodies.Wire3;
      default -> wire instanceof CallbackBodies.Wire4;
    };
    if (!fits) {
      throw new IllegalArgumentException("the wire body of " + shape.signature() + " must be a Callbacks.Wire"
          + shape.parameters().size() + ", not " + (wire == null ? "null" : wire.getClass().getName()));
    }
    return wire;
  }

  /** The typed stub index of a function that has no typed entry. */
  private static final int NO_TYPED_ENTRY = -1;

  /**
   * Stores {@code entry} and makes its function object; the object owns the slot (its deleter frees it). The cell's
   * self is the slot in its low 32 bits and, for a typed function, the index of its machine shape's stub in the high
   * 32 bits, where the core's guarded typed entry finds the stub ({@code P4JHostSetTypedEntry}).
   */
  private static long createHandle(Entry entry, int typedStub, String signature) {
    long safeCall = Stubs.GUARDED_SAFE_CALL;
    releaseDeferred();
    int index = TABLE.add(entry);
    try (Frame frame = ThreadStack.current().push(CREATE, 0)) {
      long cell = frame.scratch(32, 8);
      long typedEntry = typedStub == NO_TYPED_ENTRY ? 0 : TypedStubs.guardedEntry(entry.shape);
      NativeMemory.putLong(cell, typedStub == NO_TYPED_ENTRY ? index : (long) typedStub << 32 | index);
      NativeMemory.putLong(cell + 8, safeCall);
      NativeMemory.putLong(cell + 16, typedEntry);     // 0: none
      NativeMemory.putLong(cell + 24, 0);              // the core's scalars entry, through safe_call
      long signatureSpan = signature == null ? 0 : frame.stringSpan(signature);
      long out = frame.scratch(8, 8);
      Errors.check(CApi.P4JFunctionCreateFromCell(cell, 32, Stubs.GUARDED_RELEASE, signatureSpan, out), null);
      return NativeMemory.getLong(out);
    } catch (RuntimeException | Error e) {
      TABLE.remove(index);  // no function object owns the slot
      throw e;
    }
  }

  /**
   * An object's {@code ref_counter}, read with acquire: a count of 1 seen after another thread's last DecRef also sees
   * everything that thread did with the function before.
   */
  private static final VarHandle REF_COUNTER = ValueLayout.JAVA_LONG.varHandle();

  /**
   * Makes the pooled Java function at {@code handle} (from {@link #pool}) call {@code target} through {@code wire}
   * (a typed function) or {@code packed}: what {@link #createTyped} or {@link #createPacked} would make, without
   * creating a function object and releasing it after the call.
   */
  static void reuse(long handle, Object target, Object wire, CallbackBodies.Packed packed) {
    Entry entry = TABLE.get((int) NativeMemory.getLong(NativeMemory.cell(handle)));
    entry.wire = wire == null ? null : wireOfArity(wire, entry.shape);
    entry.packed = packed;
    entry.target = target;
    entry.pooled = false;
  }

  /**
   * Whether the Java function at {@code handle} (an owned reference) may wait in {@code pool} (the codec that made
   * it, {@link #poolableBy}) for {@link #reuse} instead of being released: nothing but this
   * reference holds it (native code kept nothing), so no one can call it. Its target is dropped (the pool keeps no
   * Java object reachable); the caller stores the handle in its pool or, when the pool is full, releases it.
   */
  static boolean pool(long handle, Object pool) {
    Entry entry = entryOf(handle);
    if (entry == null || entry.pooledBy != pool
        || (long) REF_COUNTER.getAcquire(NativeMemory.ALL, handle + P4JObject.REF_COUNTER) != 1) {
      return false;
    }
    entry.target = null;
    entry.wire = null;
    entry.packed = null;
    entry.pooled = true;
    return true;
  }

  /** Lets {@code pool} keep the Java function at {@code handle}, which it made, for {@link #reuse}. */
  static void poolableBy(long handle, Object pool) {
    TABLE.get((int) NativeMemory.getLong(NativeMemory.cell(handle))).pooledBy = pool;
  }

  /** Undoes {@link #pool} for the function at {@code handle}, which its pool had no room for; the caller frees it. */
  static void unpool(long handle) {
    TABLE.get((int) NativeMemory.getLong(NativeMemory.cell(handle))).pooled = false;
  }

  /**
   * Frees the slots of Java functions whose last native reference went on a thread with too little stack to call
   * Java: the core kept them for later (c_api.h, {@code P4JHostRelease}).
   */
  private static void releaseDeferred() {
    try (Frame frame = ThreadStack.current().push(CREATE, 0)) {
      long out = frame.scratch(8L * 64, 8);
      int count;
      do {
        count = CApi.P4JHostTakeDeferredReleases(out, 64);
        for (int i = 0; i < count; i++) {
          TABLE.remove((int) NativeMemory.getLong(out + 8L * i));
        }
      } while (count == 64);
    }
  }

  /**
   * The PackedFunction that made the Java function at {@code handle}, when it is one and that object is still open;
   * null otherwise. An echo of a Java function comes back as the object that was passed.
   */
  public static Object knownFunction(long handle) {
    Entry entry = entryOf(handle);
    if (entry == null) {
      return null;
    }
    WeakReference<Object> reference = entry.function;
    Object function = reference == null ? null : reference.get();
    return function == null || RuntimeAccess.get().isClosed(function) ? null : function;
  }

  /** Remembers {@code function} as the Java view of its native function, for the next echo. */
  public static void rememberView(long handle, Object function) {
    Entry entry = entryOf(handle);
    if (entry != null) {
      entry.function = new WeakReference<>(function);
    }
  }

  /** The Java object behind the function at {@code handle} when it is a Java function, else null. */
  public static Object targetOf(long handle) {
    Entry entry = entryOf(handle);
    return entry == null ? null : entry.target;
  }

  private static Entry entryOf(long handle) {
    if (handle == 0 || NativeMemory.objectTypeIndex(handle) != kP4JFunction) {
      return null;
    }
    long cell = NativeMemory.cell(handle);
    if (NativeMemory.getLong(cell + 8) != Stubs.GUARDED_SAFE_CALL) {
      return null;
    }
    return TABLE.get((int) NativeMemory.getLong(cell));
  }

  /**
   * Java functions alive (held by native code), for leak tests; releases what was closed first (see
   * {@code ReleaseEpochs}), so a function whose last reference was closed is not counted.
   */
  public static int liveCount() {
    ReleaseEpochs.drain();
    return TABLE.count(entry -> !entry.pooled);
  }

  // ---------------------------------------------------------------- upcall targets

  /** The packed {@code safe_call} of every Java function. Never throws. */
  private static int safeCall(long self, long arguments, int count, long result) {
    try {
      Entry entry = TABLE.get((int) self);
      if (entry.body != null) {
        Object[] values = new Object[count];
        for (int i = 0; i < count; i++) {
          values[i] = AnyCodec.ANY.decode(arguments + (long) i * P4JAny.SIZE, false);
        }
        writeResult(entry.body.call(values), result, entry.name);
      } else if (entry.packed != null) {
        String named = entry.namedCallback;
        PackedArgs.call(entry.packed, named == null ? entry.callback : named, entry.arity, arguments, count, result);
      } else {
        TypedCalls.callPacked(entry.wire, entry.shape, typedSubject(entry), arguments, count, result);
      }
      return 0;
    } catch (Throwable thrown) {
      // Even calling raise needs a stack frame: with no stack left it throws, and that must not leave this method
      // either. -1 without a raised error is still reported by the caller.
      try {
        return JavaErrors.raise(thrown);
      } catch (Throwable nothingLeft) {
        return -1;
      }
    }
  }

  /**
   * The wire body of the typed Java function at {@code function} (a handle), found through its cell's self (the
   * slot is its low 32 bits).
   */
  static Object wireOf(long function) {
    return TABLE.get((int) NativeMemory.getLong(NativeMemory.cell(function))).wire;
  }

  /** The exception of a typed body's argument that did not convert, named as the function's other argument errors. */
  static RuntimeException argumentFailure(long function, ConversionFailure failure) {
    Entry entry = TABLE.get((int) NativeMemory.getLong(NativeMemory.cell(function)));
    return TypedCalls.argumentFailure(typedSubject(entry), failure);
  }

  /**
   * What a typed body's errors call it: its export ({@code "the Java function host.Add (HostFunctions.add) (int64,
   * int64) -> int64"}), else the functional interface it was made for ({@code "the LongBinaryOperator callback
   * (int64, int64) -> int64"}), else its signature.
   */
  static String typedSubject(Entry entry) {
    String name = entry.name;
    return name != null ? "the Java function " + name + " " + entry.shape.signature()
        : entry.callback != null ? entry.callback : "a Java callback of signature " + entry.shape.signature();
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
    writeResult(value, result, null);
  }

  /** {@link #writeResult(Object, long)} for the Java function named {@code name} in errors (null: unnamed). */
  private static void writeResult(Object value, long result, String name) {
    try (Frame frame = ThreadStack.current().push(RESULT, 1)) {
      long slot = frame.slot(0);
      try {
        AnyCodec.ANY.encode(value, slot, frame);
      } catch (ConversionFailure failure) {
        throw failure.toResultException(name == null ? "a Java function" : "the Java function " + name, null);
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
