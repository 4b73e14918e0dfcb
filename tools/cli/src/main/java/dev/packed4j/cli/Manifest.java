package dev.packed4j.cli;

import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.types.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes a {@link LibraryDescription} as the manifest packed4j-processor reads with
 * {@code -Apacked4j.manifest=<file>}: JSON, format {@value #FORMAT}, version {@value #VERSION}.
 *
 * <pre>{@code
 * {
 *   "format": "packed4j-manifest",
 *   "version": 1,
 *   "library": "libcalculator.so",
 *   "globals": [
 *     {"name": "calculator.Mul", "typed": true, "parameters": ["int64", "int64"], "result": "int64"},
 *     {"name": "calculator.MyAdd", "typed": false}
 *   ],
 *   "objectTypes": [
 *     {"key": "Calculator", "parent": "Object", "fields": [
 *       {"name": "brand", "type": "string", "declaredBy": "Calculator"}, ...]}
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
 * key. The root type has no {@code "parent"}. A reader rejects another {@code "format"} or {@code "version"};
 * a later version only adds members, which version-1 readers ignore.
 */
public final class Manifest {
  /** The value of the {@code "format"} member. */
  public static final String FORMAT = "packed4j-manifest";

  /** The version this class writes and packed4j-processor reads. */
  public static final int VERSION = 1;

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
    json.append(", \"typed\": ").append(function.typed());
    if (function.typed()) {
      json.append(", \"parameters\": [")
          .append(function.parameterTypes().stream().map(Manifest::string).collect(Collectors.joining(", ")))
          .append("], \"result\": ").append(string(function.resultType().orElseThrow()));
    }
    return json.append('}').toString();
  }

  private static String types(List<ObjectTypeInfo> types) {
    return array(types.stream().map(Manifest::type).toList());
  }

  private static String type(ObjectTypeInfo type) {
    StringBuilder json = new StringBuilder("{\"key\": ").append(string(type.key()));
    type.parent().ifPresent(parent -> json.append(", \"parent\": ").append(string(parent)));
    json.append(", \"fields\": [");
    json.append(type.fields().stream()
        .map(field -> "{\"name\": " + string(field.name()) + ", \"type\": " + string(field.type())
            + ", \"declaredBy\": " + string(field.declaredBy()) + "}")
        .collect(Collectors.joining(", ")));
    return json.append("]}").toString();
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
