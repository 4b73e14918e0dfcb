package dev.packed4j.processor.validate;

import java.util.Optional;

/**
 * The grammar of native names. Global names and type keys are one or more segments {@code [A-Za-z_][A-Za-z0-9_]*}
 * separated by single dots ({@code calculator.MyAdd}, {@code test.DerivedNode}); field names are one segment.
 */
final class NameGrammar {
  /** Why a name is malformed, and the well-formed name the user most likely meant, if there is one. */
  record Problem(String reason, Optional<String> suggestion) {}

  private NameGrammar() {}

  /** Checks a dotted name: a global name or a type key. */
  static Optional<Problem> dotted(String name) {
    return check(name, true);
  }

  /** Checks a single identifier: a field name. */
  static Optional<Problem> identifier(String name) {
    return check(name, false);
  }

  private static Optional<Problem> check(String name, boolean dotsAllowed) {
    return firstProblem(name, dotsAllowed)
        .map(reason -> new Problem(reason, suggestion(name, dotsAllowed)));
  }

  private static Optional<String> firstProblem(String name, boolean dotsAllowed) {
    if (name.isEmpty()) {
      return Optional.of("it is empty");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '.') {
        if (!dotsAllowed) {
          return Optional.of("it contains a dot at index " + i + ", and a field name is a single identifier");
        }
        if (i == 0) {
          return Optional.of("it starts with a dot");
        }
        if (i == name.length() - 1) {
          return Optional.of("it ends with a dot");
        }
        if (name.charAt(i + 1) == '.') {
          return Optional.of("it has two dots in a row at index " + i);
        }
      } else if (!isIdentifierPart(c)) {
        return Optional.of("it contains " + describe(c) + " at index " + i);
      } else if (isDigit(c) && (i == 0 || name.charAt(i - 1) == '.')) {
        return Optional.of("the segment starting at index " + i + " starts with a digit");
      }
    }
    return Optional.empty();
  }

  /** The name with the usual slips repaired (spaces, dashes, stray dots), if that makes it well-formed. */
  private static Optional<String> suggestion(String name, boolean dotsAllowed) {
    String repaired = name.strip().replaceAll("\\s+", "").replace('-', '_');
    if (dotsAllowed) {
      repaired = repaired.replaceAll("\\.{2,}", ".").replaceAll("^\\.+|\\.+$", "");
    }
    if (repaired.equals(name) || firstProblem(repaired, dotsAllowed).isPresent()) {
      return Optional.empty();
    }
    return Optional.of("\"" + repaired + "\"");
  }

  private static boolean isIdentifierPart(char c) {
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || isDigit(c);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static String describe(char c) {
    if (c == ' ') {
      return "a space";
    }
    if (Character.isWhitespace(c)) {
      return String.format("the whitespace character U+%04X", (int) c);
    }
    if (Character.isISOControl(c) || !Character.isDefined(c)) {
      return String.format("the character U+%04X", (int) c);
    }
    return "'" + c + "'";
  }
}
