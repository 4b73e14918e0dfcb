package dev.packed4j.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** TensorMemory keeps a closed large tensor's block for the next of its size, and never more than its bound. */
class TensorMemoryTest {
  private static final long[] TWELVE_MIB = {3 << 20};

  @Test
  void aClosedTensorsBlockServesTheNextTensorOfItsSizeOnly() {
    TensorMemory.trim();
    NDArray first = TensorMemory.allocate(DType.FLOAT32, TWELVE_MIB);
    long address = first.asSegment().address();
    first.asSegment().fill((byte) 7);
    first.close();
    assumeTrue(TensorMemory.keptCount() == 1, "no native access: the runtime's allocation served");
    NDArray other = TensorMemory.allocate(DType.FLOAT32, new long[] {4 << 20});
    assertNotEquals(address, other.asSegment().address(), "a block of another size is not reused");
    assertEquals(1, TensorMemory.keptCount());
    NDArray again = TensorMemory.allocate(DType.FLOAT32, new long[] {1 << 20, 3});
    assertEquals(address, again.asSegment().address(), "the kept block of the same size is reused");
    assertEquals(0, TensorMemory.keptCount());
    assertEquals(2, again.shape().length);
    assertEquals(3, again.shape()[1]);
    again.close();
    other.close();
    TensorMemory.trim();
    assertEquals(0, TensorMemory.keptCount());
  }

  @Test
  void aBlockKeptUnusedIsFreedWithoutAnotherTensor() throws InterruptedException {
    TensorMemory.trim();
    try {
      TensorMemory.allocate(DType.FLOAT32, TWELVE_MIB).close();
      assumeTrue(TensorMemory.keptCount() == 1, "no native access: the runtime's allocation served");
      TensorMemory.keepFor(TimeUnit.MILLISECONDS.toNanos(200)); // after the check, so a slow host cannot skip it
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (TensorMemory.keptCount() != 0 && System.nanoTime() < deadline) { // an idle process, as far as it knows
        Thread.sleep(20);
      }
      assertEquals(0, TensorMemory.keptCount(), "the trim thread frees a block kept unused past its time");
    } finally {
      TensorMemory.keepFor(TimeUnit.SECONDS.toNanos(10));
    }
  }

  @Test
  void manyClosedTensorsKeepAtMostTheBound() {
    TensorMemory.trim();
    NDArray[] arrays = new NDArray[5];
    for (int i = 0; i < arrays.length; i++) {
      arrays[i] = TensorMemory.allocate(DType.FLOAT32, TWELVE_MIB);
    }
    for (NDArray array : arrays) {
      array.close();
    }
    assertTrue(TensorMemory.keptCount() <= TensorMemory.KEEP, "kept " + TensorMemory.keptCount());
    for (int round = 0; round < 50; round++) { // a loop of round trips reuses, never grows
      NDArray array = TensorMemory.allocate(DType.FLOAT32, TWELVE_MIB);
      array.close();
      assertTrue(TensorMemory.keptCount() <= TensorMemory.KEEP);
    }
    TensorMemory.trim();
    assertEquals(0, TensorMemory.keptCount());
  }
}
