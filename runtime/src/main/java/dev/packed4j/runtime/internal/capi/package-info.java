/**
 * The native room: {@code libpacked4j.so} and plugin libraries found, checked and opened ({@code NativeLibraries},
 * {@code BundledLibraries}, {@code ElfCheck}, and the gate on who may, {@code NativeAccess}); {@code c_api.h} bound
 * through FFM ({@code CApi}, written by {@code runtime/scripts/generate-capi.py}, and the layouts of its structs);
 * native memory read and written at absolute addresses ({@code NativeMemory}); and the error a C entry point raised
 * turned into an exception ({@code Errors}). Everything above reaches native code through it.
 *
 * <p>May import: {@code errors}, {@code Packed4jException}.
 */
package dev.packed4j.runtime.internal.capi;
