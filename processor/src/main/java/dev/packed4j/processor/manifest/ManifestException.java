package dev.packed4j.processor.manifest;

/** Why a manifest cannot be used: the message completes "the manifest {@code <file>} cannot be used: ...". */
public final class ManifestException extends Exception {
  private static final long serialVersionUID = 1L;

  private final boolean wrongVersion;

  ManifestException(String message) {
    this(message, false);
  }

  ManifestException(String message, boolean wrongVersion) {
    super(message);
    this.wrongVersion = wrongVersion;
  }

  /** Whether the file is a manifest of another format or version, rather than unreadable or malformed. */
  public boolean wrongVersion() {
    return wrongVersion;
  }
}
