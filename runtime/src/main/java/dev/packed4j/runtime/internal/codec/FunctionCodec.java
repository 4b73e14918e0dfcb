package dev.packed4j.runtime.internal.codec;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JFunction;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.RuntimeAccess;
import dev.packed4j.runtime.internal.upcall.JavaFunctions;

/** PackedFunction: {@code kP4JFunction}. */
public final class FunctionCodec extends ValueCodec<PackedFunction> {
  public static final FunctionCodec PACKED_FUNCTION = new FunctionCodec();

  private FunctionCodec() {
    super("PackedFunction");
  }

  @Override
  public String wireType() {
    return "function";
  }

  @Override
  public void encode(PackedFunction value, long slot, Frame frame) {
    ObjectHandles.encode(value, slot, frame);
  }

  @Override
  public PackedFunction decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (type != kP4JFunction) {
      throw mismatch(any);
    }
    long handle = NativeMemory.anyPayload(any);
    // A Java function coming back (an echo) is the PackedFunction that went out, while that one is open.
    PackedFunction known = JavaFunctions.knownFunction(handle);
    if (known != null) {
      releaseIfOwned(handle, owned);
      return known;
    }
    PackedFunction function = RuntimeAccess.get().newPackedFunction(keep(handle, owned), null);
    JavaFunctions.rememberView(handle, function);
    return function;
  }
}
