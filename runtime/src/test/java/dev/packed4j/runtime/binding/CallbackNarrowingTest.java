package dev.packed4j.runtime.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
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
  void theIndexedFormsLeaveTheFunctionToTheUpcallThatCalledTheBody() {
    // What generated typed bodies call: the upcall (TypedCalls, TypedStubs) adds "argument 2 of the Java function ..."
    // (ExportsTest checks the whole message through a real call).
    ConversionFailure wide = assertThrows(ConversionFailure.class, () -> Callbacks.toInt(1L << 40, 2));
    assertEquals(ConversionFailure.Kind.VALUE, wide.kind());
    assertEquals(2, wide.argument());
    assertEquals("1099511627776, which does not fit in int", wide.detail());
    assertEquals(0, assertThrows(ConversionFailure.class, () -> Callbacks.toShort(1 << 15, 0)).argument());
    assertEquals(1, assertThrows(ConversionFailure.class, () -> Callbacks.toByte(-129, 1)).argument());
    assertEquals("1.0E300, which does not fit in float",
        assertThrows(ConversionFailure.class, () -> Callbacks.toFloat(Double.doubleToRawLongBits(1e300), 3)).detail());
    assertEquals(-7, Callbacks.toInt(-7, 0));
    assertEquals((short) 300, Callbacks.toShort(300, 0));
    assertEquals((byte) -128, Callbacks.toByte(-128, 0));
    assertEquals(1.5f, Callbacks.toFloat(Double.doubleToRawLongBits(1.5), 0));
  }

  @Test
  void integerArgumentsAreRangeChecked() {
    assertEquals(-128, Callbacks.toByte(-128));
    Packed4jException e = assertThrows(Packed4jException.class, () -> Callbacks.toInt(1L << 31));
    assertEquals("[ValueError] a callback argument 2147483648 does not fit in int", e.getMessage());
  }
}
