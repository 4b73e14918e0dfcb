package dev.packed4j.cli.generate;

import dev.packed4j.types.Conversions;
import dev.packed4j.types.NativeType;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Native types as the Java types a generated file declares, by the README's type mapping; collects the imports the
 * file needs. One per generated file.
 *
 * <ul>
 *   <li>{@code bool} → {@code boolean}; {@code int8}, {@code int16}, {@code int32}, {@code int64} → {@code byte},
 *       {@code short}, {@code int}, {@code long}; {@code uint8} and {@code uint16} → {@code int}, {@code uint32} and
 *       {@code uint64} → {@code long}; {@code float32}, {@code float64} → {@code float}, {@code double} (boxed
 *       inside a container);
 *   <li>{@code string} → {@code String}, {@code bytes} → {@code byte[]}, {@code any} and {@code opaque pointer} →
 *       {@code Object}, {@code void} → {@code void};
 *   <li>{@code function} → {@code PackedFunction}: a signature does not say a function's own parameter types, so
 *       no {@code java.util.function} interface can be chosen for it;
 *   <li>{@code list<T>}, {@code map<K, V>}, {@code optional<T>} → {@code List}, {@code Map}, {@code Optional};
 *   <li>{@code NDArray} → {@code NDArray}; an object type generated in the same run → its interface, one given as
 *       existing ({@code --existing}) → that interface by its qualified name; any other object type
 *       ({@code Object} included) → {@code NativeObject}.
 * </ul>
 */
final class JavaTypes {
  private final String packageName;
  private final Map<String, String> objectInterfaces;
  private final boolean objectAnnotationImported;
  private final Set<String> imports = new TreeSet<>();

  /**
   * @param packageName the package of the file
   * @param objectInterfaces the {@code @Object} interface of each object type key: a simple name for one generated
   *     into this package, a qualified name for an existing one
   * @param objectAnnotationImported whether the file imports {@code dev.packed4j.annotations.Object}, which hides
   *     {@code java.lang.Object}
   */
  JavaTypes(String packageName, Map<String, String> objectInterfaces, boolean objectAnnotationImported) {
    this.packageName = packageName;
    this.objectInterfaces = objectInterfaces;
    this.objectAnnotationImported = objectAnnotationImported;
  }

  /** The Java type of a parameter or a result. */
  String of(NativeType type) {
    return of(type, false);
  }

  /**
   * The Java type of a field's getter and setter (README's field table: an int32 field reads as int, uint64 as long).
   * A field that only a {@code NativeObject} accessor reads in place ({@code function}, {@code any}, {@code bytes})
   * is one, as packed4j-types' {@link Conversions#fieldJavaTypeFor} decides (an {@code NDArray} field is
   * {@code NDArray}); a container of them ({@code list<function>}) stays typed.
   */
  String field(NativeType type) {
    if (Conversions.fieldJavaTypeFor(type).equals("NativeObject")) {
      return runtime("NativeObject");
    }
    return switch (type.name()) {
      case "int32" -> "int";
      case "int64", "uint64" -> "long";
      default -> of(type, false);
    };
  }

  /** Records an import the file needs besides the types, such as an annotation. */
  void use(String qualifiedName) {
    if (!qualifiedName.startsWith("java.lang.") && !qualifiedName.startsWith(packageName + ".")) {
      imports.add(qualifiedName);
    }
  }

  /** The imports collected so far, sorted. */
  Set<String> imports() {
    return imports;
  }

  /** The Java spelling of {@code java.lang.Object} in this file. */
  String object() {
    return objectAnnotationImported ? "java.lang.Object" : "Object";
  }

  private String of(NativeType type, boolean boxed) {
    return switch (type.name()) {
      // Numbers, strings, bytes and void are spelled by the one conversion table (packed4j-types); this class adds
      // only what a source file needs on top of it: imports, and the names of the interfaces it generates.
      case "bool", "int8", "int16", "int32", "uint8", "uint16", "int64", "uint32", "uint64", "float32", "float64",
           "string", "bytes", "void" -> Conversions.javaTypeFor(type, boxed);
      case "any", "opaque pointer" -> object();
      case "function" -> runtime("PackedFunction");
      case "list" -> imported("java.util.List") + "<" + of(type.element(), true) + ">";
      case "map" -> imported("java.util.Map") + "<" + of(type.arguments().get(0), true) + ", "
          + of(type.arguments().get(1), true) + ">";
      case "optional" -> imported("java.util.Optional") + "<" + of(type.element(), true) + ">";
      case NativeType.TENSOR_KEY -> runtime("NDArray");
      default -> {
        String generated = objectInterfaces.get(type.name());
        yield generated != null ? generated : runtime("NativeObject");
      }
    };
  }

  private String runtime(String simpleName) {
    return imported("dev.packed4j.runtime." + simpleName);
  }

  private String imported(String qualifiedName) {
    use(qualifiedName);
    return qualifiedName.substring(qualifiedName.lastIndexOf('.') + 1);
  }
}
