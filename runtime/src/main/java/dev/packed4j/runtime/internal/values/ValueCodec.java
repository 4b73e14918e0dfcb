package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.errors.ConversionFailure;

/**
 * The implementation behind every {@link Codec}: converts one Java type to a {@code P4JAny} argument and a
 * {@code P4JAny} back.
 *
 * <p>Conversions report problems as {@link ConversionFailure}s; the frame, list or map that asked adds where.
 */
public abstract class ValueCodec<T> implements Codec<T> {
  private final String javaType;

  protected ValueCodec(String javaType) {
    this.javaType = javaType;
  }

  @Override
  public final String javaType() {
    return javaType;
  }

  /** {@return the Java type with its article, as a message reads it: "a String", "an Optional<Long>", "an Account"} */
  public final String javaTypeWithArticle() {
    boolean vowel = !javaType.isEmpty() && "AEIOUaeiou".indexOf(javaType.charAt(0)) >= 0;
    return (vowel || javaType.startsWith("NDArray") ? "an " : "a ") + javaType;
  }

  /** The wire type this codec expects, as messages name it: "int", "string", "list", "Calculator", ... */
  public abstract String wireType();

  /**
   * What a typed getter returns for a field that holds None: null, but an empty {@code List} or {@code Map} for a
   * container field read as a copy, as C++ reads a null {@code List} or {@code Map} (a field loaded from JSON
   * {@code null}): empty.
   */
  public T nullFieldValue() {
    return null;
  }

  /** Whether a Java null is a valid value (None); false for most types. */
  public boolean acceptsNull() {
    return false;
  }

  /**
   * Whether a value of this type can hold lists or maps of its own (bounded by {@link Nesting} while converted).
   */
  public boolean nests() {
    return false;
  }

  /**
   * The exception of a null argument this codec does not take ({@code "calculator.Sum argument 0 (values) is null; a
   * List<Long> argument must not be null (declare Optional<List<Long>> to pass None)"}), in this process and in a
   * session's client alike.
   *
   * @param argument the argument as messages name it ({@link CallTarget#describeArgument})
   * @return the exception, not thrown
   */
  public final NullPointerException nullArgument(String argument) {
    return new NullPointerException(argument + " is null; " + javaTypeWithArticle() + " argument must not be null"
        + (nullHint().isEmpty() ? "" : " (" + nullHint() + ")"));
  }

  /** What to say after "must not be null", or empty. */
  public String nullHint() {
    return "declare Optional<" + javaType + "> to pass None";
  }

  /**
   * Writes {@code value} (not null unless {@link #acceptsNull()}) as a borrowed argument in the slot at
   * {@code slot}; memory and temporary objects come from {@code frame}.
   */
  public abstract void encode(T value, long slot, Frame frame);

  /**
   * Converts the value at {@code any}.
   *
   * @param owned whether the caller holds a reference to an object payload and hands it over: when the method
   *     returns, an owned reference has been kept by the result or released; when it throws, the caller still
   *     holds it. A borrowed value (a container element) is not released; a kept object takes a new reference.
   */
  public abstract T decode(long any, boolean owned);

  /** The failure for a wire value this codec does not take. */
  protected final ConversionFailure mismatch(long any) {
    return ConversionFailure.typeMismatch(Values.describe(any), wireType());
  }

  /** Takes a reference to keep an object of a borrowed value; an owned one is kept as is. */
  protected static long keep(long handle, boolean owned) {
    if (!owned) {
      CApi.P4JObjectIncRef(handle);
    }
    return handle;
  }

  /** Releases an owned object reference the result does not keep. */
  protected static void releaseIfOwned(long handle, boolean owned) {
    if (owned) {
      CApi.P4JObjectDecRef(handle);
    }
  }

  @Override
  public String toString() {
    return "Codec<" + javaType + ">";
  }
}
