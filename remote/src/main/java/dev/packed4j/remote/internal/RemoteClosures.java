package dev.packed4j.remote.internal;

import dev.packed4j.runtime.NativeClosure;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Session;
import java.lang.ref.Cleaner;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A function a session's call returned, in the form the declared result asks for. The function stays on the server,
 * like any object a call returns; what the caller gets calls it there:
 *
 * <ul>
 *   <li>for {@link PackedFunction} (what {@code packed4j generate} declares for a function result), a function of
 *       this JVM whose body calls the server's; passed back to the session it is the server's function again;
 *   <li>for a functional interface, a proxy whose one abstract method calls the server's function, its result
 *       converted to the method's return type, and which is also a {@link NativeClosure} and a
 *       {@link Session.RemoteObject}, as a closure a local binding returns is a {@code NativeClosure}.
 * </ul>
 *
 * Closing the proxy releases the server's function (and closes the PackedFunction its {@code packedFunction()}
 * gave). Otherwise the server's function is released once nothing here can call it: a proxy that is unreachable and
 * the bodies of the PackedFunctions made for it, which live as long as their native function (closed, or collected,
 * and held by no native code of this JVM), each counted, and the last one gone at a garbage collection.
 */
final class RemoteClosures {
  private RemoteClosures() {}

  private static final Cleaner CLEANER = Cleaner.create();

  /** The server's function behind each forwarding PackedFunction made here, by identity (weakly). */
  private static final Map<PackedFunction, RemoteFunction> FORWARDED =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** Whether a function result declared as {@code raw} is made here, rather than by RemoteObjectHandler. */
  static boolean converts(Class<?> raw) {
    return raw == PackedFunction.class || functionalMethod(raw) != null;
  }

  /**
   * The view of {@code function} that {@code declared} (PackedFunction or a functional interface) asks for.
   *
   * @throws dev.packed4j.runtime.Packed4jException TypeError when no class loader sees the functional interface and
   *     packed4j's interfaces together; the server's function is released then
   */
  static Object view(RemoteFunction function, Type declared, String site) {
    Class<?> raw = ClientValues.raw(declared);
    Holders holders = new Holders(function);
    if (raw == PackedFunction.class) {
      return forwarder(holders);
    }
    Method method = functionalMethod(raw);
    Type result = resolve(method.getGenericReturnType(), declared);
    List<Class<?>> interfaces = new ArrayList<>(List.of(raw));
    for (Class<?> extra : List.of(NativeClosure.class, Session.RemoteObject.class)) {
      if (!clashes(raw, extra)) {
        interfaces.add(extra);
      }
    }
    ClosureHandler handler = new ClosureHandler(holders, method, result);
    Object proxy;
    try {
      proxy = Proxy.newProxyInstance(loaderSeeing(interfaces), interfaces.toArray(Class<?>[]::new), handler);
    } catch (IllegalArgumentException e) { // no loader sees them all
      function.close();
      throw RemoteSession.typeError(site + ": the result is a function, and no class loader sees both "
          + raw.getName() + " and packed4j's interfaces to make its view (" + e.getMessage() + "); declare "
          + "PackedFunction or Session.Function");
    }
    holders.add();
    CLEANER.register(proxy, holders::drop);
    return proxy;
  }

  /** The server's function a value made here calls, or null when it is no such value. */
  static RemoteFunction remoteOf(Object value) {
    if (value instanceof PackedFunction local) {
      return FORWARDED.get(local);
    }
    if (Proxy.isProxyClass(value.getClass()) && Proxy.getInvocationHandler(value) instanceof ClosureHandler handler) {
      return handler.holders.function;
    }
    return null;
  }

  /**
   * The views and bodies that can still call one server function: the last to go releases it. A Cleaner's action
   * holds this, never the view it watches.
   */
  private static final class Holders {
    final RemoteFunction function;
    private final AtomicInteger count = new AtomicInteger();

    Holders(RemoteFunction function) {
      this.function = function;
    }

    void add() {
      count.incrementAndGet();
    }

    void drop() {
      if (count.decrementAndGet() == 0) {
        function.close();
      }
    }
  }

  /**
   * A PackedFunction of this JVM whose body calls the server's function. The body, not the PackedFunction, counts
   * as a holder: native code of this JVM that keeps the PackedFunction keeps the body, which the registry of Java
   * functions drops when the last native reference goes.
   */
  private static PackedFunction forwarder(Holders holders) {
    RemoteFunction function = holders.function;
    PackedFunction.Body body = function::invoke;
    PackedFunction local = PackedFunction.of(body);
    FORWARDED.put(local, function);
    holders.add();
    CLEANER.register(body, holders::drop);
    return local;
  }

  /**
   * The one abstract method of an interface that is neither an {@code @Object} view nor closeable (a result declared
   * {@code AutoCloseable} is a remote object, not a closure), or null.
   */
  static Method functionalMethod(Class<?> type) {
    if (!type.isInterface() || ObjectInterfaces.isObjectInterface(type)
        || AutoCloseable.class.isAssignableFrom(type)) {
      return null;
    }
    Method found = null;
    for (Method method : type.getMethods()) {
      if (!Modifier.isAbstract(method.getModifiers()) || isObjectMethod(method)) {
        continue;
      }
      if (found != null && !(found.getName().equals(method.getName())
          && Arrays.equals(found.getParameterTypes(), method.getParameterTypes()))) {
        return null;
      }
      found = method;
    }
    return found;
  }

  private static boolean isObjectMethod(Method method) {
    try {
      Object.class.getMethod(method.getName(), method.getParameterTypes());
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /** Whether {@code type} has a method of the same name and parameters as one of {@code extra}'s. */
  private static boolean clashes(Class<?> type, Class<?> extra) {
    for (Method method : extra.getMethods()) {
      try {
        type.getMethod(method.getName(), method.getParameterTypes());
        return true;
      } catch (NoSuchMethodException e) {
        // no clash on this one
      }
    }
    return false;
  }

  /**
   * A class loader that sees every one of {@code interfaces}: the functional interface's own, unless that is the
   * boot loader of {@code java.util.function}'s interfaces, which does not see packed4j's.
   */
  private static ClassLoader loaderSeeing(List<Class<?>> interfaces) {
    for (Class<?> candidate : interfaces) {
      ClassLoader loader = candidate.getClassLoader();
      if (loader != null && interfaces.stream().allMatch(type -> visible(type, loader))) {
        return loader;
      }
    }
    return RemoteClosures.class.getClassLoader();
  }

  private static boolean visible(Class<?> type, ClassLoader loader) {
    try {
      return Class.forName(type.getName(), false, loader) == type;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /**
   * {@code type} with the type variables that {@code declared} and its super-interfaces give values replaced by
   * them ({@code R} of {@code Function<T, R>} is {@code Double} for {@code interface Scale extends Function<Long,
   * Double>}); a variable nothing gives is {@code Object}.
   */
  static Type resolve(Type type, Type declared) {
    Map<TypeVariable<?>, Type> values = new HashMap<>();
    collect(declared, values);
    Type resolved = type;
    for (int depth = 0; resolved instanceof TypeVariable<?> variable && depth < 32; depth++) {
      resolved = values.getOrDefault(variable, Object.class);
    }
    return resolved instanceof WildcardType wildcard ? wildcard.getUpperBounds()[0]
        : resolved instanceof TypeVariable<?> ? Object.class : resolved;
  }

  private static void collect(Type type, Map<TypeVariable<?>, Type> values) {
    Class<?> raw = ClientValues.raw(type);
    if (type instanceof ParameterizedType given) {
      TypeVariable<?>[] parameters = raw.getTypeParameters();
      Type[] arguments = given.getActualTypeArguments();
      for (int i = 0; i < parameters.length && i < arguments.length; i++) {
        values.putIfAbsent(parameters[i], arguments[i]);
      }
    }
    for (Type parent : raw.getGenericInterfaces()) {
      collect(parent, values);
    }
  }

  /** The proxy's behaviour: the functional method calls the server's function, the rest is the closure's. */
  static final class ClosureHandler implements InvocationHandler {
    final Holders holders;
    private final Method functional;
    private final Type result;
    /** What {@code packedFunction()} gave, closed with this view; guarded by this. */
    private PackedFunction forwarder;

    ClosureHandler(Holders holders, Method functional, Type result) {
      this.holders = holders;
      this.functional = functional;
      this.result = result;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      Object[] arguments = args == null ? new Object[0] : args;
      RemoteFunction function = holders.function;
      Class<?> owner = method.getDeclaringClass();
      if (owner == Object.class) {
        return switch (method.getName()) {
          case "toString" -> function.toString();
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == arguments[0];
          default -> throw new AssertionError(method);
        };
      }
      if (method.getName().equals(functional.getName())
          && Arrays.equals(method.getParameterTypes(), functional.getParameterTypes())) {
        return function.invoke(result, arguments);
      }
      if (owner == NativeClosure.class && method.getName().equals("packedFunction")) {
        synchronized (this) {
          function.handleOf("NativeClosure.packedFunction"); // closed: the IllegalStateException a closure gives
          if (forwarder == null) {
            forwarder = forwarder(holders);
          }
          return forwarder;
        }
      }
      if (method.getName().equals("close") && arguments.length == 0) {
        PackedFunction made;
        synchronized (this) {
          function.close();
          made = forwarder;
        }
        if (made != null) {
          made.close(); // packedFunction()'s result is this object's, as a local closure's is
        }
        return null;
      }
      if (owner == Session.RemoteObject.class) {
        try {
          return method.invoke(function, arguments);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
      if (method.isDefault()) {
        return InvocationHandler.invokeDefault(proxy, method, args);
      }
      throw new AssertionError(method);
    }
  }
}
