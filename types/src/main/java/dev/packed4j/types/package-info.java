/**
 * The type model shared by the processor, the runtime and the CLI: the signature grammar ({@link NativeType},
 * {@link Signature}), the conversion table of arguments, results and fields ({@link Conversions} over
 * {@link JavaType}, with {@link ObjectHierarchy} for object type keys and {@link Narrowing} for values) and the
 * typed-entry carriers ({@link Carrier}); and the "did you mean" rule of the processor's diagnostics and the runtime's
 * {@code KeyError} ({@link NearNames}). It imports nothing outside {@code java.base}; every adapter (from
 * {@code javax.lang.model} in the processor, from {@code java.lang.reflect} in the runtime) lives with its user.
 */
package dev.packed4j.types;
