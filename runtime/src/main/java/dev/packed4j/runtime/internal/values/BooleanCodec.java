package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JBool;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.NativeMemory;

/** Boolean: {@code kP4JBool}. */
public final class BooleanCodec extends ValueCodec<Boolean> {
  public static final BooleanCodec BOOLEAN = new BooleanCodec();

  private BooleanCodec() {
    super("Boolean");
  }

  @Override
  public String wireType() {
    return "bool";
  }

  @Override
  public void encode(Boolean value, long slot, Frame frame) {
    NativeMemory.putAny(slot, kP4JBool, 0, value ? 1 : 0);
  }

  @Override
  public Boolean decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (type != kP4JBool) {
      throw mismatch(any);
    }
    return NativeMemory.anyPayload(any) != 0;
  }
}
