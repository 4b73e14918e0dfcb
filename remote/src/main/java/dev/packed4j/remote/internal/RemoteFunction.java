package dev.packed4j.remote.internal;

import dev.packed4j.remote.internal.proto.MemberOp;
import dev.packed4j.remote.internal.proto.Value;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A server's function: a global by name ({@link Session#global}), or a function object a call returned, held by
 * the server like any remote object.
 */
final class RemoteFunction implements Session.Function, Session.RemoteObject {
  private final RemoteSession session;
  private final String name;
  private final RemoteObjectHandler.Handle handle;
  /** For a function a call returned: that call, for messages ("the function Docs.counter returned"); else null. */
  private final String origin;
  private final AtomicBoolean closed = new AtomicBoolean();

  RemoteFunction(RemoteSession session, String name, RemoteObjectHandler.Handle handle) {
    this(session, name, handle, null);
  }

  RemoteFunction(RemoteSession session, String name, RemoteObjectHandler.Handle handle, String origin) {
    this.session = session;
    this.name = name;
    this.handle = handle;
    this.origin = origin;
  }

  @Override
  public Object invoke(Object... args) {
    return invoke(Object.class, args);
  }

  /** Calls the function with dynamically converted arguments, its result converted to {@code result}. */
  Object invoke(Type result, Object... args) {
    Objects.requireNonNull(args, "args");
    String site = site();
    if (handle == null) {
      Connection on = session.connection(site);
      Transfer transfer = new Transfer(result);
      Value value = session.call(on, dev.packed4j.remote.internal.proto.CallRequest.newBuilder().setGlobal(name)
          .addAllArgs(ClientValues.arguments(session, on, args, site, transfer, false)), site, transfer);
      return ClientValues.result(session, on, value, result, site, transfer);
    }
    Connection on = handleOf(site).connection();
    Transfer transfer = new Transfer(result);
    Value value = session.callMember(on, handle.id(), MemberOp.INVOKE, "", ClientValues.arguments(session, on, args,
        site, transfer, false), site, transfer);
    return ClientValues.result(session, on, value, result, site, transfer);
  }

  /** The function in messages: its name, or the call that returned it. */
  private String site() {
    if (name != null) {
      return name;
    }
    return origin != null ? "the function " + origin + " returned (remote#" + handle.id() + ")"
        : "Function@remote#" + handle.id();
  }

  RemoteObjectHandler.Handle handleOf(String site) {
    if (handle == null) {
      throw RemoteSession.typeError(site + ": the global function " + name + " was looked up by name; pass a "
          + "function object a call returned instead");
    }
    if (closed.get()) {
      throw new IllegalStateException(site + ": the remote function" + (site.equals(site()) ? "" : " (" + site() + ")")
          + " is closed; it cannot be used after close()");
    }
    return handle;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String typeKey() {
    return handle == null ? "Function" : handle.typeKey();
  }

  @Override
  public Object get(String field) {
    throw noMember("field '" + field + "'");
  }

  @Override
  public void set(String field, Object value) {
    throw noMember("field '" + field + "'");
  }

  @Override
  public Object call(String method, Object... args) {
    throw noMember("method '" + method + "'; invoke it");
  }

  /** The AttributeError RemoteObject's contract names for a member the type lacks: a function has none. */
  private Packed4jException noMember(String member) {
    return GrpcSessionProvider.newError("AttributeError", "a function has no " + member, "", name);
  }

  @Override
  public boolean isClosed() {
    return closed.get();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) { // once: a user's close and a Cleaner may race
      if (handle != null) {
        session.release(handle.connection(), handle.id());
      }
    }
  }

  @Override
  public String toString() {
    return "Session.Function[" + (name != null ? name : origin != null ? origin + "'s result, remote#" + handle.id()
        : "remote#" + handle.id()) + "]";
  }
}
