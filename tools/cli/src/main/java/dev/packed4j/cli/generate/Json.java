package dev.packed4j.cli.generate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of the manifest's JSON: objects become {@code Map<String, Object>}, arrays {@code List<Object>},
 * strings {@code String}, numbers {@code Long} (the manifest has only integers), literals {@code Boolean} or null.
 * The processor has a reader of its own (it runs inside javac and brings no dependency); this one keeps the CLI jar
 * free of the processor.
 */
final class Json {
  private final String text;
  private int position;

  private Json(String text) {
    this.text = text;
  }

  /** Parses {@code text}, which must hold one JSON value. */
  static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.position != text.length()) {
      throw json.error("unexpected text after the JSON value");
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value, String what) {
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException(what + " is not a JSON object");
    }
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  static List<Object> array(Object value, String what) {
    if (!(value instanceof List)) {
      throw new IllegalArgumentException(what + " is not a JSON array");
    }
    return (List<Object>) value;
  }

  static String string(Object value, String what) {
    if (!(value instanceof String string)) {
      throw new IllegalArgumentException(what + " is not a JSON string");
    }
    return string;
  }

  private Object value() {
    skipSpace();
    if (position == text.length()) {
      throw error("the text ends where a value was expected");
    }
    char c = text.charAt(position);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    position++;
    Map<String, Object> members = new LinkedHashMap<>();
    skipSpace();
    if (peek('}')) {
      position++;
      return members;
    }
    while (true) {
      skipSpace();
      if (!peek('"')) {
        throw error("a member name was expected");
      }
      String name = string();
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
    position++;
    List<Object> items = new ArrayList<>();
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
    position++;
    StringBuilder value = new StringBuilder();
    while (position < text.length()) {
      char c = text.charAt(position++);
      if (c == '"') {
        return value.toString();
      }
      if (c != '\\') {
        value.append(c);
        continue;
      }
      if (position == text.length()) {
        break;
      }
      char escape = text.charAt(position++);
      switch (escape) {
        case '"', '\\', '/' -> value.append(escape);
        case 'b' -> value.append('\b');
        case 'f' -> value.append('\f');
        case 'n' -> value.append('\n');
        case 'r' -> value.append('\r');
        case 't' -> value.append('\t');
        case 'u' -> {
          if (position + 4 > text.length()) {
            throw error("a \\u escape needs four hex digits");
          }
          value.append((char) Integer.parseInt(text.substring(position, position + 4), 16));
          position += 4;
        }
        default -> throw error("unknown escape \\" + escape);
      }
    }
    throw error("a string is not closed");
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, position)) {
      throw error("a value was expected");
    }
    position += word.length();
    return value;
  }

  private Long number() {
    int start = position;
    if (peek('-')) {
      position++;
    }
    while (position < text.length() && Character.isDigit(text.charAt(position))) {
      position++;
    }
    if (start == position || (position == start + 1 && text.charAt(start) == '-')) {
      throw error("a value was expected");
    }
    return Long.parseLong(text.substring(start, position));
  }

  private void skipSpace() {
    while (position < text.length() && " \t\r\n".indexOf(text.charAt(position)) >= 0) {
      position++;
    }
  }

  private boolean peek(char c) {
    return position < text.length() && text.charAt(position) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("'" + c + "' was expected");
    }
    position++;
  }

  private IllegalArgumentException error(String message) {
    return new IllegalArgumentException(message + " at offset " + position);
  }
}
