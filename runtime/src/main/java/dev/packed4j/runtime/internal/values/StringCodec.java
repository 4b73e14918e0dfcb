package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JStrView;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JString;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
import java.nio.charset.StandardCharsets;

/** String: a {@code kP4JStrView} argument, a {@code kP4JString} result (embedded NULs kept). */
public final class StringCodec extends ValueCodec<String> {
  public static final StringCodec STRING = new StringCodec();

  private StringCodec() {
    super("String");
  }

  @Override
  public String wireType() {
    return "string";
  }

  @Override
  public void encode(String value, long slot, Frame frame) {
    frame.encodeString(slot, value);
  }

  @Override
  public String decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (type == kP4JString) {
      long handle = NativeMemory.anyPayload(any);
      String value = NativeMemory.spanString(NativeMemory.cell(handle));
      releaseIfOwned(handle, owned);
      return value;
    }
    if (type == kP4JStrView) {
      return read(any);
    }
    throw mismatch(any);
  }

  /** Whether the value at {@code any} is a string (object or view). */
  public static boolean isString(int typeIndex) {
    return typeIndex == kP4JString || typeIndex == kP4JStrView;
  }

  private static String read(long any) {
    int length = NativeMemory.getInt(any + P4JAny.SMALL_LEN);
    return new String(NativeMemory.copyBytes(NativeMemory.anyPayload(any), Integer.toUnsignedLong(length)),
        StandardCharsets.UTF_8);
  }
}
