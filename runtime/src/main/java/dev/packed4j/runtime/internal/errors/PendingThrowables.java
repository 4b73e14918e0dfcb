package dev.packed4j.runtime.internal.errors;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The exceptions Java callbacks threw that are on their way back to a Java caller through native code: the upcall
 * code ({@code upcall.JavaErrors}) raises a native error whose backtrace names the exception by a marker and keeps
 * the exception here; the code that turns a native error into an exception ({@code capi.Errors}) takes it out and
 * throws the same object.
 */
public final class PendingThrowables {
  private PendingThrowables() {}

  /** Exceptions kept for a return to Java; past this, the oldest is dropped (its error then arrives as a copy). */
  public static final int PENDING_LIMIT = 256;

  /** Tells this process's markers from another's (an error string written to a file and read back, say). */
  public static final String MARKER = "[packed4j: Java exception "
      + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1) + "-";

  private static final AtomicLong NEXT_ID = new AtomicLong();

  private static final Map<Long, Throwable> PENDING = new LinkedHashMap<>(64, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Throwable> eldest) {
      return size() > PENDING_LIMIT;
    }
  };

  /** Keeps {@code thrown} for its return to Java; returns the id its marker carries. */
  public static long remember(Throwable thrown) {
    long id = NEXT_ID.incrementAndGet();
    synchronized (PENDING) {
      PENDING.put(id, thrown);
    }
    return id;
  }

  /**
   * The exception a native error's backtrace names by its marker, taken out of the waiting ones; null when the
   * backtrace has no marker of this process or the exception was dropped. The last marker wins: it is the newest
   * (a copy of an error whose exception was dropped may carry an older one above it).
   */
  public static Throwable takeOriginal(String backtrace) {
    int at = backtrace.lastIndexOf(MARKER);
    if (at < 0) {
      return null;
    }
    int start = at + MARKER.length();
    int end = backtrace.indexOf(']', start);
    if (end < 0) {
      return null;
    }
    long id;
    try {
      id = Long.parseLong(backtrace, start, end, 10);
    } catch (NumberFormatException e) {
      return null;
    }
    synchronized (PENDING) {
      return PENDING.remove(id);
    }
  }

  /** Exceptions waiting for a return to Java, for tests. */
  public static int pendingCount() {
    synchronized (PENDING) {
      return PENDING.size();
    }
  }

  /** Throws {@code thrown} whatever its type: the same object the callback threw, checked or not. */
  @SuppressWarnings("unchecked")
  public static <T extends Throwable> RuntimeException sneakyThrow(Throwable thrown) throws T {
    throw (T) thrown;
  }
}
