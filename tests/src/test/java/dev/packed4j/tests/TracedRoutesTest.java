package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dpacked4j.trace.routes=true} prints every method's route as it is linked, as the README says: the methods
 * only the call frame can take (a list result, say) printed nothing, so a user looking for their slow calls did not
 * see them.
 */
class TracedRoutesTest {
  @Test
  void everyLinkedMethodIsPrintedTheCallFrameToo() throws Exception {
    Path directory = Files.createTempDirectory("packed4j-trace-");
    String output = ChildJvm.run(ChildJvm.command(TracedRoutes.class, true, List.of("-Dpacked4j.trace.routes=true"),
        List.of()), directory, 2);
    Files.delete(directory);
    assertTrue(output.contains("done\n"), output);
    assertTrue(output.contains("packed4j: test.AddInt32 (Values.addInt32) -> typed entry"), output);
    assertTrue(output.contains("packed4j: test.Range (Containers.range) -> call frame (no direct entry takes its"
        + " parameter or result types)"), output);
  }
}
