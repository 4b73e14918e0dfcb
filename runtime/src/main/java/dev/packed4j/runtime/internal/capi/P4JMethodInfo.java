package dev.packed4j.runtime.internal.capi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * {@code P4JMethodInfo}: one member of a type's method table (a method, a static method or the constructor) with
 * its function, signature, doc string and parameter names. Entries live until exit.
 */
public final class P4JMethodInfo {
  private P4JMethodInfo() {}

  /** The layout. */
  public static final StructLayout LAYOUT = MemoryLayout.structLayout(
      P4JByteArray.LAYOUT.withName("name"),
      ValueLayout.JAVA_INT.withName("kind"),
      ValueLayout.JAVA_INT.withName("num_param_names"),
      ValueLayout.JAVA_INT.withName("type_index"),
      ValueLayout.JAVA_INT.withName("reserved"),
      ValueLayout.JAVA_LONG.withName("function"),
      P4JByteArray.LAYOUT.withName("signature"),
      P4JByteArray.LAYOUT.withName("doc"),
      ValueLayout.JAVA_LONG.withName("param_names")).withName("P4JMethodInfo");

  /** Offset of the {@code name} span. */
  public static final long NAME = LAYOUT.byteOffset(groupElement("name"));
  /** Offset of {@code int32_t kind} ({@code P4JMethodKind}). */
  public static final long KIND = LAYOUT.byteOffset(groupElement("kind"));
  /** Offset of {@code int32_t num_param_names}. */
  public static final long NUM_PARAM_NAMES = LAYOUT.byteOffset(groupElement("num_param_names"));
  /** Offset of {@code int32_t type_index}, the type whose table holds the member. */
  public static final long TYPE_INDEX = LAYOUT.byteOffset(groupElement("type_index"));
  /** Offset of the borrowed {@code function} handle. */
  public static final long FUNCTION = LAYOUT.byteOffset(groupElement("function"));
  /** Offset of the {@code signature} span. */
  public static final long SIGNATURE = LAYOUT.byteOffset(groupElement("signature"));
  /** Offset of the {@code doc} span. */
  public static final long DOC = LAYOUT.byteOffset(groupElement("doc"));
  /** Offset of {@code const P4JByteArray* param_names}. */
  public static final long PARAM_NAMES = LAYOUT.byteOffset(groupElement("param_names"));
}
