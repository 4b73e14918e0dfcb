package dev.packed4j.runtime.internal.tensor;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The segments under wrapped tensors, by native handle, while their Java owner is open: a function that returns a
 * wrapped tensor (or one sharing its memory) gives Java a new view of the same object, and that view must check the
 * same segment for being alive. An entry is checked against the tensor's data pointer before use, because a handle
 * can be reused after a tensor that was never closed is freed by the Cleaner.
 */
public final class WrappedSegments {
  private static final ConcurrentHashMap<Long, MemorySegment> SEGMENTS = new ConcurrentHashMap<>();

  private WrappedSegments() {}

  /** Records that the tensor object {@code handle} lies in {@code segment}, until {@link #remove}. */
  public static void put(long handle, MemorySegment segment) {
    SEGMENTS.put(handle, segment);
  }

  /** The segment the tensor object {@code handle} with data pointer {@code data} lies in, or null. */
  public static MemorySegment of(long handle, long data) {
    MemorySegment segment = SEGMENTS.get(handle);
    if (segment == null) {
      return null;
    }
    if (data < segment.address() || data > segment.address() + segment.byteSize()) {
      SEGMENTS.remove(handle, segment); // a stale entry: the handle now belongs to another tensor
      return null;
    }
    return segment;
  }

  /** Forgets {@code handle}'s entry if it is still {@code segment}. */
  public static void remove(long handle, MemorySegment segment) {
    SEGMENTS.remove(handle, segment);
  }
}
