package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/** {@code P4JTypeInfo}: a registered type's index, parent, depth, key, fields and instance size. */
public final class P4JTypeInfo {
  private P4JTypeInfo() {}

  /** The layout. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      ValueLayout.JAVA_INT.withName("type_index"),
      ValueLayout.JAVA_INT.withName("parent_type_index"),
      ValueLayout.JAVA_INT.withName("depth"),
      ValueLayout.JAVA_INT.withName("num_fields"),
      P4JByteArray.LAYOUT.withName("type_key"),
      ValueLayout.ADDRESS.withName("fields"),
      ValueLayout.JAVA_LONG.withName("instance_size")).withName("P4JTypeInfo");

  /** Offset of {@code int32_t type_index}. */
  public static final long TYPE_INDEX = LAYOUT.byteOffset(groupElement("type_index"));
  /** Offset of {@code int32_t parent_type_index}. */
  public static final long PARENT_TYPE_INDEX = LAYOUT.byteOffset(groupElement("parent_type_index"));
  /** Offset of {@code int32_t depth}. */
  public static final long DEPTH = LAYOUT.byteOffset(groupElement("depth"));
  /** Offset of {@code int32_t num_fields}. */
  public static final long NUM_FIELDS = LAYOUT.byteOffset(groupElement("num_fields"));
  /** Offset of the {@code type_key} span. */
  public static final long TYPE_KEY = LAYOUT.byteOffset(groupElement("type_key"));
  /** Offset of {@code const P4JFieldInfo* fields}. */
  public static final long FIELDS = LAYOUT.byteOffset(groupElement("fields"));
  /** Offset of {@code int64_t instance_size}. */
  public static final long INSTANCE_SIZE = LAYOUT.byteOffset(groupElement("instance_size"));
}
