package dev.packed4j.remote.internal;

import dev.packed4j.remote.internal.proto.MemberOp;
import dev.packed4j.remote.internal.proto.ObjectHandle;
import dev.packed4j.remote.internal.proto.Value;
import dev.packed4j.runtime.Session;
import java.lang.ref.Cleaner;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The client's view of a native object the server holds for the session: a proxy implementing the object's
 * {@code @Object} interface (when the call declared one) and {@link Session.RemoteObject}. A getter is a call that
 * reads the field of its name; {@code close()} releases the server's reference, and a view that becomes unreachable
 * unclosed is released by a Cleaner.
 */
final class RemoteObjectHandler implements InvocationHandler {
  private static final Cleaner CLEANER = Cleaner.create();

  /** Per {@code @Object} interface, the null checks of its typed setters and methods. */
  private static final ClassValue<Map<Method, NullChecks>> NULL_CHECKS = new ClassValue<>() {
    @Override
    protected Map<Method, NullChecks> computeValue(Class<?> view) {
      return new ConcurrentHashMap<>();
    }
  };

  /** What a remote object is on the wire: the server's id of it within one connection of one session. */
  record Handle(RemoteSession session, Connection connection, long id, String typeKey) {}

  /** Releases the server's reference once: on close, or when the view is unreachable. */
  private record Release(RemoteSession session, Connection connection, long id, AtomicBoolean closed)
      implements Runnable {
    @Override
    public void run() {
      if (closed.compareAndSet(false, true)) {
        session.release(connection, id);
      }
    }
  }

  private final Handle handle;
  private final Class<?> view;
  private final AtomicBoolean closed = new AtomicBoolean();
  private Cleaner.Cleanable cleanable;

  private RemoteObjectHandler(Handle handle, Class<?> view) {
    this.handle = handle;
    this.view = view;
  }

  /**
   * The view of a remote object result: its {@code @Object} interface when {@code declared} is one, a
   * {@link Session.Function} for a function, else a plain {@link Session.RemoteObject}.
   */
  static Object create(RemoteSession session, Connection on, ObjectHandle object, Class<?> declared, String site,
      String what) {
    Handle handle = new Handle(session, on, object.getId(), object.getTypeKey());
    if (ClientValues.isFunction(object.getTypeKey())) {
      if (declared == Object.class || declared == Session.Function.class || declared == Session.RemoteObject.class
          || declared == AutoCloseable.class) {
        return new RemoteFunction(session, null, handle, site);
      }
      session.release(on, object.getId());
      throw RemoteSession.typeError(site + ": " + what + " is a function (it stays on the server), which is no "
          + declared.getName() + "; declare PackedFunction, a functional interface, Session.Function or Object");
    }
    Class<?>[] interfaces;
    if (declared == Object.class || declared == Session.RemoteObject.class || declared == AutoCloseable.class) {
      interfaces = new Class<?>[] {Session.RemoteObject.class};
    } else if (ObjectInterfaces.isObjectInterface(declared)) {
      String wanted = ObjectInterfaces.typeKey(declared);
      boolean derives;
      try {
        derives = wanted == null || session.derivesFrom(on, object.getTypeKey(), wanted, site);
      } catch (RuntimeException | Error e) {
        session.release(on, object.getId()); // the type table could not be read: the object is nobody's
        throw e;
      }
      if (!derives) {
        session.release(on, object.getId());
        throw RemoteSession.typeError(site + ": " + what + " is a remote " + object.getTypeKey() + " object, expected "
            + wanted + " object (" + declared.getSimpleName() + ")");
      }
      interfaces = new Class<?>[] {ObjectInterfaces.viewFor(object.getTypeKey(), declared), Session.RemoteObject.class};
    } else {
      session.release(on, object.getId());
      throw RemoteSession.typeError(site + ": " + what + " is a remote " + object.getTypeKey() + " object, which is no "
          + declared.getName());
    }
    RemoteObjectHandler handler = new RemoteObjectHandler(handle, interfaces[0]);
    Object proxy = Proxy.newProxyInstance(interfaces[0].getClassLoader(), interfaces, handler);
    handler.cleanable = CLEANER.register(proxy, new Release(session, on, handle.id(), handler.closed));
    return proxy;
  }

  Handle handleOf(String site) {
    if (closed.get()) {
      throw new IllegalStateException(site + ": the remote " + handle.typeKey() + " object is closed; it cannot be "
          + "used after close()");
    }
    return handle;
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    int arity = args == null ? 0 : args.length;
    if (method.getDeclaringClass() == Object.class) {
      return switch (name) {
        // As an object of this process prints; typeKey{closed} once closed, no call made.
        case "toString" -> closed.get() ? handle.typeKey() + "{closed}"
            : handle.session().format(handle.connection(), handle.id(), handle.typeKey());
        case "hashCode" -> Long.hashCode(handle.id()) * 31 + System.identityHashCode(handle.connection());
        case "equals" -> args[0] != null && Proxy.isProxyClass(args[0].getClass())
            && Proxy.getInvocationHandler(args[0]) instanceof RemoteObjectHandler other
            && other.handle.connection() == handle.connection() && other.handle.id() == handle.id()
            && !closed.get() && !other.closed.get();
        default -> throw new AssertionError(method);
      };
    }
    if (name.equals("close") && arity == 0) {
      cleanable.clean();
      return null;
    }
    if (method.getDeclaringClass() == Session.RemoteObject.class) {
      String key = handle.typeKey();
      return switch (name) {
        case "typeKey" -> key;
        case "isClosed" -> closed.get();
        case "get" -> get((String) args[0], Object.class, key + ".get(\"" + args[0] + "\")");
        case "set" -> member(MemberOp.SET, (String) args[0], new Object[] {args[1]}, void.class,
            key + ".set(\"" + args[0] + "\")", false);
        case "call" -> member(MemberOp.METHOD, (String) args[0], (Object[]) args[1], Object.class,
            key + ".call(\"" + args[0] + "\")", false);
        default -> throw new AssertionError(method);
      };
    }
    if (method.isDefault()) {
      return InvocationHandler.invokeDefault(proxy, method, args);
    }
    String site = view.getSimpleName() + "." + name;
    if (name.equals("typeKey") && arity == 0 && method.getReturnType() == String.class) {
      return handle.typeKey();
    }
    // "get price", "set price", "call add": the generated class's MEMBERS, as the local binding does it.
    String member = BoundInterface.lookUp(ObjectInterfaces.members(view), method);
    if (member != null) {
      int space = member.indexOf(' ');
      String target = member.substring(space + 1);
      return switch (member.substring(0, space)) {
        case "get" -> get(target, method.getGenericReturnType(), site);
        case "set" -> {
          nullChecks(method, member, target, site).check(args);
          yield member(MemberOp.SET, target, args, void.class, site, true);
        }
        case "call" -> {
          nullChecks(method, member, target, site).check(args);
          yield member(MemberOp.METHOD, target, args, method.getGenericReturnType(), site, true);
        }
        default -> throw new UnsupportedOperationException(site + ": unknown member kind in '" + member + "'");
      };
    }
    if (arity == 0 && method.getReturnType() != void.class) {
      return get(name, method.getGenericReturnType(), site); // a class generated before MEMBERS: getters by name
    }
    throw new UnsupportedOperationException(site + " is not in " + ObjectInterfaces.generatedName(view)
        + ".MEMBERS: recompile " + view.getName() + " with packed4j-processor");
  }

  /**
   * The null checks of a typed setter or method of this view, made once per view and method: named as locally, by
   * the member of the view's type (the object being argument 0 of a method).
   */
  private NullChecks nullChecks(Method method, String member, String target, String site) {
    return NULL_CHECKS.get(view).computeIfAbsent(method, m -> {
      String viewKey = ObjectInterfaces.typeKey(view);
      if (member.startsWith("set ")) {
        return NullChecks.ofSetter(m, viewKey != null ? viewKey : handle.typeKey(), target);
      }
      return NullChecks.of(m, view, viewKey != null ? viewKey + "." + target : null,
          viewKey != null ? viewKey + "." + target : site, 1);
    });
  }

  private Object member(MemberOp op, String name, Object[] args, java.lang.reflect.Type result, String site,
      boolean declared) {
    Connection on = handleOf(site).connection();
    Transfer transfer = new Transfer(result);
    Value value = handle.session().callMember(on, handle.id(), op, name,
        ClientValues.arguments(handle.session(), on, args, site, transfer, declared), site, transfer);
    return ClientValues.result(handle.session(), on, value, result, site, transfer);
  }

  private Object get(String field, java.lang.reflect.Type type, String site) {
    Connection on = handleOf(site).connection();
    Transfer transfer = new Transfer(type);
    Value value = handle.session().callMember(on, handle.id(), MemberOp.GET, field, List.of(), site, transfer);
    Object result = ClientValues.result(handle.session(), on, value, type, site, transfer);
    if (result == null) { // an unset container field reads as an empty copy, as a local getter's and C++ read it
      Class<?> raw = ClientValues.raw(type);
      if (raw == List.class) {
        return List.of();
      }
      if (raw == java.util.Map.class) {
        return java.util.Map.of();
      }
    }
    return result;
  }
}
