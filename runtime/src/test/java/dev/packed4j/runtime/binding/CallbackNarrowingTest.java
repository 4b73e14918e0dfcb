package dev.packed4j.runtime.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.packed4j.runtime.Packed4jException;
import org.junit.jupiter.api.Test;

/**
 * A typed callback's arguments narrow by the one rule a result narrows by (packed4j-types' Narrowing): never a
 * silent truncation, so a float64 beyond float's range is a ValueError here too, as Results.toFloat makes it for a
 * result (TypedEntryTest: "returned 5.0E299, which does not fit in float").
 */
class CallbackNarrowingTest {

  @Test
  void aFloatArgumentBeyondFloatsRangeIsAValueError() {
    Packed4jException e = assertThrows(Packed4jException.class,
        () -> Callbacks.toFloat(Double.doubleToRawLongBits(5.0e299)));
    assertEquals("ValueError", e.kind());
    assertEquals("[ValueError] a callback argument 5.0E299 does not fit in float", e.getMessage());
    assertThrows(Packed4jException.class, () -> Callbacks.toFloat(Double.doubleToRawLongBits(-1e39)));
  }

  @Test
  void aFloatArgumentInRangeNaNAndInfinitiesPass() {
    assertEquals(1.5f, Callbacks.toFloat(Double.doubleToRawLongBits(1.5)));
    assertEquals(Float.MAX_VALUE, Callbacks.toFloat(Double.doubleToRawLongBits(Float.MAX_VALUE)));
    assertEquals(Float.POSITIVE_INFINITY, Callbacks.toFloat(Double.doubleToRawLongBits(Double.POSITIVE_INFINITY)));
    assertEquals(Float.NaN, Callbacks.toFloat(Double.doubleToRawLongBits(Double.NaN)));
    // Precision may drop, as for a result: 0.1 is the nearest float.
    assertEquals(0.1f, Callbacks.toFloat(Double.doubleToRawLongBits(0.1)));
  }

  @Test
  void integerArgumentsAreRangeChecked() {
    assertEquals(-128, Callbacks.toByte(-128));
    Packed4jException e = assertThrows(Packed4jException.class, () -> Callbacks.toInt(1L << 31));
    assertEquals("[ValueError] a callback argument 2147483648 does not fit in int", e.getMessage());
  }
}
