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
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

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
 * Closing the proxy releases the server's function; a proxy that becomes unreachable unclosed is released by a
 * Cleaner. The PackedFunction cannot tell its body that it was closed: its body holds the server's function, which is
 * released once the body is unreachable (the PackedFunction closed, or collected, and no native code holding it), at
 * a garbage collection.
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

  /** The view of {@code function} that {@code declared} (PackedFunction or a functional interface) asks for. */
  static Object view(RemoteFunction function, Type declared) {
    Class<?> raw = ClientValues.raw(declared);
    if (raw == PackedFunction.class) {
      return forwarder(function);
    }
    Method method = functionalMethod(raw);
    Type result = resolve(method.getGenericReturnType(), raw, declared);
    List<Class<?>> interfaces = new ArrayList<>(List.of(raw));
    for (Class<?> extra : List.of(NativeClosure.class, Session.RemoteObject.class)) {
      if (!clashes(raw, extra)) {
        interfaces.add(extra);
      }
    }
    ClosureHandler handler = new ClosureHandler(function, method, result);
    Object proxy = Proxy.newProxyInstance(loaderSeeing(interfaces), interfaces.toArray(Class<?>[]::new), handler);
    CLEANER.register(proxy, function::close);
    return proxy;
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

  /** The server's function a value made here calls, or null when it is no such value. */
  static RemoteFunction remoteOf(Object value) {
    if (value instanceof PackedFunction local) {
      return FORWARDED.get(local);
    }
    if (Proxy.isProxyClass(value.getClass()) && Proxy.getInvocationHandler(value) instanceof ClosureHandler handler) {
      return handler.function;
    }
    return null;
  }

  /**
   * A PackedFunction of this JVM whose body calls {@code function}. The body, not the PackedFunction, holds the
   * server's function: native code of this JVM that keeps the PackedFunction keeps the body, and the server's
   * function is released once neither is reachable, or when the PackedFunction is closed and then collected.
   */
  private static PackedFunction forwarder(RemoteFunction function) {
    PackedFunction.Body body = function::invoke;
    PackedFunction local = PackedFunction.of(body);
    FORWARDED.put(local, function);
    CLEANER.register(body, function::close);
    return local;
  }

  /** The one abstract method of an interface that is not an {@code @Object} view, or null. */
  static Method functionalMethod(Class<?> type) {
    if (!type.isInterface() || ObjectInterfaces.isObjectInterface(type) || type.getName().startsWith("dev.packed4j.")) {
      return null; // an @Object view, or Session.Function, NativeClosure, RemoteObject: not a closure's interface
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

  /** {@code type} with the type variables of {@code raw} replaced by the arguments {@code declared} gives them. */
  private static Type resolve(Type type, Class<?> raw, Type declared) {
    if (type instanceof TypeVariable<?> variable) {
      TypeVariable<?>[] parameters = raw.getTypeParameters();
      if (declared instanceof ParameterizedType given && variable.getGenericDeclaration() == raw) {
        for (int i = 0; i < parameters.length; i++) {
          if (parameters[i].getName().equals(variable.getName())) {
            Type argument = given.getActualTypeArguments()[i];
            return argument instanceof WildcardType wildcard ? wildcard.getUpperBounds()[0] : argument;
          }
        }
      }
      return Object.class;
    }
    return type;
  }

  /** The proxy's behaviour: the functional method calls the server's function, the rest is the closure's. */
  static final class ClosureHandler implements InvocationHandler {
    final RemoteFunction function;
    private final Method functional;
    private final Type result;
    private volatile PackedFunction forwarder;

    ClosureHandler(RemoteFunction function, Method functional, Type result) {
      this.function = function;
      this.functional = functional;
      this.result = result;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      Object[] arguments = args == null ? new Object[0] : args;
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
        function.handleOf("NativeClosure.packedFunction"); // closed: the IllegalStateException a closure gives
        PackedFunction made = forwarder;
        if (made == null) {
          synchronized (this) {
            made = forwarder;
            if (made == null) {
              made = forwarder(function);
              forwarder = made;
            }
          }
        }
        return made;
      }
      if (method.getName().equals("close") && arguments.length == 0) {
        function.close();
        PackedFunction made = forwarder;
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
