package dev.packed4j.processor.manifest;

/**
 * The manifest's JSON, read by packed4j-types' one reader ({@link dev.packed4j.types.Json}, which
 * {@code packed4j generate} reads manifests with too); its error becomes a {@link ManifestException} with the same
 * message ("it is not valid JSON: ... at line L, column C").
 */
final class Json {
  private Json() {}

  /** Parses {@code text}, which must hold one JSON value. */
  static Object parse(String text) throws ManifestException {
    try {
      return dev.packed4j.types.Json.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ManifestException(e.getMessage());
    }
  }
}
