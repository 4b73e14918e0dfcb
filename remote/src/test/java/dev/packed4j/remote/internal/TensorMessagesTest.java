package dev.packed4j.remote.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import dev.packed4j.remote.internal.proto.Tensor;
import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A tensor in a message, both ways: the bytes a peer sends must fill the dtype and shape it announces. */
class TensorMessagesTest {
  @Test
  void aTensorCrossesAMessageWithItsDtypeShapeAndBytes() {
    try (NDArray sent = NDArray.allocate(DType.INT32, new long[] {2, 3})) {
      for (int i = 0; i < 6; i++) {
        sent.asSegment().setAtIndex(ValueLayout.JAVA_INT, i, 10 * i - 7);
      }
      Tensor message = TensorMessages.of(sent);
      assertEquals("int32", message.getDtype());
      assertEquals(List.of(2L, 3L), message.getShapeList());
      assertFalse(message.getStreamed());
      try (NDArray received = TensorMessages.copyOf(message, "a tensor argument", IllegalArgumentException::new)) {
        assertEquals(DType.INT32, received.dtype());
        assertArrayEquals(new long[] {2, 3}, received.shape());
        assertArrayEquals(sent.asSegment().toArray(ValueLayout.JAVA_INT),
            received.asSegment().toArray(ValueLayout.JAVA_INT));
      }
    }
  }

  @Test
  void bytesThatDoNotFillTheAnnouncedShapeAreRefusedWithTheSizes() {
    // A peer's message: 8 bytes for a float64 tensor of shape [2], which needs 16.
    Tensor message = Tensor.newBuilder().setDtype("float64").addShape(2)
        .setData(ByteString.copyFrom(new byte[8])).build();
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> TensorMessages.copyOf(message, "a tensor argument", IllegalArgumentException::new));
    assertEquals("a tensor argument of dtype float64 and shape [2] needs 16 bytes, the message carries 8",
        refused.getMessage());
  }
}
