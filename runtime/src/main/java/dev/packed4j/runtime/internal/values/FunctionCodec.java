package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JFunction;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;

/** PackedFunction: {@code kP4JFunction}. */
public final class FunctionCodec extends ValueCodec<Object> implements FunctionWordCodec {
  public static final FunctionCodec PACKED_FUNCTION = new FunctionCodec();

  private FunctionCodec() {
    super("PackedFunction");
  }

  @Override
  public String wireType() {
    return "function";
  }

  @Override
  public void encode(Object value, long slot, Frame frame) {
    ObjectHandles.encode(value, "PackedFunction", slot, frame);
  }

  @Override
  public Object decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (type != kP4JFunction) {
      throw mismatch(any);
    }
    return decodeHandle(NativeMemory.anyPayload(any), owned);
  }

  /**
   * A typed entry's function result, an owned object word (0 for None): the PackedFunction the call frame would
   * return for the same function (the one that went out, for an echo).
   */
  @Override
  public Object decodeOwnedWord(long handle) {
    return handle == 0 ? null : decodeHandle(handle, true);
  }

  /**
   * A PackedFunction argument of a typed entry as an owned object word: a reference taken under a pin (a close on
   * another thread waits for it), so the caller releases it after the call; the frame's failures for a closed or
   * foreign function.
   *
   * @throws ConversionFailure as {@link #encode}
   */
  @Override
  public long ownedWord(Object value) {
    ReleaseEpochs.Pin pin = ObjectHandles.pin(value, "PackedFunction");
    try {
      long handle = pin.pinnedHandle();
      CApi.P4JObjectIncRef(handle);
      return handle;
    } finally {
      pin.unpin();
    }
  }

  /** A PackedFunction argument's word: its reference is released. */
  @Override
  public void releaseWord(long word) {
    CApi.P4JObjectDecRef(word);
  }

  private Object decodeHandle(long handle, boolean owned) {
    // A Java function coming back (an echo) is the PackedFunction that went out, while that one is open.
    Object known = FunctionEchoes.knownFunction(handle);
    if (known != null) {
      releaseIfOwned(handle, owned);
      return known;
    }
    Object function = RuntimeAccess.get().newPackedFunction(keep(handle, owned), null);
    FunctionEchoes.rememberView(handle, function);
    return function;
  }
}
