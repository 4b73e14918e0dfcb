package dev.packed4j.remote.internal;

import dev.packed4j.runtime.Session;
import io.grpc.Channel;

/**
 * The gRPC channel under a session, for the benchmarks that compare a session's call with a bare gRPC call on the
 * same channel (benchmarks/RemoteBenchmark). Not API.
 */
public final class SessionChannels {
  private SessionChannels() {}

  /** The channel of {@code session}'s current connection (with its token header, if any). */
  public static Channel channel(Session session) {
    if (!(session instanceof RemoteSession remote)) {
      throw new IllegalArgumentException("not a packed4j-remote session: " + session);
    }
    return remote.currentConnection().channel;
  }
}
