package dev.packed4j.runtime.binding;

/**
 * The bodies generated code gives a Java function that native code calls: a typed body per arity ({@code WireN}),
 * called through a typed entry with no packing, or a {@link Packed} body whose arguments codecs decode. For
 * {@code @Global("demo.Apply") long apply(LongBinaryOperator op, long a, long b);} the processor writes
 * {@code f -> (CallbackBodies.Wire2) (a0, a1) -> f.applyAsLong(a0, a1)} (see {@link Callbacks}).
 *
 * <p>These interfaces depend on nothing in the runtime, so that the runtime's upcall code, which calls them, does
 * not depend on the public packages (docs/architecture.md, "runtime inside").
 */
public final class CallbackBodies {
  private CallbackBodies() {}

  /**
   * A typed body of no parameter. Wire values: integers and bool as {@code long} (bool 0 or 1), floats as the bits
   * of a {@code double}, a String as the address of its UTF-8 span (read by {@link Callbacks.StringSpans}); the result
   * likewise, void as 0.
   */
  @FunctionalInterface
  public interface Wire0 {
    /**
     * Runs the body on wire values.
     *
     * @return the result as its wire value (0 for void)
     * @throws Throwable anything: reported to the native caller as an error
     */
    long call() throws Throwable;
  }

  /** A typed body of one parameter; see {@link Wire0} for the wire values. */
  @FunctionalInterface
  public interface Wire1 {
    /**
     * Runs the body on wire values.
     *
     * @param a0 argument 0 as its wire value
     * @return the result as its wire value (0 for void)
     * @throws Throwable anything: reported to the native caller as an error
     */
    long call(long a0) throws Throwable;
  }

  /** A typed body of two parameters; see {@link Wire0} for the wire values. */
  @FunctionalInterface
  public interface Wire2 {
    /**
     * Runs the body on wire values.
     *
     * @param a0 argument 0 as its wire value
     * @param a1 argument 1 as its wire value
     * @return the result as its wire value (0 for void)
     * @throws Throwable anything: reported to the native caller as an error
     */
    long call(long a0, long a1) throws Throwable;
  }

  /** A typed body of three parameters; see {@link Wire0} for the wire values. */
  @FunctionalInterface
  public interface Wire3 {
    /**
     * Runs the body on wire values.
     *
     * @param a0 argument 0 as its wire value
     * @param a1 argument 1 as its wire value
     * @param a2 argument 2 as its wire value
     * @return the result as its wire value (0 for void)
     * @throws Throwable anything: reported to the native caller as an error
     */
    long call(long a0, long a1, long a2) throws Throwable;
  }

  /** A typed body of four parameters; see {@link Wire0} for the wire values. */
  @FunctionalInterface
  public interface Wire4 {
    /**
     * Runs the body on wire values.
     *
     * @param a0 argument 0 as its wire value
     * @param a1 argument 1 as its wire value
     * @param a2 argument 2 as its wire value
     * @param a3 argument 3 as its wire value
     * @return the result as its wire value (0 for void)
     * @throws Throwable anything: reported to the native caller as an error
     */
    long call(long a0, long a1, long a2, long a3) throws Throwable;
  }

  /** A body whose arguments are decoded by codecs: any parameter and result types. */
  @FunctionalInterface
  public interface Packed {
    /**
     * Runs the body.
     *
     * @param args the arguments and the result of this call
     * @throws Throwable anything: reported to the native caller as an error
     */
    void call(CallbackArgs args) throws Throwable;
  }
}
