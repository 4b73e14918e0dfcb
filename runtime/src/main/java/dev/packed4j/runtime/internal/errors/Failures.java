package dev.packed4j.runtime.internal.errors;

import dev.packed4j.runtime.Packed4jException;

/**
 * Makes the {@link Packed4jException}s the runtime raises itself. Its constructor is not public (an exception's
 * kind, backtrace and function come from the runtime), so the public package installs a factory when
 * {@code ObjectRef} is initialised, the JDK's {@code SharedSecrets} pattern, as it installs
 * {@code values.RuntimeAccess}; every room can raise without importing a class above it.
 */
public final class Failures {
  private Failures() {}

  /** {@code new Packed4jException(kind, message, backtrace, functionName)}. */
  @FunctionalInterface
  public interface Factory {
    /** A new exception; {@code functionName} may be null. */
    Packed4jException create(String kind, String message, String backtrace, String functionName);
  }

  /** Sets the factory; called once by {@code dev.packed4j.runtime}. */
  public static void install(Factory factory) {
    Holder.instance = factory;
  }

  /** A new exception of a kind the runtime raises, with no native backtrace. */
  public static Packed4jException error(ErrorKind kind, String message, String functionName) {
    return Installed.FACTORY.create(kind.spelling(), message, "", functionName);
  }

  /** A new exception of any kind: one a native error was raised with. */
  public static Packed4jException newException(String kind, String message, String backtrace,
      String functionName) {
    return Installed.FACTORY.create(kind, message, backtrace, functionName);
  }

  /** Holds the installed factory. */
  private static final class Holder {
    private Holder() {}

    private static volatile Factory instance;
  }

  /** The installed factory as a constant, read once (see {@code values.RuntimeAccess.Installed}). */
  private static final class Installed {
    private Installed() {}

    /** The class whose initialiser installs the factory: named, not imported (it is above this package). */
    private static final String INSTALLER = "dev.packed4j.runtime.ObjectRef";

    static final Factory FACTORY = load();

    private static Factory load() {
      try {
        Class.forName(INSTALLER, true, Failures.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new AssertionError(e);
      }
      Factory factory = Holder.instance;
      if (factory == null) {
        throw new AssertionError("dev.packed4j.runtime did not install its exception factory while initialising "
            + "ObjectRef");
      }
      return factory;
    }
  }
}
