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
 * @param doc the doc string an object definition gave the type, empty when none
 * @param members the type's own method table (methods, static methods, its constructor), in registration order
 */
public record TypeInfo(int index, int parentIndex, int depth, String key, List<FieldInfo> fields,
    long instanceSize, String doc, List<MemberInfo> members) {

  /** The member of the type's own table named {@code name}, or null. */
  public MemberInfo ownMember(String name) {
    for (MemberInfo member : members) {
      if (member.name().equals(name)) {
        return member;
      }
    }
    return null;
  }

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
   * @param mutable whether an object definition declares it writable ({@code def_rw})
   * @param doc its doc string, empty when none
   * @param declaredType the declared type of an object field as a signature names it ({@code "list<string>"},
   *     {@code P4JTypeGetFieldType}), empty when none is recorded (other kinds, or a plugin built before ABI 2.10)
   */
  public record FieldInfo(int index, String name, int kind, int objectTypeIndex, long offset, long size,
      boolean mutable, String doc, String declaredType) {

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

  /**
   * One member of a type's method table ({@code P4JMethodInfo}).
   *
   * @param name the member's name; {@code "__init__"} for the constructor
   * @param kind a {@code P4JMethodKind}: 1 method, 2 static method, 3 constructor
   * @param typeIndex the type whose table holds it
   * @param function the borrowed function handle, alive until exit
   * @param signature as {@code set_body_typed} records it, a method's self first; empty when untyped
   * @param doc the doc string, empty when none
   * @param parameterNames the parameters' names (self not named), empty when none were given
   */
  public record MemberInfo(String name, int kind, int typeIndex, long function, String signature, String doc,
      List<String> parameterNames) {
    /** {@code P4JMethodKind} of a method. */
    public static final int METHOD = 1;
    /** {@code P4JMethodKind} of a static method. */
    public static final int STATIC_METHOD = 2;
    /** {@code P4JMethodKind} of the constructor. */
    public static final int CONSTRUCTOR = 3;
  }
}
