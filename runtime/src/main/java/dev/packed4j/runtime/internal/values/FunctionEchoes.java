package dev.packed4j.runtime.internal.values;

/**
 * How a function result finds the {@code PackedFunction} a Java function went out as (an echo comes back as the
 * object that was passed), without this package depending on the upcall code that makes Java functions: that code
 * installs its lookup when it is initialised, which happens before the first Java function exists, so while
 * nothing is installed no handle can be a Java function's.
 */
public final class FunctionEchoes {
  private FunctionEchoes() {}

  /** The upcall code's side. */
  public interface Lookup {
    /** The open PackedFunction made for the Java function at {@code handle}, or null. */
    Object knownFunction(long handle);

    /** Remembers {@code function} as the Java view of the Java function at {@code handle}, if it is one. */
    void rememberView(long handle, Object function);
  }

  private static volatile Lookup lookup;

  /** Sets the lookup; called once by the upcall code. */
  public static void install(Lookup installed) {
    lookup = installed;
  }

  static Object knownFunction(long handle) {
    Lookup installed = lookup;
    return installed == null ? null : installed.knownFunction(handle);
  }

  static void rememberView(long handle, Object function) {
    Lookup installed = lookup;
    if (installed != null) {
      installed.rememberView(handle, function);
    }
  }
}
