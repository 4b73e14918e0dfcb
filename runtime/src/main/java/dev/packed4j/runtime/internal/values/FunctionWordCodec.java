package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.internal.errors.ConversionFailure;

/**
 * A codec of functions (a functional interface's, {@code PackedFunction}'s) as a typed entry passes them: an object
 * word (signature type {@code function}) instead of a packed value, with the same values and failures as the codec's
 * {@code encode} and {@code decode} on the call frame.
 */
public interface FunctionWordCodec {
  /**
   * {@code value} (not null) as an owned object word for a call; given back with {@link #releaseWord} after it.
   *
   * @throws ConversionFailure as the codec's {@code encode} fails for the same value
   */
  long ownedWord(Object value);

  /** Gives back a word of {@link #ownedWord} once the call that took it has returned. */
  void releaseWord(long word);

  /**
   * A typed entry's function result, an owned object word (0 for None), as the codec's {@code decode} returns the
   * same function.
   *
   * @throws ConversionFailure as {@code decode} fails
   */
  Object decodeOwnedWord(long word);
}
