package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.*;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
import dev.packed4j.runtime.internal.objects.TypeInfo;
import dev.packed4j.runtime.internal.objects.TypeInfos;

/**
 * {@code toString} of native objects from their metadata: {@code Calculator{brand=casio, price=100}}. Nested
 * objects are shown to a small depth and containers to a few elements, so a large graph stays readable.
 */
public final class ObjectFormatter {
  private ObjectFormatter() {}

  private static final int MAX_DEPTH = 3;
  private static final int MAX_ELEMENTS = 10;
  private static final CallTarget TO_STRING = CallTarget.operation("toString");

  /** Formats the object at {@code handle} (borrowed, open). */
  public static String format(long handle, int typeIndex) {
    StringBuilder out = new StringBuilder();
    appendObject(out, handle, typeIndex, 0);
    return out.toString();
  }

  private static void appendObject(StringBuilder out, long handle, int typeIndex, int depth) {
    TypeInfo info = TypeInfos.info(typeIndex);
    switch (typeIndex) {
      case kP4JString -> out.append(NativeMemory.spanString(NativeMemory.cell(handle)));
      case kP4JBytes -> out.append("bytes[").append(NativeMemory.getLong(NativeMemory.cell(handle) + 8)).append(']');
      case kP4JList -> appendList(out, handle, depth);
      case kP4JMap -> appendMap(out, handle, depth);
      case kP4JNDArray -> out.append(RuntimeAccess.get().formatNDArray(handle)); // as the tensor prints alone
      default -> {
        out.append(info.key());
        if (depth >= MAX_DEPTH) {
          out.append(info.fields().isEmpty() ? "{}" : "{...}");
          return;
        }
        out.append('{');
        boolean first = true;
        for (TypeInfo.FieldInfo field : info.fields()) {
          if (!first) {
            out.append(", ");
          }
          first = false;
          out.append(field.name()).append('=');
          appendField(out, handle, field, depth);
        }
        out.append('}');
      }
    }
  }

  private static void appendField(StringBuilder out, long handle, TypeInfo.FieldInfo field, int depth) {
    long at = handle + field.offset();
    switch (field.kind()) {
      case kP4JFieldInt32 -> out.append(NativeMemory.getInt(at));
      case kP4JFieldInt64 -> out.append(NativeMemory.getLong(at));
      case kP4JFieldUInt64 -> out.append(Long.toUnsignedString(NativeMemory.getLong(at)));
      case kP4JFieldFloat64 -> out.append(NativeMemory.getDouble(at));
      case kP4JFieldBool -> out.append(NativeMemory.getByte(at) != 0);
      default -> {
        // Strings and objects are read through the C ABI; the frame releases what the read returned.
        try (Frame frame = ThreadStack.current().push(TO_STRING, 0)) {
          if (CApi.P4JObjectGetField(handle, field.index(), frame.result()) != 0) {
            out.append('<').append(Errors.takeRaised(null).getMessage()).append('>');
            return;
          }
          frame.resultWritten();
          appendValue(out, frame.result(), depth + 1);
        }
      }
    }
  }

  /** Appends a borrowed value. */
  private static void appendValue(StringBuilder out, long any, int depth) {
    int type = NativeMemory.anyTypeIndex(any);
    switch (type) {
      case kP4JNone -> out.append("null");
      case kP4JInt -> out.append(NativeMemory.anyPayload(any));
      case kP4JBool -> out.append(NativeMemory.anyPayload(any) != 0);
      case kP4JFloat -> out.append(NativeMemory.anyDouble(any));
      case kP4JStrView, kP4JString -> out.append(StringCodec.STRING.decode(any, false));
      default -> {
        if (Values.isObject(type)) {
          appendObject(out, NativeMemory.anyPayload(any), type, depth);
        } else {
          out.append('<').append(Values.typeName(type)).append('>');
        }
      }
    }
  }

  private static void appendList(StringBuilder out, long handle, int depth) {
    long size = Containers.listSize(handle);
    if (depth >= MAX_DEPTH) {
      // Also what ends a list that contains itself.
      out.append(size == 0 ? "[]" : "[...]");
      return;
    }
    out.append('[');
    for (long i = 0; i < size && i < MAX_ELEMENTS; i++) {
      if (i > 0) {
        out.append(", ");
      }
      appendValue(out, Containers.listItem(handle, i), depth + 1);
    }
    if (size > MAX_ELEMENTS) {
      out.append(", ... (").append(size).append(" values)");
    }
    out.append(']');
  }

  private static void appendMap(StringBuilder out, long handle, int depth) {
    long size = Containers.mapSize(handle);
    if (depth >= MAX_DEPTH) {
      out.append(size == 0 ? "{}" : "{...}");
      return;
    }
    out.append('{');
    for (long i = 0; i < size && i < MAX_ELEMENTS; i++) {
      if (i > 0) {
        out.append(", ");
      }
      long entry = Containers.mapEntry(handle, i);
      appendValue(out, entry, depth + 1);
      out.append('=');
      appendValue(out, entry + P4JAny.SIZE, depth + 1);
    }
    if (size > MAX_ELEMENTS) {
      out.append(", ... (").append(size).append(" entries)");
    }
    out.append('}');
  }
}
