package dev.packed4j.remote.internal;

import dev.packed4j.remote.internal.proto.Value;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code session.bind(Calculator.class)}: a proxy of the interface whose {@code @Global} methods are remote calls.
 * Which global each method calls comes from the {@code GLOBALS} table of the class packed4j-processor generated for
 * the interface (the local binding's own), so a method binds the same name locally and remotely.
 */
final class BoundInterface implements InvocationHandler {
  /**
   * One method: the global it calls, or the type and member (a constructor {@code __init__} or a static method),
   * its name for messages, and the type its result converts to.
   */
  private record Site(String global, String typeKey, String member, String name, Type result, NullChecks nulls) {}

  private final RemoteSession session;
  private final Class<?> type;
  private final Map<Method, Site> sites;

  private BoundInterface(RemoteSession session, Class<?> type, Map<Method, Site> sites) {
    this.session = session;
    this.type = type;
    this.sites = sites;
  }

  /** {@return the session this binding calls} */
  RemoteSession session() {
    return session;
  }

  static <T> T bind(RemoteSession session, Class<T> functions) {
    java.util.Objects.requireNonNull(functions, "functions");
    if (!functions.isInterface()) {
      throw new IllegalArgumentException("Session.bind takes an interface with @Global methods, and "
          + functions.getName() + " is a class");
    }
    session.connection("Session.bind(" + functions.getSimpleName() + ")"); // a closed or lost session fails here
    refuseObjectInterface(functions);
    Map<String, String> globals = table(functions, "GLOBALS", true);
    Map<String, String> members = table(functions, "MEMBERS", false);
    Map<Method, Site> sites = new HashMap<>();
    for (Method method : functions.getMethods()) {
      if (method.isDefault() || Modifier.isStatic(method.getModifiers())) {
        continue;
      }
      String name = functions.getSimpleName() + "." + method.getName();
      String global = lookUp(globals, method);
      if (global != null) {
        sites.put(method, new Site(global, null, null, name, method.getGenericReturnType(),
            NullChecks.of(method, functions, global, name, 0)));
        continue;
      }
      // "Calculator.__init__", "Calculator.parse": a type key may hold dots, a member's name does not.
      String member = lookUp(members, method);
      if (member != null && member.lastIndexOf('.') > 0) {
        int dot = member.lastIndexOf('.');
        sites.put(method, new Site(null, member.substring(0, dot), member.substring(dot + 1), name,
            method.getGenericReturnType(), NullChecks.of(method, functions, member, name, 0)));
      }
    }
    BoundInterface handler = new BoundInterface(session, functions, Map.copyOf(sites));
    return functions.cast(Proxy.newProxyInstance(functions.getClassLoader(), new Class<?>[] {functions}, handler));
  }

  /** An {@code @Object} interface's generated class is a view of native objects, not a binding: say so. */
  private static void refuseObjectInterface(Class<?> functions) {
    Class<?> generated;
    try {
      generated = Class.forName(ObjectInterfaces.generatedName(functions), false, functions.getClassLoader());
    } catch (ClassNotFoundException e) {
      return; // table() reports the missing class
    }
    if (dev.packed4j.runtime.ObjectRef.class.isAssignableFrom(generated)) {
      throw new IllegalArgumentException("Session.bind takes an interface with @Global methods, and "
          + functions.getName() + " is an @Object interface: its objects come from its constructors and from the"
          + " functions that return it; bind the interface that declares those functions");
    }
  }

  /**
   * A table of the generated class: {@code GLOBALS} (method with erased parameter types to global name) or
   * {@code MEMBERS} (to {@code "Type.member"}, for constructors and static methods; absent before packed4j 0.1's
   * objects as classes, so optional).
   */
  @SuppressWarnings("unchecked")
  private static Map<String, String> table(Class<?> functions, String field, boolean required) {
    String name = ObjectInterfaces.generatedName(functions);
    try {
      Class<?> generated = Class.forName(name, true, functions.getClassLoader());
      return (Map<String, String>) generated.getField(field).get(null);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no generated class " + name + " for " + functions.getName()
          + ": packed4j-processor did not run on it. Put packed4j-processor on the compiler's "
          + "annotationProcessorPaths; Session.bind reads which global each method calls from that class", e);
    } catch (NoSuchFieldException e) {
      if (!required) {
        return Map.of();
      }
      throw new IllegalStateException(name + " has no public " + field + " table: recompile " + functions.getName()
          + " with this version of packed4j-processor", e);
    } catch (IllegalAccessException | ClassCastException e) {
      throw new IllegalStateException(name + "." + field + " cannot be read (" + e + "): recompile "
          + functions.getName() + " with this version of packed4j-processor", e);
    }
  }

  /** The method's entry in a table, keyed by binary or canonical parameter type names. */
  static String lookUp(Map<String, String> table, Method method) {
    String found = table.get(key(method, false));
    return found != null ? found : table.get(key(method, true));
  }

  /** {@code add(int,int)}: the method's name and erased parameter types, as the processor writes them. */
  static String key(Method method, boolean canonical) {
    return method.getName() + Stream.of(method.getParameterTypes())
        .map(parameter -> canonical && parameter.getCanonicalName() != null ? parameter.getCanonicalName()
            : parameter.getTypeName())
        .collect(Collectors.joining(",", "(", ")"));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    Site site = sites.get(method);
    if (site != null) {
      site.nulls().check(args);
      Connection on = session.connection(site.name());
      Transfer transfer = new Transfer(site.result());
      List<Value> values = ClientValues.arguments(session, on, args, site.name(), transfer, true);
      Value result = site.global() != null
          ? session.call(on, dev.packed4j.remote.internal.proto.CallRequest.newBuilder().setGlobal(site.global())
              .addAllArgs(values), site.name(), transfer)
          : session.callTypeMember(site.typeKey(), site.member(), values, on, site.name(), transfer);
      return ClientValues.result(session, on, result, site.result(), site.name(), transfer);
    }
    if (method.getDeclaringClass() == Object.class) {
      return switch (method.getName()) {
        case "toString" -> type.getSimpleName() + " bound to " + session;
        case "hashCode" -> System.identityHashCode(proxy);
        case "equals" -> proxy == args[0];
        default -> throw new AssertionError(method);
      };
    }
    if (method.isDefault()) {
      return InvocationHandler.invokeDefault(proxy, method, args);
    }
    throw new UnsupportedOperationException(type.getSimpleName() + "." + method.getName() + " is in neither "
        + ObjectInterfaces.generatedName(type) + ".GLOBALS nor its MEMBERS: recompile " + type.getName()
        + " with packed4j-processor");
  }
}
