package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/** {@code P4JErrorCell}, the cell of a {@code kP4JError} object: kind, message and backtrace spans. */
public final class P4JErrorCell {
  private P4JErrorCell() {}

  /** The layout. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      P4JByteArray.LAYOUT.withName("kind"),
      P4JByteArray.LAYOUT.withName("message"),
      P4JByteArray.LAYOUT.withName("backtrace")).withName("P4JErrorCell");

  /** Offset of the {@code kind} span. */
  public static final long KIND = LAYOUT.byteOffset(groupElement("kind"));
  /** Offset of the {@code message} span. */
  public static final long MESSAGE = LAYOUT.byteOffset(groupElement("message"));
  /** Offset of the {@code backtrace} span. */
  public static final long BACKTRACE = LAYOUT.byteOffset(groupElement("backtrace"));
}
