package dev.packed4j.runtime;

import java.util.List;
import java.util.Optional;

/**
 * What the native registry knows of one object type: its key, its parent, the fields its {@code VisitAttrs} (or
 * object definition) declares, and the methods, static methods and constructor its object definition registers,
 * as {@link Registry#objectTypes()} lists them.
 *
 * <pre>{@code
 * Packed4j.loadLibrary(Path.of("build/libcalculator.so"));
 * ObjectTypeInfo calculator = Registry.objectType("Calculator").orElseThrow();
 * calculator.parent();            // Optional[Object]
 * calculator.fields();            // [brand: string, price: int32 (rw)]
 * calculator.members();           // [add (Calculator, int64, int64) -> int64, ..., __init__ (string, int32) -> ...]
 * }</pre>
 *
 * @param key the type key ({@code _type_key} in C++), such as {@code "Calculator"}
 * @param parent the parent's key; empty for the root type {@code "Object"}
 * @param fields every field an instance has, inherited fields first, then the type's own
 * @param members the members the type registers itself, in registration order; inherited ones are its ancestors'
 *     ({@link Registry#objectType(String)} of the {@link #parent()}), which a call by name also finds, nearest
 *     first, where {@link #member(String)} looks at this type's own only
 * @param doc the type's doc string, empty when none
 */
public record ObjectTypeInfo(
    String key, Optional<String> parent, List<Field> fields, List<Member> members, String doc) {
  /**
   * A type's description, keeping unmodifiable copies of the lists.
   *
   * @param key the type key
   * @param parent the parent's key; empty for the root type
   * @param fields every field, inherited first
   * @param members the type's own members
   * @param doc the doc string, empty when none
   */
  public ObjectTypeInfo {
    fields = List.copyOf(fields);
    members = List.copyOf(members);
    doc = doc == null ? "" : doc;
  }

  /**
   * A type without members or doc string, as {@code VisitAttrs} alone declares one.
   *
   * @param key the type key
   * @param parent the parent's key; empty for the root type
   * @param fields every field, inherited first
   */
  public ObjectTypeInfo(String key, Optional<String> parent, List<Field> fields) {
    this(key, parent, fields, List.of(), "");
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
   * The member this type registers under {@code name} ({@code "__init__"} for its constructor). An inherited
   * method is its ancestor's member: look it up on {@code Registry.objectType(parent)}, or call it with
   * {@link NativeObject#call(String, Object...)}, which walks the parents.
   *
   * @param name the member's registered name
   * @return the member, or empty when the type registers none of that name itself
   */
  public Optional<Member> member(String name) {
    return members.stream().filter(member -> member.name().equals(name)).findFirst();
  }

  /** {@return the constructor the type registers, if any (constructors are not inherited)} */
  public Optional<Member> constructor() {
    return members.stream().filter(member -> member.kind() == MemberKind.CONSTRUCTOR).findFirst();
  }

  /**
   * One field of an object type.
   *
   * @param name the name given to {@code AttrVisitor::Visit}
   * @param type {@code int32}, {@code int64}, {@code uint64}, {@code float64}, {@code bool}, {@code string}, or
   *     for an object field its declared type as a signature names it: a type key ({@code "Calculator"},
   *     {@code "Object"} for a plain {@code ObjectRef}), or a container's type with its elements
   *     ({@code "list<string>"}, {@code "map<string, int64>"}); a container field of a library built before
   *     packed4j's ABI 2.10 is only {@code "List"} or {@code "Map"}
   * @param declaredBy the key of the type whose {@code VisitAttrs} declares it: this type or an ancestor
   * @param mutable whether the field may be written: an object definition declares it with {@code def_rw}
   * @param doc the field's doc string, empty when none
   */
  public record Field(String name, String type, String declaredBy, boolean mutable, String doc) {
    /**
     * A field, keeping its doc string ({@code ""} for none).
     *
     * @param name the field's name
     * @param type its native type
     * @param declaredBy the key of the declaring type
     * @param mutable whether it may be written
     * @param doc its doc string
     */
    public Field {
      doc = doc == null ? "" : doc;
    }

    /**
     * A read-only field without a doc string, as {@code VisitAttrs} alone declares one.
     *
     * @param name the field's name
     * @param type its native type
     * @param declaredBy the key of the declaring type
     */
    public Field(String name, String type, String declaredBy) {
      this(name, type, declaredBy, false, "");
    }

    @Override
    public String toString() {
      return name + ": " + type + (mutable ? " (rw)" : "");
    }
  }

  /** What a member of a type's method table is. */
  public enum MemberKind {
    /** A method: called on an object, which the native function takes as its first argument. */
    METHOD,
    /** A static method: a function tied to the type, called without an object. */
    STATIC_METHOD,
    /** The constructor, registered as {@code "__init__"}: returns a new object of the type. */
    CONSTRUCTOR
  }

  /**
   * One method, static method or constructor an object definition registers.
   *
   * @param name the registered name ({@code "__init__"} for the constructor)
   * @param kind what the member is
   * @param signature the typed signature, such as {@code "(Calculator, int64, int64) -> int64"}: a method's first
   *     parameter is the object; empty for an untyped member
   * @param parameterNames the parameters' names as C++ gives them (the object of a method not named); empty when
   *     none were given
   * @param doc the doc string, empty when none
   * @param declaredBy the key of the type that registers it
   */
  public record Member(
      String name, MemberKind kind, String signature, List<String> parameterNames, String doc, String declaredBy) {
    /**
     * A member, keeping an unmodifiable copy of the names.
     *
     * @param name the registered name
     * @param kind what the member is
     * @param signature the typed signature, or empty
     * @param parameterNames the parameters' names
     * @param doc the doc string
     * @param declaredBy the declaring type's key
     */
    public Member {
      parameterNames = List.copyOf(parameterNames);
      doc = doc == null ? "" : doc;
      signature = signature == null ? "" : signature;
    }

    @Override
    public String toString() {
      return name + (signature.isEmpty() ? "" : " " + signature);
    }
  }
}
