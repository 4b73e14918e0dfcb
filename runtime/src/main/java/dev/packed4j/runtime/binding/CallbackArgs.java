package dev.packed4j.runtime.binding;

/**
 * The arguments of a packed callback ({@link CallbackBodies.Packed}), decoded one by one by the codec of the declared
 * type, and where its result goes.
 *
 * <pre>{@code
 * f -> args -> args.result(Codecs.STRING, f.apply(args.get(0, Codecs.STRING)))
 * }</pre>
 */
public interface CallbackArgs {
  /** {@return the number of arguments the native caller passed} */
  int size();

  /**
   * Argument {@code index} converted by {@code codec}.
   *
   * @param <T> the Java type
   * @param index the argument's position, from 0
   * @param codec the codec of the parameter's type
   * @return the converted argument
   * @throws dev.packed4j.runtime.Packed4jException TypeError when the caller passed fewer arguments or a value of
   *     another type
   */
  <T> T get(int index, Codec<T> codec);

  /**
   * Sets the result, converted by {@code codec}; a callback that never calls it returns None.
   *
   * @param <T> the Java type
   * @param codec the codec of the result type
   * @param value the result
   */
  <T> void result(Codec<T> codec, T value);
}
