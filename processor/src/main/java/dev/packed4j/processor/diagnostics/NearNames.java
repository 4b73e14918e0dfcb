package dev.packed4j.processor.diagnostics;

import java.util.Collection;
import java.util.Optional;

/** The "did you mean" hint of a diagnostic: the candidate closest to a misspelled name. */
public final class NearNames {
  private NearNames() {}

  /**
   * The candidate nearest to {@code name}, if it is a likely typo or rename by packed4j-types' rule (the one the
   * runtime's KeyError uses): a few edits anywhere, or the same namespace and a last segment within half its length.
   */
  public static Optional<String> closest(String name, Collection<String> candidates) {
    return dev.packed4j.types.NearNames.near(name, candidates).stream().findFirst();
  }

  /** The hint appended to a message: {@code "; did you mean X?"}, or nothing. */
  public static String didYouMean(String name, Collection<String> candidates) {
    return closest(name, candidates).map(NearNames::didYouMean).orElse("");
  }

  /** The hint appended to a message for a known suggestion. */
  public static String didYouMean(String suggestion) {
    return ". Did you mean " + suggestion + "?";
  }
}
