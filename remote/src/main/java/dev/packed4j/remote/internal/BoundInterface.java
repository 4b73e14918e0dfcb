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
  /** One method: the global it calls, its name for messages, and the type its result converts to. */
  private record Site(String global, String name, Type result) {}

  private final RemoteSession session;
  private final Class<?> type;
  private final Map<Method, Site> sites;

  private BoundInterface(RemoteSession session, Class<?> type, Map<Method, Site> sites) {
    this.session = session;
    this.type = type;
    this.sites = sites;
  }

  static <T> T bind(RemoteSession session, Class<T> functions) {
    java.util.Objects.requireNonNull(functions, "functions");
    if (!functions.isInterface()) {
      throw new IllegalArgumentException("Session.bind takes an interface with @Global methods, and "
          + functions.getName() + " is a class");
    }
    session.connection("Session.bind(" + functions.getSimpleName() + ")"); // a closed or lost session fails here
    Map<String, String> globals = globals(functions);
    Map<Method, Site> sites = new HashMap<>();
    for (Method method : functions.getMethods()) {
      if (method.isDefault() || Modifier.isStatic(method.getModifiers())) {
        continue;
      }
      String global = globals.get(key(method, false));
      if (global == null) {
        global = globals.get(key(method, true));
      }
      if (global != null) {
        sites.put(method, new Site(global, functions.getSimpleName() + "." + method.getName(),
            method.getGenericReturnType()));
      }
    }
    BoundInterface handler = new BoundInterface(session, functions, Map.copyOf(sites));
    return functions.cast(Proxy.newProxyInstance(functions.getClassLoader(), new Class<?>[] {functions}, handler));
  }

  /** The generated class's table: method with erased parameter types, to global name. */
  @SuppressWarnings("unchecked")
  private static Map<String, String> globals(Class<?> functions) {
    String name = ObjectInterfaces.generatedName(functions);
    try {
      Class<?> generated = Class.forName(name, true, functions.getClassLoader());
      Field table = generated.getField("GLOBALS");
      return (Map<String, String>) table.get(null);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no generated class " + name + " for " + functions.getName()
          + ": packed4j-processor did not run on it. Put packed4j-processor on the compiler's "
          + "annotationProcessorPaths; Session.bind reads which global each method calls from that class", e);
    } catch (NoSuchFieldException | IllegalAccessException | ClassCastException e) {
      throw new IllegalStateException(name + " has no public GLOBALS table (" + e + "): recompile "
          + functions.getName() + " with this version of packed4j-processor", e);
    }
  }

  /** {@code add(int,int)}: the method's name and erased parameter types, as the processor writes them. */
  private static String key(Method method, boolean canonical) {
    return method.getName() + Stream.of(method.getParameterTypes())
        .map(parameter -> canonical && parameter.getCanonicalName() != null ? parameter.getCanonicalName()
            : parameter.getTypeName())
        .collect(Collectors.joining(",", "(", ")"));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    Site site = sites.get(method);
    if (site != null) {
      Connection on = session.connection(site.name());
      List<Value> values = ClientValues.arguments(session, on, args, site.name());
      Value result = session.call(on, dev.packed4j.remote.internal.proto.CallRequest.newBuilder()
          .setGlobal(site.global()).addAllArgs(values), site.name());
      return ClientValues.fromWire(session, on, result, site.result(), site.name());
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
    throw new UnsupportedOperationException(type.getSimpleName() + "." + method.getName() + " has no @Global name "
        + "in " + ObjectInterfaces.generatedName(type) + ".GLOBALS; a session calls @Global methods only");
  }
}
