package dev.packed4j.remote.internal;

import dev.packed4j.remote.internal.proto.MemberOp;
import dev.packed4j.remote.internal.proto.Value;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import java.util.List;
import java.util.Objects;

/**
 * A server's function: a global by name ({@link Session#global}), or a function object a call returned, held by
 * the server like any remote object.
 */
final class RemoteFunction implements Session.Function, Session.RemoteObject {
  private final RemoteSession session;
  private final String name;
  private final RemoteObjectHandler.Handle handle;
  private volatile boolean closed;

  RemoteFunction(RemoteSession session, String name, RemoteObjectHandler.Handle handle) {
    this.session = session;
    this.name = name;
    this.handle = handle;
  }

  @Override
  public Object invoke(Object... args) {
    Objects.requireNonNull(args, "args");
    String site = name != null ? name : "Function@remote#" + handle.id();
    if (handle == null) {
      Connection on = session.connection(site);
      Transfer transfer = new Transfer(Object.class);
      Value result = session.call(on, dev.packed4j.remote.internal.proto.CallRequest.newBuilder().setGlobal(name)
          .addAllArgs(ClientValues.arguments(session, on, args, site, transfer, false)), site, transfer);
      return ClientValues.result(session, on, result, Object.class, site, transfer);
    }
    Connection on = handleOf(site).connection();
    Transfer transfer = new Transfer(Object.class);
    Value result = session.callMember(on, handle.id(), MemberOp.INVOKE, "", ClientValues.arguments(session, on, args,
        site, transfer, false), site, transfer);
    return ClientValues.result(session, on, result, Object.class, site, transfer);
  }

  RemoteObjectHandler.Handle handleOf(String site) {
    if (handle == null) {
      throw RemoteSession.typeError(site + ": the global function " + name + " was looked up by name; pass a "
          + "function object a call returned instead");
    }
    if (closed) {
      throw new IllegalStateException(site + ": the remote function is closed; it cannot be used after close()");
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
    return closed;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      if (handle != null) {
        session.release(handle.connection(), handle.id());
      }
    }
  }

  @Override
  public String toString() {
    return "Session.Function[" + (name != null ? name : "remote#" + handle.id()) + "]";
  }
}
