package dev.packed4j.cli.generate;

import dev.packed4j.cli.GlobalFunction;
import dev.packed4j.cli.LibraryDescription;
import dev.packed4j.cli.Manifest;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.types.Json;
import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** Builds the {@link ApiModel} from loaded libraries or from manifests (the JSON {@code packed4j describe} writes). */
public final class ModelReader {
  private ModelReader() {}

  /**
   * The model of libraries described in this process ({@link LibraryDescription#load}).
   *
   * @param libraries each library's file and its description
   * @return the model; each source hashed from the library file
   * @throws IOException when a library file cannot be read for its hash
   */
  public static ApiModel fromDescriptions(Map<Path, LibraryDescription> libraries) throws IOException {
    List<ApiModel.Source> sources = new ArrayList<>();
    List<ApiModel.Function> functions = new ArrayList<>();
    List<ApiModel.ObjectType> types = new ArrayList<>();
    for (Map.Entry<Path, LibraryDescription> library : libraries.entrySet()) {
      sources.add(new ApiModel.Source(library.getValue().library(), sha256(library.getKey()),
          library.getValue().globals().stream().map(GlobalFunction::name).collect(Collectors.toSet()),
          library.getValue().objectTypes().stream().map(ObjectTypeInfo::key).collect(Collectors.toSet())));
      for (GlobalFunction function : library.getValue().globals()) {
        functions.add(new ApiModel.Function(function.name(), function.signature().map(Signature::parse),
            text(function.doc()), function.parameterNames()));
      }
      for (ObjectTypeInfo type : library.getValue().objectTypes()) {
        List<ApiModel.Field> fields = type.ownFields().stream()
            .map(f -> new ApiModel.Field(f.name(), NativeType.parse(f.type()), f.mutable(), text(f.doc()))).toList();
        List<ApiModel.Method> methods = type.members().stream()
            .map(m -> new ApiModel.Method(m.name(), switch (m.kind()) {
              case METHOD -> ApiModel.MemberKind.METHOD;
              case STATIC_METHOD -> ApiModel.MemberKind.STATIC;
              case CONSTRUCTOR -> ApiModel.MemberKind.CONSTRUCTOR;
            },
                m.signature().isEmpty() ? Optional.empty() : Optional.of(Signature.parse(m.signature())),
                text(m.doc()), m.parameterNames()))
            .toList();
        types.add(new ApiModel.ObjectType(type.key(), type.parent(), fields, methods, text(type.doc())));
      }
    }
    return new ApiModel(sources, functions, types);
  }

  /**
   * The model of manifests: their {@code globals} and {@code objectTypes} (not the core's).
   *
   * @param manifests the manifest files
   * @return the model; each source hashed from the manifest file
   * @throws IOException when a manifest cannot be read
   * @throws IllegalArgumentException naming the file and what is wrong when it is not a manifest of version 1 or 2
   */
  public static ApiModel fromManifests(List<Path> manifests) throws IOException {
    List<ApiModel.Source> sources = new ArrayList<>();
    List<ApiModel.Function> functions = new ArrayList<>();
    List<ApiModel.ObjectType> types = new ArrayList<>();
    for (Path manifest : manifests) {
      String hash = sha256(manifest);
      int functionsBefore = functions.size();
      int typesBefore = types.size();
      try {
        readManifest(Files.readString(manifest, StandardCharsets.UTF_8), functions, types);
      } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
        throw new IllegalArgumentException("the manifest " + manifest + " is not one packed4j describe writes: "
            + e.getMessage(), e);
      }
      sources.add(new ApiModel.Source(manifest.getFileName().toString(), hash,
          functions.subList(functionsBefore, functions.size()).stream().map(ApiModel.Function::name)
              .collect(Collectors.toSet()),
          types.subList(typesBefore, types.size()).stream().map(ApiModel.ObjectType::key)
              .collect(Collectors.toSet())));
    }
    return new ApiModel(sources, functions, types);
  }

  private static void readManifest(String text, List<ApiModel.Function> functions,
      List<ApiModel.ObjectType> types) {
    Map<String, Object> root = Json.object(Json.parse(text), "the manifest");
    Object version = root.get("version");
    if (!"packed4j-manifest".equals(root.get("format"))
        || !(version instanceof Long number && number >= 1 && number <= Manifest.VERSION)) {
      throw new IllegalArgumentException("its format is not packed4j-manifest version 1 to " + Manifest.VERSION);
    }
    for (Object item : Json.array(root.get("globals"), "globals")) {
      Map<String, Object> global = Json.object(item, "a global");
      String name = Json.string(global.get("name"), "a global's name");
      functions.add(new ApiModel.Function(name, signature(global, name), doc(global, name),
          names(global, name)));
    }
    for (Object item : Json.array(root.get("objectTypes"), "objectTypes")) {
      Map<String, Object> type = Json.object(item, "an object type");
      String key = Json.string(type.get("key"), "an object type's key");
      List<ApiModel.Field> fields = new ArrayList<>();
      for (Object fieldItem : Json.array(type.get("fields"), key + "'s fields")) {
        Map<String, Object> field = Json.object(fieldItem, key + "'s field");
        String name = Json.string(field.get("name"), key + "'s field name");
        if (key.equals(field.get("declaredBy"))) {
          fields.add(new ApiModel.Field(name, NativeType.parse(Json.string(field.get("type"), key + "." + name
              + "'s type")), Boolean.TRUE.equals(field.get("mutable")), doc(field, key + "." + name)));
        }
      }
      List<ApiModel.Method> methods = new ArrayList<>();
      // Version 1 has no "methods": no member but the fields.
      Object methodItems = type.get("methods");
      for (Object methodItem : methodItems == null ? List.of() : Json.array(methodItems, key + "'s methods")) {
        Map<String, Object> method = Json.object(methodItem, key + "'s method");
        String name = key + "." + Json.string(method.get("name"), key + "'s method name");
        methods.add(new ApiModel.Method(Json.string(method.get("name"), name), kind(method.get("kind"), name),
            signature(method, name), doc(method, name), names(method, name)));
      }
      Optional<String> parent = Optional.ofNullable(type.get("parent")).map(p -> Json.string(p, key + "'s parent"));
      types.add(new ApiModel.ObjectType(key, parent, fields, methods, doc(type, key)));
    }
  }

  /** The signature of a global or a method item: {@code "typed"}, {@code "parameters"}, {@code "result"}. */
  private static Optional<Signature> signature(Map<String, Object> item, String name) {
    if (!Boolean.TRUE.equals(item.get("typed"))) {
      return Optional.empty();
    }
    List<NativeType> parameters = Json.array(item.get("parameters"), name + "'s parameters").stream()
        .map(p -> NativeType.parse(Json.string(p, name + "'s parameter"))).toList();
    return Optional.of(new Signature(parameters, NativeType.parse(Json.string(item.get("result"), name
        + "'s result"))));
  }

  /** A doc string as the model keeps it: empty when blank. */
  private static Optional<String> text(String doc) {
    return doc.isBlank() ? Optional.empty() : Optional.of(doc);
  }

  /** An item's {@code "doc"}: empty when missing (version 1) or {@code ""}. */
  private static Optional<String> doc(Map<String, Object> item, String name) {
    Object doc = item.get("doc");
    return doc == null ? Optional.empty() : text(Json.string(doc, name + "'s doc"));
  }

  /** An item's {@code "parameterNames"}: empty when missing (version 1). */
  private static List<String> names(Map<String, Object> item, String name) {
    Object names = item.get("parameterNames");
    return names == null ? List.of() : Json.array(names, name + "'s parameterNames").stream()
        .map(n -> Json.string(n, name + "'s parameter name")).toList();
  }

  private static ApiModel.MemberKind kind(Object kind, String name) {
    return switch (Json.string(kind, name + "'s kind")) {
      case "method" -> ApiModel.MemberKind.METHOD;
      case "static" -> ApiModel.MemberKind.STATIC;
      case "constructor" -> ApiModel.MemberKind.CONSTRUCTOR;
      default -> throw new IllegalArgumentException(name + "'s kind is \"" + kind
          + "\", not method, static or constructor");
    };
  }

  /** The SHA-256 of a file's bytes, lower-case hex. */
  static String sha256(Path file) throws IOException {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
