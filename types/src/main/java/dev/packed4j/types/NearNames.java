package dev.packed4j.types;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The names near a misspelled or renamed one, for a "did you mean": the one rule the processor's diagnostics and the
 * runtime's {@code KeyError} share. Case is ignored; a dotted name is a namespace (the part before the last dot) and
 * a last segment.
 *
 * <ul>
 *   <li>A typo: the whole name within a few edits, about one per three characters of the last segment (one to
 *       three), a typo in the namespace included ({@code calculater.Sum} finds {@code calculator.Sum}); the same last
 *       segment in another namespace counts as such a typo ({@code calculator.MyAdd} finds {@code other.MyAdd}).
 *   <li>A rename: the same namespace and a last segment within half the longer last segment's characters (at least
 *       one edit) of the name's ({@code ledger.FormatCents} finds {@code ledger.FormatAmount}). The budget is not a
 *       share of the whole name, which a long namespace would stretch until unrelated names match
 *       ({@code mycompany.billing.Credit} does not find {@code mycompany.billing.Refund}).
 * </ul>
 *
 * <p>For example {@code NearNames.near("calc.Sun", List.of("calc.Sum", "calc.Mul"))} is {@code [calc.Sum]}.
 */
public final class NearNames {
  private NearNames() {}

  /**
   * The candidates near {@code name}, nearest first (ties by name): every typo, and a rename only when it is as near
   * as the nearest candidate. The name itself is never one.
   *
   * @param name the name that was not found
   * @param candidates the names that exist
   * @return the near candidates, nearest first; empty when none is near
   */
  public static List<String> near(String name, Collection<String> candidates) {
    String lower = name.toLowerCase(Locale.ROOT);
    String namespace = namespace(lower);
    String last = lastSegment(lower);
    int typo = Math.max(1, Math.min(3, (last.length() + 2) / 3));
    record Candidate(String name, int distance) {}
    List<Candidate> near = candidates.stream()
        .filter(candidate -> !candidate.equals(name))
        .map(candidate -> {
          String candidateLower = candidate.toLowerCase(Locale.ROOT);
          String candidateLast = lastSegment(candidateLower);
          int distance = distance(lower, candidateLower);
          if (candidateLast.equals(last)) {
            return new Candidate(candidate, Math.min(distance, typo));
          }
          boolean renamed = namespace(candidateLower).equals(namespace)
              && distance <= Math.max(1, Math.max(last.length(), candidateLast.length()) / 2);
          return distance <= typo || renamed ? new Candidate(candidate, distance) : null;
        })
        .filter(candidate -> candidate != null)
        .sorted(Comparator.comparingInt(Candidate::distance).thenComparing(Candidate::name))
        .toList();
    int limit = near.isEmpty() ? typo : Math.max(typo, near.get(0).distance());
    return near.stream().filter(candidate -> candidate.distance() <= limit).map(Candidate::name).toList();
  }

  /**
   * Levenshtein distance, with a transposition of adjacent characters counted as one edit.
   *
   * @param a one string
   * @param b the other
   * @return the number of edits that turn {@code a} into {@code b}
   */
  public static int distance(String a, String b) {
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

  private static String namespace(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(0, dot);
  }

  private static String lastSegment(String name) {
    return name.substring(name.lastIndexOf('.') + 1);
  }
}
