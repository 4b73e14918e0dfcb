package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.DLManagedTensor;
import dev.packed4j.runtime.internal.capi.DLTensor;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeAccess;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.tensor.TensorWords;
import dev.packed4j.runtime.internal.tensor.WrappedSegments;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.Objects;

/**
 * A tensor shared with native code without copying: a native {@code NDArray} object over DLPack's
 * {@code DLTensor}, owned like every {@link ObjectRef} (closed explicitly or by a Cleaner).
 *
 * <p>Three ways in: {@link #wrap} puts a tensor over a {@link MemorySegment} Java already has (no copy: the native
 * side sees the segment's address), {@link #allocate} makes native memory, {@link #fromArray} copies a Java array
 * once. {@link #fromDLPack} takes a tensor from any DLPack producer and {@link #toDLPack} hands one to a consumer,
 * both without copying. As an argument of a bound function an NDArray is passed by reference.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined()) {
 *   MemorySegment memory = arena.allocate(ValueLayout.JAVA_FLOAT, 6);
 *   try (NDArray a = NDArray.wrap(memory, DType.FLOAT32, 2, 3)) {
 *     a.shape();                        // [2, 3]
 *     a.strides();                      // [3, 1], in elements
 *     NDArray column = a.slice(1, 1, 2); // shape [2, 1], strides [3, 1], same memory
 *     column.toFloatArray();            // copies the two elements
 *   }
 * }
 * }</pre>
 *
 * <p>A wrapped segment's arena must outlive every native use of the tensor. Java checks that the segment is alive
 * before each use (a call it is passed to, a read, a slice, an export): after the arena closed, that use is an
 * {@link IllegalStateException}, never a crash; on a thread other than the owner of a confined arena it is a
 * {@link WrongThreadException}, as FFM's own checks are. A call receives the segment's address, not the segment, so
 * FFM cannot keep a shared arena open during it: close a shared arena only after the calls that use its tensors
 * have returned. Memory on another device than the {@linkplain Device#CPU CPU} is never read by Java.
 *
 * <p>A tensor from {@link #wrap} makes its native object only when something needs one: its {@link #handle()}, a
 * slice, an export, a container, a call through a call frame, or a second call. Passed to its first bound function
 * (wrap, call, close), it is written as a {@code DLTensor} into the thread's scratch memory for the call, and C++
 * reads it as a {@code TensorView} (no object at all) or gets an {@code NDArray} over the same memory; closing such
 * a tensor releases nothing.
 */
public final class NDArray extends ObjectRef {
  private static final CallTarget CREATE = CallTarget.operation("NDArray");
  private final long data;
  private final DType dtype;
  private final Device device;
  private final long[] shape;
  /** In elements; null for a wrapped tensor, whose strides are the compact ones ({@link #layoutStrides()}). */
  private final long[] strides;
  private final long byteOffset;
  /** The wrapped segment (checked alive before every use), or null for memory the native side owns. */
  private final MemorySegment memory;
  /**
   * How many direct calls a wrapped tensor without a native object was passed to as a borrowed DLTensor: the second
   * makes the object (a race between threads only makes it a call later).
   */
  private int borrowedPasses;
  /** The arena of {@link #asSegment()} over native-owned memory, closed with this tensor; null until asked. */
  private Arena viewArena;
  /** Set by close, under this object's lock, before the native reference goes: asSegment() makes no view after. */
  private boolean viewsEnded;

  NDArray(long ownedHandle, MemorySegment memory) {
    super(ownedHandle);
    if (typeIndex() != CApi.kP4JNDArray) {
      throw new IllegalArgumentException("a " + typeKey() + " object is not an NDArray");
    }
    long cell = NativeMemory.cell(ownedHandle);
    this.data = NativeMemory.getLong(cell + DLTensor.DATA);
    this.device = deviceAt(cell);
    this.dtype = dtypeAt(cell);
    this.shape = wordsAt(cell, DLTensor.SHAPE);
    this.strides = wordsAt(cell, DLTensor.STRIDES);
    this.byteOffset = NativeMemory.getLong(cell + DLTensor.BYTE_OFFSET);
    MemorySegment known = memory != null ? memory : WrappedSegments.of(ownedHandle, data);
    if (known == null) {
      // A tensor native code made over the memory of a wrapped tensor this thread passed it (a view, or an object
      // made from the borrowed DLTensor): a new handle, the same segment to check, by its handle from now on.
      long[] extent = byteExtent();
      known = ThreadStack.current().passedSegmentHolding(data + extent[0], data + extent[1]);
      if (known != null) {
        WrappedSegments.put(ownedHandle, known);
      }
    }
    this.memory = known;
    if (memory != null) {
      WrappedSegments.put(ownedHandle, memory);
    }
  }

  /** A wrapped tensor without its native object yet (made by {@link #createNativeObject} when needed). */
  private NDArray(MemorySegment segment, DType dtype, long[] shape) {
    super(CApi.kP4JNDArray);
    this.data = segment.address();
    this.dtype = dtype;
    this.device = Device.CPU;
    this.shape = shape;
    this.strides = null; // compact: computed when asked (compactStrides)
    this.byteOffset = 0;
    this.memory = segment;
  }

  /**
   * The native object of a wrapped tensor, at its first need: a view of the segment, known to
   * {@code WrappedSegments}.
   */
  @Override
  long createNativeObject() {
    checkAlive(memory);
    try (Frame frame = ThreadStack.current().push(CREATE, 0)) {
      long tensor = TensorWords.write(frame.scratch(TensorWords.writtenSize(shape.length, false), 8), data,
          dtypeWord(dtype), shape, null, 0);
      long out = frame.scratch(8, 8);
      Errors.check(CApi.P4JNDArrayCreateView(tensor, 0, 0, out), null);
      long handle = NativeMemory.getLong(out);
      WrappedSegments.put(handle, memory);
      return handle;
    } finally {
      Reference.reachabilityFence(memory);
    }
  }

  /**
   * This tensor as a typed entry's tensor word (see {@code P4J_TENSOR_WORD_BORROWED} in c_api.h), for a direct call
   * (the caller holds a scratch mark and keeps this object reachable until the call returns): its object's handle
   * when it has one, else the address of a DLTensor in the thread's scratch memory plus the borrowed bit. Of that
   * DLTensor only data, ndim, dtype and the dimensions after it are written here; the entry completes it.
   *
   * @throws IllegalStateException after close, or when the wrapped segment's arena is closed
   */
  long tensorWord(ThreadStack stack) {
    long handle = handleIfMade();
    if (memory != null) {
      checkAlive(memory);
      stack.notePassedSegment(memory);
    }
    if (handle == 0 && ++borrowedPasses > 1) {
      // Passed again: a tensor that lives on. One native object now costs less than a C++ NDArray parameter
      // making one from the borrowed DLTensor at every call.
      handle = handle();
    }
    if (handle != 0) {
      // The entry reads the tensor through its object: a close on another thread must wait for the call to end.
      ReleaseEpochs.Pin pin = pin();
      stack.holdPin(pin);
      return pin.pinnedHandle();
    }
    // Only wrap makes a tensor without an object: on the CPU, contiguous, no byte offset, which the entry fills in.
    return TensorWords.borrowed(stack.allocateScratch(TensorWords.borrowedSize(shape.length)), data,
        dtypeWord(dtype), shape);
  }

  /** Equal NDArrays (one native object) share a data pointer, which a wrapped tensor has before its object. */
  @Override
  long hashKey() {
    return data;
  }

  // ------------------------------------------------------------------------------------------------ creation

  /**
   * A tensor over {@code segment}, without copying: the native side sees {@code segment.address()}. Contiguous,
   * row-major, on the CPU.
   *
   * <pre>{@code
   * NDArray image = NDArray.wrap(arena.allocate(256 * 256 * 3), DType.UINT8, 256, 256, 3);
   * }</pre>
   *
   * @param segment native memory holding at least the tensor's bytes, aligned to its element size (up to 8); its
   *     arena must stay open while native code uses the tensor
   * @param dtype the element type
   * @param shape the dimensions, row-major; none for a scalar
   * @return a tensor borrowing the segment's memory (closing it frees nothing of the segment)
   * @throws IllegalArgumentException for a heap segment, a segment too small or misaligned, a negative dimension
   * @throws IllegalStateException when the segment's arena is already closed
   */
  public static NDArray wrap(MemorySegment segment, DType dtype, long... shape) {
    // The checks are branches here and messages out of line, so that wrap stays small enough to inline into the
    // caller: with the call and close inlined too, the JIT can keep the whole tensor in registers.
    if (segment == null || dtype == null || shape == null || !segment.isNative() || !segment.scope().isAlive()) {
      throw wrapFailure(segment, dtype, shape);
    }
    long bytes = byteCount(dtype, shape);
    long alignment = Math.min(8, Long.highestOneBit(Math.max(1, dtype.byteSize())));
    if (bytes > segment.byteSize() || (segment.address() & (alignment - 1)) != 0) {
      throw wrapFailure(segment, dtype, shape);
    }
    return new NDArray(segment, dtype, shape.clone());
  }

  /** Why {@link #wrap} refused its arguments. */
  private static RuntimeException wrapFailure(MemorySegment segment, DType dtype, long[] shape) {
    Objects.requireNonNull(segment, "segment");
    Objects.requireNonNull(dtype, "dtype");
    Objects.requireNonNull(shape, "shape");
    if (!segment.isNative()) {
      return new IllegalArgumentException("NDArray.wrap needs a native segment (from an Arena): a heap segment has "
          + "no fixed address native code could use; copy an array in with NDArray.fromArray");
    }
    checkAlive(segment);
    long bytes = byteCount(dtype, shape);
    if (bytes > segment.byteSize()) {
      return new IllegalArgumentException("NDArray.wrap: shape " + Arrays.toString(shape) + " of " + dtype + " needs "
          + bytes + " bytes, the segment has " + segment.byteSize());
    }
    long alignment = Math.min(8, Long.highestOneBit(Math.max(1, dtype.byteSize())));
    return new IllegalArgumentException("NDArray.wrap: the segment's address 0x" + Long.toHexString(segment.address())
        + " is not aligned to " + alignment + " bytes, as " + dtype + " elements must be");
  }

  /**
   * A new contiguous CPU tensor in native memory (64-byte aligned, zeroed), freed when the last reference to it,
   * Java's or native code's, goes.
   *
   * <pre>{@code
   * NDArray weights = NDArray.allocate(DType.FLOAT32, 512, 512);
   * }</pre>
   *
   * @param dtype the element type
   * @param shape the dimensions, row-major; none for a scalar
   * @return the new tensor, owned by the caller
   * @throws IllegalArgumentException for a negative dimension or a size beyond what a tensor can address
   * @throws Packed4jException a RuntimeError naming the byte count when the native heap cannot provide that much
   *     memory (the process stays healthy; nothing was allocated)
   */
  public static NDArray allocate(DType dtype, long... shape) {
    Objects.requireNonNull(dtype, "dtype");
    Objects.requireNonNull(shape, "shape");
    byteCount(dtype, shape);
    try (Frame frame = ThreadStack.current().push(CREATE, 0)) {
      long shapeAddress = frame.scratch(8L * Math.max(1, shape.length), 8);
      for (int i = 0; i < shape.length; i++) {
        NativeMemory.putLong(shapeAddress + 8L * i, shape[i]);
      }
      long dtypeAddress = frame.scratch(4, 4);
      NativeMemory.putInt(dtypeAddress, dtypeWord(dtype));
      long deviceAddress = frame.scratch(8, 4);
      NativeMemory.putInt(deviceAddress, Device.TYPE_CPU);
      NativeMemory.putInt(deviceAddress + 4, 0);
      long out = frame.scratch(8, 8);
      Errors.check(CApi.P4JNDArrayCreateEmpty(shapeAddress, shape.length, dtypeAddress, deviceAddress, out), null);
      return new NDArray(NativeMemory.getLong(out), null);
    }
  }

  /**
   * A float32 tensor holding a copy of {@code values}; no shape means 1-D. {@code NDArray.fromArray(v, 2, 3)}.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new float32 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromArray(float[] values, long... shape) {
    return copyIn("NDArray.fromArray", DType.FLOAT32, MemorySegment.ofArray(values), values.length, shape);
  }

  /**
   * A float64 tensor holding a copy of {@code values}; no shape means 1-D.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new float64 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromArray(double[] values, long... shape) {
    return copyIn("NDArray.fromArray", DType.FLOAT64, MemorySegment.ofArray(values), values.length, shape);
  }

  /**
   * An int32 tensor holding a copy of {@code values}; no shape means 1-D.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new int32 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromArray(int[] values, long... shape) {
    return copyIn("NDArray.fromArray", DType.INT32, MemorySegment.ofArray(values), values.length, shape);
  }

  /**
   * An int64 tensor holding a copy of {@code values}; no shape means 1-D.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new int64 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromArray(long[] values, long... shape) {
    return copyIn("NDArray.fromArray", DType.INT64, MemorySegment.ofArray(values), values.length, shape);
  }

  /**
   * An int16 tensor holding a copy of {@code values}; no shape means 1-D.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new int16 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromArray(short[] values, long... shape) {
    return copyIn("NDArray.fromArray", DType.INT16, MemorySegment.ofArray(values), values.length, shape);
  }

  /**
   * An int8 tensor holding a copy of {@code values}; no shape means 1-D.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new int8 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromArray(byte[] values, long... shape) {
    return copyIn("NDArray.fromArray", DType.INT8, MemorySegment.ofArray(values), values.length, shape);
  }

  /**
   * A uint8 tensor holding a copy of {@code values}, each byte as its bits ({@code (byte) 255} is 255): an 8-bit
   * image, say. No shape means 1-D. {@link #toByteArray()} reads it back.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new uint8 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromUnsignedArray(byte[] values, long... shape) {
    return copyIn("NDArray.fromUnsignedArray", DType.UINT8, MemorySegment.ofArray(values), values.length, shape);
  }

  /**
   * A uint16 tensor holding a copy of {@code values}, each as its bits. No shape means 1-D.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new uint16 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromUnsignedArray(short[] values, long... shape) {
    return copyIn("NDArray.fromUnsignedArray", DType.UINT16, MemorySegment.ofArray(values), values.length, shape);
  }

  /**
   * A uint32 tensor holding a copy of {@code values}, each as its bits. No shape means 1-D.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new uint32 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromUnsignedArray(int[] values, long... shape) {
    return copyIn("NDArray.fromUnsignedArray", DType.UINT32, MemorySegment.ofArray(values), values.length, shape);
  }

  /**
   * A uint64 tensor holding a copy of {@code values}, each as its bits. No shape means 1-D.
   *
   * @param values the elements in row-major order
   * @param shape the dimensions, whose product is {@code values.length}; none for 1-D
   * @return a new uint64 tensor, owned by the caller
   * @throws IllegalArgumentException when the shape does not hold exactly {@code values.length} elements
   */
  public static NDArray fromUnsignedArray(long[] values, long... shape) {
    return copyIn("NDArray.fromUnsignedArray", DType.UINT64, MemorySegment.ofArray(values), values.length, shape);
  }

  private static NDArray copyIn(String method, DType dtype, MemorySegment values, int length, long[] shape) {
    Objects.requireNonNull(shape, "shape");
    long[] actualShape = shape.length == 0 ? new long[] {length} : shape;
    checkedByteCount(dtype, actualShape); // a negative dimension or an overflow: IllegalArgumentException
    long count = elementCount(actualShape);
    if (count != length) {
      throw new IllegalArgumentException(method + ": shape " + Arrays.toString(actualShape) + " holds "
          + count + " elements, the array has " + length);
    }
    NDArray array = allocate(dtype, actualShape);
    MemorySegment.copy(values, 0, array.nativeMemory(array.data, values.byteSize()), 0, values.byteSize());
    return array;
  }

  /**
   * Takes over a DLPack producer's {@code DLManagedTensor} without copying: the tensor calls its deleter when the
   * last reference goes. A tensor {@link #toDLPack} exported comes back as the same native object.
   *
   * <pre>{@code
   * NDArray a = NDArray.fromDLPack(producerExport); // e.g. a C library's tensor
   * }</pre>
   *
   * @param managedTensor the address of a {@code DLManagedTensor}; its ownership moves to the tensor on success
   * @return the tensor, owned by the caller
   * <p>The tensor trusts the managed tensor's data pointer and deleter, so the caller's module needs native access,
   * as for a restricted method of the JDK: granted by {@code --enable-native-access}; else the JDK's warning, or
   * under {@code --illegal-native-access=deny} an {@link IllegalCallerException}.
   *
   * @throws IllegalArgumentException for a null address or a heap segment
   * @throws IllegalCallerException when the caller's module may not access native memory
   * @throws Packed4jException when the core refuses the tensor's layout; the managed tensor then stays the
   *     caller's, its deleter not called
   */
  public static NDArray fromDLPack(MemorySegment managedTensor) {
    NativeAccess.checkCaller("NDArray.fromDLPack");
    return importManaged(managedTensor, false);
  }

  /**
   * As {@link #fromDLPack} for DLPack 1.0's {@code DLManagedTensorVersioned} (major version 1).
   *
   * @param managedTensor the address of a {@code DLManagedTensorVersioned}; its ownership moves to the tensor on
   *     success
   * @return the tensor, owned by the caller
   * @throws IllegalArgumentException for a null address or a heap segment
   * @throws IllegalCallerException when the caller's module may not access native memory
   * @throws Packed4jException when the core refuses the tensor's layout
   */
  public static NDArray fromDLPackVersioned(MemorySegment managedTensor) {
    NativeAccess.checkCaller("NDArray.fromDLPackVersioned");
    return importManaged(managedTensor, true);
  }

  private static NDArray importManaged(MemorySegment managedTensor, boolean versioned) {
    Objects.requireNonNull(managedTensor, "managedTensor");
    if (!managedTensor.isNative() || managedTensor.address() == 0) {
      throw new IllegalArgumentException("NDArray.fromDLPack needs the native address of a managed tensor, got "
          + managedTensor);
    }
    try (Frame frame = ThreadStack.current().push(CREATE, 0)) {
      long out = frame.scratch(8, 8);
      int status = versioned
          ? CApi.P4JNDArrayFromDLPackVersioned(managedTensor.address(), out)
          : CApi.P4JNDArrayFromDLPack(managedTensor.address(), out);
      Errors.check(status, null);
      return new NDArray(NativeMemory.getLong(out), null);
    }
  }

  // ------------------------------------------------------------------------------------------------ reading

  /** {@return the dimensions; a new array each call} */
  public long[] shape() {
    return shape.clone();
  }

  /** {@return the strides, in elements (DLPack's unit); a new array each call} */
  public long[] strides() {
    return strides != null ? strides.clone() : layoutStrides();
  }

  /** {@return the element type} */
  public DType dtype() {
    return dtype;
  }

  /** {@return where the memory is} */
  public Device device() {
    return device;
  }

  /** {@return bytes from the data pointer to the first element (a slice moves it)} */
  public long byteOffset() {
    return byteOffset;
  }

  /** {@return the number of dimensions} */
  public int ndim() {
    return shape.length;
  }

  /** {@return the number of elements: the product of the shape (1 for a scalar)} */
  public long elementCount() {
    return elementCount(shape);
  }

  /** {@return whether the elements lie compact in row-major order (size-1 dimensions' strides do not count)} */
  public boolean isContiguous() {
    if (strides == null) {
      return true;
    }
    long expected = 1;
    for (int i = shape.length - 1; i >= 0; i--) {
      if (shape[i] == 0) {
        return true;
      }
      if (shape[i] != 1 && strides[i] != expected) {
        return false;
      }
      expected *= shape[i];
    }
    return true;
  }

  /**
   * The tensor's memory, without copying, from its lowest to one past its highest byte (for a slice, the bytes
   * between its elements too). Over a wrapped segment it is a slice of that segment (same arena); over native
   * memory it is valid until this tensor is closed.
   *
   * @return the bytes of the tensor, without a copy; writes through it are seen by native code
   * @throws IllegalStateException after close, when the wrapped segment's arena is closed, or for memory on
   *     another device than the CPU
   */
  @SuppressWarnings("restricted") // the segment spans exactly the tensor's bytes and lives as long as the tensor
  public MemorySegment asSegment() {
    checkUsable();
    try {
      requireCpu("asSegment()");
      long[] extent = byteExtent();
      long size = extent[1] - extent[0];
      if (memory != null) {
        return memory.asSlice(data - memory.address() + extent[0], size);
      }
      synchronized (this) {
        if (viewsEnded) { // closed on another thread since checkUsable(): no view may outlive the close
          throw new IllegalStateException("the NDArray is closed; it cannot be used after close()");
        }
        if (viewArena == null) {
          viewArena = Arena.ofShared();
        }
        NDArray owner = this;
        // The cleanup keeps this tensor (so its native memory) reachable as long as the segment is.
        return MemorySegment.ofAddress(data + extent[0])
            .reinterpret(size, viewArena, ignored -> Reference.reachabilityFence(owner));
      }
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * A copy of the elements in row-major order, strides honoured. float16 and bfloat16 elements are widened to
   * float exactly (every half-precision value has a float), so a tensor of either reads here too.
   *
   * @return the elements as floats, in row-major order
   * @throws IllegalStateException unless float32, float16 or bfloat16, or for more elements than a Java array holds
   */
  public float[] toFloatArray() {
    if (dtype.equals(DType.FLOAT16) || dtype.equals(DType.BFLOAT16)) {
      short[] bits = new short[arrayLength("toFloatArray()")];
      copyOut(MemorySegment.ofArray(bits), ValueLayout.JAVA_SHORT_UNALIGNED);
      float[] values = new float[bits.length];
      boolean brain = dtype.equals(DType.BFLOAT16);
      for (int i = 0; i < bits.length; i++) {
        // bfloat16 is the high half of a float32; float16 has its own exponent width.
        values[i] = brain ? Float.intBitsToFloat(bits[i] << 16) : Float.float16ToFloat(bits[i]);
      }
      return values;
    }
    if (!dtype.equals(DType.FLOAT32)) {
      throw new IllegalStateException("toFloatArray() reads float32, float16 or bfloat16 elements; this NDArray holds "
          + dtype);
    }
    float[] values = new float[checkedCount(DType.FLOAT32, null, "toFloatArray()")];
    copyOut(MemorySegment.ofArray(values), ValueLayout.JAVA_FLOAT_UNALIGNED);
    return values;
  }

  /**
   * {@return a copy of the elements in row-major order, strides honoured}
   *
   * @throws IllegalStateException unless float64, or for more elements than a Java array holds
   */
  public double[] toDoubleArray() {
    double[] values = new double[checkedCount(DType.FLOAT64, null, "toDoubleArray()")];
    copyOut(MemorySegment.ofArray(values), ValueLayout.JAVA_DOUBLE_UNALIGNED);
    return values;
  }

  /**
   * {@return a copy of the elements in row-major order, strides honoured; uint32 elements as their bits
   * ({@code Integer.toUnsignedLong} reads the value)}
   *
   * @throws IllegalStateException unless int32 or uint32, or for more elements than a Java array holds
   */
  public int[] toIntArray() {
    int[] values = new int[checkedCount(DType.INT32, DType.UINT32, "toIntArray()")];
    copyOut(MemorySegment.ofArray(values), ValueLayout.JAVA_INT_UNALIGNED);
    return values;
  }

  /**
   * {@return a copy of the elements in row-major order, strides honoured; uint64 elements as their bits
   * ({@code Long.toUnsignedString} reads the value)}
   *
   * @throws IllegalStateException unless int64 or uint64, or for more elements than a Java array holds
   */
  public long[] toLongArray() {
    long[] values = new long[checkedCount(DType.INT64, DType.UINT64, "toLongArray()")];
    copyOut(MemorySegment.ofArray(values), ValueLayout.JAVA_LONG_UNALIGNED);
    return values;
  }

  /**
   * {@return a copy of the elements in row-major order, strides honoured; uint16 elements as their bits
   * ({@code Short.toUnsignedInt} reads the value)}
   *
   * @throws IllegalStateException unless int16 or uint16, or for more elements than a Java array holds
   */
  public short[] toShortArray() {
    short[] values = new short[checkedCount(DType.INT16, DType.UINT16, "toShortArray()")];
    copyOut(MemorySegment.ofArray(values), ValueLayout.JAVA_SHORT_UNALIGNED);
    return values;
  }

  /**
   * A copy of the elements in row-major order, strides honoured.
   *
   * @return the elements as bytes, in row-major order (bool as 0 or 1, uint8 as its bits)
   * @throws IllegalStateException unless int8, uint8 or bool (one byte per element), or for more elements than a
   *     Java array holds
   */
  public byte[] toByteArray() {
    if (!dtype.equals(DType.INT8) && !dtype.equals(DType.UINT8) && !dtype.equals(DType.BOOL)) {
      throw new IllegalStateException("toByteArray() reads int8, uint8 or bool elements; this NDArray holds "
          + dtype);
    }
    byte[] values = new byte[arrayLength("toByteArray()")];
    copyOut(MemorySegment.ofArray(values), ValueLayout.JAVA_BYTE);
    return values;
  }

  /**
   * A copy of the elements in a new contiguous CPU tensor of the same dtype and shape (row-major, strides honoured),
   * owned by the caller: a strided view (a slice, a transpose native code returned) as one block, as a session needs
   * a tensor argument.
   *
   * <pre>{@code
   * try (NDArray rows = a.slice(1, 0, 2); NDArray block = rows.copy()) {
   *   remote.sum(block);
   * }
   * }</pre>
   *
   * @return the copy
   * @throws IllegalStateException after close, when a wrapped segment's arena is closed, or for memory not on the
   *     CPU
   */
  public NDArray copy() {
    checkUsable();
    requireCpu("copy()");
    NDArray copy = allocate(dtype, shape);
    try {
      copyOut(copy.asSegment(), dtype.byteSize());
      return copy;
    } catch (RuntimeException | Error failure) {
      copy.close();
      throw failure;
    }
  }

  // ------------------------------------------------------------------------------------------------ views

  /**
   * The elements {@code start} (inclusive) to {@code end} (exclusive) along {@code axis}: a view sharing this
   * tensor's memory, with the same strides (so not contiguous unless the axis is the first one) and a byte offset.
   * The view keeps the memory alive on the native side; a view of a wrapped segment checks that segment too.
   *
   * <pre>{@code
   * NDArray rows = a.slice(0, 1, 3); // a[1:3, ...]
   * }</pre>
   *
   * @param axis the dimension to cut, from 0
   * @param start the first index kept
   * @param end one past the last index kept
   * @return the view, owned by the caller (closing it leaves this tensor open)
   * @throws IndexOutOfBoundsException for an axis or a range outside the shape
   */
  public NDArray slice(int axis, long start, long end) {
    if (axis < 0 || axis >= shape.length) {
      throw new IndexOutOfBoundsException("slice(" + axis + ", " + start + ", " + end + ") of shape "
          + Arrays.toString(shape) + ": expected 0 <= axis < " + shape.length);
    }
    if (start < 0 || end < start || end > shape[axis]) {
      throw new IndexOutOfBoundsException("slice(" + axis + ", " + start + ", " + end + ") of shape "
          + Arrays.toString(shape) + ": expected 0 <= start <= end <= " + shape[axis]);
    }
    long[] viewShape = shape.clone();
    viewShape[axis] = end - start;
    long[] layout = layoutStrides();
    long viewOffset = byteOffset + start * layout[axis] * dtype.byteSize();
    ReleaseEpochs.Pin pin = usablePin();
    try (Frame frame = ThreadStack.current().push(CREATE, 0)) {
      long tensor = TensorWords.write(frame.scratch(TensorWords.writtenSize(viewShape.length, true), 8), 0,
          dtypeWord(dtype), viewShape, layout, viewOffset);
      long out = frame.scratch(8, 8);
      Errors.check(CApi.P4JNDArrayCreateViewOf(pin.pinnedHandle(), tensor, out), null);
      return new NDArray(NativeMemory.getLong(out), memory);
    } finally {
      pin.unpin();
      Reference.reachabilityFence(this);
    }
  }

  // ------------------------------------------------------------------------------------------------ DLPack

  /**
   * Exports this tensor for a DLPack consumer, without copying: a new {@code DLManagedTensor} holding one native
   * reference, which the consumer releases by calling its deleter once. Closing this Java object does not end the
   * export.
   *
   * @return the managed tensor (sized to {@code DLManagedTensor}), owned by the consumer
   */
  public MemorySegment toDLPack() {
    return export(false);
  }

  /**
   * {@return this tensor exported as {@link #toDLPack} does, as DLPack 1.0's {@code DLManagedTensorVersioned}
   * (version 1.0, flags 0)}
   */
  public MemorySegment toDLPackVersioned() {
    return export(true);
  }

  @SuppressWarnings("restricted") // the core returned a managed tensor of exactly this size
  private MemorySegment export(boolean versioned) {
    ReleaseEpochs.Pin pin = usablePin();
    try (Frame frame = ThreadStack.current().push(CREATE, 0)) {
      long handle = pin.pinnedHandle();
      long out = frame.scratch(8, 8);
      int status = versioned ? CApi.P4JNDArrayToDLPackVersioned(handle, out) : CApi.P4JNDArrayToDLPack(handle, out);
      Errors.check(status, null);
      return MemorySegment.ofAddress(NativeMemory.getLong(out))
          .reinterpret(versioned ? DLManagedTensor.VERSIONED_SIZE : DLManagedTensor.SIZE);
    } finally {
      pin.unpin();
      Reference.reachabilityFence(this);
    }
  }

  /** {@code NDArray(float32, shape=[2, 3], strides=[3, 1], cpu)}, or {@code NDArray{closed}}. */
  @Override
  public String toString() {
    if (isClosed()) {
      return "NDArray{closed}";
    }
    return describe(dtype, shape, strides(), byteOffset, device);
  }

  private static String describe(DType dtype, long[] shape, long[] strides, long byteOffset, Device device) {
    return "NDArray(" + dtype + ", shape=" + Arrays.toString(shape) + ", strides=" + Arrays.toString(strides)
        + (byteOffset != 0 ? ", byteOffset=" + byteOffset : "") + ", " + device + ")";
  }

  /**
   * What {@link #toString()} prints for the tensor at {@code handle} (borrowed, open), read from its DLTensor words
   * as the constructor reads them: an object's toString prints its tensor fields so, without making an NDArray
   * (which would register a reference, and whose close would forget the wrapped segment another NDArray of the same
   * native object still checks).
   */
  static String describe(long handle) {
    long cell = NativeMemory.cell(handle);
    return describe(dtypeAt(cell), wordsAt(cell, DLTensor.SHAPE), wordsAt(cell, DLTensor.STRIDES),
        NativeMemory.getLong(cell + DLTensor.BYTE_OFFSET), deviceAt(cell));
  }

  private static DType dtypeAt(long cell) {
    int word = NativeMemory.getInt(cell + DLTensor.DTYPE);
    return new DType(word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xffff);
  }

  private static Device deviceAt(long cell) {
    return new Device(NativeMemory.getInt(cell + DLTensor.DEVICE_TYPE), NativeMemory.getInt(cell + DLTensor.DEVICE_ID));
  }

  /** The {@code ndim} words of the DLTensor's array at {@code member} (SHAPE or STRIDES). */
  private static long[] wordsAt(long cell, long member) {
    long address = NativeMemory.getLong(cell + member);
    long[] words = new long[NativeMemory.getInt(cell + DLTensor.NDIM)];
    for (int i = 0; i < words.length; i++) {
      words[i] = NativeMemory.getLong(address + 8L * i);
    }
    return words;
  }

  // ------------------------------------------------------------------------------------------------ internals

  /**
   * A pin on this tensor's native object (made now for a wrapped tensor without one), after checking that its
   * wrapped segment (if any) is alive: a close on another thread waits for the unpin.
   */
  ReleaseEpochs.Pin usablePin() {
    ReleaseEpochs.Pin pin = pin();
    if (memory != null) {
      try {
        checkAlive(memory);
      } catch (IllegalStateException freed) {
        pin.unpin();
        throw freed;
      }
      ThreadStack.current().notePassedSegment(memory);
    }
    return pin;
  }

  /**
   * Whether this tensor's elements lie in a Java segment (it was wrapped, or is a view of a wrapped tensor, or native
   * code made it over such memory), which Java checks alive at every use and a native field must not keep.
   */
  boolean overJavaMemory() {
    return memory != null;
  }

  /** Checks that this tensor is open and its wrapped segment (if any) alive, without making a native object. */
  private void checkUsable() {
    handleIfMade();
    if (memory != null) {
      checkAlive(memory);
    }
  }

  @Override
  void onClose() {
    if (memory != null) {
      long address = address(); // 0 for a wrapped tensor that never made its native object
      if (address != 0) {
        WrappedSegments.remove(address, memory);
      }
      return; // asSegment() of a wrapped tensor is a slice of the segment: no view arena
    }
    synchronized (this) {
      viewsEnded = true;
      // Closed under the lock: a second close() waits here for the first one's handshake before it may release
      // the memory under the views.
      if (viewArena != null) {
        viewArena.close();
        viewArena = null;
      }
    }
  }

  private static void checkAlive(MemorySegment segment) {
    if (!segment.scope().isAlive()) {
      throw new IllegalStateException("the memory segment under this NDArray was freed (its arena is closed): a "
          + "wrapped segment's arena must stay open while the tensor is used");
    }
    if (!segment.isAccessibleBy(Thread.currentThread())) {
      // As FFM refuses it: only the owner of a confined arena may use its memory, so its close cannot race a use.
      throw new WrongThreadException("the memory segment under this NDArray belongs to a confined arena of another"
          + " thread, which alone may use the tensor; wrap a segment of a shared arena to use it on several threads");
    }
  }

  private void requireCpu(String what) {
    if (!device.isCpu()) {
      throw new IllegalStateException(what + ": the tensor's memory is on " + device
          + "; Java reads only cpu memory (pass the tensor to native code, or copy it to the host there)");
    }
  }

  /** The element count of a tensor of {@code expected} (or its unsigned twin, read as bits) as an array length. */
  private int checkedCount(DType expected, DType unsigned, String what) {
    if (!dtype.equals(expected) && !dtype.equals(unsigned)) {
      throw new IllegalStateException(what + " reads " + expected + (unsigned == null ? "" : " or " + unsigned)
          + " elements; this NDArray holds " + dtype);
    }
    return arrayLength(what);
  }

  /** The largest array HotSpot allocates; a longer tensor is read through {@link #asSegment()}. */
  private static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  private int arrayLength(String what) {
    long count = elementCount();
    if (count > MAX_ARRAY_LENGTH) {
      throw new IllegalStateException(what + ": the NDArray has " + count + " elements, more than a Java array holds ("
          + MAX_ARRAY_LENGTH + "); read it through asSegment()");
    }
    return (int) count;
  }

  /** The lowest and one past the highest byte offset from {@code data} that the elements reach. */
  private long[] byteExtent() {
    long[] strides = layoutStrides();
    long low = byteOffset;
    long high = byteOffset;
    long element = dtype.byteSize();
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] == 0) {
        return new long[] {byteOffset, byteOffset};
      }
      long reach = (shape[i] - 1) * strides[i] * element;
      if (reach < 0) {
        low += reach;
      } else {
        high += reach;
      }
    }
    return new long[] {low, high + element};
  }

  /** Native memory at address, for copying while this tensor is open (the caller fences it). */
  @SuppressWarnings("restricted") // address and size are the open tensor's own bytes
  private MemorySegment nativeMemory(long address, long size) {
    if (memory != null) {
      return memory.asSlice(address - memory.address(), size);
    }
    return MemorySegment.ofAddress(address).reinterpret(size);
  }

  private void copyOut(MemorySegment target, ValueLayout element) {
    copyOut(target, element.byteSize());
  }

  /** Copies the elements, {@code size} bytes each, into {@code target} in row-major order, strides honoured. */
  private void copyOut(MemorySegment target, long size) {
    // Native memory is freed with the tensor's object, so a close on another thread must wait for the copy: a pin.
    // A wrapped tensor's elements are read through its segment, whose own arena guards them.
    ReleaseEpochs.Pin pin = memory == null ? pin() : null; // a pin proves the tensor open
    try {
      if (memory != null) {
        checkUsable();
      }
      requireCpu("reading elements");
      long count = elementCount();
      if (count == 0) {
        return;
      }
      long[] extent = byteExtent();
      MemorySegment source = nativeMemory(data + extent[0], extent[1] - extent[0]);
      long origin = byteOffset - extent[0];
      if (isContiguous()) {
        MemorySegment.copy(source, origin, target, 0, count * size);
        return;
      }
      long[] strides = layoutStrides();
      long[] index = new long[shape.length];
      long position = origin;
      for (long i = 0; i < count; i++) {
        MemorySegment.copy(source, position, target, i * size, size);
        for (int axis = shape.length - 1; axis >= 0; axis--) {
          index[axis]++;
          position += strides[axis] * size;
          if (index[axis] < shape[axis]) {
            break;
          }
          position -= shape[axis] * strides[axis] * size;
          index[axis] = 0;
        }
      }
    } finally {
      if (pin != null) {
        pin.unpin();
      }
      Reference.reachabilityFence(this);
    }
  }

  /** The strides, in elements: this tensor's own, or the compact ones of a wrapped tensor (a new array). */
  private long[] layoutStrides() {
    if (strides != null) {
      return strides;
    }
    long[] compact = new long[shape.length];
    long step = 1;
    for (int i = shape.length - 1; i >= 0; i--) {
      compact[i] = step;
      step *= shape[i];
    }
    return compact;
  }

  private static long elementCount(long[] shape) {
    long count = 1;
    for (long dimension : shape) {
      count = Math.multiplyExact(count, dimension);
    }
    return count;
  }

  private static long byteCount(DType dtype, long[] shape) {
    long count = 1;
    for (long dimension : shape) {
      // Each dimension and the running count stay below 2^31 in the usual case: then nothing can overflow.
      if ((dimension | count) >>> 31 != 0) {
        return checkedByteCount(dtype, shape);
      }
      count *= dimension;
    }
    return checkedByteCount(count, dtype, shape);
  }

  private static long checkedByteCount(long count, DType dtype, long[] shape) {
    if ((count >>> 31) == 0 && dtype.byteSize() <= 8) {
      return count * dtype.byteSize();
    }
    return checkedByteCount(dtype, shape);
  }

  private static long checkedByteCount(DType dtype, long[] shape) {
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] < 0) {
        throw new IllegalArgumentException("dimension " + i + " of shape " + Arrays.toString(shape) + " is negative");
      }
    }
    // As the core checks it: the product with 0 counted as 1 is what the contiguous strides multiply up to, so a
    // shape whose strides would overflow is refused even when a 0 dimension leaves it without elements.
    long span = 1;
    for (long dimension : shape) {
      if (dimension != 0) {
        try {
          span = Math.multiplyExact(span, dimension);
        } catch (ArithmeticException e) {
          throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has too many elements");
        }
      }
    }
    try {
      return Math.multiplyExact(elementCount(shape), dtype.byteSize());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " of " + dtype + " has too many bytes");
    }
  }

  private static int dtypeWord(DType dtype) {
    return TensorWords.dtypeWord(dtype.code(), dtype.bits(), dtype.lanes());
  }
}
