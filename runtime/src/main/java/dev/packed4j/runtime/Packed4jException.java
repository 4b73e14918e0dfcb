package dev.packed4j.runtime;

/**
 * An error raised by native code, or a value that cannot cross the boundary.
 *
 * <p>It carries the error {@link #kind()} ({@code TypeError}, {@code ValueError}, {@code IndexError},
 * {@code KeyError}, {@code AttributeError}, {@code RuntimeError}, ..., and {@code LoadError} for libraries that
 * cannot be loaded), the message, the native backtrace and the function it came from:
 *
 * <pre>{@code
 * try {
 *   Registry.global("calculator.MyAdd").invoke(1, "two");
 * } catch (Packed4jException e) {
 *   e.kind();          // "TypeError"
 *   e.functionName();  // "calculator.MyAdd"
 *   e.getMessage();    // "[TypeError] calculator.MyAdd: argument 1 expected int, got string"
 * }
 * }</pre>
 *
 * <p>A non-empty native backtrace is attached as a suppressed {@link NativeBacktrace}, so
 * {@code printStackTrace} shows the native frames under the Java ones.
 */
public class Packed4jException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The error kind, such as {@code "TypeError"}. */
  private final String kind;
  /** The message as the native side raised it. */
  private final String nativeMessage;
  /** The native frames, one per line; empty when none were recorded. */
  private final String nativeBacktrace;
  /** The registered name of the function the error came from, or null. */
  private final String functionName;

  /**
   * An error of {@code kind} for Java code to throw, typically a Java function that native code calls: C++ catches
   * it as a {@code packed4j::Error} of that kind and message (with the Java frames in its backtrace), and a Java
   * caller further out gets this same object back.
   *
   * <pre>{@code
   * PackedFunction lookup = PackedFunction.of(args -> {
   *   throw new Packed4jException("KeyError", "no entry named " + args[0]);
   * });
   * }</pre>
   *
   * @param kind the kind, such as {@code "KeyError"}, {@code "ValueError"} or one of the plugin's own
   * @param message the message, without the kind
   * @throws IllegalArgumentException when {@code kind} is empty or holds a character other than a letter, digit
   *     or {@code _}
   */
  public Packed4jException(String kind, String message) {
    // Not through the constructor below: it calls addSuppressed, which a subclass could override (this-escape).
    super(format(checkedKind(kind), java.util.Objects.requireNonNull(message, "message"), null));
    this.kind = kind;
    this.nativeMessage = message;
    this.nativeBacktrace = "";
    this.functionName = null;
  }

  private static String checkedKind(String kind) {
    java.util.Objects.requireNonNull(kind, "kind");
    if (kind.isEmpty() || !kind.chars().allMatch(c -> c == '_' || Character.isLetterOrDigit(c))) {
      throw new IllegalArgumentException("an error kind is a name such as \"KeyError\", not '" + kind + "'");
    }
    return kind;
  }

  Packed4jException(String kind, String message, String backtrace, String functionName) {
    super(format(kind, message, functionName));
    this.kind = kind;
    this.nativeMessage = message;
    this.nativeBacktrace = backtrace == null ? "" : backtrace;
    this.functionName = functionName;
    if (!this.nativeBacktrace.isBlank()) {
      addSuppressed(new NativeBacktrace(this.nativeBacktrace));
    }
  }

  private static String format(String kind, String message, String functionName) {
    boolean namesFunction = functionName == null || message.startsWith(functionName);
    return "[" + kind + "] " + (namesFunction ? "" : functionName + ": ") + message;
  }

  /** {@return the error kind, such as {@code "TypeError"}} */
  public String kind() {
    return kind;
  }

  /** {@return the message without the kind and function prefix} */
  public String nativeMessage() {
    return nativeMessage;
  }

  /** {@return the native frames, one per line, innermost first; empty when none were recorded} */
  public String nativeBacktrace() {
    return nativeBacktrace;
  }

  /** {@return the registered name of the function the error came from, or null} */
  public String functionName() {
    return functionName;
  }

  /**
   * The native backtrace of a {@link Packed4jException}, shown by {@code printStackTrace} as a suppressed
   * exception. It has no Java stack trace of its own.
   */
  public static final class NativeBacktrace extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NativeBacktrace(String backtrace) {
      super("native backtrace, innermost first:\n" + indent(backtrace), null, false, false);
    }

    private static String indent(String backtrace) {
      return backtrace.strip().lines().map(line -> "\t\t" + line.strip()).reduce((a, b) -> a + "\n" + b).orElse("");
    }
  }
}
