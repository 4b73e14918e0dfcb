package dev.packed4j.runtime.binding;

/**
 * Converts one Java type to and from the native value representation; obtained from {@link Codecs}.
 *
 * <p>Generated code keeps codecs in static final fields and hands them to
 * {@link CallFrame#put(int, Codec, Object)} and {@link CallFrame#returnValue(Codec)}:
 *
 * <pre>{@code
 * private static final Codec<List<Long>> SUM_ARG_0 = Codecs.list(Codecs.LONG);
 * ...
 * frame.put(0, SUM_ARG_0, values);
 * }</pre>
 *
 * <p>Only the codecs {@link Codecs} makes are accepted by the runtime.
 *
 * @param <T> the Java type
 */
public interface Codec<T> {
  /** {@return the Java type as source code writes it, such as {@code List<Long>}; used in messages} */
  String javaType();
}
