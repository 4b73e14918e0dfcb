package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * {@code P4JObject}: the 24-byte header every object starts with, at its handle. The cell of a built-in object
 * (string, bytes, error, list, map) follows at {@code handle + SIZE}.
 */
public final class P4JObject {
  private P4JObject() {}

  /** The layout. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      ValueLayout.JAVA_INT.withName("type_index"),
      ValueLayout.JAVA_INT.withName("flags"),
      ValueLayout.JAVA_LONG.withName("ref_counter"),
      ValueLayout.ADDRESS.withName("deleter")).withName("P4JObject");

  /** Byte size, 24; also the offset of a built-in object's cell. */
  public static final long SIZE = LAYOUT.byteSize();
  /** Offset of {@code int32_t type_index}. */
  public static final long TYPE_INDEX = LAYOUT.byteOffset(groupElement("type_index"));
  /** Offset of {@code uint64_t ref_counter}. */
  public static final long REF_COUNTER = LAYOUT.byteOffset(groupElement("ref_counter"));
}
