package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * {@code P4JFunctionCell}, the cell of a {@code kP4JFunction}: {@code self}, {@code safe_call}, {@code typed_entry},
 * {@code scalars_entry}, {@code typed_forms}.
 */
public final class P4JFunctionCell {
  private P4JFunctionCell() {}

  /** The layout. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      ValueLayout.ADDRESS.withName("self"),
      ValueLayout.ADDRESS.withName("safe_call"),
      ValueLayout.ADDRESS.withName("typed_entry"),
      ValueLayout.ADDRESS.withName("scalars_entry"),
      ValueLayout.JAVA_LONG.withName("typed_forms")).withName("P4JFunctionCell");

  /** Offset of {@code void* self}. */
  public static final long SELF = LAYOUT.byteOffset(groupElement("self"));
  /** Offset of {@code P4JSafeCallType safe_call}. */
  public static final long SAFE_CALL = LAYOUT.byteOffset(groupElement("safe_call"));
  /** Offset of {@code void* typed_entry}. */
  public static final long TYPED_ENTRY = LAYOUT.byteOffset(groupElement("typed_entry"));
  /** Offset of {@code P4JScalarsEntryType scalars_entry}. */
  public static final long SCALARS_ENTRY = LAYOUT.byteOffset(groupElement("scalars_entry"));
  /** Offset of {@code int64_t typed_forms} (ABI 2.6: {@code P4J_TYPED_FORM_*} bits). */
  public static final long TYPED_FORMS = LAYOUT.byteOffset(groupElement("typed_forms"));
}
