package dev.packed4j.runtime.internal.codec;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JFunction;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.RuntimeAccess;

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
    return RuntimeAccess.get().newPackedFunction(keep(NativeMemory.anyPayload(any), owned), null);
  }
}
