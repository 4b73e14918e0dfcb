package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;

/**
 * One owned reference to a native object: released by {@link #release()} or, if that never happens, by a
 * {@link Cleaner} once the Java owner is unreachable.
 *
 * <p>The cleaning action holds only the handle (never the owner), so it cannot keep the owner alive; it calls
 * {@code P4JObjectDecRef}. {@code release} is idempotent and thread-safe: the handle is swapped to 0 atomically
 * and the Cleanable runs its action at most once.
 */
final class NativeReference {
  private static final Cleaner CLEANER = Cleaner.create();
  private static final VarHandle HANDLE;

  static {
    try {
      HANDLE = MethodHandles.lookup().findVarHandle(NativeReference.class, "handle", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The state of an owner closed before it had a native object (a wrapped NDArray never passed anywhere). */
  static final NativeReference CLOSED_BEFORE_CREATED = new NativeReference();

  private volatile long handle;
  /** The handle this reference was made with, also after release (an identity, never dereferenced then). */
  final long address;
  private final Cleaner.Cleanable cleanable;

  /** Takes over {@code ownedHandle}; the Cleaner watches {@code owner}. */
  NativeReference(Object owner, long ownedHandle) {
    this.handle = ownedHandle;
    this.address = ownedHandle;
    this.cleanable = CLEANER.register(owner, new Release(ownedHandle));
  }

  private NativeReference() {
    this.handle = 0;
    this.address = 0;
    this.cleanable = null;
  }

  /** The handle, or 0 after release. */
  long handleOrZero() {
    return handle;
  }

  /** Releases the reference once; later calls do nothing. */
  void release() {
    long released = (long) HANDLE.getAndSet(this, 0L);
    if (released != 0) {
      cleanable.clean();
    }
  }

  /** The cleaning action: must not refer to the owner. */
  private record Release(long handle) implements Runnable {
    @Override
    public void run() {
      CApi.P4JObjectDecRef(handle);
    }
  }
}
