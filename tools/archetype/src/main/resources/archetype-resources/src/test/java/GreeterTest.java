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
  void aNativeErrorKeepsItsKind() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> greeter.greet(""));
    assertEquals("ValueError", e.kind());
  }
}
