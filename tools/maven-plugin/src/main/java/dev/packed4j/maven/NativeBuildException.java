package dev.packed4j.maven;

/** A native build problem with what to do about it; the goal reports its message as the build failure. */
final class NativeBuildException extends Exception {
  private static final long serialVersionUID = 1L;

  NativeBuildException(String message) {
    super(message);
  }
}
