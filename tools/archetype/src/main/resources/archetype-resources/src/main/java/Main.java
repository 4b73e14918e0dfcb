package ${package};

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import java.util.List;

public final class Main {
  private Main() {}

  public static void main(String[] args) {
    Packed4j.loadLibrary("${nativeLibrary}"); // META-INF/native/linux-x86_64/lib${nativeLibrary}.so in this jar
    Greeter greeter = Packed4j.bind(Greeter.class);
    System.out.println(greeter.greet(args.length > 0 ? args[0] : "packed4j"));
    System.out.println("sum = " + greeter.sum(List.of(1L, 2L, 3L)));
    try (Counter counter = greeter.newCounter("clicks")) {
      greeter.increment(counter, 2);
      greeter.increment(counter, 3);
      System.out.println(counter);
    }
    // Stats and Tally are generated from the stats.* registrations: a constructor, methods, a setter.
    Stats stats = Packed4j.bind(Stats.class);
    System.out.println("mean = " + stats.mean(List.of(1.0, 2.0, 6.0)));
    try (Tally dice = stats.newTally("dice")) {
      dice.add(3);
      dice.add(4);
      dice.label("two dice");
      System.out.println(dice.label() + ": " + dice.count() + " values, mean " + dice.mean());
    }
    try {
      greeter.greet("");
    } catch (Packed4jException e) {
      System.out.println(e.kind() + ": " + e.nativeMessage());
    }
  }
}
