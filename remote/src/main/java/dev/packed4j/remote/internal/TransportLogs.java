package dev.packed4j.remote.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * gRPC's own log lines that repeat what a session already reports as a {@code Packed4jException}: "Received data on
 * closed stream" for each frame of a reply refused for its size, "Failed to resolve name" for an unknown host. Quieted
 * unless the application's logging configuration gave those loggers a level of its own.
 */
public final class TransportLogs {
  /** java.util.logging keeps loggers weakly: a level set on one nobody holds is lost with it. */
  private static final List<Logger> HELD = new ArrayList<>();

  private TransportLogs() {}

  /** What a session's client quiets: the two loggers above, below WARNING and SEVERE. */
  static synchronized void quietClient() {
    quiet("io.grpc.internal.AbstractClientStream", Level.WARNING);
    quiet("io.grpc.internal.ManagedChannelImpl", Level.SEVERE);
  }

  /**
   * What an isolated session's child quiets: every gRPC logger below SEVERE. Its standard error is the application's,
   * and each of its transport warnings (a message over the limit, a client gone) reaches the client as an error.
   */
  public static synchronized void quietIsolatedChild() {
    quiet("io.grpc", Level.SEVERE);
  }

  private static void quiet(String name, Level level) {
    Logger logger = Logger.getLogger(name);
    if (logger.getLevel() == null) {
      logger.setLevel(level);
      HELD.add(logger);
    }
  }
}
