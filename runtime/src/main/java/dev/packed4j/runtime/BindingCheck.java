package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.GeneratedClasses;
import dev.packed4j.runtime.internal.objects.TypeInfo;
import dev.packed4j.runtime.internal.objects.TypeInfos;
import dev.packed4j.runtime.internal.values.MemberCalls;
import dev.packed4j.runtime.internal.values.Registries;
import dev.packed4j.types.Conversions;
import dev.packed4j.types.NativeType;
import dev.packed4j.types.ObjectHierarchy;
import dev.packed4j.types.Signature;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a binding interface against the loaded registry at once, for {@code Packed4j.bindChecked}: every method's
 * global must be registered and, when {@code set_body_typed} recorded its signature, have the method's arity and
 * types that convert, by packed4j-types' conversion table, the one packed4j-processor applies to a manifest at
 * compile time (README "Catch mistakes at compile time"); {@link ReflectedTypes} is the runtime's side of it. All
 * problems are collected into one exception.
 */
final class BindingCheck {
  private BindingCheck() {}

  /** The object types of the loaded registry, for the conversion table. */
  private static final ObjectHierarchy REGISTERED_TYPES = new ObjectHierarchy() {
    @Override
    public boolean isRegistered(String key) {
      return TypeInfos.indexOf(key) >= 0;
    }

    @Override
    public boolean derivesFrom(String key, String ancestor) {
      int index = TypeInfos.indexOf(key);
      int ancestorIndex = TypeInfos.indexOf(ancestor);
      return index >= 0 && ancestorIndex >= 0 && TypeInfos.isInstanceOf(index, ancestorIndex);
    }
  };

  /**
   * Checks {@code functions}, whose generated class is {@code generated}.
   *
   * @throws Packed4jException a BindError listing every problem, one per line
   */
  public static void check(Class<?> functions, Class<?> generated) {
    Map<String, String> globals = globals(functions, generated);
    Map<String, String> members = members(generated);
    List<String> names = Registry.list();
    List<String> problems = new ArrayList<>();
    for (Method method : functions.getMethods()) {
      if (!Modifier.isAbstract(method.getModifiers())) {
        continue;
      }
      String key = method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getTypeName)
          .collect(Collectors.joining(",", "(", ")"));
      String global = globals.get(key);
      String where = method.getDeclaringClass().getSimpleName() + "." + key;
      if (global == null && members.containsKey(key)) {
        checkMember(method, where, members.get(key), problems);
        continue;
      }
      if (global == null) {
        problems.add(where + ": the generated class binds no global to it; recompile " + functions.getName()
            + " with packed4j-processor");
        continue;
      }
      Optional<PackedFunction> function = Registry.find(global);
      if (function.isEmpty()) {
        List<String> near = Registries.nearNames(global, names);
        problems.add(where + ": no loaded library registers '" + global + "'"
            + (near.isEmpty() ? "" : "; did you mean " + String.join(", ", near) + "?"));
        continue;
      }
      String signature;
      try (PackedFunction registered = function.get()) {
        signature = registered.signature();
      }
      if (!signature.isEmpty()) {
        checkSignature(method, where, global, signature, 0, problems);
      }
    }
    checkObjectInterfaces(functions, problems);
    if (!problems.isEmpty()) {
      throw Failures.error(ErrorKind.BIND_ERROR, functions.getName() + " does not match the loaded native "
          + "registry (" + problems.size() + (problems.size() == 1 ? " problem" : " problems") + "):\n  "
          + String.join("\n  ", problems), null);
    }
  }

  /** The type members of a generated class ("TypeKey.name"), or none for a class generated before they existed. */
  @SuppressWarnings("unchecked")
  private static Map<String, String> members(Class<?> generated) {
    try {
      return (Map<String, String>) generated.getField("MEMBERS").get(null);
    } catch (NoSuchFieldException | IllegalAccessException e) {
      return Map.of();
    }
  }

  /** A constructor or static method: the type is registered, has the member, and its signature fits. */
  private static void checkMember(Method method, String where, String member, List<String> problems) {
    int dot = member.lastIndexOf('.');
    String typeKey = member.substring(0, dot);
    String name = member.substring(dot + 1);
    int typeIndex = TypeInfos.indexOf(typeKey);
    if (typeIndex < 0) {
      problems.add(where + ": no loaded library registers the object type '" + typeKey + "'");
      return;
    }
    TypeInfo.MemberInfo found = MemberCalls.find(typeIndex, name);
    if (found == null) {
      problems.add(where + ": " + MemberCalls.noSuchMember(typeIndex, name, null).nativeMessage());
      return;
    }
    int expected = name.equals("__init__") ? TypeInfo.MemberInfo.CONSTRUCTOR : TypeInfo.MemberInfo.STATIC_METHOD;
    if (found.kind() != expected) {
      problems.add(where + ": " + member + " is " + kindName(found.kind()) + ", called here as "
          + kindName(expected) + (found.kind() == TypeInfo.MemberInfo.METHOD
              ? "; declare it on the type's @Object interface, which calls it with the object first" : ""));
      return;
    }
    if (!found.signature().isEmpty()) {
      checkSignature(method, where, member, found.signature(), 0, problems);
    }
  }

  private static String kindName(int kind) {
    return switch (kind) {
      case TypeInfo.MemberInfo.METHOD -> "a method of an object";
      case TypeInfo.MemberInfo.STATIC_METHOD -> "a static method";
      default -> "a constructor";
    };
  }

  /**
   * Checks every {@code @Object} interface the methods of {@code functions} take or return, and those theirs take or
   * return, against its registered type: a getter's field exists and converts, a setter's field also is writable,
   * a method is registered on the type or a parent with its arity and types. A method an interface inherits is
   * checked again on the child only when the child's type overrides it natively.
   */
  private static void checkObjectInterfaces(Class<?> functions, List<String> problems) {
    Set<Class<?>> seen = new HashSet<>();
    ArrayDeque<Type> pending = new ArrayDeque<>();
    addSignatureTypes(functions, pending);
    while (!pending.isEmpty()) {
      Type type = pending.pop();
      if (type instanceof ParameterizedType parameterized) {
        pending.addAll(Arrays.asList(parameterized.getActualTypeArguments()));
        type = parameterized.getRawType();
      } else if (type instanceof WildcardType wildcard) {
        pending.addAll(Arrays.asList(wildcard.getUpperBounds()));
        continue;
      }
      if (!(type instanceof Class<?> iface) || !iface.isInterface() || !seen.add(iface)) {
        continue;
      }
      ObjectView view = ObjectView.of(iface);
      if (view == null) {
        continue;
      }
      checkObjectInterface(iface, view, problems);
      addSignatureTypes(iface, pending);
      pending.addAll(Arrays.asList(iface.getInterfaces()));
    }
  }

  private static void addSignatureTypes(Class<?> iface, ArrayDeque<Type> pending) {
    for (Method method : iface.getMethods()) {
      if (Modifier.isAbstract(method.getModifiers())) {
        pending.add(method.getGenericReturnType());
        pending.addAll(Arrays.asList(method.getGenericParameterTypes()));
      }
    }
  }

  /** An {@code @Object} interface's generated class: its type key and what each method does. */
  private record ObjectView(String typeKey, Map<String, String> members) {
    /** The view of {@code iface}, or null when it is no {@code @Object} interface packed4j-processor compiled. */
    @SuppressWarnings("unchecked")
    static ObjectView of(Class<?> iface) {
      try {
        Class<?> generated = Class.forName(GeneratedClasses.nameFor(iface), false, iface.getClassLoader());
        if (!iface.isAssignableFrom(generated)) {
          return null;
        }
        Field key = generated.getField("TYPE_KEY");
        Map<String, String> members;
        try {
          members = (Map<String, String>) generated.getField("MEMBERS").get(null);
        } catch (NoSuchFieldException olderProcessor) {
          members = Map.of();
        }
        return new ObjectView((String) key.get(null), members);
      } catch (ClassNotFoundException | NoSuchFieldException | IllegalAccessException | ClassCastException e) {
        return null;
      }
    }
  }

  private static void checkObjectInterface(Class<?> iface, ObjectView view, List<String> problems) {
    int typeIndex = TypeInfos.indexOf(view.typeKey());
    if (typeIndex < 0) {
      problems.add(iface.getSimpleName() + ": no loaded library registers the object type '" + view.typeKey() + "'");
      return;
    }
    TypeInfo info = TypeInfos.info(typeIndex);
    for (Class<?> parent : iface.getInterfaces()) {
      ObjectView parentView = ObjectView.of(parent);
      int parentIndex = parentView == null ? -1 : TypeInfos.indexOf(parentView.typeKey());
      if (parentIndex >= 0 && (parentIndex == typeIndex || !TypeInfos.isInstanceOf(typeIndex, parentIndex))) {
        problems.add(iface.getSimpleName() + ": extends " + parent.getSimpleName() + ", the view of "
            + parentView.typeKey() + ", but " + view.typeKey() + " does not derive from it");
      }
    }
    for (Method method : iface.getMethods()) {
      if (!Modifier.isAbstract(method.getModifiers())) {
        continue;
      }
      String key = method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getTypeName)
          .collect(Collectors.joining(",", "(", ")"));
      String does = view.members().get(key);
      if (does == null) {
        continue; // close(), typeKey(): the runtime's, not the type's
      }
      String name = does.substring(does.indexOf(' ') + 1);
      ObjectView declaring = method.getDeclaringClass() == iface ? view : ObjectView.of(method.getDeclaringClass());
      boolean inherited = declaring != view && declaring != null;
      String where = iface.getSimpleName() + "." + key;
      if (does.startsWith("call ")) {
        TypeInfo.MemberInfo member = MemberCalls.find(typeIndex, name);
        if (inherited) {
          int parentIndex = TypeInfos.indexOf(declaring.typeKey());
          TypeInfo.MemberInfo parents = parentIndex < 0 ? null : MemberCalls.find(parentIndex, name);
          if (member == null || parents == null || parents.function() == member.function()) {
            continue; // the same native member as the parent's interface, checked there
          }
        }
        if (member == null) {
          problems.add(where + ": " + MemberCalls.noSuchMember(typeIndex, name, null).nativeMessage());
        } else if (member.kind() != TypeInfo.MemberInfo.METHOD) {
          problems.add(where + ": " + view.typeKey() + "." + name + " is a "
              + (member.kind() == TypeInfo.MemberInfo.CONSTRUCTOR ? "constructor" : "static method")
              + ", not a method of an object");
        } else if (!member.signature().isEmpty()) {
          checkSignature(method, where, view.typeKey() + "." + name, member.signature(), 1, problems);
        }
        continue;
      }
      if (inherited) {
        continue; // a field of the parent's type, checked on the parent's interface
      }
      boolean setter = does.startsWith("set ");
      TypeInfo.FieldInfo field = info.field(name);
      if (field == null) {
        problems.add(where + ": " + view.typeKey() + " has no field '" + name + "' to " + (setter ? "write" : "read")
            + "; its fields: " + String.join(", ", info.fieldNames()));
        continue;
      }
      NativeType fieldType = fieldType(field);
      Type javaType = setter ? method.getGenericParameterTypes()[0] : method.getGenericReturnType();
      Conversions conversions = new Conversions(REGISTERED_TYPES);
      Optional<String> problem = setter ? conversions.setterField(ReflectedTypes.of(javaType), fieldType)
          : conversions.field(ReflectedTypes.of(javaType), fieldType);
      if (problem.isPresent()) {
        problems.add(where + ": " + (setter ? "writes" : "reads") + " field '" + name + "' (" + fieldType + ") of "
            + view.typeKey() + " as " + javaType.getTypeName() + ": " + problem.get());
      } else if (setter && !field.mutable()) {
        problems.add(where + ": field '" + name + "' of " + view.typeKey() + " is read-only (its VisitAttrs or a"
            + " def_ro declares it); only a def_rw field has a setter");
      }
    }
  }

  /** The field's native type; a name that is not a signature's (a plugin's odd type key) as a plain name. */
  private static NativeType fieldType(TypeInfo.FieldInfo field) {
    String name = TypeInfos.fieldType(field);
    try {
      return NativeType.parse(name);
    } catch (IllegalArgumentException notASignatureName) {
      return NativeType.of(name);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> globals(Class<?> functions, Class<?> generated) {
    try {
      Field field = generated.getField("GLOBALS");
      return (Map<String, String>) field.get(null);
    } catch (NoSuchFieldException | IllegalAccessException e) {
      throw new IllegalStateException(generated.getName() + " has no public GLOBALS map, which Packed4j.bindChecked"
          + " reads: it was generated by an older packed4j-processor; recompile " + functions.getName(), e);
    }
  }

  /**
   * Checks the method's parameters and result against a recorded signature whose first {@code skip} parameters the
   * method does not declare (1 for a method of an object: the object itself).
   */
  private static void checkSignature(Method method, String where, String global, String signature, int skip,
      List<String> problems) {
    Signature parsed;
    try {
      parsed = Signature.parse(signature);
    } catch (IllegalArgumentException e) {
      problems.add(where + ": " + global + " records a signature packed4j cannot read: " + e.getMessage());
      return;
    }
    List<NativeType> parameters = parsed.parameters().subList(Math.min(skip, parsed.parameters().size()),
        parsed.parameters().size());
    Type[] types = method.getGenericParameterTypes();
    if (types.length != parameters.size()) {
      problems.add(where + ": " + global + " takes " + parameters.size() + " argument"
          + (parameters.size() == 1 ? "" : "s") + (skip == 0 ? "" : " after the object") + " (" + signature
          + "), the method " + types.length);
      return;
    }
    Conversions conversions = new Conversions(REGISTERED_TYPES);
    for (int i = 0; i < types.length; i++) {
      Optional<String> problem = conversions.argument(ReflectedTypes.of(types[i]), parameters.get(i));
      if (problem.isPresent()) {
        problems.add(where + ": argument " + i + " is " + types[i].getTypeName() + ", which cannot convert to "
            + parameters.get(i) + " (" + global + " " + signature + "): " + problem.get());
      }
    }
    Type returned = method.getGenericReturnType();
    Optional<String> problem = conversions.result(ReflectedTypes.of(returned), parsed.result());
    if (problem.isPresent()) {
      problems.add(where + ": the result is " + returned.getTypeName() + ", but " + global + " returns "
          + parsed.result() + " (" + signature + "): " + problem.get());
    }
  }
}
