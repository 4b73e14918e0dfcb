/**
 * The values room: Java values written into {@code P4JAny} slots and read back. The codecs ({@code ValueCodec} and
 * one class per kind of value, containers in bulk through {@code Containers}); the frames and per-thread argument
 * stacks they write into ({@code Frame}, {@code ThreadStack}, {@code StackChunks}; a codec and the frame it writes
 * into are two sides of one conversion, so they share the room); what a frame calls and how it is named
 * ({@code CallTarget}, {@code SafeCalls}); the one conversion of a result ({@code Results}); the registry by name
 * ({@code Registries}); and {@code toString} of objects ({@code ObjectFormatter}).
 *
 * <p>The public views (objects, functions, containers, tensors) are made and read through {@code RuntimeAccess},
 * which the public package implements: this room sees them as {@code Object}, so no import runs back up. A Java
 * function's echo and a closure's function are found through {@code FunctionEchoes} and {@code ClosureViews}, which
 * the upcall room fills.
 *
 * <p>May import: {@code objects}, {@code tensor}, {@code capi}, {@code errors}, {@code Packed4jException},
 * {@code binding.Codec}.
 */
package dev.packed4j.runtime.internal.values;
