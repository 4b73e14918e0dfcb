package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/** {@code P4JFieldInfo}: a field declared by {@code VisitAttrs}: name, kind, declared object type, offset, size. */
public final class P4JFieldInfo {
  private P4JFieldInfo() {}

  /** The layout. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      P4JByteArray.LAYOUT.withName("name"),
      ValueLayout.JAVA_INT.withName("kind"),
      ValueLayout.JAVA_INT.withName("object_type_index"),
      ValueLayout.JAVA_LONG.withName("offset"),
      ValueLayout.JAVA_LONG.withName("size")).withName("P4JFieldInfo");

  /** Byte size, the stride of the {@code fields} array. */
  public static final long SIZE = LAYOUT.byteSize();
  /** Offset of the {@code name} span. */
  public static final long NAME = LAYOUT.byteOffset(groupElement("name"));
  /** Offset of {@code int32_t kind} ({@code P4JFieldKind}). */
  public static final long KIND = LAYOUT.byteOffset(groupElement("kind"));
  /** Offset of {@code int32_t object_type_index}. */
  public static final long OBJECT_TYPE_INDEX = LAYOUT.byteOffset(groupElement("object_type_index"));
  /** Offset of {@code int64_t offset}, the field's byte offset from the object handle. */
  public static final long OFFSET = LAYOUT.byteOffset(groupElement("offset"));
  /** Offset of {@code int64_t size}. */
  public static final long FIELD_SIZE = LAYOUT.byteOffset(groupElement("size"));
}
