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

  public ConversionFailure(Kind kind, String detail) {
    super(detail, null, false, false);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
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
