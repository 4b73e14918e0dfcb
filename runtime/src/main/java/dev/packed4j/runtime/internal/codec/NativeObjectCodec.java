package dev.packed4j.runtime.internal.codec;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.RuntimeAccess;
import dev.packed4j.runtime.internal.Values;

/** NativeObject: any object, viewed generically. */
public final class NativeObjectCodec extends ValueCodec<NativeObject> {
  public static final NativeObjectCodec NATIVE_OBJECT = new NativeObjectCodec();

  private NativeObjectCodec() {
    super("NativeObject");
  }

  @Override
  public String wireType() {
    return "object";
  }

  @Override
  public void encode(NativeObject value, long slot, Frame frame) {
    ObjectHandles.encode(value, slot, frame);
  }

  @Override
  public NativeObject decode(long any, boolean owned) {
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
