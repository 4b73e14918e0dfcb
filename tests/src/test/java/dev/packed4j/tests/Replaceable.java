package dev.packed4j.tests;

import dev.packed4j.annotations.Global;
import java.util.List;

/**
 * Globals that {@link RegistryReplaceTest} registers from Java and then replaces: one method on a direct route
 * (two longs to a long), one on the call frame (a String result), one taking a list (a frame with a container).
 */
public interface Replaceable {
  @Global("test.replace.Combine")
  long combine(long a, long b);

  @Global("test.replace.Name")
  String name(long value);

  @Global("test.replace.Count")
  long count(List<Long> values);
}
