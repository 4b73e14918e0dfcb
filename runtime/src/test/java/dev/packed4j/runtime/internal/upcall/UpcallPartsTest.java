package dev.packed4j.runtime.internal.upcall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.TestLibraries;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts behind Java functions: shapes, the handle table, and raising what cannot be converted. */
class UpcallPartsTest {
  @Test
  void shapesShareAStubByMachineShape() {
    WireShape ints = WireShape.parse("(int32, int32) -> int32");
    WireShape longs = WireShape.parse("(int64, uint8) -> int64");
    assertEquals("JJ>J", ints.stubKey());
    assertEquals(ints.stubKey(), longs.stubKey());
    assertEquals("DJJ>I", WireShape.parse("(float32, bool, string) -> void").stubKey());
    assertEquals(List.of(WireShape.Kind.FLOAT), WireShape.parse("(float64) -> bool").parameters());
    assertEquals(">D", WireShape.parse("() -> float64").stubKey());
  }

  @Test
  void signaturesWithoutATypedEntryAreRefusedWithTheReason() {
    IllegalArgumentException string = assertThrows(IllegalArgumentException.class,
        () -> WireShape.parse("(int64) -> string"));
    assertTrue(string.getMessage().contains("returns a scalar or void, not a string"), string.getMessage());
    IllegalArgumentException list = assertThrows(IllegalArgumentException.class,
        () -> WireShape.parse("(list<int64>) -> int64"));
    assertTrue(list.getMessage().contains("'list<int64>' in '(list<int64>) -> int64' has no typed entry"),
        list.getMessage());
    IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
        () -> WireShape.parse("(int64, int64, int64, int64, int64) -> int64"));
    assertTrue(many.getMessage().contains("at most 4 parameters"), many.getMessage());
    assertThrows(IllegalArgumentException.class, () -> WireShape.parse("int64 -> int64"));
  }

  @Test
  void handleTableReusesFreedSlotsAndRefusesADoubleRelease() {
    HandleTable<String> table = new HandleTable<>();
    int a = table.add("a");
    int b = table.add("b");
    assertEquals("b", table.get(b));
    table.remove(a);
    assertThrows(IllegalStateException.class, () -> table.get(a));
    assertThrows(IllegalStateException.class, () -> table.remove(a));
    assertEquals(a, table.add("c"));
    assertEquals(2, table.size());
    for (int i = 0; i < 1000; i++) {
      table.add("x" + i);
    }
    assertEquals("c", table.get(a));
    assertEquals(1002, table.size());
  }

  /** An exception whose {@code toString()} throws an exception: described by its class, and itself again. */
  private static final class Unprintable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    @Override
    public String toString() {
      throw new IllegalStateException("toString fails");
    }
  }

  /** An exception whose {@code toString()} throws an error: converting it fails inside the upcall's catch block. */
  private static final class Unconvertible extends RuntimeException {
    private static final long serialVersionUID = 1L;

    @Override
    public String toString() {
      throw new LinkageError("toString fails");
    }
  }

  @Test
  void anExceptionWhoseToStringThrowsCrossesAsItself() {
    TestLibraries.requireCore();
    Unprintable thrown = new Unprintable();
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw thrown;
    })) {
      Unprintable caught = assertThrows(Unprintable.class, failing::invoke);
      assertSame(thrown, caught);
    }
  }

  @Test
  void anExceptionThatCannotBeConvertedStillBecomesANativeError() {
    TestLibraries.requireCore();
    try (PackedFunction failing = PackedFunction.of(args -> {
      throw new Unconvertible();
    })) {
      Packed4jException error = assertThrows(Packed4jException.class, failing::invoke);
      assertEquals("RuntimeError", error.kind());
      assertTrue(error.nativeMessage().contains("its exception could not be converted"), error.getMessage());
    }
  }
}
