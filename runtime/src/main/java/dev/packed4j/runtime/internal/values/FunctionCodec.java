package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JFunction;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.NativeMemory;

/** PackedFunction: {@code kP4JFunction}. */
public final class FunctionCodec extends ValueCodec<Object> {
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
    long handle = NativeMemory.anyPayload(any);
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
