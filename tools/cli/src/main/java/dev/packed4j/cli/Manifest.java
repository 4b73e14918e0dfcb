package dev.packed4j.cli;

import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.types.Json;
import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes a {@link LibraryDescription} as the manifest packed4j-processor reads with
 * {@code -Apacked4j.manifest=<file>} and {@code packed4j generate --manifest} reads: JSON, format {@value #FORMAT},
 * version {@value #VERSION}.
 *
 * <pre>{@code
 * {
 *   "format": "packed4j-manifest",
 *   "version": 2,
 *   "library": "libcalculator.so",
 *   "globals": [
 *     {"name": "calculator.Mul", "typed": true, "parameters": ["int64", "int64"], "result": "int64",
 *      "doc": "The product of two numbers", "parameterNames": ["a", "b"]},
 *     {"name": "calculator.MyAdd", "typed": false}
 *   ],
 *   "objectTypes": [
 *     {"key": "Calculator", "parent": "Object", "doc": "A pocket calculator", "fields": [
 *       {"name": "brand", "type": "string", "declaredBy": "Calculator", "mutable": false, "doc": "who made it"},
 *       {"name": "price", "type": "int32", "declaredBy": "Calculator", "mutable": true, "doc": ""}],
 *      "methods": [
 *       {"name": "add", "kind": "method", "typed": true, "parameters": ["Calculator", "int64", "int64"],
 *        "result": "int64", "doc": "the sum", "parameterNames": ["a", "b"]},
 *       {"name": "parse", "kind": "static", "typed": true, "parameters": ["string"], "result": "Calculator",
 *        "doc": "", "parameterNames": ["text"]},
 *       {"name": "__init__", "kind": "constructor", "typed": true, "parameters": ["string", "int32"],
 *        "result": "Calculator", "doc": "", "parameterNames": ["brand", "price"]}]}
 *   ],
 *   "coreGlobals": [...],
 *   "coreObjectTypes": [...]
 * }
 * }</pre>
 *
 * <p>Type names are those of {@code PackedFunction.signature()}: {@code bool}, {@code int8} ... {@code uint64},
 * {@code float32}, {@code float64}, {@code string}, {@code bytes}, {@code any}, {@code void}, {@code function},
 * {@code list<T>}, {@code map<K, V>}, {@code optional<T>}, and an object type key. A field's type is
 * {@code int32}, {@code int64}, {@code uint64}, {@code float64}, {@code bool}, {@code string} or an object type
 * key. The root type has no {@code "parent"}.
 *
 * <p>Members by version:
 *
 * <ul>
 *   <li>Version 1: a global's {@code "name"}, {@code "typed"} and, when typed, {@code "parameters"} and
 *       {@code "result"}; an object type's {@code "key"}, {@code "parent"} and {@code "fields"} (every field an
 *       instance has, inherited first, each with {@code "name"}, {@code "type"} and {@code "declaredBy"}).
 *   <li>Version 2 adds: on a global, {@code "doc"} and {@code "parameterNames"} (one per parameter), each only when
 *       the registration gave it; on an object type, {@code "doc"} ({@code ""} when none) and {@code "methods"}:
 *       the type's own method table in registration order (inherited members are its ancestors'), each with
 *       {@code "name"} ({@code "__init__"} for the constructor), {@code "kind"} ({@code "method"},
 *       {@code "static"} or {@code "constructor"}), {@code "typed"}, when typed {@code "parameters"} (the object
 *       first for a method) and {@code "result"}, {@code "doc"} and {@code "parameterNames"} (the object not named;
 *       empty when none were given); on a field, {@code "mutable"} (whether Java may set it) and {@code "doc"}.
 * </ul>
 *
 * <p>A reader rejects another {@code "format"} and a version it does not know; a later version only adds members,
 * which an older reader would ignore. packed4j-processor and {@code packed4j generate} read versions 1 and 2.
 */
public final class Manifest {
  /** The value of the {@code "format"} member. */
  public static final String FORMAT = "packed4j-manifest";

  /** The version this class writes; packed4j-processor and {@code packed4j generate} read it and every older one. */
  public static final int VERSION = 2;

  private Manifest() {}

  /** Writes the manifest of {@code description} to {@code file} (UTF-8), creating its directory. */
  public static void write(LibraryDescription description, Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, toJson(description), StandardCharsets.UTF_8);
  }

  /** The manifest of {@code description}. */
  public static String toJson(LibraryDescription description) {
    return "{\n"
        + "  \"format\": " + string(FORMAT) + ",\n"
        + "  \"version\": " + VERSION + ",\n"
        + "  \"library\": " + string(description.library()) + ",\n"
        + "  \"globals\": " + functions(description.globals()) + ",\n"
        + "  \"objectTypes\": " + types(description.objectTypes()) + ",\n"
        + "  \"coreGlobals\": " + functions(description.coreGlobals()) + ",\n"
        + "  \"coreObjectTypes\": " + types(description.coreObjectTypes()) + "\n"
        + "}\n";
  }

  private static String functions(List<GlobalFunction> functions) {
    return array(functions.stream().map(Manifest::function).toList());
  }

  private static String function(GlobalFunction function) {
    StringBuilder json = new StringBuilder("{\"name\": ").append(string(function.name()));
    appendSignature(json, function.signature().orElse(""));
    if (!function.doc().isEmpty()) {
      json.append(", \"doc\": ").append(string(function.doc()));
    }
    if (!function.parameterNames().isEmpty()) {
      json.append(", \"parameterNames\": ").append(strings(function.parameterNames()));
    }
    return json.append('}').toString();
  }

  /** {@code "typed"} and, when typed, {@code "parameters"} and {@code "result"}, by the one signature grammar. */
  private static void appendSignature(StringBuilder json, String signature) {
    json.append(", \"typed\": ").append(!signature.isEmpty());
    if (!signature.isEmpty()) {
      Signature parsed = Signature.parse(signature);
      json.append(", \"parameters\": ").append(strings(parsed.parameters().stream().map(NativeType::toString)
          .toList())).append(", \"result\": ").append(string(parsed.result().toString()));
    }
  }

  private static String types(List<ObjectTypeInfo> types) {
    return array(types.stream().map(Manifest::type).toList());
  }

  private static String type(ObjectTypeInfo type) {
    StringBuilder json = new StringBuilder("{\"key\": ").append(string(type.key()));
    type.parent().ifPresent(parent -> json.append(", \"parent\": ").append(string(parent)));
    json.append(", \"doc\": ").append(string(type.doc()));
    json.append(", \"fields\": [");
    json.append(type.fields().stream()
        .map(field -> "{\"name\": " + string(field.name()) + ", \"type\": " + string(field.type())
            + ", \"declaredBy\": " + string(field.declaredBy()) + ", \"mutable\": " + field.mutable()
            + ", \"doc\": " + string(field.doc()) + "}")
        .collect(Collectors.joining(", ")));
    json.append("], \"methods\": [");
    json.append(type.members().stream().map(Manifest::member).collect(Collectors.joining(", ")));
    return json.append("]}").toString();
  }

  private static String member(ObjectTypeInfo.Member member) {
    StringBuilder json = new StringBuilder("{\"name\": ").append(string(member.name()));
    json.append(", \"kind\": ").append(string(kind(member.kind())));
    appendSignature(json, member.signature());
    json.append(", \"doc\": ").append(string(member.doc()));
    json.append(", \"parameterNames\": ").append(strings(member.parameterNames()));
    return json.append('}').toString();
  }

  /** The manifest's name of a member kind: {@code method}, {@code static} or {@code constructor}. */
  private static String kind(ObjectTypeInfo.MemberKind kind) {
    return switch (kind) {
      case METHOD -> "method";
      case STATIC_METHOD -> "static";
      case CONSTRUCTOR -> "constructor";
    };
  }

  private static String strings(List<String> values) {
    return values.stream().map(Manifest::string).collect(Collectors.joining(", ", "[", "]"));
  }

  private static String array(List<String> items) {
    if (items.isEmpty()) {
      return "[]";
    }
    return items.stream().collect(Collectors.joining(",\n    ", "[\n    ", "\n  ]"));
  }

  private static String string(String value) {
    return Json.quote(value);
  }
}
