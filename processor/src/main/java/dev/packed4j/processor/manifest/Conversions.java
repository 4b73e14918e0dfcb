package dev.packed4j.processor.manifest;

import dev.packed4j.processor.model.TypeModel;
import dev.packed4j.processor.model.TypeModel.PrimitiveKind;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a Java type converts to or from a native type, by the runtime's rules (README "Type mapping"): integers
 * of any width meet (narrowing is range-checked when it runs), an integer converts to a float but a float never to
 * an integer, objects meet when one type derives from the other, containers element by element, and {@code any},
 * {@code Object} and {@code Optional} accept what their element accepts. What cannot convert is explained.
 */
public final class Conversions {
  /** Field types a long getter reads (int32 widened, uint64 as its bit pattern). */
  private static final Set<String> LONG_FIELDS = Set.of("int32", "int64", "uint64");

  private final NativeManifest manifest;

  public Conversions(NativeManifest manifest) {
    this.manifest = manifest;
  }

  /** Why a Java argument of type {@code java} cannot become the native parameter type, if it cannot. */
  public Optional<String> argument(TypeModel java, NativeType nativeType) {
    return check(java, nativeType, true);
  }

  /** Why a native result of type {@code nativeType} cannot become the Java result type, if it cannot. */
  public Optional<String> result(TypeModel java, NativeType nativeType) {
    if (java instanceof TypeModel.VoidType) {
      return Optional.empty();
    }
    if (nativeType.name().equals("void")) {
      return java instanceof TypeModel.OptionalType || java instanceof TypeModel.AnyType
          ? Optional.empty()
          : Optional.of("the function returns nothing");
    }
    return check(java, nativeType, false);
  }

  /** Why the getter type {@code java} cannot read a field of type {@code field} in place, if it cannot. */
  public Optional<String> field(TypeModel java, NativeType field) {
    return switch (java) {
      case TypeModel.Primitive p when p.kind() == PrimitiveKind.INT ->
          field.name().equals("int32")
              ? Optional.empty()
              : Optional.of("an int getter reads an int32 field" + (field.isInteger() ? "; read it as long" : ""));
      case TypeModel.Primitive p when p.kind() == PrimitiveKind.LONG ->
          LONG_FIELDS.contains(field.name())
              ? Optional.empty()
              : Optional.of("a long getter reads an int32, int64 or uint64 field");
      case TypeModel.Primitive p when p.kind() == PrimitiveKind.DOUBLE ->
          field.name().equals("float64") ? Optional.empty() : Optional.of("a double getter reads a float64 field");
      case TypeModel.Primitive p when p.kind() == PrimitiveKind.BOOLEAN ->
          field.name().equals("bool") ? Optional.empty() : Optional.of("a boolean getter reads a bool field");
      case TypeModel.StringType s ->
          field.name().equals("string") ? Optional.empty() : Optional.of("a String getter reads a string field");
      case TypeModel.NativeObjectType n ->
          field.isObjectKey() ? Optional.empty() : Optional.of("a NativeObject getter reads an object field");
      case TypeModel.ObjectType o ->
          field.isObjectKey()
              ? related(o.typeKey(), field.name())
              : Optional.of("an object getter reads an object field");
      default -> Optional.empty();
    };
  }

  /** The Java type to declare for a native type, for the fix in a message: {@code List<Long>} for {@code list<int64>}. */
  public static String javaTypeFor(NativeType type, boolean boxed) {
    return switch (type.name()) {
      case "bool" -> boxed ? "Boolean" : "boolean";
      case "int8" -> boxed ? "Byte" : "byte";
      case "int16" -> boxed ? "Short" : "short";
      case "int32", "uint8", "uint16" -> boxed ? "Integer" : "int";
      case "int64", "uint32", "uint64" -> boxed ? "Long" : "long";
      case "float32" -> boxed ? "Float" : "float";
      case "float64" -> boxed ? "Double" : "double";
      case "string" -> "String";
      case "bytes" -> "byte[]";
      case "any" -> "Object";
      case "void" -> "void";
      case "function" -> "PackedFunction";
      case "list" -> "List<" + javaTypeFor(type.arguments().get(0), true) + ">";
      case "map" ->
          "Map<" + javaTypeFor(type.arguments().get(0), true) + ", " + javaTypeFor(type.arguments().get(1), true) + ">";
      case "optional" -> "Optional<" + javaTypeFor(type.arguments().get(0), true) + ">";
      case "NDArray" -> "NDArray";
      default -> type.name().equals("Object") ? "NativeObject" : "an @Object(\"" + type.name() + "\") interface";
    };
  }

  private Optional<String> check(TypeModel java, NativeType nativeType, boolean argument) {
    String name = nativeType.name();
    if (name.equals("any") || java instanceof TypeModel.AnyType) {
      return Optional.empty();
    }
    if (java instanceof TypeModel.OptionalType optional) {
      return check(optional.element(), name.equals("optional") ? nativeType.arguments().get(0) : nativeType, argument);
    }
    if (name.equals("optional")) {
      return check(java, nativeType.arguments().get(0), argument);
    }
    PrimitiveKind kind = switch (java) {
      case TypeModel.Primitive p -> p.kind();
      case TypeModel.Boxed b -> b.kind();
      default -> null;
    };
    if (nativeType.isInteger()) {
      if (kind == PrimitiveKind.BYTE || kind == PrimitiveKind.SHORT || kind == PrimitiveKind.INT
          || kind == PrimitiveKind.LONG) {
        return Optional.empty();
      }
      if (!argument && (kind == PrimitiveKind.FLOAT || kind == PrimitiveKind.DOUBLE)) {
        return Optional.empty();
      }
      return Optional.of(kind == PrimitiveKind.FLOAT || kind == PrimitiveKind.DOUBLE
          ? "a floating-point value never converts to an integer"
          : expected("an integer", argument));
    }
    if (nativeType.isFloat()) {
      if (kind == PrimitiveKind.FLOAT || kind == PrimitiveKind.DOUBLE) {
        return Optional.empty();
      }
      if (argument && kind != null && kind != PrimitiveKind.BOOLEAN) {
        return Optional.empty();
      }
      return Optional.of(kind != null && kind != PrimitiveKind.BOOLEAN
          ? "a floating-point result never converts to an integer"
          : expected("a floating-point number", argument));
    }
    return switch (name) {
      case "bool" -> expect(kind == PrimitiveKind.BOOLEAN, expected("a bool", argument));
      case "string" -> expect(java instanceof TypeModel.StringType, expected("a string", argument));
      case "bytes" -> expect(java instanceof TypeModel.BytesType, expected("bytes", argument));
      case "function" ->
          expect(
              java instanceof TypeModel.PackedFunctionType || java instanceof TypeModel.FunctionalType,
              expected("a function", argument));
      case "void" -> Optional.of("void is not a value");
      case "list" -> {
        if (!(java instanceof TypeModel.ListType list)) {
          yield Optional.of(expected("a list", argument));
        }
        yield check(list.element(), nativeType.arguments().get(0), argument).map(why -> "its elements: " + why);
      }
      case "map" -> {
        if (!(java instanceof TypeModel.MapType map)) {
          yield Optional.of(expected("a map", argument));
        }
        Optional<String> key = check(map.key(), nativeType.arguments().get(0), argument);
        yield key.isPresent()
            ? key.map(why -> "its keys: " + why)
            : check(map.value(), nativeType.arguments().get(1), argument).map(why -> "its values: " + why);
      }
      default -> nativeType.isObjectKey() ? object(java, name, argument) : Optional.empty();
    };
  }

  /** A Java type against a native object type key. */
  private Optional<String> object(TypeModel java, String key, boolean argument) {
    return switch (java) {
      case TypeModel.NativeObjectType n -> Optional.empty();
      case TypeModel.ObjectType o -> related(o.typeKey(), key);
      // A plain ObjectRef parameter also takes a string or bytes, made into a String or Bytes object.
      case TypeModel.StringType s when argument && key.equals("Object") -> Optional.empty();
      case TypeModel.BytesType b when argument && key.equals("Object") -> Optional.empty();
      case TypeModel.NDArrayType n when key.equals("NDArray") || key.equals("Object") -> Optional.empty();
      case TypeModel.ArrayTensorType a when argument && key.equals("NDArray") -> Optional.empty();
      default -> Optional.of(expected("an object of type " + key, argument));
    };
  }

  /** Objects of two keys meet when one derives from the other (the runtime checks the actual object). */
  private Optional<String> related(String javaKey, String nativeKey) {
    if (manifest.type(javaKey).isEmpty() || manifest.type(nativeKey).isEmpty()
        || manifest.derivesFrom(javaKey, nativeKey) || manifest.derivesFrom(nativeKey, javaKey)) {
      return Optional.empty();
    }
    return Optional.of("the native types " + javaKey + " and " + nativeKey + " are unrelated (neither derives from"
        + " the other)");
  }

  /** What the native side takes (an argument) or returns (a result): {@code the native side takes a string}. */
  private static String expected(String what, boolean argument) {
    return (argument ? "the native side takes " : "the native side returns ") + what;
  }

  private static Optional<String> expect(boolean fits, String why) {
    return fits ? Optional.empty() : Optional.of(why);
  }
}
