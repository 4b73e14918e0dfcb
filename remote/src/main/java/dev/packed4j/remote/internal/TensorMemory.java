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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.List;

/**
 * Memory for a large streamed tensor: one block from {@code posix_memalign}, not cleared (every byte is about to be
 * written by the chunks), with the tensor's pages advised as transparent huge pages, handed to the runtime as a
 * DLPack tensor whose deleter is libc's {@code free}. A fresh 64 MiB tensor from {@code NDArray.allocate} costs
 * 16,384 page faults and a clearing pass, a third of a round trip's CPU; huge pages take 32 faults. The kernel
 * still clears every page it maps, so a closed tensor's block is kept (at most {@link #KEEP} blocks,
 * {@link #KEEP_BYTES} together) for the next tensor of the same size: a session that streams the same shape again
 * and again then takes no faults at all. A block kept unused for {@link #keepNanos} (10 s) is freed then by the
 * {@code packed4j-tensor-trim} daemon thread, started with the first kept block, or sooner when the next large tensor
 * is made or closed, so an idle process gives its blocks back. Without native access for this module, or for small
 * tensors, {@code NDArray.allocate} does it.
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

  /** How many freed blocks wait for a tensor of their size, and their bytes together at most. */
  static final int KEEP = 2;
  static final long KEEP_BYTES = 160L << 20;
  /**
   * A kept block unused this long is freed: by the trim thread when it is due, or whenever a block is taken or
   * released. 10 s; tests shorten it (under KEPT's lock).
   */
  static long keepNanos = 10_000_000_000L;
  /** Whether the trim thread runs (under KEPT's lock). */
  private static boolean trimStarted;
  /** Blocks kept, oldest first; guarded by itself. */
  private static final java.util.ArrayDeque<Kept> KEPT = new java.util.ArrayDeque<>();

  private record Kept(MemorySegment block, long since) {}

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
        freeCall = linker.downcallHandle(libc.find("free").orElseThrow(), FunctionDescriptor.ofVoid(ADDRESS));
        // The tensors' deleter: keeps the block for the next tensor of its size, or frees it.
        free = linker.upcallStub(java.lang.invoke.MethodHandles.lookup().findStatic(TensorMemory.class, "release",
            java.lang.invoke.MethodType.methodType(void.class, MemorySegment.class)),
            FunctionDescriptor.ofVoid(ADDRESS), java.lang.foreign.Arena.global());
        available = true;
      } catch (RuntimeException | ReflectiveOperationException e) {
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
    MemorySegment block = take(total);
    if (block == null) {
      block = fresh(total, bytes);
      if (block == null) {
        return NDArray.allocate(dtype, shape); // its error says it is out of memory, with the size
      }
    }
    try {
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
      block.set(ADDRESS, 48, MemorySegment.ofAddress(total)); // manager_ctx: the block's size, for release
      block.set(ADDRESS, 56, FREE);                           // deleter: release(block)
      return NDArray.fromDLPack(block);
    } catch (Throwable e) {
      free(block);
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e);
    }
  }

  /** A new block of {@code total} bytes whose last {@code bytes} are advised as huge pages; null without memory. */
  private static MemorySegment fresh(long total, long bytes) {
    MemorySegment block;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      int error = (int) POSIX_MEMALIGN.invokeExact(out, HUGE_PAGE, total);
      if (error != 0) {
        return null;
      }
      block = out.get(ADDRESS, 0).reinterpret(total);
    } catch (Throwable e) {
      throw new IllegalStateException("posix_memalign failed: " + e, e);
    }
    try {
      int ignored = (int) MADVISE.invokeExact(block.asSlice(HUGE_PAGE), bytes, MADV_HUGEPAGE); // advice only
    } catch (Throwable e) {
      free(block);
      throw new IllegalStateException("madvise failed: " + e, e);
    }
    return block;
  }

  /** A kept block of exactly {@code total} bytes, or null; frees kept blocks unused too long. */
  private static MemorySegment take(long total) {
    List<MemorySegment> stale = new ArrayList<>();
    MemorySegment found = null;
    synchronized (KEPT) {
      expire(System.nanoTime(), stale);
      for (Iterator<Kept> it = KEPT.descendingIterator(); it.hasNext(); ) {
        Kept kept = it.next();
        if (kept.block().byteSize() == total) {
          it.remove();
          found = kept.block();
          break;
        }
      }
    }
    stale.forEach(TensorMemory::free);
    return found;
  }

  /**
   * The deleter of the tensors this class makes (an upcall from whichever thread closes the tensor): keeps the
   * block if it fits in what is kept, else frees it. Never throws: an exception here would end the JVM.
   */
  private static void release(MemorySegment managed) {
    boolean pooled = false; // once the block is in KEPT, only the pool may free it
    try {
      MemorySegment header = managed.reinterpret(MANAGED_TENSOR_BYTES);
      long total = header.get(ADDRESS, 48).address();
      MemorySegment block = managed.reinterpret(total);
      List<MemorySegment> stale = new ArrayList<>();
      boolean kept = false;
      synchronized (KEPT) {
        long now = System.nanoTime();
        expire(now, stale);
        if (total <= KEEP_BYTES) {
          KEPT.addLast(new Kept(block, now));
          pooled = true;
          startTrimOrWake();
          long together = 0;
          for (Kept k : KEPT) {
            together += k.block().byteSize();
          }
          while (KEPT.size() > KEEP || together > KEEP_BYTES) {
            MemorySegment oldest = KEPT.removeFirst().block();
            together -= oldest.byteSize();
            stale.add(oldest);
          }
          kept = true;
        }
      }
      stale.forEach(TensorMemory::free);
      if (!kept) {
        free(block);
      }
    } catch (Throwable e) {
      if (!pooled) {
        free(managed); // the block is lost to the pool, not to the process
      }
    }
  }

  /** Moves kept blocks unused for {@link #keepNanos} into {@code stale}; holds KEPT's lock. */
  private static void expire(long now, List<MemorySegment> stale) {
    while (!KEPT.isEmpty() && now - KEPT.peekFirst().since() >= keepNanos) {
      stale.add(KEPT.removeFirst().block());
    }
  }

  /**
   * Starts the trim thread with the first kept block, or wakes it to wait for the new oldest block; holds KEPT's
   * lock. Should the start fail (no memory for a thread), the next kept block tries again, and blocks still expire
   * when a large tensor is made or closed.
   */
  private static void startTrimOrWake() {
    if (trimStarted) {
      KEPT.notifyAll();
      return;
    }
    try {
      Thread trim = Thread.ofPlatform().name("packed4j-tensor-trim").daemon().unstarted(TensorMemory::trimWhenDue);
      trim.setContextClassLoader(null); // the first user's loader must not stay reachable through it
      trim.start();
      trimStarted = true;
    } catch (Throwable notStarted) {
      // Must not throw: the caller has already kept the block (and is an upcall, where an exception ends the JVM).
    }
  }

  /** Sets how long a kept block waits unused before it is freed, and wakes the trim thread (for tests). */
  static void keepFor(long nanos) {
    synchronized (KEPT) {
      keepNanos = nanos;
      KEPT.notifyAll();
    }
  }

  /** The trim thread: sleeps until the oldest kept block is due, frees what is due, and waits for the next. */
  private static void trimWhenDue() {
    while (true) {
      List<MemorySegment> stale = new ArrayList<>();
      try {
        synchronized (KEPT) {
          if (KEPT.isEmpty()) {
            KEPT.wait();
          } else {
            long due = KEPT.peekFirst().since() + keepNanos - System.nanoTime();
            if (due > 0) {
              KEPT.wait(TimeUnit.NANOSECONDS.toMillis(due) + 1);
            }
          }
          expire(System.nanoTime(), stale);
        }
      } catch (InterruptedException e) {
        // Nobody interrupts this thread on purpose; carry on, the blocks must still be freed.
      }
      stale.forEach(TensorMemory::free);
    }
  }

  /** Frees every kept block (for tests and for callers that know no more large tensors come). */
  static void trim() {
    List<MemorySegment> stale = new ArrayList<>();
    synchronized (KEPT) {
      KEPT.forEach(kept -> stale.add(kept.block()));
      KEPT.clear();
    }
    stale.forEach(TensorMemory::free);
  }

  /** How many blocks are kept now. */
  static int keptCount() {
    synchronized (KEPT) {
      return KEPT.size();
    }
  }

  private static void free(MemorySegment block) {
    try {
      FREE_CALL.invokeExact(block);
    } catch (Throwable ignored) {
      // free does not fail
    }
  }
}
