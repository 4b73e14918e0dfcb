package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** NDArray, DType and Device on the Java side, and the cost of passing a tensor. */
class NDArrayTest {
  private static final FunctionSite ELEMENT_COUNT =
      new FunctionSite("test.TensorElementCount", "Tensors.elementCount", new String[] {"a"});

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
  }

  private static long elementCount(NDArray a) {
    try (CallFrame frame = CallFrame.open(ELEMENT_COUNT, 1)) {
      frame.put(0, Codecs.NDARRAY, a);
      frame.invoke();
      return frame.returnLong();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
      "bfloat16", "float32", "float64", "complex64", "complex128", "bool", "float32x4"})
  void dtypesParseAndPrintTheSameName(String name) {
    assertEquals(name, DType.parse(name).toString());
  }

  @Test
  void dtypeConstantsAreDlpacksCodes() {
    assertEquals(new DType(DType.CODE_FLOAT, 32, 1), DType.FLOAT32);
    assertEquals(new DType(DType.CODE_BFLOAT, 16, 1), DType.parse("bfloat16"));
    assertEquals(new DType(DType.CODE_BOOL, 8, 1), DType.BOOL);
    assertEquals(2, DType.BFLOAT16.byteSize());
    assertEquals(16, DType.parse("float32x4").byteSize());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> DType.parse("float"));
    assertEquals("'float' is not a dtype name: expected int8..int64, uint8..uint64, float16, bfloat16, float32, "
        + "float64, complex64, complex128, bool, or such a name with lanes as in float32x4", bad.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DType.parse("int0"));
    assertThrows(IllegalArgumentException.class, () -> DType.parse("strings"));
  }

  /** DLPack can describe any width; parse names only the ones documented, and says which those are. */
  @ParameterizedTest
  @ValueSource(strings = {"float33", "int4", "int128", "uint1", "bfloat32", "float8", "complex32", "float+32",
      "float32x", "float32x+4", "int08", "float32x04"})
  void dtypeNamesOfUndocumentedWidthsAreRefused(String name) {
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> DType.parse(name));
    assertEquals("'" + name + "' is not a dtype name: expected int8..int64, uint8..uint64, float16, bfloat16, "
        + "float32, float64, complex64, complex128, bool, or such a name with lanes as in float32x4",
        bad.getMessage());
  }

  @Test
  void oddWidthsAreBuiltWithTheConstructor() {
    DType int4 = new DType(DType.CODE_INT, 4, 2);
    assertEquals(1, int4.byteSize());
    assertEquals("int4x2", int4.toString());
    assertEquals("'float32x0' is not a valid dtype: a dtype has 1 to 65535 lanes, got 0",
        assertThrows(IllegalArgumentException.class, () -> DType.parse("float32x0")).getMessage());
  }

  @Test
  void devicesParseAndPrint() {
    assertEquals(Device.CPU, Device.parse("cpu"));
    assertEquals("cpu", Device.CPU.toString());
    assertEquals(Device.cuda(0), Device.parse("cuda"));
    assertEquals("cuda:1", Device.parse("cuda:1").toString());
    for (String name : List.of("cuda_host:0", "opencl:0", "vulkan:2", "metal:0", "vpi:0", "rocm:3", "rocm_host:0",
        "ext_dev:0", "cuda_managed:0", "oneapi:0", "webgpu:0", "hexagon:0", "maia:0")) {
      assertEquals(name, Device.parse(name).toString());
    }
    assertEquals("device42:1", new Device(42, 1).toString());
    assertThrows(IllegalArgumentException.class, () -> Device.parse("tpu:0"));
    assertThrows(IllegalArgumentException.class, () -> Device.parse("cuda:x"));
    assertFalse(Device.cuda(0).isCpu());
  }

  @Test
  void allocateAndFromArrayMakeContiguousCpuTensors() {
    try (NDArray a = NDArray.allocate(DType.INT64, 3, 4);
        NDArray b = NDArray.fromArray(new double[] {1, 2, 3, 4, 5, 6}, 3, 2)) {
      assertArrayEquals(new long[] {3, 4}, a.shape());
      assertArrayEquals(new long[] {4, 1}, a.strides());
      assertEquals(Device.CPU, a.device());
      assertArrayEquals(new long[12], a.toLongArray());
      assertEquals(0, a.asSegment().address() % 64);
      assertEquals(12, elementCount(a));
      assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, b.toDoubleArray());
      try (NDArray column = b.slice(1, 1, 2); NDArray copy = column.copy()) {
        assertArrayEquals(new double[] {2, 4, 6}, column.toDoubleArray());
        assertFalse(column.isContiguous());
        assertTrue(copy.isContiguous());
        assertArrayEquals(new long[] {3, 1}, copy.shape());
        assertArrayEquals(new double[] {2, 4, 6}, copy.toDoubleArray());
        assertEquals(3 * 8, copy.asSegment().byteSize());
        assertEquals(8, column.byteOffset());
        // asSegment spans from the first to the last element, the bytes between them included.
        assertEquals(5 * 8, column.asSegment().byteSize());
      }
      assertArrayEquals(new int[] {7}, NDArray.fromArray(new int[] {7}).toIntArray());
      assertArrayEquals(new byte[] {1, 2}, NDArray.fromArray(new byte[] {1, 2}).toByteArray());
      assertArrayEquals(new float[] {1, 2}, NDArray.fromArray(new float[] {1, 2}).toFloatArray());
    }
  }

  /** The unsigned factories: each value's bits, in a tensor of the unsigned dtype of its width. */
  @Test
  void fromUnsignedArrayMakesUnsignedTensorsOfTheBits() {
    try (NDArray pixels = NDArray.fromUnsignedArray(new byte[] {0, 127, (byte) 128, (byte) 255}, 2, 2);
        NDArray halves = NDArray.fromUnsignedArray(new short[] {(short) 65535});
        NDArray words = NDArray.fromUnsignedArray(new int[] {-1, 7});
        NDArray longs = NDArray.fromUnsignedArray(new long[] {Long.MIN_VALUE})) {
      assertEquals(DType.UINT8, pixels.dtype());
      assertArrayEquals(new long[] {2, 2}, pixels.shape());
      assertArrayEquals(new byte[] {0, 127, (byte) 128, (byte) 255}, pixels.toByteArray());
      assertEquals(DType.UINT16, halves.dtype());
      assertArrayEquals(new short[] {(short) 65535}, halves.toShortArray());
      assertEquals(DType.UINT32, words.dtype());
      assertArrayEquals(new int[] {-1, 7}, words.toIntArray());
      assertEquals(DType.UINT64, longs.dtype());
      assertArrayEquals(new long[] {Long.MIN_VALUE}, longs.toLongArray());
    }
    IllegalArgumentException shape = assertThrows(IllegalArgumentException.class,
        () -> NDArray.fromUnsignedArray(new byte[3], 2, 2));
    assertEquals("NDArray.fromUnsignedArray: shape [2, 2] holds 4 elements, the array has 3", shape.getMessage());
  }

  /** An unsigned tensor reads through the array of its width, as bits; another dtype's refusal names the dtypes. */
  @Test
  void unsignedElementsReadAsTheirBits() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_LONG, 2);
      memory.setAtIndex(ValueLayout.JAVA_LONG, 0, -1L); // every bit set: the largest unsigned value of each width
      try (NDArray u16 = NDArray.wrap(memory, DType.UINT16, 2);
          NDArray u32 = NDArray.wrap(memory, DType.UINT32, 2);
          NDArray u64 = NDArray.wrap(memory, DType.UINT64, 1);
          NDArray u8 = NDArray.wrap(memory, DType.UINT8, 1)) {
        assertEquals(65535, Short.toUnsignedInt(u16.toShortArray()[0]));
        assertEquals(4294967295L, Integer.toUnsignedLong(u32.toIntArray()[1]));
        assertEquals("18446744073709551615", Long.toUnsignedString(u64.toLongArray()[0]));
        assertEquals(255, Byte.toUnsignedInt(u8.toByteArray()[0]));
        IllegalStateException wrong = assertThrows(IllegalStateException.class, u16::toIntArray);
        assertEquals("toIntArray() reads int32 or uint32 elements; this NDArray holds uint16", wrong.getMessage());
        IllegalStateException bytes = assertThrows(IllegalStateException.class, u16::toByteArray);
        assertEquals("toByteArray() reads int8, uint8 or bool elements; this NDArray holds uint16",
            bytes.getMessage());
      }
    }
  }

  @Test
  void halfPrecisionElementsWidenToFloat() {
    try (Arena arena = Arena.ofConfined()) {
      // 1.0, -2.5, 65504 (float16's largest) and 2^-24 (its smallest subnormal), as float16 bits in a 2x2 tensor.
      MemorySegment half = arena.allocate(ValueLayout.JAVA_SHORT, 4);
      short[] halfBits = {0x3c00, (short) 0xc100, 0x7bff, 0x0001};
      MemorySegment.copy(halfBits, 0, half, ValueLayout.JAVA_SHORT, 0, 4);
      // 1.0, -2.5, 3.0e38 (rounded to bfloat16: 0x7f62 is 2.9908e38) and 1/3 truncated, as bfloat16 bits.
      MemorySegment brain = arena.allocate(ValueLayout.JAVA_SHORT, 4);
      short[] brainBits = {0x3f80, (short) 0xc020, 0x7f62, 0x3eaa};
      MemorySegment.copy(brainBits, 0, brain, ValueLayout.JAVA_SHORT, 0, 4);
      try (NDArray h = NDArray.wrap(half, DType.FLOAT16, 2, 2);
          NDArray b = NDArray.wrap(brain, DType.BFLOAT16, 2, 2);
          NDArray hColumn = h.slice(1, 1, 2)) {
        assertArrayEquals(new float[] {1f, -2.5f, 65504f, 0x1p-24f}, h.toFloatArray());
        assertArrayEquals(new float[] {-2.5f, 0x1p-24f}, hColumn.toFloatArray()); // strides honoured
        assertArrayEquals(new float[] {1f, -2.5f, Float.intBitsToFloat(0x7f620000), Float.intBitsToFloat(0x3eaa0000)},
            b.toFloatArray());
        assertEquals(0.33203125f, b.toFloatArray()[3]);
      }
    }
  }

  @Test
  void badShapesAndSegmentsAreClearErrors() {
    assertEquals("NDArray.fromArray: shape [2, 2] holds 4 elements, the array has 3",
        assertThrows(IllegalArgumentException.class, () -> NDArray.fromArray(new float[3], 2, 2)).getMessage());
    assertEquals("dimension 1 of shape [2, -1] is negative",
        assertThrows(IllegalArgumentException.class, () -> NDArray.allocate(DType.FLOAT32, 2, -1)).getMessage());
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment small = arena.allocate(8, 8);
      assertEquals("NDArray.wrap: shape [3] of float32 needs 12 bytes, the segment has 8",
          assertThrows(IllegalArgumentException.class, () -> NDArray.wrap(small, DType.FLOAT32, 3)).getMessage());
      assertTrue(assertThrows(IllegalArgumentException.class,
          () -> NDArray.wrap(small.asSlice(1, 4), DType.FLOAT32, 1)).getMessage().contains("is not aligned to 4"));
      assertTrue(assertThrows(IllegalArgumentException.class,
          () -> NDArray.wrap(MemorySegment.ofArray(new float[2]), DType.FLOAT32, 2)).getMessage()
          .contains("needs a native segment"));
    }
    try (NDArray a = NDArray.allocate(DType.FLOAT32, 2, 3)) {
      assertThrows(IndexOutOfBoundsException.class, () -> a.slice(2, 0, 1));
      assertEquals("slice(1, 2, 4) of shape [2, 3]: expected 0 <= start <= end <= 3",
          assertThrows(IndexOutOfBoundsException.class, () -> a.slice(1, 2, 4)).getMessage());
    }
  }

  @Test
  void closedTensorsRefuseEveryUse() {
    NDArray a = NDArray.allocate(DType.FLOAT32, 2);
    MemorySegment view = a.asSegment();
    a.close();
    assertThrows(IllegalStateException.class, a::toFloatArray);
    assertThrows(IllegalStateException.class, a::asSegment);
    assertThrows(IllegalStateException.class, () -> elementCount(a));
    // The segment asSegment gave closes with the tensor: no read of freed native memory.
    assertThrows(IllegalStateException.class, () -> view.get(ValueLayout.JAVA_FLOAT, 0));
    assertEquals("NDArray{closed}", a.toString());
  }

  /** The README: complex and lane types are tensors like any other, read through asSegment, never to...Array. */
  @Test
  void complexAndLaneTensorsAreReadThroughTheirSegment() {
    for (String name : List.of("complex64", "complex128", "float32x4")) {
      DType dtype = DType.parse(name);
      try (NDArray a = NDArray.allocate(dtype, 3)) {
        assertEquals(3 * dtype.byteSize(), a.asSegment().byteSize());
        for (Runnable read : List.<Runnable>of(a::toFloatArray, a::toDoubleArray, a::toIntArray, a::toLongArray,
            a::toShortArray, a::toByteArray)) {
          IllegalStateException refused = assertThrows(IllegalStateException.class, read::run);
          assertTrue(refused.getMessage().endsWith(name), refused.getMessage());
        }
      }
    }
  }

  @Test
  void passingAnExistingTensorAllocatesNothing() {
    try (Arena arena = Arena.ofConfined()) {
      NDArray small = NDArray.wrap(arena.allocate(1024, 64), DType.FLOAT32, 256);
      long[] sink = {0};
      List<Long> perRound = SteadyStateAllocation.measure(() -> {
        for (int i = 0; i < 200_000; i++) {
          sink[0] += elementCount(small);
        }
      }, 64 * 1024, 30);
      assertTrue(sink[0] > 0);
      assertTrue(perRound.getLast() < 64 * 1024,
          "every round of 200000 calls passing an NDArray allocated on the heap, bytes per round: " + perRound);
      small.close();
    }
  }

  @Test
  void aShapeWhoseStridesWouldOverflowIsRefusedTheSameWayWhereverItsZeroIs() {
    for (long[] shape : new long[][] {{1L << 62, 4, 0}, {0, 1L << 62, 4}}) {
      IllegalArgumentException allocated = assertThrows(IllegalArgumentException.class,
          () -> NDArray.allocate(DType.FLOAT32, shape));
      assertTrue(allocated.getMessage().endsWith("has too many elements"), allocated.getMessage());
      IllegalArgumentException copied = assertThrows(IllegalArgumentException.class,
          () -> NDArray.fromArray(new float[0], shape));
      assertTrue(copied.getMessage().endsWith("has too many elements"), copied.getMessage());
    }
    try (NDArray empty = NDArray.allocate(DType.FLOAT32, 0, 5)) {
      assertEquals(0, empty.elementCount());
    }
  }

  @Test
  void aSliceOfAnAxisTheTensorDoesNotHaveSaysWhichAxesItHas() {
    try (NDArray a = NDArray.allocate(DType.FLOAT32, 2, 3)) {
      IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> a.slice(5, 0, 1));
      assertEquals("slice(5, 0, 1) of shape [2, 3]: expected 0 <= axis < 2", e.getMessage());
    }
  }
}
