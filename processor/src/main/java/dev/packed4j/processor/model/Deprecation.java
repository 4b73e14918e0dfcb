package dev.packed4j.processor.model;

/** Whether a declaration is deprecated, and how: what using or overriding it warns about. */
public enum Deprecation {
  /** Not deprecated. */
  NONE,
  /** {@code @Deprecated}: using it warns under the lint name "deprecation". */
  DEPRECATED,
  /** {@code @Deprecated(forRemoval = true)}: using it warns under "removal", whatever else is deprecated. */
  FOR_REMOVAL;

  /** The lint name the warnings about using it have, or null for {@link #NONE}. */
  public String warning() {
    return switch (this) {
      case NONE -> null;
      case DEPRECATED -> "deprecation";
      case FOR_REMOVAL -> "removal";
    };
  }
}
