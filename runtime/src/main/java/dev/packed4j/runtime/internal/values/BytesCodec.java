package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JBytes;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JBytesView;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;

/** byte[]: a {@code kP4JBytesView} argument, a {@code kP4JBytes} result. */
public final class BytesCodec extends ValueCodec<byte[]> {
  public static final BytesCodec BYTES = new BytesCodec();

  private BytesCodec() {
    super("byte[]");
  }

  @Override
  public String wireType() {
    return "bytes";
  }

  @Override
  public void encode(byte[] value, long slot, Frame frame) {
    frame.encodeBytes(slot, value);
  }

  @Override
  public byte[] decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (type == kP4JBytes) {
      long handle = NativeMemory.anyPayload(any);
      byte[] value = NativeMemory.spanBytes(NativeMemory.cell(handle));
      releaseIfOwned(handle, owned);
      return value;
    }
    if (type == kP4JBytesView) {
      int length = NativeMemory.getInt(any + P4JAny.SMALL_LEN);
      return NativeMemory.copyBytes(NativeMemory.anyPayload(any), Integer.toUnsignedLong(length));
    }
    throw mismatch(any);
  }
}
