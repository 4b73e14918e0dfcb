package dev.packed4j.remote.internal;

/**
 * An error the server raises itself with a packed4j kind ({@code AttributeError}, ...), which the reply carries as
 * a native error's kind, so the client gets the Packed4jException a local call would raise.
 */
final class KindedError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  final String kind;

  KindedError(String kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }
}
