package dev.packed4j.types;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The one reader (and string writer) of the JSON of packed4j's manifest, which {@code packed4j describe --json}
 * writes and both packed4j-processor and {@code packed4j generate} read. Strict: objects become
 * {@code Map<String, Object>} (members in document order), arrays {@code List<Object>}, strings {@code String},
 * numbers {@code Long} (the manifest has only integers), {@code true} and {@code false} {@code Boolean},
 * {@code null} null. Anything else, a member twice, or anything after the value is an error that says where.
 * Hand-written so that neither the processor (which runs inside javac) nor the CLI brings a dependency.
 *
 * <pre>{@code
 * Map<String, Object> root = Json.object(Json.parse(text), "the manifest");
 * for (Object item : Json.array(root.get("globals"), "globals")) {
 *   String name = Json.string(Json.object(item, "a global").get("name"), "a global's name");
 * }
 * }</pre>
 */
public final class Json {
  /**
   * How deep arrays and objects may nest. The reader recurses once per level, so a hostile file nested thousands deep
   * would overflow the stack of javac or the CLI; a manifest nests six.
   */
  public static final int MAX_DEPTH = 256;

  private final String text;
  private int position;
  private int depth;

  private Json(String text) {
    this.text = text;
  }

  /**
   * Parses {@code text}, which must hold one JSON value.
   *
   * @param text the JSON text
   * @return the value: a {@code Map<String, Object>}, {@code List<Object>}, {@code String}, {@code Long},
   *     {@code Boolean} or null
   * @throws IllegalArgumentException "it is not valid JSON: what at line L, column C" when it is not, or "it nests
   *     arrays and objects more than {@value #MAX_DEPTH} levels deep at line L, column C, ..." when it nests deeper
   */
  public static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.position != text.length()) {
      throw json.error("unexpected text after the JSON value");
    }
    return value;
  }

  /**
   * A parsed value as a JSON object.
   *
   * @param value a value {@link #parse} returned, or a member or item of one
   * @param what what the value is, for the message ("the manifest", "a global")
   * @return its members
   * @throws IllegalArgumentException "what is missing or not a JSON object" when it is not an object
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> object(Object value, String what) {
    if (value instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new IllegalArgumentException(what + " is missing or not a JSON object");
  }

  /**
   * A parsed value as a JSON array.
   *
   * @param value a value {@link #parse} returned, or a member or item of one
   * @param what what the value is, for the message
   * @return its items
   * @throws IllegalArgumentException "what is missing or not a JSON array" when it is not an array
   */
  @SuppressWarnings("unchecked")
  public static List<Object> array(Object value, String what) {
    if (value instanceof List<?> list) {
      return (List<Object>) list;
    }
    throw new IllegalArgumentException(what + " is missing or not a JSON array");
  }

  /**
   * A parsed value as a JSON string.
   *
   * @param value a value {@link #parse} returned, or a member or item of one
   * @param what what the value is, for the message
   * @return the string
   * @throws IllegalArgumentException "what is missing or not a JSON string" when it is not a string
   */
  public static String string(Object value, String what) {
    if (value instanceof String string) {
      return string;
    }
    throw new IllegalArgumentException(what + " is missing or not a JSON string");
  }

  /**
   * A string as a JSON string literal: quotes, backslashes and control characters escaped, everything else as is.
   *
   * @param value the string
   * @return the literal, quotes included: {@code "a\"b"}
   */
  public static String quote(String value) {
    StringBuilder json = new StringBuilder("\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    return json.append('"').toString();
  }

  private Object value() {
    skipSpace();
    if (position == text.length()) {
      throw error("the text ends where a value was expected");
    }
    char c = text.charAt(position);
    if ((c == '{' || c == '[') && depth == MAX_DEPTH) {
      throw new IllegalArgumentException("it nests arrays and objects more than " + MAX_DEPTH + " levels deep "
          + where() + ", deeper than packed4j reads (a manifest nests six): it is not a manifest packed4j"
          + " describe wrote");
    }
    return switch (c) {
      case '{' -> nested(this::object);
      case '[' -> nested(this::array);
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield number();
        }
        throw error("unexpected character '" + c + "'");
      }
    };
  }

  /** Reads an array or object one level deeper. */
  private Object nested(Supplier<Object> reader) {
    depth++;
    try {
      return reader.get();
    } finally {
      depth--;
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> members = new LinkedHashMap<>();
    position++;
    skipSpace();
    if (peek('}')) {
      position++;
      return members;
    }
    while (true) {
      skipSpace();
      if (!peek('"')) {
        throw error("a member name (a string) was expected");
      }
      int nameStart = position;
      String name = string();
      if (members.containsKey(name)) {
        position = nameStart;
        throw error("the member \"" + name + "\" appears twice");
      }
      skipSpace();
      expect(':');
      members.put(name, value());
      skipSpace();
      if (peek(',')) {
        position++;
      } else {
        expect('}');
        return members;
      }
    }
  }

  private List<Object> array() {
    List<Object> items = new ArrayList<>();
    position++;
    skipSpace();
    if (peek(']')) {
      position++;
      return items;
    }
    while (true) {
      items.add(value());
      skipSpace();
      if (peek(',')) {
        position++;
      } else {
        expect(']');
        return items;
      }
    }
  }

  private String string() {
    StringBuilder value = new StringBuilder();
    position++;
    while (position < text.length()) {
      char c = text.charAt(position++);
      if (c == '"') {
        return value.toString();
      }
      if (c < 0x20) {
        throw error("a control character inside a string");
      }
      if (c != '\\') {
        value.append(c);
        continue;
      }
      if (position == text.length()) {
        break;
      }
      char escaped = text.charAt(position++);
      switch (escaped) {
        case '"', '\\', '/' -> value.append(escaped);
        case 'b' -> value.append('\b');
        case 'f' -> value.append('\f');
        case 'n' -> value.append('\n');
        case 'r' -> value.append('\r');
        case 't' -> value.append('\t');
        case 'u' -> {
          if (position + 4 > text.length()) {
            throw error("a \\u escape needs four hex digits");
          }
          try {
            value.append((char) Integer.parseInt(text.substring(position, position + 4), 16));
          } catch (NumberFormatException e) {
            throw error("a \\u escape needs four hex digits");
          }
          position += 4;
        }
        default -> throw error("the escape \\" + escaped + " is not JSON");
      }
    }
    throw error("a string is not closed");
  }

  private Long number() {
    int start = position;
    if (peek('-')) {
      position++;
    }
    while (position < text.length() && Character.isDigit(text.charAt(position))) {
      position++;
    }
    if (position < text.length() && ".eE".indexOf(text.charAt(position)) >= 0) {
      throw error("only integers are expected in a manifest");
    }
    try {
      return Long.parseLong(text.substring(start, position));
    } catch (NumberFormatException e) {
      throw error("\"" + text.substring(start, position) + "\" is not an integer");
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, position)) {
      throw error("unexpected character '" + text.charAt(position) + "'");
    }
    position += word.length();
    return value;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("'" + c + "' was expected");
    }
    position++;
  }

  private boolean peek(char c) {
    return position < text.length() && text.charAt(position) == c;
  }

  private void skipSpace() {
    while (position < text.length() && " \t\r\n".indexOf(text.charAt(position)) >= 0) {
      position++;
    }
  }

  private IllegalArgumentException error(String problem) {
    return new IllegalArgumentException("it is not valid JSON: " + problem + " " + where());
  }

  /** {@code "at line L, column C"} of the current position. */
  private String where() {
    int line = 1;
    int column = 1;
    for (int i = 0; i < Math.min(position, text.length()); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return "at line " + line + ", column " + column;
  }
}
