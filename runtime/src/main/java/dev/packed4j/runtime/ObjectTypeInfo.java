package dev.packed4j.runtime;

import java.util.List;
import java.util.Optional;

/**
 * What the native registry knows of one object type: its key, its parent and the fields its {@code VisitAttrs}
 * declares, as {@link Registry#objectTypes()} lists them.
 *
 * <pre>{@code
 * Packed4j.loadLibrary(Path.of("build/libcalculator.so"));
 * ObjectTypeInfo calculator = Registry.objectType("Calculator").orElseThrow();
 * calculator.parent();            // Optional[Object]
 * calculator.fields();            // [brand: string, price: int32]
 * }</pre>
 *
 * @param key the type key ({@code _type_key} in C++), such as {@code "Calculator"}
 * @param parent the parent's key; empty for the root type {@code "Object"}
 * @param fields every field an instance has, inherited fields first, then the type's own
 */
public record ObjectTypeInfo(String key, Optional<String> parent, List<Field> fields) {
  /**
   * A type's description, keeping an unmodifiable copy of {@code fields}.
   *
   * @param key the type key
   * @param parent the parent's key; empty for the root type
   * @param fields every field, inherited first
   */
  public ObjectTypeInfo {
    fields = List.copyOf(fields);
  }

  /** {@return the fields this type declares itself (not inherited from its parent)} */
  public List<Field> ownFields() {
    return fields.stream().filter(field -> field.declaredBy().equals(key)).toList();
  }

  /**
   * The field named {@code name}, own or inherited.
   *
   * @param name the field's name, as C++ visits it
   * @return the field, or empty when the type has none of that name
   */
  public Optional<Field> field(String name) {
    return fields.stream().filter(field -> field.name().equals(name)).findFirst();
  }

  /**
   * One field of an object type.
   *
   * @param name the name given to {@code AttrVisitor::Visit}
   * @param type {@code int32}, {@code int64}, {@code uint64}, {@code float64}, {@code bool}, {@code string}, or
   *     for an object field the type key it is declared with ({@code "Object"} for a plain {@code ObjectRef})
   * @param declaredBy the key of the type whose {@code VisitAttrs} declares it: this type or an ancestor
   */
  public record Field(String name, String type, String declaredBy) {
    @Override
    public String toString() {
      return name + ": " + type;
    }
  }
}
