package dev.packed4j.runtime.internal.upcall;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JFunction;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.binding.CallbackBodies;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.values.ClosureViews;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.FunctionWordCodec;
import dev.packed4j.runtime.internal.values.FunctionCodec;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A functional interface as a value: an implementation becomes a Java function object for the call (released when
 * the call's frame closes, unless native code kept it), a native function comes back as an implementation.
 */
public final class CallbackCodec<F> extends ValueCodec<F> implements FunctionWordCodec {
  private final Class<? super F> type;
  private final WireShape shape;
  private final String signature;
  /** What the errors of its Java functions call one: {@code "the Function callback (string) -> string"}. */
  private final String callback;
  private final Function<? super F, ?> toWire;
  private final Function<? super F, CallbackBodies.Packed> toPacked;
  private final Function<Object, ? extends F> fromFunction;
  /** A Java function of this codec no one holds, kept for the next {@link #ownedWord}; 0 for none. */
  private final AtomicLong pool = new AtomicLong();

  private CallbackCodec(Class<? super F> type, String signature, WireShape shape, Function<? super F, ?> toWire,
      Function<? super F, CallbackBodies.Packed> toPacked, Function<Object, ? extends F> fromFunction) {
    super(type.getSimpleName());
    this.type = type;
    this.signature = signature;
    this.callback = "the " + type.getSimpleName() + " callback " + signature;
    this.shape = shape;
    this.toWire = toWire;
    this.toPacked = toPacked;
    this.fromFunction = fromFunction;
  }

  /** A codec whose Java functions have a typed entry of {@code signature}. */
  public static <F> CallbackCodec<F> typed(Class<? super F> type, String signature, Function<? super F, ?> toWire,
      Function<Object, ? extends F> fromFunction) {
    return new CallbackCodec<>(type, signature, WireShape.parse(signature), toWire, null, fromFunction);
  }

  /** A codec whose Java functions are called packed. */
  public static <F> CallbackCodec<F> packed(Class<? super F> type, String signature,
      Function<? super F, CallbackBodies.Packed> toPacked, Function<Object, ? extends F> fromFunction) {
    return new CallbackCodec<>(type, signature, null, null, toPacked, fromFunction);
  }

  @Override
  public String wireType() {
    return "function";
  }

  @Override
  public boolean acceptsNull() {
    return false;
  }

  @Override
  public String nullHint() {
    return "";
  }

  /** A new function object for {@code value}, owned by the returned PackedFunction. */
  public Object toFunction(F value) {
    long handle = newHandle(value);
    Object function = RuntimeAccess.get().newPackedFunction(handle, null);
    JavaFunctions.rememberView(handle, function);
    return function;
  }

  private long newHandle(F value) {
    return shape != null
        ? JavaFunctions.createTyped(value, shape, toWire.apply(value), callback)
        : JavaFunctions.createPacked(value, signature, toPacked.apply(value), callback);
  }

  @Override
  public void encode(F value, long slot, Frame frame) {
    if (RuntimeAccess.get().kindOf(value) == RuntimeAccess.ViewKind.CLOSURE) {
      Object function = ClosureViews.functionOf(value);
      if (function != null) {
        // A closure out passed back: its native function itself, not a Java function that would call it.
        FunctionCodec.PACKED_FUNCTION.encode(function, slot, frame);
        return;
      }
    }
    long handle = newHandle(value);
    // The frame holds the one reference Java made; native code that keeps the function takes its own.
    frame.ownTemporary(handle);
    NativeMemory.putAny(slot, kP4JFunction, 0, handle);
  }

  @Override
  public F decode(long any, boolean owned) {
    int typeIndex = NativeMemory.anyTypeIndex(any);
    if (typeIndex == kP4JNone) {
      return null;
    }
    if (typeIndex != kP4JFunction) {
      throw mismatch(any);
    }
    return decodeHandle(NativeMemory.anyPayload(any), owned);
  }

  /**
   * A typed entry's function argument (a callback in) as an owned object word, which the caller releases after the
   * call: a closure out passed back is its native function itself (a reference taken under a pin, as the frame
   * passes it), anything else a new Java function object, as {@link #encode} makes for the frame.
   *
   * @throws dev.packed4j.runtime.internal.errors.ConversionFailure for a closed closure, as {@link #encode}
   */
  @Override
  public long ownedWord(Object argument) {
    @SuppressWarnings("unchecked") // generated code passes it where the method declares F
    F value = (F) argument;
    if (RuntimeAccess.get().kindOf(value) == RuntimeAccess.ViewKind.CLOSURE) {
      Object function = ClosureViews.functionOf(value);
      if (function != null) {
        return FunctionCodec.PACKED_FUNCTION.ownedWord(function);
      }
    }
    long pooled = pool.getAndSet(0);
    if (pooled != 0) {
      Object wire;
      CallbackBodies.Packed packed;
      try {
        wire = shape != null ? toWire.apply(value) : null;
        packed = shape != null ? null : toPacked.apply(value);
      } catch (RuntimeException | Error e) {
        if (!pool.compareAndSet(0, pooled)) {
          JavaFunctions.unpool(pooled);
          CApi.P4JObjectDecRef(pooled);
        }
        throw e;
      }
      JavaFunctions.reuse(pooled, value, wire, packed);
      return pooled;
    }
    long handle = newHandle(value);
    JavaFunctions.poolableBy(handle, this);
    return handle;
  }

  /**
   * Gives back a word of {@link #ownedWord} after the call: a Java function no native code kept waits in this
   * codec's pool (one at most, its target dropped) for the next call instead of being released and made again,
   * which spares a function object's creation and its deleter's upcall per call; anything else is released.
   */
  @Override
  public void releaseWord(long word) {
    if (JavaFunctions.pool(word, this)) {
      if (pool.compareAndSet(0, word)) {
        return;
      }
      JavaFunctions.unpool(word);
    }
    CApi.P4JObjectDecRef(word);
  }

  /**
   * A typed entry's function result (a closure out), an owned object word (0 for None): what {@link #decode}
   * returns for the same function.
   */
  @Override
  public F decodeOwnedWord(long handle) {
    return handle == 0 ? null : decodeHandle(handle, true);
  }

  private F decodeHandle(long handle, boolean owned) {
    Object target = JavaFunctions.targetOf(handle);
    if (type.isInstance(target)) {
      // A Java implementation coming back: the object that went out (of the declared interface, as it went out
      // through a parameter of that type; a generic interface's arguments are not checked at run time).
      releaseIfOwned(handle, owned);
      @SuppressWarnings("unchecked")
      F implementation = (F) target;
      return implementation;
    }
    // A PackedFunction of the view's own, never the caller's: FunctionCodec would give back the PackedFunction a
    // Java function went out as (an echo), and closing the view must not close an object its caller still uses.
    Object function = RuntimeAccess.get().newPackedFunction(keep(handle, owned), null,
        "the " + type.getSimpleName() + " closure " + signature);
    F view = fromFunction.apply(function);
    if (RuntimeAccess.get().kindOf(view) == RuntimeAccess.ViewKind.CLOSURE) {
      ClosureViews.remember(view, function);
    }
    return view;
  }
}
