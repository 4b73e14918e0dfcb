package dev.packed4j.remote.internal;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.net.SocketAddress;

/**
 * Puts the connection a call came on (its remote address and port) into the call's {@link Context}, so the server
 * serves a session only to calls on the connection whose Open stream made it: another client that learns or guesses
 * a session's id still cannot use, change or release its objects (trial userV: session ids counted up from 1 and any
 * token holder could name another's).
 */
final class CallerConnection implements ServerInterceptor {
  private static final Context.Key<SocketAddress> KEY = Context.key("packed4j-caller-connection");

  /** The connection of the call running on this thread, or null when the transport names none. */
  static SocketAddress current() {
    return KEY.get();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    return Contexts.interceptCall(Context.current().withValue(KEY, remote), call, headers, next);
  }
}
