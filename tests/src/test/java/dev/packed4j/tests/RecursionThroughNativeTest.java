package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Java -> C++ -> Java -> ... until the stack runs out (issue 21, item 1): the outermost Java caller gets a
 * RecursionError and the JVM goes on, through packed and typed entries, on platform threads with the default and a
 * small stack and on virtual threads; also with no plugin C++ in the loop (a Java function invoking itself, and a
 * generated method linked to a Java function's typed entry calling itself). The recursion runs in a JVM of its own ({@link RecursionThroughNative}): before
 * the core's guarded entries, it ended that JVM in the upcall stub, which here fails the test instead of the suite.
 */
class RecursionThroughNativeTest {
  private static final Pattern CASE = Pattern.compile("(\\S+) (\\d+) (.*)");

  @Test
  void recursionThroughNativeCodeEndsWithAnErrorInTheOutermostCaller() throws Exception {
    List<String> cases = List.of("main", "platform", "small-stack", "virtual", "typed-platform", "typed-small-stack",
        "typed-virtual", "java-platform", "java-virtual", "direct-platform", "direct-virtual");
    String output = runChild(cases);
    for (String name : cases) {
      Matcher line = output.lines().map(CASE::matcher).filter(m -> m.matches() && m.group(1).equals(name))
          .findFirst().orElseThrow(() -> new AssertionError("no line for " + name + " in:\n" + output));
      String outcome = line.group(3);
      // Through the plugin's C++ the error names its function; Java calling itself names the Java function.
      String function = name.startsWith("java-") ? "" : name.startsWith("direct-") ? "test.replace." : "test.cb.";
      assertTrue(outcome.startsWith("Packed4jException: [RecursionError] " + function), name + ": " + outcome);
      assertTrue(outcome.contains("not enough native stack left to call a Java function"), name + ": " + outcome);
      long depth = Long.parseLong(line.group(2));
      // Each level costs a few KiB of Java and native frames: a 1 MiB stack goes over a hundred levels deep, a
      // 256 KiB one (64 KiB past the reserve) a few.
      assertTrue(depth >= (name.endsWith("small-stack") ? 2 : 100), name + " reached only depth " + depth);
      // At most 16 of the native calls it crossed are attached to it, and one more suppressed exception counts the
      // rest: every level attached its own, with the message and a Java stack as deep (trial userR, 212 of them).
      Matcher attached = Pattern.compile("\\| attached (\\d+) \\| (.*)$").matcher(outcome);
      assertTrue(attached.find(), outcome);
      assertTrue(Integer.parseInt(attached.group(1)) <= 16, name + ": " + outcome);
      if (name.equals("platform")) {
        assertTrue(attached.group(1).equals("16") && attached.group(2).matches("\\d+ more native calls crossed on the"
            + " way out, not attached \\(the first 16 are\\); the outermost: test\\.cb\\.Apply"), outcome);
      }
    }
    assertTrue(output.contains("alive 42"), "the JVM calls on afterwards:\n" + output);
  }

  /** Runs {@link RecursionThroughNative} with {@code cases} in a new JVM like this one; its output. */
  private static String runChild(List<String> cases) throws IOException, InterruptedException {
    return ChildJvm.run(ChildJvm.command(RecursionThroughNative.class, true, List.of(), cases),
        Path.of(System.getProperty("user.dir")), 5);
  }
}
