package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A tensor from {@code NDArray.wrap} passed straight to a bound function: written as a borrowed DLTensor for its
 * first call (no native object; C++ reads it as a TensorView or gets an NDArray over the same memory), given its
 * native object from the second call on, and checked like any tensor (closed, freed arena, null, dtype, layout).
 */
class WrappedTensorsTest {
  private static Tensors tensors;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    tensors = Packed4j.bind(Tensors.class);
  }

  @Test
  void aWrappedTensorsFirstCallMakesNoNativeObjectAndTheSecondMakesOne() throws InterruptedException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 6);
      long baseline = TestLibrary.settledLiveObjectCount();
      NDArray a = NDArray.wrap(memory, DType.FLOAT32, 2, 3);
      assertEquals(baseline, Packed4j.liveObjectCount(), "wrap makes no native object");
      assertEquals(baseline, tensors.viewLiveObjects(a), "the first call passes a borrowed DLTensor");
      assertEquals(memory.address(), tensors.viewDataAddress(a), "the second call: the same memory");
      assertEquals(baseline + 1, Packed4j.liveObjectCount(), "a tensor passed again has its native object");
      long handle = a.handle();
      assertEquals(memory.address(), tensors.viewDataAddress(a));
      assertEquals(handle, a.handle(), "made once");
      a.close();
      assertEquals(baseline, Packed4j.liveObjectCount());
    }
  }

  @Test
  void theCallFrameRouteCompletesABorrowedTensorAsTheTypedEntryDoes() throws InterruptedException {
    // Functions registered with set_body have no typed entry: these methods take the call frame, which receives the
    // tensor word and passes a wrapped tensor's first call as a kP4JDLTensorPtr it completed itself.
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 6);
      long baseline = TestLibrary.settledLiveObjectCount();
      try (NDArray a = NDArray.wrap(memory, DType.FLOAT32, 2, 3)) {
        assertEquals(baseline, tensors.packedViewLiveObjects(a), "the first call passes a borrowed DLTensor");
        assertEquals(baseline, Packed4j.liveObjectCount());
        assertEquals(memory.address(), tensors.packedViewDataAddress(a, 2, 3), "the second call: its object");
        assertEquals(baseline + 1, Packed4j.liveObjectCount(), "a tensor passed again has its native object");
      }
      try (NDArray b = NDArray.wrap(memory, DType.FLOAT32, 3, 2)) {
        assertEquals(memory.address(), tensors.packedViewDataAddress(b, 3, 2), "CPU, contiguous, shape [3, 2]");
      }
      assertEquals(baseline, Packed4j.liveObjectCount());
    }
  }

  @Test
  void wrapThenCloseWithoutACallReleasesNothing() throws InterruptedException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(16);
      long baseline = TestLibrary.settledLiveObjectCount();
      NDArray a = NDArray.wrap(memory, DType.UINT8, 16);
      assertEquals("NDArray(uint8, shape=[16], strides=[1], cpu)", a.toString());
      a.close();
      a.close();
      assertTrue(a.isClosed());
      assertEquals("NDArray{closed}", a.toString());
      assertThrows(IllegalStateException.class, a::handle);
      assertEquals(baseline, Packed4j.liveObjectCount());
    }
  }

  @Test
  void aBorrowedTensorReachesNDArrayParametersOverTheSameMemory() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_SHORT, 10 * 8 * 4 * 2);
      try (NDArray a = NDArray.wrap(memory, DType.INT16, 10, 8, 4, 2)) {
        // A typed entry with an NDArray parameter makes a native object from the borrowed DLTensor.
        assertEquals(memory.address(), tensors.dataAddress(a));
      }
      try (NDArray b = NDArray.wrap(memory, DType.INT16, 10, 8, 4, 2)) {
        assertEquals(List.of(64L, 8L, 2L, 1L), tensors.strides(b)); // through a call frame: the native object
        assertEquals(memory.address(), tensors.dataAddress(b));
      }
    }
  }

  @Test
  void errorsOfTheBorrowedPathNameTheFunctionAndTheArgument() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 12);
      try (NDArray shorts = NDArray.wrap(memory, DType.INT16, 4)) {
        Packed4jException error = assertThrows(Packed4jException.class, () -> tensors.viewSumFloat32(shorts));
        assertEquals("TypeError", error.kind());
        assertTrue(error.getMessage().contains("a: expected float32, got int16"), error.getMessage());
      }
      try (NDArray a = NDArray.wrap(memory, DType.FLOAT32, 3, 4); NDArray column = a.slice(1, 1, 2)) {
        Packed4jException error = assertThrows(Packed4jException.class, () -> tensors.viewSumFloat32(column));
        assertEquals("ValueError", error.kind());
        assertTrue(error.getMessage().contains("a: expected a contiguous tensor, got strides (4, 1) for shape (3, 1)"),
            error.getMessage());
      }
      NDArray closed = NDArray.wrap(memory, DType.FLOAT32, 12);
      closed.close();
      IllegalStateException afterClose =
          assertThrows(IllegalStateException.class, () -> tensors.viewDataAddress(closed));
      assertTrue(afterClose.getMessage().startsWith("test.tensor.ViewDataAddress argument 0 (a): the NDArray object is "
          + "closed"), afterClose.getMessage());
      NullPointerException nothing = assertThrows(NullPointerException.class, () -> tensors.viewDataAddress(null));
      assertTrue(nothing.getMessage().startsWith("test.tensor.ViewDataAddress argument 0 (a) is null"),
          nothing.getMessage());
    }
  }

  @Test
  void aTensorOverAConfinedArenaIsUsableOnlyByItsOwnerThread() throws Exception {
    try (Arena arena = Arena.ofConfined()) {
      NDArray a = NDArray.wrap(arena.allocate(64), DType.UINT8, 64);
      java.util.concurrent.ExecutorService other = java.util.concurrent.Executors.newSingleThreadExecutor();
      try {
        for (int passes = 0; passes < 2; passes++) { // before and after the tensor has its native object
          Throwable refused = other.submit(() -> assertThrows(WrongThreadException.class,
              () -> tensors.viewDataAddress(a))).get();
          assertTrue(refused.getMessage().contains("belongs to a confined arena of another thread"),
              refused.getMessage());
          assertThrows(java.util.concurrent.ExecutionException.class, () -> other.submit(a::asSegment).get());
          assertTrue(tensors.viewDataAddress(a) != 0, "the owner thread uses it");
        }
      } finally {
        other.shutdownNow();
      }
      a.close();
    }
  }

  @Test
  void aWrappedTensorWhoseArenaClosedIsAnExceptionOnItsFirstCall() {
    Arena arena = Arena.ofConfined();
    NDArray a = NDArray.wrap(arena.allocate(64), DType.UINT8, 64);
    arena.close();
    IllegalStateException error = assertThrows(IllegalStateException.class, () -> tensors.viewDataAddress(a));
    assertTrue(error.getMessage().startsWith("test.tensor.ViewDataAddress argument 0 (a): the memory segment under "
        + "this NDArray was freed"), error.getMessage());
    assertThrows(IllegalStateException.class, a::handle, "no native object over freed memory either");
    a.close();
  }

  @Test
  void aBorrowedTensorForwardedToJavaArrivesAsATensorOverTheSameMemory() throws InterruptedException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 6);
      long baseline = TestLibrary.settledLiveObjectCount();
      try (NDArray a = NDArray.wrap(memory, DType.FLOAT32, 2, 3)) {
        long address = tensors.forwardView(t -> {
          try (t) {
            assertEquals(List.of(2L, 3L), List.of(t.shape()[0], t.shape()[1]));
            return t.asSegment().address();
          }
        }, a);
        assertEquals(memory.address(), address);
      }
      assertEquals(baseline, TestLibrary.settledLiveObjectCount());
    }
  }

  @Test
  void hashCodeStaysWhenTheNativeObjectIsMade() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_INT, 4);
      try (NDArray a = NDArray.wrap(memory, DType.INT32, 4); NDArray other = NDArray.wrap(memory, DType.INT32, 4)) {
        int hash = a.hashCode();
        assertNotEquals(a, other, "two wrapped tensors are two tensors");
        a.handle();
        assertEquals(hash, a.hashCode());
        try (NDArray echoed = tensors.echo(a)) {
          assertEquals(a, echoed, "the same native object");
          assertEquals(a.hashCode(), echoed.hashCode());
        }
      }
    }
  }
}
