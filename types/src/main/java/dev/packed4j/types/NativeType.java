package dev.packed4j.types;

import java.util.ArrayList;
import java.util.List;

/**
 * A native type as a signature spells it (the grammar of {@code P4JFunctionGetSignature}, which C++
 * {@code details::SignatureOf} prints from each type's {@code TypeTraits<T>::TypeName()}):
 *
 * <ul>
 *   <li>scalars: {@code bool}, {@code int8} ... {@code int64}, {@code uint8} ... {@code uint64}, {@code float32},
 *       {@code float64};
 *   <li>{@code string}, {@code bytes}, {@code void} (a result only), {@code any}, {@code function},
 *       {@code opaque pointer};
 *   <li>containers: {@code list<T>}, {@code map<K, V>}, {@code optional<T>};
 *   <li>anything else is an object type key: {@code Calculator}, {@code Object}, {@code NDArray} (a tensor).
 * </ul>
 *
 * <p>{@code map<string, list<int64>>} is {@code map} with the arguments {@code string} and {@code list<int64>}.
 * Immutable; {@link #toString()} prints what {@link #parse} reads.
 *
 * @param name the type's name: a built-in name above, or an object type key
 * @param arguments the element types of {@code list}, {@code map} and {@code optional}; empty for every other type
 */
public record NativeType(String name, List<NativeType> arguments) {

  /** {@code void}: what a function that returns nothing returns. */
  public static final NativeType VOID = new NativeType("void", List.of());

  /** The kind of a native type, which decides its conversions and its carrier. */
  public enum Kind {
    /** {@code bool}. */
    BOOL,
    /** {@code int8} ... {@code int64}, {@code uint8} ... {@code uint64}. */
    INTEGER,
    /** {@code float32}, {@code float64}. */
    FLOAT,
    /** {@code string}. */
    STRING,
    /** {@code bytes}. */
    BYTES,
    /** {@code void}. */
    VOID,
    /** {@code any}: a value of any kind. */
    ANY,
    /** {@code function}: a function object. */
    FUNCTION,
    /** {@code opaque pointer}: an address with no type. */
    OPAQUE_POINTER,
    /** {@code list<T>}. */
    LIST,
    /** {@code map<K, V>}. */
    MAP,
    /** {@code optional<T>}. */
    OPTIONAL,
    /** An object type key, {@code NDArray} and {@code Object} included. */
    OBJECT
  }

  /** The key of the tensor type ({@code NDArray} or {@code TensorView} in C++). */
  public static final String TENSOR_KEY = "NDArray";

  /** The key of the root object type, which every object derives from. */
  public static final String ROOT_OBJECT_KEY = "Object";

  /**
   * Checks the name and the number of arguments.
   *
   * @param name the type's name
   * @param arguments the element types
   * @throws IllegalArgumentException when the name is blank or holds a character of the grammar, or the number of
   *     arguments is not the one the name takes
   */
  public NativeType {
    arguments = List.copyOf(arguments);
    if (name.isBlank() || !name.equals(name.strip()) || name.chars().anyMatch(c -> "<>,()".indexOf(c) >= 0)) {
      throw new IllegalArgumentException("\"" + name + "\" is not a type name");
    }
    int expected = switch (name) {
      case "list", "optional" -> 1;
      case "map" -> 2;
      default -> 0;
    };
    if (arguments.size() != expected) {
      throw new IllegalArgumentException("\"" + print(name, arguments) + "\" is not a type name: " + name
          + " takes " + expected + (expected == 1 ? " type argument" : " type arguments"));
    }
  }

  /**
   * A type without arguments: a scalar, {@code string}, ... or an object type key.
   *
   * @param name the name
   * @return the type
   * @throws IllegalArgumentException when the name is not one of a type without arguments
   */
  public static NativeType of(String name) {
    return new NativeType(name, List.of());
  }

  /**
   * {@code list<element>}.
   *
   * @param element the element type
   * @return the list type
   */
  public static NativeType listOf(NativeType element) {
    return new NativeType("list", List.of(element));
  }

  /**
   * {@code map<key, value>}.
   *
   * @param key the key type
   * @param value the value type
   * @return the map type
   */
  public static NativeType mapOf(NativeType key, NativeType value) {
    return new NativeType("map", List.of(key, value));
  }

  /**
   * {@code optional<element>}.
   *
   * @param element the type of the value when there is one
   * @return the optional type
   */
  public static NativeType optionalOf(NativeType element) {
    return new NativeType("optional", List.of(element));
  }

  /**
   * Parses a type name as a signature spells it: {@code "map<string, list<int64>>"}.
   *
   * @param text the type name
   * @return the type
   * @throws IllegalArgumentException naming the text when it is not a type name
   */
  public static NativeType parse(String text) {
    Parser parser = new Parser(text);
    NativeType type = parser.type();
    parser.end();
    return type;
  }

  /**
   * Parses types separated by commas, as the parameters of a signature list them: {@code "int64, map<a, b>"}.
   *
   * @param text the types; blank for none
   * @return the types, in order
   * @throws IllegalArgumentException naming the text when it is not a list of type names
   */
  public static List<NativeType> parseList(String text) {
    List<NativeType> types = new ArrayList<>();
    if (text.isBlank()) {
      return types;
    }
    Parser parser = new Parser(text);
    types.add(parser.type());
    while (parser.comma()) {
      types.add(parser.type());
    }
    parser.end();
    return types;
  }

  /**
   * The kind of this type.
   *
   * @return the kind
   */
  public Kind kind() {
    return switch (name) {
      case "bool" -> Kind.BOOL;
      case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" -> Kind.INTEGER;
      case "float32", "float64" -> Kind.FLOAT;
      case "string" -> Kind.STRING;
      case "bytes" -> Kind.BYTES;
      case "void" -> Kind.VOID;
      case "any" -> Kind.ANY;
      case "function" -> Kind.FUNCTION;
      case "opaque pointer" -> Kind.OPAQUE_POINTER;
      case "list" -> Kind.LIST;
      case "map" -> Kind.MAP;
      case "optional" -> Kind.OPTIONAL;
      default -> Kind.OBJECT;
    };
  }

  /**
   * Whether this is one of the native integer types.
   *
   * @return whether its kind is {@link Kind#INTEGER}
   */
  public boolean isInteger() {
    return kind() == Kind.INTEGER;
  }

  /**
   * Whether this is {@code float32} or {@code float64}.
   *
   * @return whether its kind is {@link Kind#FLOAT}
   */
  public boolean isFloat() {
    return kind() == Kind.FLOAT;
  }

  /**
   * Whether this is a bool, an integer or a float: a machine word on a typed entry.
   *
   * @return whether it is a scalar
   */
  public boolean isScalar() {
    Kind kind = kind();
    return kind == Kind.BOOL || kind == Kind.INTEGER || kind == Kind.FLOAT;
  }

  /**
   * Whether the name is none of the built-in type names: an object type key ({@code NDArray} and {@code Object}
   * included).
   *
   * @return whether its kind is {@link Kind#OBJECT}
   */
  public boolean isObjectKey() {
    return kind() == Kind.OBJECT;
  }

  /**
   * Whether this is the tensor type {@code NDArray}.
   *
   * @return whether it is a tensor
   */
  public boolean isTensor() {
    return name.equals(TENSOR_KEY);
  }

  /**
   * The element type of a {@code list} or {@code optional}, or the key type of a {@code map}.
   *
   * @return the first type argument
   * @throws IndexOutOfBoundsException for a type without arguments
   */
  public NativeType element() {
    return arguments.get(0);
  }

  /**
   * As a signature spells it: {@code map<string, list<int64>>}.
   *
   * @return the type name
   */
  @Override
  public String toString() {
    return print(name, arguments);
  }

  private static String print(String name, List<NativeType> arguments) {
    if (arguments.isEmpty()) {
      return name;
    }
    StringBuilder text = new StringBuilder(name).append('<');
    for (int i = 0; i < arguments.size(); i++) {
      text.append(i > 0 ? ", " : "").append(arguments.get(i));
    }
    return text.append('>').toString();
  }

  /** A recursive descent over {@code name [< type (, type)* >]}; spaces around the punctuation are ignored. */
  private static final class Parser {
    private final String text;
    private int position;

    Parser(String text) {
      this.text = text;
    }

    NativeType type() {
      skipSpaces();
      int start = position;
      while (position < text.length() && "<>,()".indexOf(text.charAt(position)) < 0) {
        position++;
      }
      String name = text.substring(start, position).strip();
      if (name.isEmpty()) {
        throw malformed();
      }
      List<NativeType> arguments = new ArrayList<>();
      if (position < text.length() && text.charAt(position) == '<') {
        position++;
        arguments.add(type());
        while (comma()) {
          arguments.add(type());
        }
        skipSpaces();
        if (position >= text.length() || text.charAt(position) != '>') {
          throw malformed();
        }
        position++;
      }
      return new NativeType(name, arguments);
    }

    boolean comma() {
      skipSpaces();
      if (position < text.length() && text.charAt(position) == ',') {
        position++;
        return true;
      }
      return false;
    }

    void end() {
      skipSpaces();
      if (position != text.length()) {
        throw malformed();
      }
    }

    private void skipSpaces() {
      while (position < text.length() && text.charAt(position) == ' ') {
        position++;
      }
    }

    private IllegalArgumentException malformed() {
      return new IllegalArgumentException("\"" + text + "\" is not a type name");
    }
  }
}
