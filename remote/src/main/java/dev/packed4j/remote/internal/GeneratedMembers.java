package dev.packed4j.remote.internal;

import dev.packed4j.runtime.ObjectRef;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.runtime.Registry;
import java.util.Map;
import java.util.Optional;

/**
 * Setters and methods of a server's object that came back as its generated {@code @Object} class instead of a
 * {@code NativeObject} (a server whose JVM also uses that interface itself, such as one started inside a client's
 * JVM): the generated class's {@code MEMBERS} table names the Java method of each member, called by reflection
 * with the arguments converted to its parameter types.
 */
final class GeneratedMembers {
  private GeneratedMembers() {}

  /** Calls the method {@code MEMBERS} maps to {@code member} ({@code "set price"}, {@code "call add"}). */
  static Object invoke(ObjectRef object, String member, Object[] args) {
    Method method = find(object.getClass(), member, args.length);
    if (method == null) {
      throw missing(object, member, args.length);
    }
    Class<?>[] types = method.getParameterTypes();
    Object[] converted = new Object[args.length];
    for (int i = 0; i < args.length; i++) {
      converted[i] = convert(args[i], types[i]);
    }
    try {
      return method.invoke(object, converted);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call " + method + ": " + e.getMessage(), e);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** The error NativeObject would raise: AttributeError for no such member, ValueError for a read-only field. */
  private static KindedError missing(ObjectRef object, String member, int arity) {
    String name = member.substring(member.indexOf(' ') + 1);
    Optional<ObjectTypeInfo> type = Registry.objectType(object.typeKey());
    if (member.startsWith("set ")) {
      Optional<ObjectTypeInfo.Field> field = type.flatMap(info -> info.field(name));
      if (field.isPresent() && !field.get().mutable()) {
        return new KindedError("ValueError", object.typeKey() + "." + name + " is read-only");
      }
    }
    String known = type.map(info -> " (its members: " + info.members() + ")").orElse("");
    return new KindedError("AttributeError", object.typeKey() + " has no " + (member.startsWith("set ")
        ? "writable field '" : "method '") + name + "' taking " + arity + " arguments" + known);
  }

  @SuppressWarnings("unchecked")
  private static Method find(Class<?> generated, String member, int arity) {
    Map<String, String> members;
    try {
      members = (Map<String, String>) generated.getField("MEMBERS").get(null);
    } catch (ReflectiveOperationException | ClassCastException e) {
      return null;
    }
    for (Map.Entry<String, String> entry : members.entrySet()) {
      if (!entry.getValue().equals(member)) {
        continue;
      }
      String key = entry.getKey();
      String name = key.substring(0, key.indexOf('('));
      for (Method method : generated.getMethods()) {
        if (method.getName().equals(name) && method.getParameterCount() == arity
            && BoundInterface.key(method, false).equals(key) || method.getName().equals(name)
            && method.getParameterCount() == arity && BoundInterface.key(method, true).equals(key)) {
          return method;
        }
      }
    }
    return null;
  }

  /** A wire value (Long, Double, ...) as the parameter type a generated method declares. */
  private static Object convert(Object value, Class<?> type) {
    if (value instanceof Long number) {
      if (type == int.class || type == Integer.class) {
        return Math.toIntExact(number);
      }
      if (type == short.class || type == Short.class) {
        return (short) Math.toIntExact(number);
      }
      if (type == byte.class || type == Byte.class) {
        return (byte) Math.toIntExact(number);
      }
      if (type == double.class || type == Double.class) {
        return number.doubleValue();
      }
      if (type == float.class || type == Float.class) {
        return number.floatValue();
      }
    }
    if (value instanceof Double real && (type == float.class || type == Float.class)) {
      return real.floatValue();
    }
    return value;
  }
}
