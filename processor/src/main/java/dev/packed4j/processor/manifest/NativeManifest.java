package dev.packed4j.processor.manifest;

import dev.packed4j.types.NativeType;
import dev.packed4j.types.ObjectHierarchy;
import dev.packed4j.types.Signature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
  /** The newest version read: 2 adds doc strings, parameter names, field mutability and type members. */
  public static final int VERSION = 2;

  /**
   * A global function.
   *
   * @param parameters empty, and {@code result} empty, for an untyped ({@code set_body}) function
   */
  public record Function(String name, boolean typed, List<NativeType> parameters, Optional<NativeType> result) {}

  /**
   * An object type: its parent key (empty for the root), its fields (inherited ones included), which of them may be
   * written, and the members its object definition registers itself. {@code describesMembers} is false for a type
   * of a version-1 manifest, which says nothing of mutability and members: those are then not checked.
   */
  public record ObjectType(
      String key,
      Optional<String> parent,
      Map<String, NativeType> fields,
      Set<String> mutableFields,
      Map<String, Member> members,
      boolean describesMembers) {}

  /** What a member of a type's method table is. */
  public enum MemberKind {
    METHOD("method"),
    STATIC("static method"),
    CONSTRUCTOR("constructor");

    private final String display;

    MemberKind(String display) {
      this.display = display;
    }

    /** {@return "method", "static method" or "constructor", for messages} */
    public String display() {
      return display;
    }
  }

  /**
   * A method, static method or constructor of a type.
   *
   * @param parameters as the signature lists them, the object first for a method; empty, and {@code result} empty,
   *     for an untyped member
   * @param declaredBy the key of the type that registers it
   */
  public record Member(
      String name,
      MemberKind kind,
      boolean typed,
      List<NativeType> parameters,
      Optional<NativeType> result,
      String declaredBy) {
    /** The member as a function, for the checks globals share. */
    public Function asFunction() {
      return new Function(declaredBy + "." + name, typed, parameters, result);
    }
  }

  /**
   * A global function or object type that two libraries of the manifests register (or one manifest lists twice):
   * the native registry keeps the first and refuses the second, so the manifest keeps the first too.
   *
   * @param what {@code "global function"} or {@code "object type"}
   * @param name the name or type key
   * @param first the file of the registration kept
   * @param firstShape what it registers there, such as {@code " (as (int64) -> int64)"}, or ""
   * @param second the file of the registration refused ({@code "<file> again"} when it is the same file)
   * @param secondShape what it registers there, or ""
   */
  public record Duplicate(
      String what, String name, String first, String firstShape, String second, String secondShape) {}

  private final Map<String, Function> functions;
  private final Map<String, ObjectType> types;
  private final List<Duplicate> duplicates;

  private NativeManifest(Map<String, Function> functions, Map<String, ObjectType> types, List<Duplicate> duplicates) {
    this.functions = functions;
    this.types = types;
    this.duplicates = List.copyOf(duplicates);
  }

  /** Reads and merges the manifests at {@code files}; any problem is a {@link ManifestException} naming the file. */
  public static NativeManifest read(List<Path> files) throws ManifestException {
    Map<String, Function> functions = new LinkedHashMap<>();
    Map<String, ObjectType> types = new LinkedHashMap<>();
    Map<String, String> origins = new LinkedHashMap<>();
    List<Duplicate> duplicates = new ArrayList<>();
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
        add(Json.parse(text), file.toString(), functions, types, origins, duplicates);
      } catch (ManifestException e) {
        throw new ManifestException(file + ": " + e.getMessage(), e.wrongVersion());
      }
    }
    return new NativeManifest(functions, types, duplicates);
  }

  /** The names registered twice, in the order found; each registration after the first is left out. */
  public List<Duplicate> duplicates() {
    return duplicates;
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

  /**
   * The member {@code name} as a call on an object of {@code typeKey} finds it: the type's own, then its
   * ancestors' (the nearest wins); the constructor ({@code "__init__"}) only the type's own.
   */
  public Optional<Member> findMember(String typeKey, String name) {
    for (Optional<ObjectType> current = type(typeKey); current.isPresent(); ) {
      Member member = current.get().members().get(name);
      if (member != null) {
        return Optional.of(member);
      }
      if (name.equals("__init__")) {
        return Optional.empty();
      }
      current = current.get().parent().flatMap(this::type);
    }
    return Optional.empty();
  }

  /** The names of the members callable on an object of {@code typeKey}, own first, for messages. */
  public Set<String> memberNames(String typeKey) {
    Set<String> names = new LinkedHashSet<>();
    for (Optional<ObjectType> current = type(typeKey); current.isPresent(); ) {
      names.addAll(current.get().members().keySet());
      current = current.get().parent().flatMap(this::type);
    }
    return names;
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

  /**
   * Adds the manifest {@code json}, read from {@code file}, to {@code functions} and {@code types}. A global or type
   * of a library (not of the core, which every manifest lists) that {@code origins} (name to file; a type key as
   * {@code "type " + key}) already holds is left out and noted in {@code duplicates}.
   */
  private static void add(Object json, String file, Map<String, Function> functions, Map<String, ObjectType> types,
      Map<String, String> origins, List<Duplicate> duplicates) throws ManifestException {
    Map<String, Object> root = object(json, "the document");
    Object format = root.get("format");
    Object version = root.get("version");
    if (!FORMAT.equals(format) || !(version instanceof Long number) || number < 1 || number > VERSION) {
      String what;
      if (!FORMAT.equals(format)) {
        what = format == null ? "it is not a packed4j manifest (it has no \"format\": \"" + FORMAT + "\")"
            : "it is of the format \"" + format + "\"";
      } else if (version == null) {
        what = "it has no \"version\"";
      } else if (!(version instanceof Long)) {
        // "version": "2" would otherwise read as version 2, which this processor claims to read.
        what = "its \"version\" is " + describe(version) + ", not a number (write \"version\": 1 or 2)";
      } else {
        what = "it is version " + version + " of the format";
      }
      throw new ManifestException(what + ", and this processor reads " + FORMAT + " versions 1 to " + VERSION
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
        Function entry = new Function(name, typed, parameters, result);
        Function first = functions.get(name);
        if (first == null) {
          functions.put(name, entry);
          if (member.equals("globals")) {
            origins.put(name, file);
          }
        } else if (member.equals("globals") && origins.containsKey(name)) {
          duplicates.add(new Duplicate("global function", name, origins.get(name), shape(first),
              again(origins.get(name), file), shape(entry)));
        }
      }
    }
    for (String member : List.of("objectTypes", "coreObjectTypes")) {
      for (Object item : array(root.get(member), member)) {
        Map<String, Object> type = object(item, "an item of " + member);
        String key = string(type.get("key"), member + " key");
        Optional<String> parent =
            type.get("parent") == null ? Optional.empty() : Optional.of(string(type.get("parent"), "parent"));
        Map<String, NativeType> fields = new LinkedHashMap<>();
        Set<String> mutable = new LinkedHashSet<>();
        for (Object fieldItem : array(type.get("fields"), "the fields of " + key)) {
          Map<String, Object> field = object(fieldItem, "a field of " + key);
          String fieldName = string(field.get("name"), "a field name of " + key);
          fields.put(fieldName, nativeType(string(field.get("type"), "a field type of " + key)));
          if (Boolean.TRUE.equals(field.get("mutable"))) {
            mutable.add(fieldName);
          }
        }
        Map<String, Member> members = new LinkedHashMap<>();
        // Version 1 has no "methods": its types register none that a manifest knows of.
        Object methods = type.get("methods");
        for (Object memberItem : methods == null ? List.of() : array(methods, "the methods of " + key)) {
          Map<String, Object> entry = object(memberItem, "a method of " + key);
          String memberName = string(entry.get("name"), "a method name of " + key);
          String what = key + "." + memberName;
          MemberKind kind = switch (string(entry.get("kind"), "the kind of " + what)) {
            case "method" -> MemberKind.METHOD;
            case "static" -> MemberKind.STATIC;
            case "constructor" -> MemberKind.CONSTRUCTOR;
            default -> throw new ManifestException("the kind of " + what + " is " + entry.get("kind")
                + ", not \"method\", \"static\" or \"constructor\"");
          };
          boolean typed = Boolean.TRUE.equals(entry.get("typed"));
          List<NativeType> parameters = new ArrayList<>();
          Optional<NativeType> result = Optional.empty();
          if (typed) {
            for (Object parameter : array(entry.get("parameters"), "the parameters of " + what)) {
              parameters.add(nativeType(string(parameter, "a parameter type of " + what)));
            }
            result = Optional.of(nativeType(string(entry.get("result"), "the result type of " + what)));
          }
          members.put(memberName, new Member(memberName, kind, typed, parameters, result, key));
        }
        String origin = origins.get("type " + key);
        if (!types.containsKey(key)) {
          types.put(key, new ObjectType(key, parent, fields, Set.copyOf(mutable), members, methods != null));
          if (member.equals("objectTypes")) {
            origins.put("type " + key, file);
          }
        } else if (member.equals("objectTypes") && origin != null) {
          duplicates.add(new Duplicate("object type", key, origin, "", again(origin, file), ""));
        }
      }
    }
  }

  /** {@code " (as (int64) -> int64)"}, or {@code " (untyped, set_body)"}: what a function registers, for messages. */
  private static String shape(Function function) {
    return function.typed()
        ? " (as " + new Signature(function.parameters(), function.result().orElseThrow()) + ")"
        : " (untyped, set_body)";
  }

  /** {@code second}, or {@code "<file> again"} when it is the file of the first registration. */
  private static String again(String first, String second) {
    return first.equals(second) ? second + " again" : second;
  }

  /** A JSON value as a message shows it: a string quoted and called one, anything else as it is. */
  private static String describe(Object value) {
    return value instanceof String text ? "the string " + dev.packed4j.types.Json.quote(text) : String.valueOf(value);
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
