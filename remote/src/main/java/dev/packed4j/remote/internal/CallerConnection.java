package dev.packed4j.remote.internal;

import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerTransportFilter;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Puts the connection a call came on (an identity {@link Marker} gave it) into the call's {@link Context}, so the server
 * serves a session only to calls on the connection whose Open stream made it: another client that learns or guesses
 * a session's id still cannot use, change or release its objects (trial userV: session ids counted up from 1 and any
 * token holder could name another's).
 */
final class CallerConnection implements ServerInterceptor {
  /** An object of each connection's own, made when it is ready: never equal to another's, even at the same port. */
  private static final Attributes.Key<Identity> IDENTITY = Attributes.Key.create("packed4j-connection");
  private static final Context.Key<Identity> KEY = Context.key("packed4j-caller-connection");

  /** One connection, compared by identity, with the count of its calls whose native functions run now. */
  static final class Identity {
    /** Taken and given back by {@code RegistryService} around each function the connection's calls run. */
    final AtomicInteger running = new AtomicInteger();
  }

  /** Gives each connection its {@link #IDENTITY}, which the calls on it then carry in their attributes. */
  static final class Marker extends ServerTransportFilter {
    @Override
    public Attributes transportReady(Attributes transport) {
      return transport.toBuilder().set(IDENTITY, new Identity()).build();
    }
  }

  /** The connection of the call running on this thread, or null outside a call of a server with the marker. */
  static Identity current() {
    return KEY.get();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    Identity connection = call.getAttributes().get(IDENTITY);
    return Contexts.interceptCall(Context.current().withValue(KEY, connection), call, headers, next);
  }
}
