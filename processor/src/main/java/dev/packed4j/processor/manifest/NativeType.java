package dev.packed4j.processor.manifest;

import java.util.ArrayList;
import java.util.List;

/**
 * A native type name as a signature spells it, parsed: {@code "map<string, list<int64>>"} is {@code map} with the
 * arguments {@code string} and {@code list<int64>}; an object type key such as {@code "Calculator"} has none.
 *
 * @param name {@code bool}, {@code int8} ... {@code uint64}, {@code float32}, {@code float64}, {@code string},
 *     {@code bytes}, {@code any}, {@code void}, {@code function}, {@code list}, {@code map}, {@code optional}, or
 *     an object type key
 * @param arguments the element types of {@code list}, {@code map} and {@code optional}
 */
public record NativeType(String name, List<NativeType> arguments) {
  public NativeType {
    arguments = List.copyOf(arguments);
  }

  /** Parses a type name; a malformed one is a {@link ManifestException}. */
  public static NativeType parse(String text) throws ManifestException {
    int open = text.indexOf('<');
    if (open < 0) {
      if (text.isBlank() || text.indexOf('>') >= 0 || text.indexOf(',') >= 0) {
        throw new ManifestException("\"" + text + "\" is not a type name");
      }
      return new NativeType(text.trim(), List.of());
    }
    if (!text.endsWith(">")) {
      throw new ManifestException("\"" + text + "\" is not a type name");
    }
    List<NativeType> arguments = new ArrayList<>();
    String inner = text.substring(open + 1, text.length() - 1);
    int depth = 0;
    int start = 0;
    for (int i = 0; i < inner.length(); i++) {
      char c = inner.charAt(i);
      if (c == '<') {
        depth++;
      } else if (c == '>') {
        depth--;
      } else if (c == ',' && depth == 0) {
        arguments.add(parse(inner.substring(start, i).trim()));
        start = i + 1;
      }
    }
    arguments.add(parse(inner.substring(start).trim()));
    return new NativeType(text.substring(0, open).trim(), arguments);
  }

  /** Whether this is one of the native integer types. */
  public boolean isInteger() {
    return switch (name) {
      case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" -> true;
      default -> false;
    };
  }

  /** Whether this is {@code float32} or {@code float64}. */
  public boolean isFloat() {
    return name.equals("float32") || name.equals("float64");
  }

  /** Whether the name is none of the built-in type names: an object type key. */
  public boolean isObjectKey() {
    return arguments.isEmpty()
        && !isInteger()
        && !isFloat()
        && switch (name) {
          case "bool", "string", "bytes", "any", "void", "function", "opaque pointer" -> false;
          default -> true;
        };
  }

  /** As a signature spells it: {@code map<string, list<int64>>}. */
  @Override
  public String toString() {
    if (arguments.isEmpty()) {
      return name;
    }
    StringBuilder text = new StringBuilder(name).append('<');
    for (int i = 0; i < arguments.size(); i++) {
      text.append(i > 0 ? ", " : "").append(arguments.get(i));
    }
    return text.append('>').toString();
  }
}
