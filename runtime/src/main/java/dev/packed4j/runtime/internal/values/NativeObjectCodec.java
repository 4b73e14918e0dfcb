package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.NativeMemory;

/** NativeObject: any object, viewed generically. */
public final class NativeObjectCodec extends ValueCodec<Object> {
  public static final NativeObjectCodec NATIVE_OBJECT = new NativeObjectCodec();

  private NativeObjectCodec() {
    super("NativeObject");
  }

  @Override
  public String wireType() {
    return "object";
  }

  @Override
  public void encode(Object value, long slot, Frame frame) {
    ObjectHandles.encode(value, "NativeObject", slot, frame);
  }

  @Override
  public Object decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (!Values.isObject(type)) {
      throw mismatch(any);
    }
    return RuntimeAccess.get().newNativeObject(keep(NativeMemory.anyPayload(any), owned));
  }
}
