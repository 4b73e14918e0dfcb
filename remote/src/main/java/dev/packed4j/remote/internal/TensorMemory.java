package dev.packed4j.remote.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Memory for a large streamed tensor: one block from {@code posix_memalign}, not cleared (every byte is about to be
 * written by the chunks), with the tensor's pages advised as transparent huge pages, handed to the runtime as a
 * DLPack tensor whose deleter is libc's {@code free}. A fresh 64 MiB tensor from {@code NDArray.allocate} costs
 * 16,384 page faults and a clearing pass, a third of a round trip's CPU; huge pages take 32 faults. Without native
 * access for this module, or for small tensors, {@code NDArray.allocate} does it.
 */
@SuppressWarnings("restricted") // libc calls on memory this class allocates and hands over
final class TensorMemory {
  private TensorMemory() {}

  /** Below this, the runtime's allocation: the faults of a few pages do not matter. */
  static final long HUGE_ABOVE = 8L << 20;
  private static final long HUGE_PAGE = 2L << 20;
  /** Linux's MADV_HUGEPAGE. */
  private static final int MADV_HUGEPAGE = 14;
  /** sizeof(DLManagedTensor) on LP64: DLTensor (48 bytes), manager_ctx, deleter. */
  private static final long MANAGED_TENSOR_BYTES = 64;

  private static final boolean AVAILABLE;
  private static final MethodHandle POSIX_MEMALIGN;
  private static final MethodHandle MADVISE;
  private static final MethodHandle FREE_CALL;
  private static final MemorySegment FREE;

  static {
    boolean available = false;
    MethodHandle memalign = null;
    MethodHandle madvise = null;
    MethodHandle freeCall = null;
    MemorySegment free = MemorySegment.NULL;
    if (TensorMemory.class.getModule().isNativeAccessEnabled()
        && System.getProperty("os.name", "").startsWith("Linux")) {
      try {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        memalign = linker.downcallHandle(libc.find("posix_memalign").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
        madvise = linker.downcallHandle(libc.find("madvise").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        free = libc.find("free").orElseThrow();
        freeCall = linker.downcallHandle(free, FunctionDescriptor.ofVoid(ADDRESS));
        available = true;
      } catch (RuntimeException e) {
        available = false; // no such symbols: the runtime's allocation serves
      }
    }
    AVAILABLE = available;
    POSIX_MEMALIGN = memalign;
    MADVISE = madvise;
    FREE_CALL = freeCall;
    FREE = free;
  }

  /** A tensor of {@code dtype} and {@code shape} whose bytes are about to be written whole. */
  static NDArray allocate(DType dtype, long[] shape) {
    long bytes = dtype.byteSize();
    for (long extent : shape) {
      if (extent < 0 || (extent > 0 && bytes > Long.MAX_VALUE / extent)) {
        return NDArray.allocate(dtype, shape); // its error names the shape
      }
      bytes *= extent;
    }
    if (!AVAILABLE || bytes < HUGE_ABOVE || shape.length > 1024) {
      return NDArray.allocate(dtype, shape);
    }
    // [DLManagedTensor | shape | unused up to 2 MiB | data]: the data starts on a huge page boundary.
    long total = HUGE_PAGE + bytes;
    MemorySegment block;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      int error = (int) POSIX_MEMALIGN.invokeExact(out, HUGE_PAGE, total);
      if (error != 0) {
        return NDArray.allocate(dtype, shape); // its error says it is out of memory, with the size
      }
      block = out.get(ADDRESS, 0).reinterpret(total);
    } catch (Throwable e) {
      throw new IllegalStateException("posix_memalign failed: " + e, e);
    }
    try {
      int ignored = (int) MADVISE.invokeExact(block.asSlice(HUGE_PAGE), bytes, MADV_HUGEPAGE); // advice only
      MemorySegment shapeArray = block.asSlice(MANAGED_TENSOR_BYTES);
      for (int i = 0; i < shape.length; i++) {
        shapeArray.setAtIndex(JAVA_LONG, i, shape[i]);
      }
      block.set(ADDRESS, 0, block.asSlice(HUGE_PAGE));         // data
      block.set(JAVA_INT, 8, 1);                              // device: kDLCPU
      block.set(JAVA_INT, 12, 0);                             //   device id
      block.set(JAVA_INT, 16, shape.length);                  // ndim
      block.set(JAVA_BYTE, 20, (byte) dtype.code());          // dtype
      block.set(JAVA_BYTE, 21, (byte) dtype.bits());
      block.set(JAVA_SHORT, 22, (short) dtype.lanes());
      block.set(ADDRESS, 24, shapeArray);                     // shape
      block.set(ADDRESS, 32, MemorySegment.NULL);             // strides: contiguous
      block.set(JAVA_LONG, 40, 0L);                           // byte_offset
      block.set(ADDRESS, 48, MemorySegment.NULL);             // manager_ctx
      block.set(ADDRESS, 56, FREE);                           // deleter: free(block)
      return NDArray.fromDLPack(block);
    } catch (Throwable e) {
      try {
        FREE_CALL.invokeExact(block);
      } catch (Throwable ignored) {
        // free does not fail
      }
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e);
    }
  }
}
