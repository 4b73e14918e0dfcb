package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;

/**
 * One owned reference to a native object: released after {@link #release()} or, if that never happens, by a
 * {@link Cleaner} once the Java owner is unreachable.
 *
 * <p>A close may come while other threads still use the object, and must not free memory under them. Two kinds of
 * use are protected, each at its own cost:
 *
 * <ul>
 *   <li>a single read of the object's memory (a field getter) reads through {@link ReleaseEpochs#memory()} and
 *       marks the reference; the explicit release of a marked reference goes through {@link ReleaseEpochs#retire},
 *       which calls {@code P4JObjectDecRef} only after every such read in progress has finished (about a
 *       millisecond later). An unmarked reference, the common case of objects whose fields Java never read, is
 *       released at once, so its C++ destructor runs inside {@code close()} as before;
 *   <li>a native call or a sequence of reads holds a pin ({@link #tryPin()}, {@link #unpin()}): a release while
 *       pins are held only marks the reference closed, and the last unpin retires it.
 * </ul>
 *
 * <p>{@link #state} holds both: bit 0 is closed, the rest counts pins in steps of 2, so close and the last unpin
 * agree by one atomic operation each on which of them retires. The Cleaner's action holds only the handle (never
 * the owner), so it cannot keep the owner alive; when the owner became unreachable no thread can be reading, and
 * it releases at once.
 */
final class NativeReference implements ReleaseEpochs.Pin {
  private static final Cleaner CLEANER = Cleaner.create();
  private static final VarHandle STATE;
  private static final int CLOSED = 1;
  private static final int ONE_PIN = 2;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(NativeReference.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The state of an owner closed before it had a native object (a wrapped NDArray never passed anywhere). */
  static final NativeReference CLOSED_BEFORE_CREATED = new NativeReference();

  /** The handle while open; 0 once closed, so readers without a pin see the close. */
  private volatile long handle;
  /** {@link #CLOSED} and the pins held, {@link #ONE_PIN} each. */
  private volatile int state;
  /**
   * Whether a getter read this object's memory without a pin ({@link #markReadUnpinned}): only then must a release
   * wait for the end of an epoch. Set once, never cleared.
   */
  private volatile boolean readUnpinned;
  /** The handle this reference was made with, also after release (an identity, never dereferenced then). */
  final long address;
  private final Release release;
  private final Cleaner.Cleanable cleanable;

  /** Takes over {@code ownedHandle}; the Cleaner watches {@code owner}. */
  NativeReference(Object owner, long ownedHandle) {
    this.handle = ownedHandle;
    this.address = ownedHandle;
    this.release = new Release(ownedHandle);
    this.cleanable = CLEANER.register(owner, release);
  }

  private NativeReference() {
    this.handle = 0;
    this.state = CLOSED;
    this.address = 0;
    this.release = null;
    this.cleanable = null;
  }

  /** The handle, or 0 after release. */
  long handleOrZero() {
    return handle;
  }

  /**
   * The handle for a read without a pin, through {@link ReleaseEpochs#memory()} (loaded by the caller before this);
   * 0 after release. The first such read marks the reference, so that its release waits for the epoch's end. The
   * mark is stored before the handle is loaded and a release reads it after zeroing the handle, both volatile: either
   * this read sees 0, or the release sees the mark.
   */
  long handleForUnpinnedRead() {
    if (!readUnpinned) {
      readUnpinned = true;
    }
    return handle;
  }

  /** Takes a pin unless the reference is closed; the pinned handle is {@link #address}. */
  boolean tryPin() {
    int current;
    do {
      current = state;
      if ((current & CLOSED) != 0) {
        return false;
      }
    } while (!STATE.weakCompareAndSet(this, current, current + ONE_PIN));
    return true;
  }

  @Override
  public long pinnedHandle() {
    return address;
  }

  @Override
  public void unpin() {
    int before = (int) STATE.getAndAdd(this, -ONE_PIN);
    if (before == (ONE_PIN | CLOSED)) { // the last pin of a closed reference
      retire();
    }
  }

  /** Releases the reference once (now, or when the last pin goes); later calls do nothing. */
  void release() {
    // Zeroed first: whoever retires (this close, or the last unpin, which can only come after the closed bit) does
    // so after the zero, so a getter that still loads the handle reads through an epoch the retirement waits for.
    handle = 0;
    int before = (int) STATE.getAndBitwiseOr(this, CLOSED);
    if (before == 0) {
      retire();
    }
  }

  private void retire() {
    release.deferred = readUnpinned;
    cleanable.clean();
  }

  /** The cleaning action: must not refer to the owner. */
  private static final class Release implements Runnable {
    private final long handle;
    /** Set by a close after an unpinned read: one may still be in progress, so the release waits for the epoch. */
    volatile boolean deferred;

    Release(long handle) {
      this.handle = handle;
    }

    @Override
    public void run() {
      if (deferred) {
        ReleaseEpochs.retire(handle);
      } else {
        CApi.P4JObjectDecRef(handle);
      }
    }
  }
}
