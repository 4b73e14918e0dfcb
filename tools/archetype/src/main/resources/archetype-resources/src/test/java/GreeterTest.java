package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GreeterTest {
  private static Greeter greeter;

  @BeforeAll
  static void load() {
    Packed4j.loadLibrary("${nativeLibrary}"); // from target/classes, where packed4j-maven-plugin put it
    greeter = Packed4j.bind(Greeter.class);
  }

  @Test
  void greets() {
    assertEquals("Hello, test!", greeter.greet("test"));
  }

  @Test
  void sumsAList() {
    assertEquals(10L, greeter.sum(List.of(1L, 2L, 3L, 4L)));
  }

  @Test
  void countsInANativeObject() {
    try (Counter counter = greeter.newCounter("c")) {
      assertEquals(5L, greeter.increment(counter, 5));
      assertEquals(5L, counter.count());
      assertEquals("c", counter.label());
    }
  }

  @Test
  void generatedInterfacesConstructSetAndCall() {
    Stats stats = Packed4j.bind(Stats.class);
    assertEquals(3.0, stats.mean(List.of(1.0, 2.0, 6.0)));
    try (Tally tally = stats.newTally("t")) {
      tally.add(1);
      tally.add(2);
      tally.label("u");
      assertEquals("u", tally.label());
      assertEquals(2L, tally.count());
      assertEquals(1.5, tally.mean());
    }
  }

  @Test
  void aNativeErrorKeepsItsKind() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> greeter.greet(""));
    assertEquals("ValueError", e.kind());
  }
}
