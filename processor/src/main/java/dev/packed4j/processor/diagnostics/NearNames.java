package dev.packed4j.processor.diagnostics;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** Finds the candidate closest to a misspelled name, for "did you mean" hints. */
public final class NearNames {
  private NearNames() {}

  /**
   * The candidate nearest to {@code name} by edit distance, ignoring case, if it is near enough to be a likely
   * typo (at most a third of the name's length, and at least one edit) and is not the name itself.
   */
  public static Optional<String> closest(String name, Collection<String> candidates) {
    int limit = Math.max(1, name.length() / 3);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      if (candidate.equals(name)) {
        continue;
      }
      int distance = distance(name.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
      if (distance <= limit && distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /** The hint appended to a message: {@code "; did you mean X?"}, or nothing. */
  public static String didYouMean(String name, Collection<String> candidates) {
    return closest(name, candidates).map(NearNames::didYouMean).orElse("");
  }

  /** The hint appended to a message for a known suggestion. */
  public static String didYouMean(String suggestion) {
    return ". Did you mean " + suggestion + "?";
  }

  /** Levenshtein distance, with a transposition of adjacent characters counted as one edit. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          best = Math.min(best, d[i - 2][j - 2] + 1);
        }
        d[i][j] = best;
      }
    }
    return d[a.length()][b.length()];
  }
}
