package dev.packed4j.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The machine carriers of a typed entry, as c_api.h's P4JFunctionCell.typed_entry defines them (ABI 2.4). */
class CarrierTest {

  private static Optional<Carrier> parameter(String type) {
    return Carrier.ofParameter(NativeType.parse(type));
  }

  private static Carrier result(String type) {
    return Carrier.ofResult(NativeType.parse(type));
  }

  @Test
  void parameters() {
    assertEquals(Optional.of(Carrier.INT64), parameter("uint8"));
    assertEquals(Optional.of(Carrier.INT64), parameter("bool"));
    assertEquals(Optional.of(Carrier.DOUBLE), parameter("float32"));
    assertEquals(Optional.of(Carrier.SPAN), parameter("string"));
    assertEquals(Optional.of(Carrier.SPAN), parameter("bytes"));
    assertEquals(Optional.of(Carrier.TENSOR_WORD), parameter("NDArray"));
    assertEquals(Optional.of(Carrier.OBJECT_WORD), parameter("Calculator"));
    assertEquals(Optional.of(Carrier.OBJECT_WORD), parameter("list<int64>"));
    assertEquals(Optional.of(Carrier.OBJECT_WORD), parameter("map<string, any>"));
    assertEquals(Optional.of(Carrier.OBJECT_WORD), parameter("function"));
    assertEquals(Optional.of(Carrier.PACKED_VALUE), parameter("Object"));
    assertEquals(Optional.of(Carrier.PACKED_VALUE), parameter("any"));
    assertEquals(Optional.of(Carrier.PACKED_VALUE), parameter("optional<int64>"));
    assertEquals(Optional.empty(), parameter("void"));
  }

  @Test
  void results() {
    assertEquals(Carrier.INT64, result("int32"));
    assertEquals(Carrier.DOUBLE, result("float64"));
    assertEquals(Carrier.INT32, result("bool"));
    assertEquals(Carrier.INT32, result("void"));
    assertEquals(Carrier.SPAN, result("string"));
    assertEquals(Carrier.OBJECT_WORD, result("NDArray"));
    assertEquals(Carrier.OBJECT_WORD, result("list<string>"));
    assertEquals(Carrier.OUT_VALUE, result("optional<Calculator>"));
    assertEquals(Carrier.OUT_VALUE, result("Object"));
    assertEquals(long.class, Carrier.SPAN.javaCarrier());
    assertEquals(int.class, Carrier.INT32.javaCarrier());
    assertEquals(int.class, Carrier.OUT_VALUE.javaCarrier());
  }
}
