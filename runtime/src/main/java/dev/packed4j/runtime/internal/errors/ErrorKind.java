package dev.packed4j.runtime.internal.errors;

/**
 * The error kinds the runtime raises itself, with the native spelling {@code Packed4jException.kind()} returns. An
 * error from native code keeps the kind it was raised with, which may be any string (user C++ throws its own
 * kinds), so {@code kind()} stays a String; these are the runtime's and the core's.
 */
public enum ErrorKind {
  /** A value of the wrong type: an argument, a result, a field's kind. */
  TYPE_ERROR("TypeError"),
  /** A value of the right type that does not fit: out of range, a name registered twice. */
  VALUE_ERROR("ValueError"),
  /** A name or type key no loaded library registers. */
  KEY_ERROR("KeyError"),
  /** An index out of range. */
  INDEX_ERROR("IndexError"),
  /** A field an object's type does not have. */
  ATTRIBUTE_ERROR("AttributeError"),
  /** A library that cannot be loaded, or whose registrations were refused for its ABI version. */
  LOAD_ERROR("LoadError"),
  /** An interface bound with {@code bindChecked} that does not match the native registry. */
  BIND_ERROR("BindError"),
  /** A call nested deeper than the native stack reserve allows. */
  RECURSION_ERROR("RecursionError"),
  /** Any other failure, and the kind of an error raised without one. */
  RUNTIME_ERROR("RuntimeError");

  private final String spelling;

  ErrorKind(String spelling) {
    this.spelling = spelling;
  }

  /** {@return the kind as {@code Packed4jException.kind()} and native code spell it, such as {@code "TypeError"}} */
  public String spelling() {
    return spelling;
  }

  @Override
  public String toString() {
    return spelling;
  }
}
