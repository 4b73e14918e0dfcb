package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/** {@code P4JListCell}, the cell of a {@code kP4JList}: {@code size} values at {@code data}, which moves on growth. */
public final class P4JListCell {
  private P4JListCell() {}

  /** The layout. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      ValueLayout.ADDRESS.withName("data"),
      ValueLayout.JAVA_LONG.withName("size"),
      ValueLayout.JAVA_LONG.withName("capacity")).withName("P4JListCell");

  /** Offset of {@code P4JAny* data}. */
  public static final long DATA = LAYOUT.byteOffset(groupElement("data"));
  /** Offset of {@code int64_t size}. */
  public static final long COUNT = LAYOUT.byteOffset(groupElement("size"));
  /** Offset of {@code int64_t capacity}. */
  public static final long CAPACITY = LAYOUT.byteOffset(groupElement("capacity"));
}
