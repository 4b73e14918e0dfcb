package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * {@code P4JAny}: a value, 16 bytes: {@code int32 type_index}, {@code uint32 small_len} (byte length of a string
 * or bytes view, else 0), an 8-byte payload ({@code v_int64}, {@code v_float64}, {@code v_ptr}, {@code v_obj},
 * {@code v_dtype}, {@code v_device}).
 */
public final class P4JAny {
  private P4JAny() {}

  /** The layout; the payload union is described by its widest member, {@code v_int64}. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      ValueLayout.JAVA_INT.withName("type_index"),
      ValueLayout.JAVA_INT.withName("small_len"),
      ValueLayout.JAVA_LONG.withName("v_int64")).withName("P4JAny");

  /** Byte size, 16. */
  public static final long SIZE = LAYOUT.byteSize();
  /** Offset of {@code int32_t type_index}. */
  public static final long TYPE_INDEX = LAYOUT.byteOffset(groupElement("type_index"));
  /** Offset of {@code uint32_t small_len}. */
  public static final long SMALL_LEN = LAYOUT.byteOffset(groupElement("small_len"));
  /** Offset of the payload union ({@code v_int64}, {@code v_float64}, {@code v_ptr}, {@code v_obj}, ...). */
  public static final long PAYLOAD = LAYOUT.byteOffset(groupElement("v_int64"));
}
