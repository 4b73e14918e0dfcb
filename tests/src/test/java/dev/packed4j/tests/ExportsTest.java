package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Static @Global methods exported as Java functions, registered through the generated registrar. */
class ExportsTest {
  private static Callbacks callbacks;

  @BeforeAll
  static void register() {
    TestLibrary.load();
    callbacks = Packed4j.bind(Callbacks.class);
    assertEquals(List.of("test.host.Add", "test.host.Log", "test.host.Greet", "test.host.Total", "test.host.Half",
        "test.host.Scale", "test.host.Fail"), Packed4j.register(HostFunctions.class));
  }

  @Test
  void registeredFunctionsAreListedWithTheirSignatures() {
    assertTrue(Registry.list().containsAll(List.of("test.host.Add", "test.host.Log", "test.host.Greet")));
    try (PackedFunction add = Registry.global("test.host.Add");
        PackedFunction greet = Registry.global("test.host.Greet");
        PackedFunction total = Registry.global("test.host.Total")) {
      assertEquals("(int64, int64) -> int64", add.signature());
      assertEquals("(string, int32) -> string", greet.signature());
      assertEquals("(list<int64>) -> int64", total.signature());
      assertEquals("hello ada hello ada", greet.invoke("ada", 2));
      assertEquals(6L, total.invoke(List.of(1L, 2L, 3L)));
    }
    // The Java parameter names, as C++ .params({...}) records a native function's.
    assertEquals(List.of("a", "b"), Registry.functionInfo("test.host.Add").orElseThrow().parameterNames());
    assertEquals(List.of("factor", "by"), Registry.functionInfo("test.host.Scale").orElseThrow().parameterNames());
  }

  @Test
  void cppCallsThemByNameTypedAndPacked() {
    assertEquals(5L, callbacks.callGlobalTyped("test.host.Add", 2, 3));
    assertEquals(5L, callbacks.callGlobal("test.host.Add", 2, 3));
    try (PackedFunction log = Registry.global("test.host.Log")) {
      assertEquals("(string) -> void typed", callbacks.describe(log));
      callbacks.apply(log, "from C++");
    }
    synchronized (HostFunctions.class) {
      assertTrue(HostFunctions.LOG.contains("from C++"));
    }
  }

  @Test
  void anIntegerADoubleParameterCannotHoldExactlyIsAValueErrorNotARounding() {
    try (PackedFunction half = Registry.global("test.host.Half")) {
      assertEquals(1.5, half.invoke(3L));
      assertEquals((double) (1L << 53) / 2, half.invoke(1L << 53));
      Packed4jException rounded = assertThrows(Packed4jException.class, () -> half.invoke((1L << 53) + 1));
      assertEquals("ValueError", rounded.kind());
      assertTrue(rounded.getMessage().contains("9007199254740993, which does not fit in a double without rounding"),
          rounded.getMessage());
      // The same from C++, which passes the integer packed.
      Packed4jException fromCpp = assertThrows(Packed4jException.class,
          () -> callbacks.apply(half, (1L << 53) + 1));
      assertEquals("ValueError", fromCpp.kind());
      assertTrue(fromCpp.getMessage().contains("9007199254740993, which does not fit in a double without rounding"),
          fromCpp.getMessage());
    }
  }

  @Test
  void aWrongArgumentCountOrAnUnconvertibleResultSaysWhatItWasInJavasWords() {
    try (PackedFunction add = Registry.global("test.host.Add");
        PackedFunction array = PackedFunction.of(args -> new int[] {1, 2})) {
      Packed4jException count = assertThrows(Packed4jException.class, () -> add.invoke(1L));
      assertEquals("TypeError", count.kind());
      assertTrue(count.getMessage().contains("the Java function test.host.Add (HostFunctions.add) (int64, int64) ->"
          + " int64 takes 2 arguments, 1 was passed"), count.getMessage());
      Packed4jException text = assertThrows(Packed4jException.class, () -> add.invoke("one", 2L));
      assertTrue(text.getMessage().contains("argument 0 of the Java function test.host.Add (HostFunctions.add)"),
          text.getMessage());
      Packed4jException result = assertThrows(Packed4jException.class, () -> array.invoke());
      assertTrue(result.getMessage().contains("a Java function returned a int[], which has no native representation"),
          result.getMessage());
      Registry.register("test.host.ArrayResult", array); // registered, its errors name the global
      try (PackedFunction registered = Registry.global("test.host.ArrayResult")) {
        Packed4jException named = assertThrows(Packed4jException.class, () -> registered.invoke());
        assertTrue(named.getMessage().contains("the Java function \"test.host.ArrayResult\" returned a int[]"),
            named.getMessage());
      }
    }
  }

  @Test
  void aPackedBodyRefusesAWrongArgumentCountWithTheTypedBodysWords() {
    try (PackedFunction total = Registry.global("test.host.Total")) {
      // More arguments than the method takes used to be ignored on the packed path; fewer named an index.
      Packed4jException more = assertThrows(Packed4jException.class, () -> total.invoke(List.of(1L), 2L, 3L));
      assertEquals("TypeError", more.kind());
      assertTrue(more.getMessage().contains("the Java function test.host.Total (HostFunctions.total)"
          + " (list<int64>) -> int64 takes 1 argument, 3 were passed"), more.getMessage());
      Packed4jException none = assertThrows(Packed4jException.class, () -> total.invoke());
      assertTrue(none.getMessage().contains("(list<int64>) -> int64 takes 1 argument, 0 were passed"),
          none.getMessage());
      Packed4jException fromCpp = assertThrows(Packed4jException.class, () -> callbacks.callGlobal("test.host.Total",
          1, 2));
      assertTrue(fromCpp.getMessage().contains("takes 1 argument, 2 were passed"), fromCpp.getMessage());
      Packed4jException type = assertThrows(Packed4jException.class, () -> total.invoke("x"));
      assertTrue(type.getMessage().contains("argument 0 of the Java function test.host.Total (HostFunctions.total)"
          + " (list<int64>) -> int64: "), type.getMessage());
    }
  }

  @Test
  void aNarrowedArgumentOutOfRangeNamesTheFunctionAndTheArgument() {
    try (PackedFunction scale = Registry.global("test.host.Scale")) {
      assertEquals("(int32, float32) -> float64", scale.signature());
      assertEquals(3.0, scale.invoke(2, 1.5));
      Packed4jException factor = assertThrows(Packed4jException.class, () -> scale.invoke(1L << 40, 1.5));
      assertEquals("ValueError", factor.kind());
      assertTrue(factor.getMessage().contains("argument 0 of the Java function test.host.Scale (HostFunctions.scale)"
          + " (int32, float32) -> float64: 1099511627776, which does not fit in int"), factor.getMessage());
      Packed4jException by = assertThrows(Packed4jException.class, () -> scale.invoke(2, 1e300));
      assertEquals("ValueError", by.kind());
      assertTrue(by.getMessage().contains("argument 1 of the Java function test.host.Scale (HostFunctions.scale)"
          + " (int32, float32) -> float64: 1.0E300, which does not fit in float"), by.getMessage());
      assertEquals(3.0, scale.invoke(2, 1.5), "the function still works");
      // The same from C calling the typed entry with wire values the C++ TypedPackedFunc would have narrowed.
      assertEquals(3.0, callbacks.callWireEntry("test.host.Scale", 2, 1.5));
      Packed4jException wire = assertThrows(Packed4jException.class,
          () -> callbacks.callWireEntry("test.host.Scale", 1L << 40, 1.5));
      assertEquals("ValueError", wire.kind());
      assertTrue(wire.getMessage().contains("argument 0 of the Java function test.host.Scale (HostFunctions.scale)"
          + " (int32, float32) -> float64: 1099511627776, which does not fit in int"), wire.getMessage());
      Packed4jException wireBy = assertThrows(Packed4jException.class,
          () -> callbacks.callWireEntry("test.host.Scale", 2, 1e300));
      assertTrue(wireBy.getMessage().contains("argument 1 of the Java function test.host.Scale"
          + " (HostFunctions.scale) (int32, float32) -> float64: 1.0E300, which does not fit in float"),
          wireBy.getMessage());
      assertEquals(3.0, callbacks.callWireEntry("test.host.Scale", 2, 1.5), "the function still works");
    }
  }

  @Test
  void checkedExceptionOfAnExportedMethodCrossesBothWays() {
    try (PackedFunction fail = Registry.global("test.host.Fail");
        PackedFunction relay = PackedFunction.of(args -> fail.invoke(7L))) {
      assertEquals("RuntimeError|java.io.IOException: failed with 7|java frames", callbacks.catchError(relay));
      IOException thrown = assertThrows(IOException.class, () -> callbacks.apply(fail, 3L));
      assertEquals("failed with 3", thrown.getMessage());
    }
  }

  @Test
  void registeringTheClassAgainRegistersNothingAndNamesTheTakenName() {
    Packed4jException error = assertThrows(Packed4jException.class, () -> Packed4j.register(HostFunctions.class));
    assertEquals("ValueError", error.kind());
    assertTrue(error.getMessage().contains("'test.host.Add' of HostFunctions.add is already registered"),
        error.getMessage());
  }

  @Test
  void aClassWithoutExportsHasNoRegistrar() {
    IllegalStateException error = assertThrows(IllegalStateException.class, () -> Packed4j.register(String.class));
    assertTrue(error.getMessage().contains("no generated registrar java.lang.Packed4j_String"), error.getMessage());
  }
}
