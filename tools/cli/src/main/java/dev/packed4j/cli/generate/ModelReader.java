package dev.packed4j.cli.generate;

import dev.packed4j.cli.GlobalFunction;
import dev.packed4j.cli.LibraryDescription;
import dev.packed4j.runtime.ObjectTypeInfo;
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
      sources.add(new ApiModel.Source(library.getValue().library(), sha256(library.getKey())));
      for (GlobalFunction function : library.getValue().globals()) {
        functions.add(ApiModel.Function.of(function.name(), function.signature().map(Signature::parse)));
      }
      for (ObjectTypeInfo type : library.getValue().objectTypes()) {
        types.add(new ApiModel.ObjectType(type.key(), type.parent(),
            type.ownFields().stream().map(f -> ApiModel.Field.readOnly(f.name(), NativeType.parse(f.type()))).toList(),
            List.of(), Optional.empty()));
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
   * @throws IllegalArgumentException naming the file and what is wrong when it is not a version-1 manifest
   */
  public static ApiModel fromManifests(List<Path> manifests) throws IOException {
    List<ApiModel.Source> sources = new ArrayList<>();
    List<ApiModel.Function> functions = new ArrayList<>();
    List<ApiModel.ObjectType> types = new ArrayList<>();
    for (Path manifest : manifests) {
      sources.add(new ApiModel.Source(manifest.getFileName().toString(), sha256(manifest)));
      try {
        readManifest(Files.readString(manifest, StandardCharsets.UTF_8), functions, types);
      } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
        throw new IllegalArgumentException("the manifest " + manifest + " is not one packed4j describe writes: "
            + e.getMessage(), e);
      }
    }
    return new ApiModel(sources, functions, types);
  }

  private static void readManifest(String text, List<ApiModel.Function> functions,
      List<ApiModel.ObjectType> types) {
    Map<String, Object> root = Json.object(Json.parse(text), "the manifest");
    if (!"packed4j-manifest".equals(root.get("format")) || !Long.valueOf(1).equals(root.get("version"))) {
      throw new IllegalArgumentException("its format is not packed4j-manifest version 1");
    }
    for (Object item : Json.array(root.get("globals"), "globals")) {
      Map<String, Object> global = Json.object(item, "a global");
      String name = Json.string(global.get("name"), "a global's name");
      Optional<Signature> signature = Optional.empty();
      if (Boolean.TRUE.equals(global.get("typed"))) {
        List<NativeType> parameters = Json.array(global.get("parameters"), name + "'s parameters").stream()
            .map(p -> NativeType.parse(Json.string(p, name + "'s parameter"))).toList();
        signature = Optional.of(new Signature(parameters,
            NativeType.parse(Json.string(global.get("result"), name + "'s result"))));
      }
      functions.add(ApiModel.Function.of(name, signature));
    }
    for (Object item : Json.array(root.get("objectTypes"), "objectTypes")) {
      Map<String, Object> type = Json.object(item, "an object type");
      String key = Json.string(type.get("key"), "an object type's key");
      List<ApiModel.Field> fields = new ArrayList<>();
      for (Object fieldItem : Json.array(type.get("fields"), key + "'s fields")) {
        Map<String, Object> field = Json.object(fieldItem, key + "'s field");
        if (key.equals(field.get("declaredBy"))) {
          fields.add(ApiModel.Field.readOnly(Json.string(field.get("name"), key + "'s field name"),
              NativeType.parse(Json.string(field.get("type"), key + "'s field type"))));
        }
      }
      Optional<String> parent = Optional.ofNullable(type.get("parent")).map(p -> Json.string(p, key + "'s parent"));
      types.add(new ApiModel.ObjectType(key, parent, fields, List.of(), Optional.empty()));
    }
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
