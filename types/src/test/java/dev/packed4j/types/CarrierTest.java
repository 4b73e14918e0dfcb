package dev.packed4j.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The machine carriers of a typed entry, as c_api.h's typed_entry section defines them. */
class CarrierTest {

  @Test
  void parameters() {
    assertEquals(Optional.of(Carrier.INT64), Carrier.ofParameter(NativeType.of("uint8")));
    assertEquals(Optional.of(Carrier.INT64), Carrier.ofParameter(NativeType.of("bool")));
    assertEquals(Optional.of(Carrier.DOUBLE), Carrier.ofParameter(NativeType.of("float32")));
    assertEquals(Optional.of(Carrier.SPAN), Carrier.ofParameter(NativeType.of("string")));
    assertEquals(Optional.of(Carrier.TENSOR_WORD), Carrier.ofParameter(NativeType.of("NDArray")));
    assertEquals(Optional.empty(), Carrier.ofParameter(NativeType.of("bytes")));
    assertEquals(Optional.empty(), Carrier.ofParameter(NativeType.of("Calculator")));
    assertEquals(Optional.empty(), Carrier.ofParameter(NativeType.parse("list<int64>")));
    assertEquals(Optional.empty(), Carrier.ofParameter(NativeType.VOID));
  }

  @Test
  void results() {
    assertEquals(Optional.of(Carrier.INT64), Carrier.ofResult(NativeType.of("int32")));
    assertEquals(Optional.of(Carrier.DOUBLE), Carrier.ofResult(NativeType.of("float64")));
    assertEquals(Optional.of(Carrier.INT32), Carrier.ofResult(NativeType.of("bool")));
    assertEquals(Optional.of(Carrier.INT32), Carrier.ofResult(NativeType.VOID));
    assertEquals(Optional.empty(), Carrier.ofResult(NativeType.of("string")));
    assertEquals(Optional.empty(), Carrier.ofResult(NativeType.of("NDArray")));
    assertEquals(long.class, Carrier.SPAN.javaCarrier());
    assertEquals(int.class, Carrier.INT32.javaCarrier());
  }
}
