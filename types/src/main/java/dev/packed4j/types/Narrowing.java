package dev.packed4j.types;

/**
 * The one narrowing rule of values, on every path (results, callback arguments, C++ conversions): narrowing never
 * truncates. An integer that does not fit the declared Java integer, a finite float64 beyond {@code float}'s range
 * and an int64 that a {@code double} cannot hold exactly are each refused (a {@code ValueError} "value ... is out of
 * range for ..."); NaN and the infinities pass to {@code float}, and a float64 may lose precision as a
 * {@code float}.
 */
public final class Narrowing {
  private Narrowing() {}

  /**
   * Whether an int64 fits {@code int}.
   *
   * @param value the value
   * @return whether it converts without loss
   */
  public static boolean fitsInt(long value) {
    return (int) value == value;
  }

  /**
   * Whether an int64 fits {@code short}.
   *
   * @param value the value
   * @return whether it converts without loss
   */
  public static boolean fitsShort(long value) {
    return (short) value == value;
  }

  /**
   * Whether an int64 fits {@code byte}.
   *
   * @param value the value
   * @return whether it converts without loss
   */
  public static boolean fitsByte(long value) {
    return (byte) value == value;
  }

  /**
   * Whether a float64 may become a {@code float}: NaN, an infinity, or a finite value within {@code float}'s range.
   *
   * @param value the value
   * @return whether it is not a finite value beyond {@code Float.MAX_VALUE}
   */
  public static boolean fitsFloat(double value) {
    return !(Double.isFinite(value) && Math.abs(value) > Float.MAX_VALUE);
  }

  /**
   * Whether an int64 converts to {@code double} without rounding (|value| up to 2^53, or a multiple of a power of
   * two that a double holds exactly).
   *
   * @param value the value
   * @return whether the double holds it exactly
   */
  public static boolean isExactDouble(long value) {
    double converted = value;
    return converted != 0x1p63 && (long) converted == value;
  }
}
