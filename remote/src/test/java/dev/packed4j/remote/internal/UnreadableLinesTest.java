package dev.packed4j.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The server's lines for unreadable messages stay few under a client that sends nothing else (review of userV). */
class UnreadableLinesTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void tenLinesAMinuteANoticeThenOneThatCountsTheRest() {
    AtomicLong now = new AtomicLong(-5 * SECOND); // nanoTime may be negative
    List<String> lines = new ArrayList<>();
    TransportLogs.UnreadableLines unreadable = new TransportLogs.UnreadableLines(now::get, lines::add);
    for (int i = 0; i < 1000; i++) {
      unreadable.refused("bad " + i);
      now.addAndGet(SECOND / 100); // 10 s in all: one minute
    }
    assertEquals(TransportLogs.UnreadableLines.PER_MINUTE + 1, lines.size(), lines.toString());
    assertEquals("packed4j-server: refused a message it could not read (bad 0)", lines.get(0));
    assertEquals("packed4j-server: refused a message it could not read (bad 9)", lines.get(9));
    assertEquals("packed4j-server: refused more messages it could not read; the next that arrives a minute or more"
        + " after the first of these lines says how many were not logged", lines.get(10));

    now.addAndGet(60 * SECOND);
    unreadable.refused("later");
    assertEquals(List.of("packed4j-server: refused 990 more messages it could not read, not logged one by one (at"
        + " most 10 such lines a minute)", "packed4j-server: refused a message it could not read (later)"),
        lines.subList(11, 13));

    now.addAndGet(120 * SECOND); // a quiet minute: no count line, since none went unlogged
    unreadable.refused("again");
    assertEquals("packed4j-server: refused a message it could not read (again)", lines.get(13));
    assertEquals(14, lines.size());
  }
}
