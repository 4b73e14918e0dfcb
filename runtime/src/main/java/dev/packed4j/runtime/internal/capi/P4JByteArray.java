package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * {@code P4JByteArray}: {@code const char* data; int64_t size}. Also {@code P4JStringCell}, the cell of
 * {@code kP4JString} and {@code kP4JBytes} objects.
 */
public final class P4JByteArray {
  private P4JByteArray() {}

  /** The layout. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      ValueLayout.ADDRESS.withName("data"),
      ValueLayout.JAVA_LONG.withName("size")).withName("P4JByteArray");

  /** Byte size, 16. */
  public static final long SIZE = LAYOUT.byteSize();
  /** Offset of {@code const char* data}. */
  public static final long DATA = LAYOUT.byteOffset(groupElement("data"));
  /** Offset of {@code int64_t size}. */
  public static final long BYTE_SIZE = LAYOUT.byteOffset(groupElement("size"));
}
