package dev.packed4j.runtime.internal.objects;

import java.util.List;

/**
 * A Java copy of a native {@code P4JTypeInfo}.
 *
 * @param index the type index
 * @param parentIndex the parent's index, -1 for the root
 * @param depth 0 for the root
 * @param key the type key, such as {@code "Calculator"}
 * @param fields inherited fields first, then the type's own
 * @param instanceSize sizeof the C++ class
 */
public record TypeInfo(int index, int parentIndex, int depth, String key, List<FieldInfo> fields,
    long instanceSize) {

  /** The field named {@code name}, or null. */
  public FieldInfo field(String name) {
    for (FieldInfo field : fields) {
      if (field.name().equals(name)) {
        return field;
      }
    }
    return null;
  }

  /** The field names, in declaration order, for messages. */
  public List<String> fieldNames() {
    return fields.stream().map(FieldInfo::name).toList();
  }

  /**
   * A field of a native type.
   *
   * @param index position in the type's field array (the argument of P4JObjectGetField)
   * @param name as passed to {@code AttrVisitor::Visit}
   * @param kind a {@code P4JFieldKind}
   * @param objectTypeIndex the declared type of an object field, else 0
   * @param offset byte offset from the handle
   * @param size byte size
   */
  public record FieldInfo(int index, String name, int kind, int objectTypeIndex, long offset, long size) {

    /** The kind's name as the C++ side knows it, for messages. */
    public String kindName() {
      return kindName(kind);
    }

    /** The name of a {@code P4JFieldKind}. */
    public static String kindName(int kind) {
      return switch (kind) {
        case 1 -> "int32";
        case 2 -> "int64";
        case 3 -> "uint64";
        case 4 -> "float64";
        case 5 -> "bool";
        case 6 -> "string";
        case 7 -> "object";
        default -> "kind " + kind;
      };
    }
  }
}
