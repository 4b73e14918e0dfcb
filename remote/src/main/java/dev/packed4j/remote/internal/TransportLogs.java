package dev.packed4j.remote.internal;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
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

  /**
   * What a server logs of a message it could not parse (a client's bug, or a hostile one's bytes): one line, where
   * gRPC's executor logged the exception with its stack, some 380 lines each, as SEVERE (trial userV); at most
   * {@link UnreadableLines#PER_MINUTE} such lines a minute ({@link UnreadableLines}). Every other record of that
   * logger passes as it was.
   */
  static synchronized void shortenUnparsedMessages() {
    Logger executor = Logger.getLogger("io.grpc.internal.SerializingExecutor");
    if (executor.getFilter() != null) {
      return; // the application's, or ours already
    }
    executor.setFilter(record -> {
      if (record.getThrown() instanceof StatusRuntimeException status
          && status.getStatus().getCode() == Status.Code.INTERNAL
          && Arrays.stream(status.getStackTrace()).anyMatch(frame -> frame.getMethodName().equals("parseRequest"))) {
        unreadable(status.getStatus().getDescription());
        return false;
      }
      return true;
    });
    HELD.add(executor);
  }

  private static final UnreadableLines UNREADABLE = new UnreadableLines(System::nanoTime,
      line -> Logger.getLogger(TransportLogs.class.getName()).warning(line));

  private static void unreadable(String why) {
    UNREADABLE.refused(why);
  }

  /**
   * The lines a server logs of messages it could not read: at most {@link #PER_MINUTE} in a minute and one saying
   * that the rest go unlogged, then, with the first line of a later minute, one that counts them; a client sending
   * garbage in a loop floods no log.
   */
  static final class UnreadableLines {
    static final int PER_MINUTE = 10;
    private static final long MINUTE_NANOS = 60_000_000_000L;
    private final LongSupplier nanoClock;
    private final Consumer<String> log;
    private long windowStart;
    private int logged;
    private int unlogged;

    UnreadableLines(LongSupplier nanoClock, Consumer<String> log) {
      this.nanoClock = nanoClock;
      this.log = log;
    }

    synchronized void refused(String why) {
      long now = nanoClock.getAsLong();
      if (logged == 0 || now - windowStart >= MINUTE_NANOS) {
        if (unlogged > 0) {
          log.accept("packed4j-server: refused " + unlogged + " more messages it could not read, not logged one by"
              + " one (at most " + PER_MINUTE + " such lines a minute)");
        }
        windowStart = now;
        logged = 0;
        unlogged = 0;
      }
      if (logged < PER_MINUTE) {
        logged++;
        log.accept("packed4j-server: refused a message it could not read (" + why + ")");
      } else {
        if (unlogged == 0) {
          log.accept("packed4j-server: refused more messages it could not read; the next that arrives a minute or"
              + " more after the first of these lines says how many were not logged");
        }
        unlogged++;
      }
    }
  }

  private static void quiet(String name, Level level) {
    Logger logger = Logger.getLogger(name);
    if (logger.getLevel() == null) {
      logger.setLevel(level);
      HELD.add(logger);
    }
  }
}
