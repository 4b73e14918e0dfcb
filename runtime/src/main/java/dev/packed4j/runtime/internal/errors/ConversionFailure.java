package dev.packed4j.runtime.internal.errors;


/**
 * A value that cannot cross the boundary, reported by a codec without knowing the call it is part of. The
 * frame, list or map that asked for the conversion adds where (function and argument, or result) and turns it
 * into the exception its {@link Kind} names.
 */
public final class ConversionFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Which exception the failure becomes. */
  public enum Kind {
    /** A null where the declared type forbids it: {@link NullPointerException}. */
    NULL,
    /** A closed object used as a value: {@link IllegalStateException}. */
    CLOSED,
    /** A value of the wrong type: {@code Packed4jException} TypeError. */
    TYPE,
    /** A value out of range: {@code Packed4jException} ValueError. */
    VALUE
  }

  private final Kind kind;
  /** The argument of a typed Java function's body the failure is of, or -1 (see {@link #ofArgument}). */
  private final int argument;

  public ConversionFailure(Kind kind, String detail) {
    this(kind, detail, -1);
  }

  private ConversionFailure(Kind kind, String detail, int argument) {
    super(detail, null, false, false);
    this.kind = kind;
    this.argument = argument;
  }

  /**
   * A failure of argument {@code argument} of a typed Java function's generated body, which converts its wire values
   * without knowing the function: the upcall that called the body names it ({@code TypedStubs}, {@code TypedCalls}).
   */
  public static ConversionFailure ofArgument(Kind kind, String detail, int argument) {
    if (argument < 0) {
      throw new IllegalArgumentException("negative argument index " + argument);
    }
    return new ConversionFailure(kind, detail, argument);
  }

  public Kind kind() {
    return kind;
  }

  /** The argument index given to {@link #ofArgument}, else -1. */
  public int argument() {
    return argument;
  }

  public String detail() {
    return getMessage();
  }

  /** The same failure, inside a container: {@code "element 3: " + detail}. */
  public ConversionFailure within(String where) {
    return new ConversionFailure(kind, where + ": " + detail());
  }

  public static ConversionFailure typeMismatch(String actual, String expected) {
    return new ConversionFailure(Kind.TYPE, actual + ", expected " + expected);
  }

  /**
   * A value of another class than its declared type allows, which only a raw or unchecked container or
   * {@code Optional} can hold: {@code "a java.lang.String, expected Long"}.
   *
   * @param value the value, not null
   * @param expected what the declared type takes
   * @return the failure, of kind {@link Kind#TYPE}
   */
  public static ConversionFailure wrongClass(Object value, String expected) {
    return typeMismatch("a " + value.getClass().getName(), expected);
  }

  /** The exception for a failure of an argument, {@code where} naming function and argument. */
  public RuntimeException toException(String where, String functionName) {
    String message = where + ": " + detail();
    return switch (kind) {
      case NULL -> new NullPointerException(message);
      case CLOSED -> new IllegalStateException(message);
      case TYPE -> Failures.error(ErrorKind.TYPE_ERROR, message, functionName);
      case VALUE -> Failures.error(ErrorKind.VALUE_ERROR, message, functionName);
    };
  }

  /** The exception for a failure of a result, {@code source} naming what returned it. */
  public RuntimeException toResultException(String source, String functionName) {
    // A closed value's detail is a sentence of its own ("the NDArray object is closed; ..."), not a value.
    String message = source + " returned " + (kind == Kind.CLOSED ? "a value that cannot be used: " : "") + detail();
    return switch (kind) {
      case NULL -> new NullPointerException(message);
      case CLOSED -> new IllegalStateException(message);
      case TYPE -> Failures.error(ErrorKind.TYPE_ERROR, message, functionName);
      case VALUE -> Failures.error(ErrorKind.VALUE_ERROR, message, functionName);
    };
  }
}
