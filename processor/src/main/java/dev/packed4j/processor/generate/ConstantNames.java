package dev.packed4j.processor.generate;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/** Hands out the names of a generated class's constants, each once: overloads share a method name. */
final class ConstantNames {
  private final Set<String> used = new HashSet<>();

  /** Names already taken in the class, such as {@code TYPE}. */
  ConstantNames(Set<String> reserved) {
    used.addAll(reserved);
  }

  /** {@code base}, or {@code base_2}, {@code base_3}, ... if it is taken. */
  String unique(String base) {
    if (used.add(base)) {
      return base;
    }
    for (int i = 2; ; i++) {
      if (used.add(base + "_" + i)) {
        return base + "_" + i;
      }
    }
  }

  /** {@code createCalculator} as {@code CREATE_CALCULATOR}, {@code readHTTPHeader} as {@code READ_HTTP_HEADER}. */
  static String upperSnake(String camelCase) {
    StringBuilder name = new StringBuilder();
    for (int i = 0; i < camelCase.length(); i++) {
      char c = camelCase.charAt(i);
      boolean wordStart =
          i > 0
              && Character.isUpperCase(c)
              && (!Character.isUpperCase(camelCase.charAt(i - 1))
                  || (i + 1 < camelCase.length() && Character.isLowerCase(camelCase.charAt(i + 1))));
      if (wordStart && name.charAt(name.length() - 1) != '_') {
        name.append('_');
      }
      name.append(c);
    }
    return name.toString().toUpperCase(Locale.ROOT);
  }

  /**
   * The most UTF-8 bytes of a method's name a nested class's name keeps: the class's file is
   * {@code Packed4j_<Interface>$<Name>Route.class}, and a file name longer than the file system's limit (255 bytes on
   * Linux) fails javac with "error while writing" and no hint of why. 48 leaves the interface's name about 180 bytes.
   * {@link #unique} tells cut names apart.
   */
  static final int MAX_CLASS_NAME_STEM = 48;

  /** {@code MAKE_SHAPE} as {@code MakeShapeRoute}: the nested class holding a method's route, its stem capped. */
  static String routeHolder(String upperSnake) {
    String stem = upperCamel(upperSnake);
    int bytes = 0;
    for (int i = 0; i < stem.length(); ) {
      int c = stem.codePointAt(i);
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (bytes > MAX_CLASS_NAME_STEM) {
        stem = stem.substring(0, i); // between code points
        break;
      }
      i += Character.charCount(c);
    }
    return stem + "Route";
  }

  /** {@code MAKE_SHAPE} as {@code MakeShape}, {@code ECHO_2} as {@code Echo2}: a class name from a constant's. */
  static String upperCamel(String upperSnake) {
    StringBuilder name = new StringBuilder();
    for (String word : upperSnake.split("_")) {
      if (!word.isEmpty()) {
        name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
      }
    }
    return name.toString();
  }
}
