package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * {@code P4JMapCell}, the cell of a {@code kP4JMap}: {@code size} entries in insertion order, each a key
 * {@code P4JAny} followed by its value.
 */
public final class P4JMapCell {
  private P4JMapCell() {}

  /** The layout. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      ValueLayout.ADDRESS.withName("entries"),
      ValueLayout.JAVA_LONG.withName("size"),
      ValueLayout.JAVA_LONG.withName("capacity")).withName("P4JMapCell");

  /** Offset of {@code P4JAny* entries}. */
  public static final long ENTRIES = LAYOUT.byteOffset(groupElement("entries"));
  /** Offset of {@code int64_t size}, the number of entries. */
  public static final long COUNT = LAYOUT.byteOffset(groupElement("size"));
  /** Bytes per entry: a key and a value. */
  public static final long ENTRY_SIZE = 2 * P4JAny.SIZE;
}
