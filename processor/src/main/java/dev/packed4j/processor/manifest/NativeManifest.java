package dev.packed4j.processor.manifest;

import dev.packed4j.types.NativeType;
import dev.packed4j.types.ObjectHierarchy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What native libraries register, as {@code packed4j describe --json} wrote it (format
 * {@value #FORMAT} version {@value #VERSION}, documented in packed4j-cli's {@code Manifest}): the global functions
 * with their signatures, and the object types with their parents and fields. The core's own globals and types
 * count as registered.
 */
public final class NativeManifest implements ObjectHierarchy {
  public static final String FORMAT = "packed4j-manifest";
  public static final int VERSION = 1;

  /**
   * A global function.
   *
   * @param parameters empty, and {@code result} empty, for an untyped ({@code set_body}) function
   */
  public record Function(String name, boolean typed, List<NativeType> parameters, Optional<NativeType> result) {}

  /** An object type: its parent key (empty for the root) and its fields, inherited ones included. */
  public record ObjectType(String key, Optional<String> parent, Map<String, NativeType> fields) {}

  private final Map<String, Function> functions;
  private final Map<String, ObjectType> types;

  private NativeManifest(Map<String, Function> functions, Map<String, ObjectType> types) {
    this.functions = functions;
    this.types = types;
  }

  /** Reads and merges the manifests at {@code files}; any problem is a {@link ManifestException} naming the file. */
  public static NativeManifest read(List<Path> files) throws ManifestException {
    Map<String, Function> functions = new LinkedHashMap<>();
    Map<String, ObjectType> types = new LinkedHashMap<>();
    for (Path file : files) {
      String text;
      try {
        text = Files.readString(file, StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        throw new ManifestException(file + " does not exist");
      } catch (IOException e) {
        throw new ManifestException(file + " cannot be read (" + e + ")");
      }
      try {
        add(Json.parse(text), functions, types);
      } catch (ManifestException e) {
        throw new ManifestException(file + ": " + e.getMessage(), e.wrongVersion());
      }
    }
    return new NativeManifest(functions, types);
  }

  public Optional<Function> function(String name) {
    return Optional.ofNullable(functions.get(name));
  }

  public Set<String> functionNames() {
    return functions.keySet();
  }

  public Optional<ObjectType> type(String key) {
    return Optional.ofNullable(types.get(key));
  }

  public Set<String> typeKeys() {
    return types.keySet();
  }

  /** Whether the manifest registers an object type of this key. */
  @Override
  public boolean isRegistered(String key) {
    return types.containsKey(key);
  }

  /** Whether {@code key} is {@code ancestor} or derives from it; false when either is unknown. */
  @Override
  public boolean derivesFrom(String key, String ancestor) {
    for (Optional<String> current = Optional.of(key); current.isPresent(); ) {
      if (current.get().equals(ancestor)) {
        return true;
      }
      current = type(current.get()).flatMap(ObjectType::parent);
    }
    return false;
  }

  private static void add(Object json, Map<String, Function> functions, Map<String, ObjectType> types)
      throws ManifestException {
    Map<String, Object> root = object(json, "the document");
    Object format = root.get("format");
    Object version = root.get("version");
    if (!FORMAT.equals(format) || !(version instanceof Long number) || number != VERSION) {
      throw new ManifestException("it is " + (FORMAT.equals(format) ? "version " + version + " of the format"
          : format == null ? "not a packed4j manifest (it has no \"format\": \"" + FORMAT + "\")"
          : "of the format \"" + format + "\"") + ", and this processor reads " + FORMAT + " version " + VERSION
          + ". Write it again with the packed4j describe of the same packed4j version", true);
    }
    for (String member : List.of("globals", "coreGlobals")) {
      for (Object item : array(root.get(member), member)) {
        Map<String, Object> function = object(item, "an item of " + member);
        String name = string(function.get("name"), member + " name");
        boolean typed = Boolean.TRUE.equals(function.get("typed"));
        List<NativeType> parameters = new ArrayList<>();
        Optional<NativeType> result = Optional.empty();
        if (typed) {
          for (Object parameter : array(function.get("parameters"), "the parameters of " + name)) {
            parameters.add(nativeType(string(parameter, "a parameter type of " + name)));
          }
          result = Optional.of(nativeType(string(function.get("result"), "the result type of " + name)));
        }
        functions.put(name, new Function(name, typed, parameters, result));
      }
    }
    for (String member : List.of("objectTypes", "coreObjectTypes")) {
      for (Object item : array(root.get(member), member)) {
        Map<String, Object> type = object(item, "an item of " + member);
        String key = string(type.get("key"), member + " key");
        Optional<String> parent =
            type.get("parent") == null ? Optional.empty() : Optional.of(string(type.get("parent"), "parent"));
        Map<String, NativeType> fields = new LinkedHashMap<>();
        for (Object fieldItem : array(type.get("fields"), "the fields of " + key)) {
          Map<String, Object> field = object(fieldItem, "a field of " + key);
          fields.put(
              string(field.get("name"), "a field name of " + key),
              nativeType(string(field.get("type"), "a field type of " + key)));
        }
        types.put(key, new ObjectType(key, parent, fields));
      }
    }
  }

  /** A type name of the signature grammar ({@link NativeType#parse}); a malformed one is a ManifestException. */
  private static NativeType nativeType(String text) throws ManifestException {
    try {
      return NativeType.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ManifestException(e.getMessage());
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object value, String what) throws ManifestException {
    if (value instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new ManifestException(what + " is not a JSON object");
  }

  private static List<?> array(Object value, String what) throws ManifestException {
    if (value instanceof List<?> list) {
      return list;
    }
    throw new ManifestException("\"" + what + "\" is missing or not an array");
  }

  private static String string(Object value, String what) throws ManifestException {
    if (value instanceof String text) {
      return text;
    }
    throw new ManifestException(what + " is missing or not a string");
  }
}
