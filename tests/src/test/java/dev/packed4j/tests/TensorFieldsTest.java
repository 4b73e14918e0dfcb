package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Registry;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tensor fields typed in Java: a C++ {@code NDArray} member of an object definition (test.Layer) is read as an
 * {@link NDArray}, a new reference the caller closes (null while unset), and a {@code def_rw} one written with a
 * tensor the object keeps a reference to. A tensor over Java memory is refused, since the object could outlive its
 * arena.
 */
class TensorFieldsTest {
  private static final String JAVA_MEMORY = ": a tensor over Java memory (NDArray.wrap, or a view of one) cannot be"
      + " stored in a native field, which the object keeps beyond the segment's arena; expected a tensor of native"
      + " memory: store a copy (NDArray.copy()), or make it with NDArray.allocate or NDArray.fromArray";

  private static Layers layers;
  private static Tensors tensors;

  @BeforeAll
  static void load() {
    TestLibrary.load();
    layers = Packed4j.bind(Layers.class);
    tensors = Packed4j.bind(Tensors.class);
  }

  @Test
  void anUnsetTensorFieldReadsNull() {
    try (LayerRef layer = layers.make(false)) {
      assertNull(layer.weights());
      assertNull(layer.bias());
      assertNull(layer.weightsObject());
      assertEquals(-1.0, layer.weightsSum());
      assertEquals("dense", layer.name());
    }
  }

  @Test
  void anObjectPrintsItsTensorFieldsAsATensorPrints() {
    try (LayerRef layer = layers.make(true); NDArray bias = layer.bias()) {
      assertEquals("test.Layer{weights=null, bias=" + bias + ", name=dense, history=[]}", layer.toString());
    }
  }

  @Test
  void aGetterReturnsTheTensorCppSetAsANewReference() throws InterruptedException {
    long live = TestLibrary.settledLiveObjectCount();
    try (LayerRef layer = layers.make(true)) {
      NDArray again = layer.bias();
      try (again) {
        try (NDArray bias = layer.bias()) {
          assertEquals(DType.FLOAT32, bias.dtype());
          assertArrayEquals(new long[] {3}, bias.shape());
          assertArrayEquals(new float[] {1, 2, 3}, bias.toFloatArray());
          assertNotSame(bias, again);
          assertEquals(bias, again, "one native object");
          assertEquals(tensors.dataAddress(bias), tensors.dataAddress(again));
        }
        // Closing one reference leaves the field and the other reference as they were.
        assertArrayEquals(new float[] {1, 2, 3}, again.toFloatArray());
      }
      try (NDArray bias = layer.bias()) {
        assertArrayEquals(new float[] {1, 2, 3}, bias.toFloatArray());
      }
    }
    assertEquals(live, TestLibrary.settledLiveObjectCount(), "each reference released once");
  }

  @Test
  void aSetterStoresAReferenceTheObjectKeepsAndReleasesTheOldOneOnce() throws InterruptedException {
    long live = TestLibrary.settledLiveObjectCount();
    try (LayerRef layer = layers.make(false);
        NDArray first = NDArray.fromArray(new float[] {1, 2, 3, 4}, 2, 2);
        NDArray second = NDArray.allocate(DType.FLOAT32, 3)) {
      long firstReferences = tensors.otherReferences(first);
      layer.weights(first);
      assertEquals(firstReferences + 1, tensors.otherReferences(first), "the field holds one reference");
      assertEquals(10.0, layer.weightsSum());
      try (NDArray read = layer.weights()) {
        assertEquals(first, read);
        assertEquals(tensors.dataAddress(first), tensors.dataAddress(read));
        assertArrayEquals(new long[] {2, 2}, read.shape());
      }
      // C++ sees a write through the tensor Java holds: the same memory, no copy.
      first.asSegment().set(ValueLayout.JAVA_FLOAT, 0, 11f);
      assertEquals(20.0, layer.weightsSum());

      second.asSegment().set(ValueLayout.JAVA_FLOAT, 8, 5f);
      long secondReferences = tensors.otherReferences(second);
      layer.weights(second);
      assertEquals(firstReferences, tensors.otherReferences(first), "the old value released once");
      assertEquals(secondReferences + 1, tensors.otherReferences(second));
      assertEquals(5.0, layer.weightsSum());

      layer.weights(null);
      assertNull(layer.weights());
      assertEquals(-1.0, layer.weightsSum());
      assertEquals(secondReferences, tensors.otherReferences(second));
    }
    assertEquals(live, TestLibrary.settledLiveObjectCount());
  }

  @Test
  void aStoredTensorOutlivesTheJavaReferenceItWasSetFrom() throws InterruptedException {
    long live = TestLibrary.settledLiveObjectCount();
    try (LayerRef layer = layers.make(false)) {
      try (NDArray weights = NDArray.fromArray(new float[] {0.5f, 0.25f})) {
        layer.weights(weights);
      }
      assertEquals(0.75, layer.weightsSum(), "the object keeps its own reference");
      try (NDArray read = layer.weights()) {
        assertArrayEquals(new float[] {0.5f, 0.25f}, read.toFloatArray());
      }
    }
    assertEquals(live, TestLibrary.settledLiveObjectCount(), "released with the object");
  }

  @Test
  void aClosedObjectsTensorFieldIsAnIllegalStateExceptionNamingTheMember() {
    LayerRef layer = layers.make(true);
    layer.close();
    IllegalStateException read = assertThrows(IllegalStateException.class, layer::weights);
    assertTrue(read.getMessage().startsWith("test.Layer.weights: "), read.getMessage());
    assertTrue(read.getMessage().contains("closed"), read.getMessage());
    IllegalStateException readBias = assertThrows(IllegalStateException.class, layer::bias);
    assertTrue(readBias.getMessage().startsWith("test.Layer.bias: "), readBias.getMessage());
    try (NDArray weights = NDArray.allocate(DType.FLOAT32, 2)) {
      IllegalStateException write = assertThrows(IllegalStateException.class, () -> layer.weights(weights));
      assertTrue(write.getMessage().startsWith("test.Layer.weights: "), write.getMessage());
      assertTrue(write.getMessage().contains("closed"), write.getMessage());
    }
  }

  @Test
  void aClosedTensorIsNotStored() {
    try (LayerRef layer = layers.make(false)) {
      NDArray closed = NDArray.allocate(DType.FLOAT32, 2);
      closed.close();
      IllegalStateException write = assertThrows(IllegalStateException.class, () -> layer.weights(closed));
      assertTrue(write.getMessage().startsWith("test.Layer.weights(value): "), write.getMessage());
      assertNull(layer.weights(), "nothing was written");
    }
  }

  @Test
  void theReadOnlyTensorFieldIsNotWritten() {
    try (LayerRef layer = layers.make(true); NDArray other = NDArray.allocate(DType.FLOAT32, 3)) {
      Packed4jException error = assertThrows(Packed4jException.class, () -> layer.bias(other));
      assertEquals("ValueError", error.kind());
      assertTrue(error.nativeMessage().startsWith("field 'bias' of type test.Layer is read-only (written by"
          + " LayerRef): declare it with def_rw"), error.nativeMessage());
      try (NDArray bias = layer.bias()) {
        assertArrayEquals(new float[] {1, 2, 3}, bias.toFloatArray(), "nothing was written");
      }
    }
  }

  @Test
  void aTensorOverJavaMemoryIsRefusedAndItsCopyStored() {
    try (Arena arena = Arena.ofConfined(); LayerRef layer = layers.make(false)) {
      MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 4);
      for (int i = 0; i < 4; i++) {
        memory.setAtIndex(ValueLayout.JAVA_FLOAT, i, i + 1);
      }
      try (NDArray wrapped = NDArray.wrap(memory, DType.FLOAT32, 2, 2);
          NDArray rows = wrapped.slice(0, 0, 1);
          NDArray copy = wrapped.copy()) {
        for (NDArray overJavaMemory : List.of(wrapped, rows)) {
          Packed4jException error =
              assertThrows(Packed4jException.class, () -> layer.weights(overJavaMemory));
          assertEquals("ValueError", error.kind());
          assertEquals("test.Layer.weights(value)" + JAVA_MEMORY, error.nativeMessage());
          assertNull(layer.weights(), "nothing was written");
        }
        // Native code still reads a wrapped tensor during a call, as before.
        assertEquals(10.0, tensors.sumFloat32(wrapped));
        layer.weights(copy);
        assertEquals(10.0, layer.weightsSum());
      }
    }
  }

  @Test
  void aTensorOverJavaMemoryInsideAListIsRefusedNamingItsElement() throws InterruptedException {
    long live = TestLibrary.settledLiveObjectCount();
    try (Arena arena = Arena.ofConfined(); LayerRef layer = layers.make(false);
        NativeObject dynamic = NativeObject.of(layer);
        NDArray native1 = NDArray.fromArray(new float[] {1, 2});
        NDArray wrapped = NDArray.wrap(arena.allocate(ValueLayout.JAVA_FLOAT, 2), DType.FLOAT32, 2)) {
      Packed4jException error =
          assertThrows(Packed4jException.class, () -> layer.history(List.of(native1, wrapped)));
      assertEquals("ValueError", error.kind());
      assertEquals("test.Layer.history(value): element 1" + JAVA_MEMORY, error.nativeMessage());
      error = assertThrows(Packed4jException.class, () -> dynamic.set("history", List.of(List.of(wrapped))));
      assertEquals("test.Layer.history(value): element 0: element 0" + JAVA_MEMORY, error.nativeMessage());
      assertEquals(List.of(), layer.history(), "nothing was written");

      // A list that holds itself (twice, so that a walk without a limit would take 2^512 steps) ends at the
      // encoding's limit, as before: the search for tensors stops there too.
      List<java.lang.Object> loop = new ArrayList<>();
      loop.add(loop);
      loop.add(loop);
      Packed4jException deep = assertThrows(Packed4jException.class, () -> dynamic.set("history", loop));
      assertEquals("ValueError", deep.kind());
      assertTrue(deep.nativeMessage().contains("nested deeper than 512 levels"), deep.nativeMessage());

      layer.history(List.of(native1));
      List<NDArray> history = layer.history();
      assertEquals(1, history.size());
      try (NDArray first = history.get(0)) {
        assertEquals(native1, first);
      }
    }
    assertEquals(live, TestLibrary.settledLiveObjectCount());
  }

  @Test
  void aCopyOfAWrappedTensorOutlivesTheArena() {
    try (LayerRef layer = layers.make(false)) {
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 3);
        memory.setAtIndex(ValueLayout.JAVA_FLOAT, 2, 7f);
        try (NDArray wrapped = NDArray.wrap(memory, DType.FLOAT32, 3); NDArray copy = wrapped.copy()) {
          layer.weights(copy);
        }
      }
      assertEquals(7.0, layer.weightsSum());
      try (NDArray read = layer.weights()) {
        assertArrayEquals(new float[] {0, 0, 7}, read.toFloatArray());
      }
    }
  }

  @Test
  void nativeObjectReadsATensorFieldAsNDArrayAndRefusesJavaMemoryAsTheSetterDoes() {
    try (LayerRef layer = layers.make(true); NativeObject dynamic = NativeObject.of(layer);
        Arena arena = Arena.ofConfined()) {
      java.lang.Object bias = dynamic.get("bias");
      try (NDArray tensor = assertInstanceOf(NDArray.class, bias)) {
        assertArrayEquals(new float[] {1, 2, 3}, tensor.toFloatArray());
      }
      assertNull(dynamic.get("weights"));
      try (NDArray weights = NDArray.fromArray(new float[] {2, 3})) {
        dynamic.set("weights", weights);
        assertEquals(5.0, layer.weightsSum());
        try (NDArray read = layer.weights()) {
          assertEquals(weights, read);
        }
      }
      try (NDArray wrapped = NDArray.wrap(arena.allocate(ValueLayout.JAVA_FLOAT, 2), DType.FLOAT32, 2)) {
        Packed4jException error = assertThrows(Packed4jException.class, () -> dynamic.set("weights", wrapped));
        assertEquals("ValueError", error.kind());
        assertEquals("test.Layer.weights(value)" + JAVA_MEMORY, error.nativeMessage());
        // Nor through a NativeObject view of it, which would not check the arena: no such view is made.
        IllegalArgumentException noView = assertThrows(IllegalArgumentException.class, () -> NativeObject.of(wrapped));
        assertEquals("NativeObject.of: a tensor over Java memory (NDArray.wrap, or a view of one) has no NativeObject"
            + " view, which would not check its segment's arena; expected a tensor of native memory: pass the NDArray"
            + " itself, or a copy (NDArray.copy())", noView.getMessage());
        try (NDArray again = NDArray.fromArray(new float[] {2, 3}); NativeObject view = NativeObject.of(again)) {
          dynamic.set("weights", view);
          assertEquals(5.0, layer.weightsSum(), "a view of a tensor of native memory is stored");
        }
      }
      assertEquals(5.0, layer.weightsSum(), "the field kept its value");
      dynamic.set("weights", null);
      assertEquals(-1.0, layer.weightsSum());
    }
  }

  @Test
  void theRegistryAndBindCheckedSeeTheTensorFields() {
    ObjectTypeInfo layer = Registry.objectType("test.Layer").orElseThrow();
    assertEquals("NDArray", layer.field("weights").orElseThrow().type());
    assertEquals("NDArray", layer.field("bias").orElseThrow().type());
    // LayerRef writes the read-only bias on purpose (the test above calls it for its run-time error): bindChecked
    // reports that setter, and accepts every NDArray accessor of a tensor field.
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.bindChecked(Layers.class));
    List<String> lines = e.getMessage().lines().skip(1).map(String::strip).filter(line -> line.startsWith("LayerRef"))
        .toList();
    assertEquals(1, lines.size(), e.getMessage());
    assertTrue(lines.get(0).startsWith("LayerRef.bias(dev.packed4j.runtime.NDArray): field 'bias' of test.Layer is"
        + " read-only"), lines.get(0));
  }
}
