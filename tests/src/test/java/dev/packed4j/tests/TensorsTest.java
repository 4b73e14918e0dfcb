package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.Device;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Registry;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Tensors between Java and C++: the cases of issue 11, through generated bindings and tests/native/tensors.cc. */
class TensorsTest {
  private static Tensors tensors;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    tensors = Packed4j.bind(Tensors.class);
  }

  @Test
  void wrappedInt16TensorHasRowMajorStridesAndTheSegmentsAddressInCpp() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_SHORT, 10 * 8 * 4 * 2);
      try (NDArray a = NDArray.wrap(memory, DType.INT16, 10, 8, 4, 2)) {
        assertEquals(List.of(10L, 8L, 4L, 2L), tensors.shape(a));
        assertEquals(List.of(64L, 8L, 2L, 1L), tensors.strides(a));
        assertArrayEquals(new long[] {64, 8, 2, 1}, a.strides());
        assertEquals(memory.address(), tensors.dataAddress(a));
        assertEquals("int16", tensors.dtype(a));
        assertTrue(a.isContiguous());
        assertTrue(tensors.isContiguous(a));
        // No copy: what C++ writes, the segment holds.
        tensors.fillIota(a);
        assertEquals(639, memory.getAtIndex(ValueLayout.JAVA_SHORT, 639));
        assertEquals(memory.address(), a.asSegment().address());
        assertEquals(640 * 2, a.asSegment().byteSize());
      }
    }
  }

  @Test
  void sliceIsANonContiguousViewWithTheSameStridesOnBothSides() {
    try (Arena arena = Arena.ofConfined();
        NDArray a = NDArray.wrap(arena.allocate(ValueLayout.JAVA_SHORT, 640), DType.INT16, 10, 8, 4, 2)) {
      tensors.fillIota(a);
      try (NDArray rows = a.slice(0, 1, 3);
          NDArray slice = rows.slice(2, 1, 3)) { // a[1:3, :, 1:3]
        assertArrayEquals(new long[] {2, 8, 2, 2}, slice.shape());
        assertArrayEquals(new long[] {64, 8, 2, 1}, slice.strides());
        assertEquals((64 + 2) * 2, slice.byteOffset());
        assertFalse(slice.isContiguous());
        assertEquals(List.of(2L, 8L, 2L, 2L), tensors.shape(slice));
        assertEquals(List.of(64L, 8L, 2L, 1L), tensors.strides(slice));
        assertEquals((64 + 2) * 2, tensors.byteOffset(slice));
        assertEquals(a.asSegment().address(), tensors.dataAddress(slice));
        assertFalse(tensors.isContiguous(slice));
        short[] values = slice.toShortArray();
        assertEquals(2 * 8 * 2 * 2, values.length);
        assertEquals(66, values[0]); // a[1, 0, 1, 0]
        assertEquals(67, values[1]); // a[1, 0, 1, 1]
        assertEquals(68, values[2]); // a[1, 0, 2, 0]
        assertEquals(64 * 2 + 8 * 7 + 2 * 2 + 1, values[values.length - 1]); // a[2, 7, 2, 1]
      }
    }
  }

  @Test
  void emptyTensorIsContiguous() {
    try (NDArray empty = NDArray.allocate(DType.FLOAT32, 4, 0, 4)) {
      assertTrue(empty.isContiguous());
      assertTrue(tensors.isContiguous(empty));
      assertEquals(0, empty.elementCount());
      assertEquals(List.of(4L, 0L, 4L), tensors.shape(empty));
      assertEquals(0, empty.toFloatArray().length);
      assertEquals(0.0, tensors.sumFloat32(empty));
    }
  }

  @Test
  void aFunctionThatRequiresContiguityRejectsAStridedView() {
    try (NDArray a = NDArray.fromArray(new float[24], 2, 3, 4);
        NDArray column = a.slice(2, 1, 2)) {
      Packed4jException error = assertThrows(Packed4jException.class, () -> tensors.sumFloat32(column));
      assertEquals("ValueError", error.kind());
      assertTrue(error.getMessage().contains(
          "a: expected a contiguous tensor, got strides (12, 4, 1) for shape (2, 3, 1)"), error.getMessage());
    }
  }

  @Test
  void aDtypeMismatchIsAClearError() {
    try (NDArray a = NDArray.fromArray(new short[] {1, 2, 3})) {
      Packed4jException error = assertThrows(Packed4jException.class, () -> tensors.sumFloat32(a));
      assertEquals("TypeError", error.kind());
      assertTrue(error.getMessage().contains("a: expected float32, got int16"), error.getMessage());
      IllegalStateException javaSide = assertThrows(IllegalStateException.class, a::toFloatArray);
      assertEquals("toFloatArray() reads float32, float16 or bfloat16 elements; this NDArray holds int16",
          javaSide.getMessage());
    }
  }

  @Test
  void dlpackExportThenImportIsTheSamePointerAndCountsReturnToBaseline() throws InterruptedException {
    long live = TestLibrary.settledLiveObjectCount();
    try (NDArray a = NDArray.fromArray(new float[] {1, 2, 3, 4}, 2, 2)) {
      long references = tensors.otherReferences(a);
      MemorySegment managed = a.toDLPack();
      assertEquals(references + 1, tensors.otherReferences(a));
      try (NDArray back = NDArray.fromDLPack(managed)) {
        assertEquals(a, back); // the same native object
        assertEquals(tensors.dataAddress(a), tensors.dataAddress(back));
        assertArrayEquals(new float[] {1, 2, 3, 4}, back.toFloatArray());
      }
      assertEquals(references, tensors.otherReferences(a));
      // A C++ consumer reads an export and calls its deleter.
      MemorySegment versioned = a.toDLPackVersioned();
      assertEquals(1, versioned.get(ValueLayout.JAVA_INT, 0)); // DLPack major version
      try (NDArray back = NDArray.fromDLPackVersioned(versioned)) {
        assertEquals(tensors.dataAddress(a), tensors.dataAddress(back));
      }
      assertEquals(1.0, tensors.consumeFirstFloat(a.toDLPack().address()));
      assertEquals(references, tensors.otherReferences(a));
    }
    assertEquals(live, TestLibrary.settledLiveObjectCount());
  }

  @Test
  void aForeignDlpackTensorCrossesWithoutCopyAndIsReleasedOnce() {
    long deleted = tensors.foreignDeleted();
    long address = tensors.produceForeign(5);
    try (NDArray foreign = NDArray.fromDLPack(MemorySegment.ofAddress(address))) {
      assertArrayEquals(new long[] {5}, foreign.shape());
      assertArrayEquals(new long[] {1}, foreign.strides()); // DLPack's NULL strides, filled in
      assertArrayEquals(new float[] {0, 1, 2, 3, 4}, foreign.toFloatArray());
      assertEquals(10.0, tensors.sumFloat32(foreign));
      assertEquals(deleted, tensors.foreignDeleted());
    }
    assertEquals(deleted + 1, tensors.foreignDeleted());
  }

  @Test
  void usingATensorAfterItsArenaClosedIsAnExceptionNotACrash() {
    Arena arena = Arena.ofShared();
    NDArray a = NDArray.wrap(arena.allocate(ValueLayout.JAVA_FLOAT, 4), DType.FLOAT32, 4);
    NDArray slice = a.slice(0, 1, 3);
    arena.close();
    IllegalStateException call = assertThrows(IllegalStateException.class, () -> tensors.sumFloat32(a));
    assertTrue(call.getMessage().contains("arena is closed"), call.getMessage());
    assertThrows(IllegalStateException.class, () -> tensors.dataAddress(slice));
    assertThrows(IllegalStateException.class, a::toFloatArray);
    assertThrows(IllegalStateException.class, a::asSegment);
    assertThrows(IllegalStateException.class, a::toDLPack);
    assertThrows(IllegalStateException.class, () -> a.slice(0, 0, 1));
    assertThrows(IllegalStateException.class, slice::toFloatArray);
    a.close();
    slice.close();
    assertThrows(IllegalStateException.class, a::toFloatArray);
  }

  @Test
  void aWrappedTensorThatComesBackFromNativeCodeStillChecksItsArena() {
    Arena arena = Arena.ofShared();
    try (NDArray a = NDArray.wrap(arena.allocate(ValueLayout.JAVA_FLOAT, 1 << 20), DType.FLOAT32, 1 << 20);
        NDArray same = tensors.echo(a)) {
      assertEquals(a, same);
      arena.close();
      assertThrows(IllegalStateException.class, same::toFloatArray);
      assertThrows(IllegalStateException.class, () -> tensors.sumFloat32(same));
    }
  }

  /** A tensor longer than a Java array is refused by to...Array() with its length, and still reads by segment. */
  @Test
  void aTensorLongerThanAnArrayIsRefusedByToArrayNamingItsLength() {
    long count = 3L << 30;
    try (NDArray one = NDArray.fromArray(new byte[] {7}); NDArray many = tensors.broadcast(one, count)) {
      IllegalStateException refused = assertThrows(IllegalStateException.class, many::toByteArray);
      assertEquals("toByteArray(): the NDArray has 3221225472 elements, more than a Java array holds (2147483639);"
          + " read it through asSegment()", refused.getMessage());
      assertEquals(7, many.asSegment().get(ValueLayout.JAVA_BYTE, 0));
    }
  }

  /**
   * A view native code made over a wrapped tensor has a handle of its own (here {@code NDArray::View}), yet checks
   * the wrapped segment's arena as the tensor does: an exception after the arena's close, not a read of freed
   * memory. Over a borrowed DLTensor (the first pass) and over the tensor's native object (the second).
   */
  @Test
  void aViewNativeCodeMadeOverAWrappedTensorChecksItsArena() {
    for (int pass = 1; pass <= 2; pass++) {
      Arena arena = Arena.ofShared();
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 6);
      memory.setAtIndex(ValueLayout.JAVA_FLOAT, 5, 7f);
      try (NDArray a = NDArray.wrap(memory, DType.FLOAT32, 2, 3)) {
        if (pass == 2) {
          assertEquals(7.0, tensors.sumFloat32(a)); // the first pass; the flatten below is the second
        }
        try (NDArray flat = tensors.flatten(a)) {
          assertArrayEquals(new long[] {6}, flat.shape());
          assertArrayEquals(new float[] {0, 0, 0, 0, 0, 7}, flat.toFloatArray());
          arena.close();
          IllegalStateException read = assertThrows(IllegalStateException.class, flat::toFloatArray, "pass " + pass);
          assertTrue(read.getMessage().contains("arena is closed"), read.getMessage());
          assertThrows(IllegalStateException.class, flat::asSegment);
          assertThrows(IllegalStateException.class, () -> tensors.sumFloat32(flat));
        }
      }
    }
    // Two wrapped tensors at one address, the shorter passed first: each view is linked to the one that holds it.
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 6);
      memory.setAtIndex(ValueLayout.JAVA_FLOAT, 5, 7f);
      try (NDArray prefix = NDArray.wrap(memory.asSlice(0, 8), DType.FLOAT32, 2);
          NDArray whole = NDArray.wrap(memory, DType.FLOAT32, 6)) {
        assertEquals(0.0, tensors.sumFloat32(prefix));
        try (NDArray flat = tensors.flatten(whole); NDArray short2 = tensors.flatten(prefix)) {
          assertArrayEquals(new float[] {0, 0, 0, 0, 0, 7}, flat.toFloatArray());
          assertEquals(6 * 4, flat.asSegment().byteSize());
          assertArrayEquals(new float[] {0, 0}, short2.toFloatArray());
        }
      }
    }
  }

  /**
   * docs/cpp-api.md: C++ may write through a TensorView, into the memory Java passed: a wrapped segment and a native
   * tensor hold the writes, a {@code float[]} argument is a copy for the call and keeps its values.
   */
  @Test
  void writesThroughATensorViewReachJavasMemoryButNotAJavaArray() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 6);
      try (NDArray wrapped = NDArray.wrap(memory, DType.FLOAT32, 2, 3)) {
        assertEquals(6, tensors.viewFillIota(wrapped)); // the first call: a borrowed DLTensor, no native object
        assertArrayEquals(new float[] {0, 1, 2, 3, 4, 5}, memory.toArray(ValueLayout.JAVA_FLOAT));
        memory.fill((byte) 0);
        assertEquals(6, tensors.viewFillIota(wrapped)); // later calls: the tensor's native object, same memory
        assertArrayEquals(new float[] {0, 1, 2, 3, 4, 5}, memory.toArray(ValueLayout.JAVA_FLOAT));
      }
    }
    try (NDArray allocated = NDArray.allocate(DType.FLOAT32, 4)) {
      assertEquals(4, tensors.viewFillIota(allocated));
      assertArrayEquals(new float[] {0, 1, 2, 3}, allocated.toFloatArray());
    }
    float[] array = {9, 9, 9};
    assertEquals(3, tensors.viewFillIota(array));
    assertArrayEquals(new float[] {9, 9, 9}, array);
  }

  @Test
  void javaArraysAreCopiedInAsOneDimensionalTensors() {
    assertEquals(6.5, tensors.sum(new double[] {1, 2, 3.5}));
    assertEquals(6.0, tensors.sumFloats(new float[] {1, 2, 3}));
    assertEquals(21, tensors.sum(new int[] {1, 2, 3}, new long[] {4, 5, 6}));
    assertEquals(0.0, tensors.sum(new double[0]));
  }

  @Test
  void tensorResultsAndEcho() throws InterruptedException {
    long live = TestLibrary.settledLiveObjectCount();
    try (NDArray a = NDArray.fromArray(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
        NDArray scaled = tensors.scale(a, 2);
        NDArray same = tensors.echo(a)) {
      assertArrayEquals(new long[] {2, 3}, scaled.shape());
      assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12}, scaled.toFloatArray());
      assertEquals(a, same);
      assertEquals(DType.FLOAT32, scaled.dtype());
      assertEquals(Device.CPU, scaled.device());
      assertEquals("NDArray(float32, shape=[2, 3], strides=[3, 1], cpu)", scaled.toString());
    }
    assertEquals(live, TestLibrary.settledLiveObjectCount());
  }

  @Test
  void aNoneTensorResultIsNull() {
    try (NDArray a = NDArray.fromArray(new float[] {1, 2}, 2); NDArray same = tensors.sameOrNone(a, false)) {
      assertEquals(a, same);
      assertNull(tensors.sameOrNone(a, true), "None is null, as for every reference type (README, Type mapping)");
    }
  }

  @Test
  void bindCheckedAcceptsTensorsAndArraysAgainstTheRecordedSignatures() {
    Tensors checked = Packed4j.bindChecked(Tensors.class);
    assertEquals(6.5, checked.sum(new double[] {1, 2, 3.5}));
  }

  @Test
  void reflectionAndDynamicCallsSeeTensors() {
    ObjectTypeInfo type = Registry.objectType("NDArray").orElseThrow();
    assertEquals(List.of("ndim", "shape", "strides", "dtype", "device", "byte_offset"),
        type.fields().stream().map(ObjectTypeInfo.Field::name).toList());
    assertEquals(List.of("int32", "list<int64>", "list<int64>", "string", "string", "uint64"),
        type.fields().stream().map(ObjectTypeInfo.Field::type).toList());
    try (NDArray a = NDArray.fromArray(new float[] {1, 2, 3});
        NDArray echoed = (NDArray) Registry.global("test.tensor.Echo").invoke(a)) {
      assertEquals(a, echoed);
      assertEquals(6.0, Registry.global("test.tensor.SumFloat32").invoke(a));
    }
  }

  @Test
  void aMillionTensorLifecyclesLeaveTheLiveCountAtBaseline() throws InterruptedException {
    long live = TestLibrary.settledLiveObjectCount();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 4);
      for (int i = 0; i < 1_000_000; i++) {
        try (NDArray a = NDArray.wrap(memory, DType.FLOAT32, 2, 2)) {
          if (i % 1000 == 0) {
            tensors.sumFloat32(a);
          }
        }
      }
    }
    assertEquals(live, TestLibrary.settledLiveObjectCount());
  }
}
