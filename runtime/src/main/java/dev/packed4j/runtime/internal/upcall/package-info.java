/**
 * The upcalls room: Java functions that native code calls. Their table and function objects
 * ({@code JavaFunctions}, {@code HandleTable}), the upcall stubs of the typed entries by machine shape
 * ({@code TypedStubs}, {@code TypedCalls}, {@code WireShape}), the packed calling convention ({@code PackedArgs}),
 * a Java exception raised as a native error ({@code JavaErrors}), and functional interfaces as values in and out
 * ({@code CallbackCodec}, {@code ClosureCalls}). Generated code hands it the bodies of {@code binding.CallbackBodies}.
 *
 * <p>May import: {@code values}, {@code objects}, {@code capi}, {@code errors}, {@code Packed4jException},
 * {@code binding.Codec}, {@code binding.CallbackArgs}, {@code binding.CallbackBodies}.
 */
package dev.packed4j.runtime.internal.upcall;
