package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.TypeInfo;
import dev.packed4j.runtime.internal.objects.TypeInfos;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calls of the members of object types by name: {@code NativeObject.call}, {@code NativeObject.construct}, and a
 * generated method whose object's type overrides the method its Java view was linked to.
 */
public final class MemberCalls {
  private MemberCalls() {}

  /** A call target per member function (they live until exit), so a dynamic call does not build one each time. */
  private static final ConcurrentHashMap<Long, CallTarget> TARGETS = new ConcurrentHashMap<>();
  /** The parameter count of each typed member's signature, by function handle, read once. */
  private static final ConcurrentHashMap<Long, Integer> ARITIES = new ConcurrentHashMap<>();

  /**
   * The member {@code name} as a call on an object of {@code typeIndex} finds it (its own table, then its
   * ancestors'; the constructor only in its own), reading the type's metadata again once when the cached copy has
   * none: a library may have registered members since. Null when there is none.
   */
  public static TypeInfo.MemberInfo find(int typeIndex, String name) {
    TypeInfo.MemberInfo member = TypeInfos.findMember(typeIndex, name);
    if (member == null) {
      for (TypeInfo type : TypeInfos.lineage(typeIndex)) {
        TypeInfos.fresh(type.index());
      }
      member = TypeInfos.findMember(typeIndex, name);
    }
    return member;
  }

  /**
   * Calls the member {@code name} of the type {@code typeIndex}: a method with {@code self} first, a static method
   * or the constructor with {@code args} only; the arguments and the result converted as {@code PackedFunction}
   * converts them.
   *
   * @param self the object a method is called on (a public view), or null for a static call
   * @param caller the Java call, for messages: {@code "NativeObject.call"}
   */
  public static Object invoke(int typeIndex, Object self, String name, Object[] args, String caller) {
    TypeInfo.MemberInfo member = find(typeIndex, name);
    if (member == null) {
      throw noSuchMember(typeIndex, name, caller);
    }
    boolean method = member.kind() == TypeInfo.MemberInfo.METHOD;
    if (self == null && method) {
      throw Failures.error(ErrorKind.TYPE_ERROR, TypeInfos.keyOrIndex(typeIndex) + "." + name
          + " is a method: call it on an object of the type", TypeInfos.keyOrIndex(typeIndex) + "." + name);
    }
    if (method && !member.signature().isEmpty()) {
      int expected = ARITIES.computeIfAbsent(member.function(), handle -> arity(member));
      if (expected >= 1 && args.length != expected - 1) {
        // The native message counts the object as argument 0, which the caller did not pass: count as it does.
        String function = TypeInfos.keyOrIndex(member.typeIndex()) + "." + name;
        throw Failures.error(ErrorKind.TYPE_ERROR, function + ": expected " + (expected - 1)
            + (expected - 1 == 1 ? " argument" : " arguments") + " after the object " + member.signature()
            + ", got " + args.length + " (" + caller + ")", function);
      }
    }
    CallTarget target = TARGETS.computeIfAbsent(member.function(), handle -> target(member));
    int count = args.length + (method ? 1 : 0);
    try (Frame frame = ThreadStack.current().push(target, count)) {
      int at = 0;
      if (method) {
        frame.put(at++, AnyCodec.ANY, self);
      }
      for (Object arg : args) {
        frame.put(at++, AnyCodec.ANY, arg);
      }
      frame.invoke();
      return frame.returnValue(AnyCodec.ANY);
    }
  }

  /** The parameter count of a member's recorded signature (a method's object included), or -1 when unreadable. */
  private static int arity(TypeInfo.MemberInfo member) {
    try {
      return dev.packed4j.types.Signature.parse(member.signature()).parameters().size();
    } catch (IllegalArgumentException unreadable) {
      return -1; // the native side checks the count itself
    }
  }

  private static CallTarget target(TypeInfo.MemberInfo member) {
    String name = TypeInfos.keyOrIndex(member.typeIndex()) + "." + member.name();
    List<String> names = new ArrayList<>();
    if (member.kind() == TypeInfo.MemberInfo.METHOD) {
      names.add("self");
    }
    names.addAll(member.parameterNames());
    return CallTarget.function(member.function(), name).withParameterNames(names.toArray(String[]::new));
  }

  /** The AttributeError of a member a type does not have, listing what it has and the names close to it. */
  public static Packed4jException noSuchMember(int typeIndex, String name, String caller) {
    List<String> members = new ArrayList<>();
    for (TypeInfo.MemberInfo member : TypeInfos.callableMembers(typeIndex)) {
      members.add(member.name());
    }
    String key = TypeInfos.keyOrIndex(typeIndex);
    List<String> near = Registries.nearNames(name, members);
    String message = "type " + key + " has no "
        + (name.equals(TypeInfos.CONSTRUCTOR) ? "constructor" : "method '" + name + "'")
        + (caller == null ? "" : " (called by " + caller + ")")
        + (members.isEmpty() ? "; it registers no members (an object definition, P4J_REGISTER_OBJECT_DEF, adds them)"
            : "; its members are " + members)
        + (near.isEmpty() ? "" : "; did you mean " + String.join(", ", near) + "?")
        + fieldHint(typeIndex, name);
    return Failures.error(ErrorKind.ATTRIBUTE_ERROR, message, key + "." + name);
  }

  /**
   * What to declare instead when the missing method is the name of a field: an interface built without a manifest
   * (an IDE's build) declares {@code void price(long)} without a getter {@code price()} beside it, which makes it a
   * method by the shape rule, and learns so only here.
   */
  private static String fieldHint(int typeIndex, String name) {
    TypeInfo.FieldInfo field = TypeInfos.info(typeIndex).field(name);
    if (field == null) {
      return "";
    }
    return "; \"" + name + "\" is a" + (field.mutable() ? "" : " read-only") + " field: a Java interface reads it"
        + " with a getter " + name + "()" + (field.mutable() ? ", and writes it with a one-parameter void " + name
        + "(...) declared beside that getter or marked @Field(\"" + name + "\")" : "")
        + "; NativeObject.get" + (field.mutable() ? " and set take" : " takes") + " it by name";
  }

  /** {@code "method"}, {@code "static method"}, {@code "constructor"}. */
  public static String kindName(int kind) {
    return switch (kind) {
      case TypeInfo.MemberInfo.METHOD -> "method";
      case TypeInfo.MemberInfo.STATIC_METHOD -> "static method";
      case TypeInfo.MemberInfo.CONSTRUCTOR -> "constructor";
      default -> "member of kind " + kind;
    };
  }
}
