package dev.packed4j.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Session;
import dev.packed4j.runtime.SessionOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The open of an isolated session warms the call path of its fresh child before the application's first call: the
 * first calls of a fresh JVM took 100 to 200 ms on a loaded machine, so a short deadline failed them.
 */
class WarmUpTest {
  private static final Path PLUGIN = Path.of(System.getProperty("packed4j.test.remotePlugin"));

  @Test
  void openingAnIsolatedSessionWarmsTheCallPathWithinTheOpenTimeout() {
    try (Session session = Packed4j.isolated(PLUGIN, SessionOptions.defaults().withDeadline(Duration.ofSeconds(5)))) {
      Connection opened = ((RemoteSession) session).currentConnection();
      assertEquals(RemoteSession.WARM_UP_CALLS, opened.warmUpCalls, "every warm-up call was answered in the open");
      assertTrue(session.list().contains("remote.Add"), "and the session works as before");
    }
  }
}
