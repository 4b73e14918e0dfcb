package dev.packed4j.cli.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The rule that turns registry names into Java identifiers (docs/guide.md, "Generating interfaces"):
 *
 * <ul>
 *   <li>A name is split into words at every character that is not a letter or digit ({@code _}, {@code -},
 *       {@code .}, ...; letters and digits of any script are kept, as Java identifiers take them) and at camel-case
 *       humps: {@code MyAdd} is {@code My Add}, {@code URLParse} is {@code URL Parse}, {@code sum_list} is
 *       {@code sum list}, {@code größe_max} is {@code größe max}.
 *   <li>A method or getter is the words in lower camel case: the first word all lower case, each later word with
 *       its first letter upper case and the rest as written ({@code MyAdd} → {@code myAdd}, {@code URLParse} →
 *       {@code urlParse}, {@code get_HTTPCode} → {@code getHTTPCode}).
 *   <li>A type is the words in upper camel case ({@code calculator} → {@code Calculator}, {@code tensor_ops} →
 *       {@code TensorOps}).
 *   <li>A type name keeps at most {@value #MAX_TYPE_NAME} bytes of UTF-8, as its generated class's file name
 *       ({@code Packed4j_<Type>.class}) must fit the file system's limit.
 *   <li>An identifier that would start with a digit gets a leading {@code _}; a Java keyword or literal
 *       ({@code new}, {@code true}), and a method name of {@code java.lang.Object} ({@code toString},
 *       {@code hashCode}, ...) gets a trailing {@code _} ({@code new_}); a name without letters or digits becomes
 *       {@code function} (a method) or {@code Globals} (a type).
 * </ul>
 */
public final class JavaNames {
  private static final Set<String> KEYWORDS = Set.of(
      "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
      "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
      "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
      "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
      "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "_", "var",
      "yield", "record", "sealed", "permits", "non-sealed", "when", "module", "open", "exports", "requires");

  /** Methods every interface inherits from {@code Object}: a generated method of that name would clash. */
  private static final Set<String> OBJECT_METHODS = Set.of(
      "equals", "hashCode", "toString", "getClass", "notify", "notifyAll", "wait", "clone", "finalize");

  /**
   * The most UTF-8 bytes of a type name (64 ASCII characters, fewer of other scripts): its generated class's file name,
   * {@code Packed4j_<Type>$<Method>Route.class}, must stay under the file system's 255 bytes.
   */
  public static final int MAX_TYPE_NAME = 64;

  private JavaNames() {}

  /**
   * The words of a name.
   *
   * @param name a registry name or a segment of one
   * @return the words, in order; empty when it has no letter or digit
   */
  public static List<String> words(String name) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    int previous = -1; // the last code point of the word, if it has one
    for (int i = 0; i < name.length(); i += Character.charCount(name.codePointAt(i))) {
      int c = name.codePointAt(i);
      if (!isLetterOrDigit(c)) {
        flush(word, words);
        continue;
      }
      if (word.length() > 0 && Character.isUpperCase(c)) {
        int next = i + Character.charCount(c);
        boolean nextLower = next < name.length() && Character.isLowerCase(name.codePointAt(next));
        // myAdd: a hump after a lower case letter or digit; URLParse: the last capital of a run starts a word.
        if (!Character.isUpperCase(previous) || nextLower) {
          flush(word, words);
        }
      }
      word.appendCodePoint(c);
      previous = c;
    }
    flush(word, words);
    return words;
  }

  /**
   * The method (or getter) name for {@code name}: {@code MyAdd} → {@code myAdd}, {@code new} → {@code new_}.
   *
   * @param name a registry name's last segment, or a field name
   * @return a legal Java method name
   */
  public static String method(String name) {
    List<String> words = words(name);
    if (words.isEmpty()) {
      return "function";
    }
    StringBuilder identifier = new StringBuilder(words.get(0).toLowerCase(Locale.ROOT));
    for (int i = 1; i < words.size(); i++) {
      identifier.append(capitalized(words.get(i)));
    }
    return legal(identifier.toString(), true);
  }

  /**
   * The type name for {@code name}: {@code calculator} → {@code Calculator}, {@code test.late} →
   * {@code TestLate}.
   *
   * @param name a registry name prefix or an object type key
   * @return a legal Java type name
   */
  public static String type(String name) {
    List<String> words = words(name);
    if (words.isEmpty()) {
      return "Globals";
    }
    StringBuilder identifier = new StringBuilder();
    words.forEach(word -> identifier.append(capitalized(word)));
    return legal(cutToUtf8Bytes(identifier.toString(), MAX_TYPE_NAME), false);
  }

  /**
   * Whether {@code name} is a legal Java package name ({@code com.example.calculator}).
   *
   * @param name the package name
   * @return whether each segment is an identifier and none a keyword
   */
  public static boolean isPackageName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (String segment : name.split("\\.", -1)) {
      if (segment.isEmpty() || KEYWORDS.contains(segment) || !Character.isJavaIdentifierStart(segment.charAt(0))
          || !segment.chars().allMatch(Character::isJavaIdentifierPart)) {
        return false;
      }
    }
    return true;
  }

  private static String legal(String identifier, boolean method) {
    if (!Character.isJavaIdentifierStart(identifier.codePointAt(0))) { // a digit, of any script
      identifier = "_" + identifier;
    }
    if (KEYWORDS.contains(identifier) || (method && OBJECT_METHODS.contains(identifier))) {
      identifier = identifier + "_";
    }
    return identifier;
  }

  /** The longest start of {@code text} of at most {@code maxBytes} UTF-8 bytes, cut between code points. */
  public static String cutToUtf8Bytes(String text, int maxBytes) {
    int bytes = 0;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (bytes > maxBytes) {
        return text.substring(0, i);
      }
      i += Character.charCount(c);
    }
    return text;
  }

  private static String capitalized(String word) {
    int first = word.codePointAt(0);
    return new StringBuilder().appendCodePoint(Character.toTitleCase(first))
        .append(word, Character.charCount(first), word.length()).toString();
  }

  /**
   * A character of a word: a letter or digit, or a mark or letter number that belongs to one (the virama of
   * {@code नमस्ते}, the combining diaeresis of {@code ü} written as {@code u} and U+0308), as Java identifiers hold them.
   */
  private static boolean isLetterOrDigit(int c) {
    int type = Character.getType(c);
    boolean wordPart = Character.isLetterOrDigit(c) || type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK || type == Character.LETTER_NUMBER;
    return wordPart && Character.isJavaIdentifierPart(c);
  }

  private static void flush(StringBuilder word, List<String> words) {
    if (word.length() > 0) {
      words.add(word.toString());
      word.setLength(0);
    }
  }
}
