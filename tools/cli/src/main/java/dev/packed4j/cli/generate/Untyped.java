package dev.packed4j.cli.generate;

/** What {@code packed4j generate} does with a function registered with {@code set_body}, which has no signature. */
public enum Untyped {
  /**
   * A method {@code Object name(Object... args)} that looks the function up and invokes it: a default method, or a
   * static one in an interface that binds no typed function (there is then nothing to bind).
   */
  OBJECT_VARARGS("object-varargs"),
  /** No method: a comment in the interface names the function, and the command warns. */
  SKIP("skip");

  private final String option;

  Untyped(String option) {
    this.option = option;
  }

  /**
   * The value of {@code --untyped} that selects this.
   *
   * @return {@code object-varargs} or {@code skip}
   */
  public String option() {
    return option;
  }

  /**
   * The mode an {@code --untyped} value selects.
   *
   * @param option {@code object-varargs} or {@code skip}
   * @return the mode
   * @throws IllegalArgumentException naming the value and the accepted ones
   */
  public static Untyped ofOption(String option) {
    for (Untyped mode : values()) {
      if (mode.option.equals(option)) {
        return mode;
      }
    }
    throw new IllegalArgumentException("--untyped takes object-varargs or skip, not '" + option + "'");
  }
}
