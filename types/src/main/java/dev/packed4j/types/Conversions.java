package dev.packed4j.types;

import dev.packed4j.types.JavaType.PrimitiveKind;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a Java type converts to or from a native type: the one table the processor applies to a manifest and the
 * runtime's {@code bindChecked} to the loaded registry (README "Type mapping").
 *
 * <ul>
 *   <li>Integers of any width meet (narrowing is range-checked when it runs, see {@link Narrowing}); an integer
 *       argument converts to a float, a float result to a Java integer is refused only the other way round: a
 *       floating-point value never converts to an integer.
 *   <li>Objects meet when one key derives from the other ({@link ObjectHierarchy}); an unknown key is left to the
 *       runtime's check of the actual object.
 *   <li>Containers meet element by element; {@code any}, {@code Object} and {@code Optional} accept what their
 *       element accepts, except that an {@code Optional} argument needs a native parameter that takes None
 *       ({@code optional<T>}, {@code any}, the root {@code Object}, an opaque pointer): an empty one fails anywhere
 *       else.
 *   <li>A result that may be None ({@code optional<T>}) needs a Java type that holds it ({@link #holdsNone}): a
 *       primitive cannot, and the call that returns None fails.
 *   <li>A {@code function} takes a {@code PackedFunction} or a functional interface
 *       ({@link JavaType#isFunctionalInterface}).
 *   <li>A field is read or written in place ({@link #field}, {@link #setterField}): a number of its width, a string,
 *       an object of a related key, a container of a typed container field element by element, as a result (a
 *       getter) or an argument (a setter) of that type would.
 * </ul>
 *
 * <p>What cannot convert is explained in words the processor's diagnostics and {@code bindChecked} print after
 * their own prefix: {@code "the native side takes a string"}.
 */
public final class Conversions {
  /** Field types a long getter reads (int32 widened, uint64 as its bit pattern). */
  private static final Set<String> LONG_FIELDS = Set.of("int32", "int64", "uint64");

  private final ObjectHierarchy objects;

  /**
   * A table over {@code objects}.
   *
   * @param objects the object types known where the check runs
   */
  public Conversions(ObjectHierarchy objects) {
    this.objects = objects;
  }

  /**
   * Why a Java argument of type {@code java} cannot become the native parameter type, if it cannot.
   *
   * @param java the Java parameter type
   * @param nativeType the native parameter type
   * @return the reason, or empty when it converts
   */
  public Optional<String> argument(JavaType java, NativeType nativeType) {
    return Optional.ofNullable(check(java, nativeType, true));
  }

  /**
   * Why a native result of type {@code nativeType} cannot become the Java result type, if it cannot. An
   * {@code optional<T>} result needs a Java type that {@linkplain #holdsNone holds None} besides converting from T:
   * {@code Optional<Long>} or {@code Long} for {@code optional<int64>}, never {@code long}.
   *
   * @param java the Java result type, {@link JavaType.Void} for a void method (which takes any result)
   * @param nativeType the native result type
   * @return the reason, or empty when it converts
   */
  public Optional<String> result(JavaType java, NativeType nativeType) {
    if (java instanceof JavaType.Void) {
      return Optional.empty();
    }
    if (nativeType.kind() == NativeType.Kind.VOID) {
      return java instanceof JavaType.OptionalOf || java instanceof JavaType.Any
          ? Optional.empty()
          : Optional.of("the function returns nothing");
    }
    String problem = check(java, nativeType, false);
    if (problem == null && nativeType.kind() == NativeType.Kind.OPTIONAL && !holdsNone(java)) {
      String name = ((JavaType.Primitive) java).kind().name().toLowerCase(Locale.ROOT);
      problem = "the native side may return None, which " + (name.equals("int") ? "an " : "a ") + name
          + " cannot hold";
    }
    return Optional.ofNullable(problem);
  }

  /**
   * Whether a result of the Java type {@code java} holds a native None: every type but a primitive does. A reference
   * type receives {@code null} (README "Type mapping": a String, byte[], an object, a container, a box, a function),
   * an {@code Optional} is empty, {@code Object} is {@code null}; a primitive result of None is the call's
   * {@code TypeError} ({@code returned None, expected long}), in this process and through a session alike.
   *
   * @param java the Java result type
   * @return whether a None result converts to it
   */
  public static boolean holdsNone(JavaType java) {
    return !(java instanceof JavaType.Primitive);
  }

  /**
   * Why the getter type {@code java} cannot read a field of type {@code field} in place, if it cannot. A
   * {@code List} or {@code Map} getter reads a {@code list<T>} or {@code map<K, V>} field whose elements a function
   * result of that type could return as the getter's ({@link #result}); a {@code NativeObject} getter reads any
   * field that holds an object, a container included; an {@code NDArray} getter a tensor ({@code NDArray}) field, or
   * a field of the root type {@code Object} (whose value is checked when it runs). A field that says only
   * {@code List} or {@code Map} (a library built before native ABI 2.10) has no element types to check, so a typed
   * container is refused there.
   *
   * @param java the getter's type
   * @param field the field's native type
   * @return the reason, or empty when the getter reads it
   */
  public Optional<String> field(JavaType java, NativeType field) {
    return Optional.ofNullable(fieldAccess(java, field, false));
  }

  /**
   * Why the setter parameter type {@code java} cannot write a field of type {@code field} in place, if it cannot.
   * A setter may widen where a getter may not: an {@code int} setter writes an int64 or uint64 field as a
   * {@code long} setter does (the value sign-extended; a uint64 field takes the bit pattern), and a {@code long}
   * setter writes an int32 one (range-checked when it runs). A {@code List} or {@code Map} setter writes a
   * container field whose elements take the setter's as a function argument of that type would ({@link #argument}).
   *
   * @param java the setter's parameter type
   * @param field the field's native type
   * @return the reason, or empty when the setter writes it
   */
  public Optional<String> setterField(JavaType java, NativeType field) {
    return Optional.ofNullable(fieldAccess(java, field, true));
  }

  /** Why {@code java} cannot read ({@code write} false) or write a field of type {@code field}; null when it can. */
  private String fieldAccess(JavaType java, NativeType field, boolean write) {
    String name = field.name();
    String accessor = write ? " setter writes " : " getter reads ";
    return switch (java) {
      case JavaType.Primitive p when p.kind() == PrimitiveKind.INT && write ->
          LONG_FIELDS.contains(name) ? null : "an int" + accessor + "an int32, int64 or uint64 field";
      case JavaType.Primitive p when p.kind() == PrimitiveKind.INT ->
          name.equals("int32")
              ? null
              : "an int" + accessor + "an int32 field" + (field.isInteger() ? "; read it as long" : "");
      case JavaType.Primitive p when p.kind() == PrimitiveKind.LONG ->
          LONG_FIELDS.contains(name) ? null : "a long" + accessor + "an int32, int64 or uint64 field";
      case JavaType.Primitive p when p.kind() == PrimitiveKind.DOUBLE ->
          name.equals("float64") ? null : "a double" + accessor + "a float64 field";
      case JavaType.Primitive p when p.kind() == PrimitiveKind.BOOLEAN ->
          name.equals("bool") ? null : "a boolean" + accessor + "a bool field";
      case JavaType.Text s -> name.equals("string") ? null : "a String" + accessor + "a string field";
      case JavaType.NativeObject n -> holdsObject(field) ? null : "a NativeObject" + accessor + "an object field";
      // A tensor field holds an NDArray object; a field of the root type Object may hold one (checked when it runs).
      case JavaType.Tensor t ->
          field.isTensor() || name.equals(NativeType.ROOT_OBJECT_KEY)
              ? null
              : "an NDArray" + accessor + "a tensor (NDArray) field";
      case JavaType.ObjectInterface o when field.isObjectKey() -> related(o.typeKey(), name);
      case JavaType.ObjectInterface o ->
          "an object" + accessor + "an object field" + (isContainer(field) ? ", not a " + name : "");
      case JavaType.ListOf l -> containerField(java, NativeType.Kind.LIST, "List", field, write);
      case JavaType.MapOf m -> containerField(java, NativeType.Kind.MAP, "Map", field, write);
      default -> null;
    };
  }

  /**
   * A {@code List} or {@code Map} against a field: a field of the same container converts its elements as a
   * function's result (a getter) or argument (a setter) would. A field of a library built before native ABI 2.10
   * says only the container's object key ({@code List}, {@code Map}), so its element types are unknown.
   */
  private String containerField(JavaType java, NativeType.Kind kind, String container, NativeType field,
      boolean write) {
    if (field.isObjectKey() && field.name().equals(container)) {
      return "the library records no element type for this " + container + " field (it was built before"
          + " packed4j's native ABI 2.10, which records list<T> and map<K, V>); rebuild it against packed4j's current"
          + " native-core, or " + (write ? "write" : "read") + " the field as NativeObject";
    }
    if (field.kind() != kind) {
      return "a " + container + (write ? " setter writes a " : " getter reads a ") + container.toLowerCase(Locale.ROOT)
          + " field";
    }
    return check(java, field, write);
  }

  /** Whether a field of this type holds a native object (a container and a function included): kP4JFieldObject. */
  private static boolean holdsObject(NativeType field) {
    // string is left out: a std::string field, far the commoner, is not an object.
    return switch (field.kind()) {
      case OBJECT, LIST, MAP, ANY, FUNCTION, BYTES -> true;
      default -> false;
    };
  }

  /** Whether a field is a typed list or map. */
  private static boolean isContainer(NativeType field) {
    return field.kind() == NativeType.Kind.LIST || field.kind() == NativeType.Kind.MAP;
  }

  /**
   * The Java type to declare for a native type, for the fix in a message: {@code List<Long>} for
   * {@code list<int64>}. An object type is the {@code @Object} interface the reader writes: {@code an @Object("Shape")
   * interface} alone, and inside a container by the last segment of its key with a clause that says which interface
   * that is ({@code List<Thing>, where Thing is your @Object("odd.Thing") interface}).
   *
   * @param type the native type
   * @param boxed whether a scalar is named by its box (inside a container)
   * @return the Java type as a person writes it
   */
  public static String javaTypeFor(NativeType type, boolean boxed) {
    Set<String> objectKeys = new LinkedHashSet<>();
    String spelled = spelling(type, boxed, objectKeys);
    if (type.kind() == NativeType.Kind.OBJECT && objectKeys.contains(type.name())) {
      return "an @Object(\"" + type.name() + "\") interface";
    }
    if (objectKeys.isEmpty()) {
      return spelled;
    }
    List<String> clauses = objectKeys.stream()
        .map(key -> simpleName(key) + " is your @Object(\"" + key + "\") interface")
        .toList();
    return spelled + ", where " + String.join(" and ", clauses);
  }

  /**
   * The Java spelling of {@code type}; an object type other than the root and NDArray is its key's last segment, and
   * its key is collected into {@code objectKeys}.
   */
  private static String spelling(NativeType type, boolean boxed, Set<String> objectKeys) {
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
      case "any", "opaque pointer" -> "Object";
      case "void" -> "void";
      case "function" -> "PackedFunction";
      case "list" -> "List<" + spelling(type.element(), true, objectKeys) + ">";
      case "map" -> "Map<" + spelling(type.arguments().get(0), true, objectKeys) + ", "
          + spelling(type.arguments().get(1), true, objectKeys) + ">";
      case "optional" -> "Optional<" + spelling(type.element(), true, objectKeys) + ">";
      case NativeType.TENSOR_KEY -> "NDArray";
      case NativeType.ROOT_OBJECT_KEY -> "NativeObject";
      default -> {
        objectKeys.add(type.name());
        yield simpleName(type.name());
      }
    };
  }

  /** The last segment of an object type key, as the simple name of its interface: {@code Thing} for odd.Thing. */
  private static String simpleName(String key) {
    return key.substring(key.lastIndexOf('.') + 1);
  }

  /**
   * The getter type that reads a field of this native type in place (the README's field table): {@code List<String>}
   * for {@code list<string>}, {@code NDArray} for a tensor field; {@code NativeObject} for an object field no typed
   * getter reads (a function, an any, bytes, a container a library built before native ABI 2.10 describes only as
   * {@code List} or {@code Map}).
   *
   * @param field the field's native type
   * @return the Java type as a person writes it
   */
  public static String fieldJavaTypeFor(NativeType field) {
    return switch (field.name()) {
      case "int32" -> "int";
      case "int64", "uint64" -> "long";
      case "float64" -> "double";
      case "bool" -> "boolean";
      case "string" -> "String";
      case "List", "Map", "function", "any", "bytes" -> "NativeObject";
      case NativeType.TENSOR_KEY -> "NDArray";
      default -> javaTypeFor(field, false);
    };
  }

  /** The reason {@code java} and {@code nativeType} do not meet, or null when they do. */
  private String check(JavaType java, NativeType nativeType, boolean argument) {
    NativeType.Kind nativeKind = nativeType.kind();
    if (nativeKind == NativeType.Kind.ANY || java instanceof JavaType.Any) {
      return null;
    }
    if (java instanceof JavaType.OptionalOf optional) {
      if (nativeKind == NativeType.Kind.OPTIONAL) {
        return check(optional.element(), nativeType.element(), argument);
      }
      String element = check(optional.element(), nativeType, argument);
      if (element != null || !argument || takesNone(nativeType)) {
        return element;
      }
      // An Optional result of a plain native result only never is empty; an argument's empty one always fails.
      return "the native side takes " + nativeType + ", never None (it is not optional<" + nativeType
          + ">), so an empty Optional always fails";
    }
    if (nativeKind == NativeType.Kind.OPTIONAL) {
      return check(java, nativeType.element(), argument);
    }
    PrimitiveKind kind = switch (java) {
      case JavaType.Primitive p -> p.kind();
      case JavaType.Boxed b -> b.kind();
      default -> null;
    };
    boolean javaInteger = kind != null && kind.isInteger();
    boolean javaFloat = kind != null && kind.isFloat();
    return switch (nativeKind) {
      case INTEGER -> javaInteger || (!argument && javaFloat) ? null
          : javaFloat ? "a floating-point value never converts to an integer"
          : expected("an integer", argument);
      case FLOAT -> javaFloat || (argument && javaInteger) ? null
          : javaInteger ? "a floating-point result never converts to an integer"
          : expected("a floating-point number", argument);
      case BOOL -> kind == PrimitiveKind.BOOLEAN ? null : expected("a bool", argument);
      case STRING -> java instanceof JavaType.Text ? null : expected("a string", argument);
      case BYTES -> java instanceof JavaType.Bytes ? null : expected("bytes", argument);
      case FUNCTION -> java instanceof JavaType.PackedFunction || java instanceof JavaType.Functional ? null
          : expected("a function", argument);
      case VOID -> "void is not a value";
      case LIST -> {
        if (!(java instanceof JavaType.ListOf list)) {
          yield expected("a list", argument);
        }
        String why = check(list.element(), nativeType.element(), argument);
        yield why == null ? null : "its elements: " + why;
      }
      case MAP -> {
        if (!(java instanceof JavaType.MapOf map)) {
          yield expected("a map", argument);
        }
        String key = check(map.key(), nativeType.arguments().get(0), argument);
        if (key != null) {
          yield "its keys: " + key;
        }
        String value = check(map.value(), nativeType.arguments().get(1), argument);
        yield value == null ? null : "its values: " + value;
      }
      case OBJECT -> object(java, nativeType.name(), argument);
      // any and optional were handled above; an opaque pointer is checked when the call runs.
      case ANY, OPTIONAL, OPAQUE_POINTER -> null;
    };
  }

  /**
   * Whether a native parameter of this type takes None: {@code any} and {@code optional<T>} (handled before), the
   * root {@code Object} (a plain ObjectRef) and an opaque pointer (null). A typed reference does not.
   */
  private static boolean takesNone(NativeType nativeType) {
    return nativeType.kind() == NativeType.Kind.OPAQUE_POINTER
        || (nativeType.kind() == NativeType.Kind.OBJECT && nativeType.name().equals(NativeType.ROOT_OBJECT_KEY));
  }

  /** A Java type against a native object type key. */
  private String object(JavaType java, String key, boolean argument) {
    boolean root = key.equals(NativeType.ROOT_OBJECT_KEY);
    boolean tensor = key.equals(NativeType.TENSOR_KEY);
    return switch (java) {
      case JavaType.NativeObject n -> null;
      case JavaType.ObjectInterface o -> related(o.typeKey(), key);
      // A plain ObjectRef parameter also takes a string or bytes, made into a String or Bytes object.
      case JavaType.Text s when argument && root -> null;
      case JavaType.Bytes b when argument && root -> null;
      case JavaType.Tensor t when tensor || root -> null;
      // A numeric array parameter is copied into a 1-D tensor.
      case JavaType.NumericArray a when argument && tensor -> null;
      default -> expected("an object of type " + key, argument);
    };
  }

  /** Objects of two keys meet when one derives from the other (the runtime checks the actual object). */
  private String related(String javaKey, String nativeKey) {
    if (!objects.isRegistered(javaKey) || !objects.isRegistered(nativeKey)
        || objects.derivesFrom(javaKey, nativeKey) || objects.derivesFrom(nativeKey, javaKey)) {
      return null;
    }
    return "the native types " + javaKey + " and " + nativeKey + " are unrelated (neither derives from the other)";
  }

  /** What the native side takes (an argument) or returns (a result): {@code the native side takes a string}. */
  private static String expected(String what, boolean argument) {
    return (argument ? "the native side takes " : "the native side returns ") + what;
  }
}
