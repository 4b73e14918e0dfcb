package dev.packed4j.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import dev.packed4j.samples.calculator.Calculator;
import dev.packed4j.samples.calculator.CalculatorRef;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calculator sample's interfaces, unchanged, against its library in this JVM, in an isolated child and behind
 * a server: the README's "Local, isolated, remote" section is an excerpt of this file.
 */
class CalculatorIsolatedTest {
  @Test
  void theCalculatorRunsLocallyIsolatedAndRemotely() {
    // Local: the library in this JVM.
    Packed4j.loadLibrary("calculator");
    Calculator local = Packed4j.bind(Calculator.class);
    assertEquals(3, local.add(1, 2));

    // Isolated: the library in a child JVM of its own; a crash there is an exception here.
    try (Session isolated = Packed4j.isolated("calculator")) {
      Calculator calc = isolated.bind(Calculator.class);
      assertEquals(3, calc.add(1, 2));
      useTheCalculator(calc);
    }

    // Remote: a packed4j-server elsewhere (here on a loopback port of this JVM).
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", "--library", "calculator"));
        Session remote = Packed4j.connect(server.address())) {
      Calculator calc = remote.bind(Calculator.class);
      assertEquals(3, calc.add(1, 2));
      useTheCalculator(calc);
    }
  }

  private static void useTheCalculator(Calculator calc) {
    assertEquals(42L, calc.multiply(6, 7));
    assertEquals(0.125, calc.divide(1, 8));
    assertTrue(calc.isEven(42));
    assertEquals("casio costs 100", calc.describe("casio", 100));
    assertArrayEquals(local().checksum("packed4j".getBytes(StandardCharsets.UTF_8)),
        calc.checksum("packed4j".getBytes(StandardCharsets.UTF_8)));
    try (CalculatorRef casio = calc.create("casio", 100);
        CalculatorRef hp = calc.create("hp", 250)) {
      assertEquals("casio", casio.brand());        // a call: the object stays where it was made
      assertEquals(100, casio.price());
      assertEquals("hp", calc.brandOf(hp));        // and goes back as an argument
      calc.printCalculators(List.of(casio, hp));   // C++ prints 100 and 250, in the server's output
    }
    try (CalculatorRef built = calc.newCalculator("hp", 250);  // the constructor, on the server
        CalculatorRef parsed = calc.parse("casio:100")) {        // a static method
      built.price(300);                                          // a setter
      assertEquals(300, built.price());
      assertEquals(3L, built.add(1, 2));                         // a method
      assertEquals("casio costs 100", parsed.describe());
    }
    assertEquals(15L, calc.sum(List.of(0L, 1L, 2L, 3L, 4L, 5L)));
    Packed4jException error = assertThrows(Packed4jException.class, () -> calc.divide(1, 0));
    assertEquals("ValueError", error.kind());
    assertEquals("calculator.Divide: division by zero", error.nativeMessage());
  }

  private static Calculator local() {
    return Packed4j.bind(Calculator.class);
  }
}
