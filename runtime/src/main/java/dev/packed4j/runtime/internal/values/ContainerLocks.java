package dev.packed4j.runtime.internal.values;

/**
 * The locks that serialize Java's reads and changes of one native list or map: {@code NativeList} and
 * {@code NativeMap} hold the lock of their container's handle around each operation. A change may move or free the
 * storage a read on another thread is walking (an append that grows the list, a set that releases the element it
 * replaces), which would read freed native memory; under the lock a racing read sees the list before or after the
 * change, as a {@code Collections.synchronizedList} would. Every view of one container shares its lock, since the
 * lock is chosen by the native handle, not by the view. Striped: 64 locks, so unrelated containers rarely wait for
 * each other and no lock outlives its container. Native code that changes a container Java reads is not covered.
 */
public final class ContainerLocks {
  private static final Object[] LOCKS = new Object[64];

  static {
    for (int i = 0; i < LOCKS.length; i++) {
      LOCKS[i] = new Object();
    }
  }

  private ContainerLocks() {}

  /** The lock of the container whose handle is {@code handle}. */
  public static Object of(long handle) {
    // Handles are 16-byte aligned allocations: mix the higher bits in, so neighbours take different stripes.
    long mixed = handle ^ (handle >>> 7) ^ (handle >>> 17);
    return LOCKS[(int) (mixed >>> 4) & (LOCKS.length - 1)];
  }
}
