/**
 * The errors room, the lowest: the kinds of error the runtime raises itself ({@code ErrorKind}), the one way to
 * make a {@code Packed4jException} ({@code Failures}, whose factory the public package installs), a value that
 * cannot cross the boundary, reported before the caller adds where ({@code ConversionFailure}), and the Java
 * exceptions on their way back to a Java caller through native code ({@code PendingThrowables}).
 *
 * <p>May import: {@code Packed4jException}.
 */
package dev.packed4j.runtime.internal.errors;
