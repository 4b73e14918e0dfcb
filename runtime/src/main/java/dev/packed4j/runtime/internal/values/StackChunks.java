package dev.packed4j.runtime.internal.values;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The native memory of the threads' argument stacks ({@link ThreadStack}): chunks from {@code malloc}, each freed
 * exactly when its stack gives it back, never left to the garbage collector. That is what keeps a program of many
 * short-lived (virtual) threads flat: a virtual thread's stack gives its memory back after every outermost call, and
 * the first chunks come back to a small shared pool, so the memory in use follows the calls in progress, not the
 * threads that ever existed.
 *
 * <p>The pool holds at most {@link #POOL_SLOTS} chunks of {@link ThreadStack#FIRST_CHUNK_SIZE} bytes; it takes and
 * gives with one compare-and-set and allocates nothing on the Java heap.
 */
@SuppressWarnings("restricted") // links the C library's malloc and free, with their C signatures
final class StackChunks {
  private StackChunks() {}

  /** Chunks of the first size kept for the next stack that needs one. */
  static final int POOL_SLOTS = 64;
  /**
   * Bytes allocated past each chunk's end and never used, so that no chunk ends where another begins: an address of
   * a stack, its chunks' ends included, then belongs to one chunk only, which is how a scratch mark's chunk is found
   * again. Not counted in {@link #liveBytes}, as malloc's own overhead is not.
   */
  static final long GAP = 16;

  private static final MethodHandle MALLOC;
  private static final MethodHandle FREE;

  static {
    Linker linker = Linker.nativeLinker();
    MALLOC = linker.downcallHandle(linker.defaultLookup().find("malloc").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    FREE = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
        FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG));
  }

  /** Addresses of pooled chunks of the first size; 0 for an empty slot. */
  private static final AtomicLongArray POOL = new AtomicLongArray(POOL_SLOTS);
  /** Bytes of stack chunks allocated and not freed, pooled ones included. */
  private static final AtomicLong LIVE_BYTES = new AtomicLong();

  /**
   * A chunk of {@code size} bytes, 16-byte aligned (malloc's alignment on x86-64 and aarch64), followed by
   * {@link #GAP} unused bytes.
   */
  static long allocate(long size) {
    if (size == ThreadStack.FIRST_CHUNK_SIZE) {
      int start = (int) Thread.currentThread().threadId() & (POOL_SLOTS - 1);
      for (int i = 0; i < POOL_SLOTS; i++) {
        int slot = (start + i) & (POOL_SLOTS - 1);
        long pooled = POOL.get(slot);
        if (pooled != 0 && POOL.compareAndSet(slot, pooled, 0)) {
          return pooled;
        }
      }
    }
    long address;
    try {
      address = (long) MALLOC.invokeExact(size + GAP);
    } catch (Throwable e) {
      throw new AssertionError("malloc does not throw", e);
    }
    if (address == 0) {
      throw new OutOfMemoryError("cannot allocate " + size + " bytes of native memory for a thread's argument stack");
    }
    LIVE_BYTES.addAndGet(size);
    return address;
  }

  /** Gives back a chunk of {@code size} bytes from {@link #allocate}: to the pool when it has room, else freed. */
  static void release(long address, long size) {
    if (size == ThreadStack.FIRST_CHUNK_SIZE) {
      int start = (int) Thread.currentThread().threadId() & (POOL_SLOTS - 1);
      for (int i = 0; i < POOL_SLOTS; i++) {
        int slot = (start + i) & (POOL_SLOTS - 1);
        if (POOL.get(slot) == 0 && POOL.compareAndSet(slot, 0, address)) {
          return;
        }
      }
    }
    free(address, size);
  }

  /** Frees a chunk now (a dropped large chunk, or the chunks of a stack nobody can reach any more). */
  static void free(long address, long size) {
    LIVE_BYTES.addAndGet(-size);
    try {
      FREE.invokeExact(address);
    } catch (Throwable e) {
      throw new AssertionError("free does not throw", e);
    }
  }

  /** Bytes of stack chunks allocated and not freed (pooled ones included), for tests and diagnostics. */
  static long liveBytes() {
    return LIVE_BYTES.get();
  }
}
