package dev.packed4j.processor.manifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of the JSON the describe command writes: objects become {@code Map<String, Object>}, arrays
 * {@code List<Object>}, strings {@code String}, numbers {@code Long} (the manifest has only integers), literals
 * {@code Boolean} or null. Anything else, or anything after the value, is a {@link ManifestException} that says
 * where. Hand-written so the processor, which runs inside javac, brings no dependency of its own.
 */
final class Json {
  private final String text;
  private int position;

  private Json(String text) {
    this.text = text;
  }

  /** Parses {@code text}, which must hold one JSON value. */
  static Object parse(String text) throws ManifestException {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.position != text.length()) {
      throw json.error("unexpected text after the JSON value");
    }
    return value;
  }

  private Object value() throws ManifestException {
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
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield number();
        }
        throw error("unexpected character '" + c + "'");
      }
    };
  }

  private Map<String, Object> object() throws ManifestException {
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
      String name = string();
      skipSpace();
      expect(':');
      if (members.put(name, value()) != null) {
        throw error("the member \"" + name + "\" appears twice");
      }
      skipSpace();
      if (peek(',')) {
        position++;
      } else {
        expect('}');
        return members;
      }
    }
  }

  private List<Object> array() throws ManifestException {
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

  private String string() throws ManifestException {
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

  private Long number() throws ManifestException {
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

  private Object literal(String word, Object value) throws ManifestException {
    if (!text.startsWith(word, position)) {
      throw error("unexpected character '" + text.charAt(position) + "'");
    }
    position += word.length();
    return value;
  }

  private void expect(char c) throws ManifestException {
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

  private ManifestException error(String problem) {
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
    return new ManifestException("it is not valid JSON: " + problem + " at line " + line + ", column " + column);
  }
}
