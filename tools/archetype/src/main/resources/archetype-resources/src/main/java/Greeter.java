package ${package};

import dev.packed4j.annotations.Global;
import java.util.List;

/**
 * The functions of lib${nativeLibrary}.so (src/main/native/greeter.cc); packed4j-processor generates the binding.
 */
public interface Greeter {
  @Global("greeter.Greet")
  String greet(String name);

  @Global("greeter.Sum")
  long sum(List<Long> values);

  @Global("greeter.NewCounter")
  Counter newCounter(String label);

  @Global("greeter.Increment")
  long increment(Counter counter, long by);
}
