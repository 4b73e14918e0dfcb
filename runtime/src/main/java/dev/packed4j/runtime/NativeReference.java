package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * One owned reference to a native object: released after {@link #release()} or, if that never happens, once the
 * Java owner is unreachable (this is a {@link PhantomReference} to the owner, released by the
 * {@code packed4j-cleaner} daemon thread when the garbage collector enqueues it).
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
 * <p>{@link #state} holds both, and the mark: bit 0 is closed, bit 1 the mark of a read without a pin, the rest
 * counts pins in steps of 4, so close, the last unpin and the release of an unreachable owner agree by one atomic
 * operation each on which of them retires, exactly once, and on whether it must wait for the epoch.
 * The reference never holds its owner strongly, so it cannot keep it alive; when the owner became unreachable no
 * thread can be reading, and it releases at once.
 *
 * <p>Why not a {@link java.lang.ref.Cleaner}: its registration and its removal at close each take a lock, and with
 * the cleanable and the action each object allocated two more objects; an object made and closed paid about as much
 * for them as for the native create and release together. Instead a phantom reference must only stay reachable until
 * it is closed or enqueued, so each thread keeps the references it made in an array of its own ({@link Roots}): a
 * registration is a plain store, a close only sets the closed bit, and a full array is replaced by one holding its
 * open references, on its own thread.
 *
 * <p>One cleaner thread is slower than several threads that drop objects (a release, the C++ destructor, costs about
 * a third of what making and dropping the object costs its maker), so while it is behind the threads that make
 * objects wait for it, a bounded time each ({@link Roots#waitForCleaner()}).
 */
final class NativeReference extends PhantomReference<Object> implements ReleaseEpochs.Pin {
  private static final VarHandle STATE;
  private static final int CLOSED = 1;
  /** Set by the first read without a pin, while open: the release must wait for the end of an epoch. */
  private static final int READ_UNPINNED = 2;
  private static final int ONE_PIN = 4;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(NativeReference.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The state of an owner closed before it had a native object (a wrapped NDArray never passed anywhere). */
  static final NativeReference CLOSED_BEFORE_CREATED = new NativeReference();

  /** {@link #CLOSED}, {@link #READ_UNPINNED} (set once, never cleared) and the pins held, {@link #ONE_PIN} each. */
  private volatile int state;
  /** The handle this reference was made with, also after release (an identity, never dereferenced then). */
  final long address;

  /** Takes over {@code ownedHandle}, released when closed or once {@code owner} is unreachable. */
  NativeReference(Object owner, long ownedHandle) {
    super(owner, Roots.UNREACHABLE);
    this.address = ownedHandle; // open: state 0, no volatile store (a full fence on x86) needed
    Roots.add(this);
  }

  private NativeReference() {
    super(null, null);
    this.state = CLOSED;
    this.address = 0;
  }

  /** The handle, or 0 after release: the closed bit of {@link #state} is what tells. */
  long handleOrZero() {
    return (state & CLOSED) == 0 ? address : 0;
  }

  /**
   * Whether the reference is open for a read without a pin (through {@link ReleaseEpochs#memory()} loaded by the
   * caller before this, or by a thread that holds the handle in its {@link ReleaseEpochs.HeldHandles}); then
   * {@link #address} is the handle. The first such read marks the reference, so that its release waits for the
   * epoch's end: one load and one compare once it is marked. The mark and the closed bit are set by atomic
   * operations on the same word, so either this read sees the closed bit, or the release sees the mark.
   */
  boolean openForUnpinnedRead() {
    return (state & (CLOSED | READ_UNPINNED)) == READ_UNPINNED || markReadUnpinned();
  }

  /** The first read without a pin: sets the mark unless the reference is closed; whether it is open. */
  private boolean markReadUnpinned() {
    int current;
    do {
      current = state;
      if ((current & CLOSED) != 0) {
        return false;
      }
    } while ((current & READ_UNPINNED) == 0 && !STATE.weakCompareAndSet(this, current, current | READ_UNPINNED));
    return true;
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
    if ((before & ~READ_UNPINNED) == (ONE_PIN | CLOSED)) { // the last pin of a closed reference
      retire(before);
    }
  }

  /** Releases the reference once (now, or when the last pin goes); later calls do nothing. */
  void release() {
    // The closed bit is what readers load instead of a handle: whoever retires (this close, or the last unpin, which
    // can only come after the bit) does so after it, so a getter that still saw the reference open reads through an
    // epoch the retirement waits for. One atomic operation, no separate zeroing store (and its fence).
    // The common case, open and unpinned (marked or not), by one compare-and-set: getAndBitwiseOr is a loop of a
    // load and a compare-and-set on x86.
    int expected = state & READ_UNPINNED;
    int before = (int) STATE.compareAndExchange(this, expected, expected | CLOSED);
    if (before != expected) {
      before = (int) STATE.getAndBitwiseOr(this, CLOSED);
    }
    if ((before & ~READ_UNPINNED) == 0) { // open and not pinned until now
      retire(before);
    }
  }

  /** Whether the reference was closed (or found unreachable): a {@link Roots} array may drop it. */
  boolean isClosed() {
    return (state & CLOSED) != 0;
  }

  /** Releases the reference, closed in {@code stateBefore}'s successor: the mark can no longer change. */
  private void retire(int stateBefore) {
    if ((stateBefore & READ_UNPINNED) != 0) {
      ReleaseEpochs.retire(address); // a getter may still be reading: released once its epoch ends
    } else {
      CApi.P4JObjectDecRef(address);
    }
  }

  /**
   * The release of a reference whose owner became unreachable without a close: no thread can be using it (every use
   * keeps the owner reachable), so it is released at once, unless a close came first.
   */
  private void releaseUnreachable() {
    int before = (int) STATE.getAndBitwiseOr(this, CLOSED);
    if ((before & ~READ_UNPINNED) == 0) {
      CApi.P4JObjectDecRef(address);
    }
  }

  /**
   * The references one thread made, kept reachable until they are closed or enqueued: written only by that thread
   * (or, once it has ended, by the next registration's pruning), so adding one is a plain store. Closed references
   * leave when the array is full, so it holds about twice the references the thread has open.
   *
   * <p>A full array is not compacted in place but replaced by a new one holding the open references: the array
   * written on every registration is then young most of the time, and G1's write barrier passes a store of a new
   * reference into a young array without the fence (a {@code lock addl} on x86) that it issues for a store into
   * an old one; the old array is garbage at once, so nothing needs clearing. The fence and the clearing cost
   * about 1 ns of an object made and closed (docs/benchmarks.md, "Construct + close: the roots array and the type
   * index").
   */
  static final class Roots {
    /** Where the garbage collector puts the references whose owners became unreachable. */
    static final ReferenceQueue<Object> UNREACHABLE = new ReferenceQueue<>();
    private static final ThreadLocal<Roots> OF_THREAD = ThreadLocal.withInitial(Roots::register);
    /**
     * A cache of the arrays of recent threads by thread id, in front of {@link #OF_THREAD}: a ThreadLocal lookup cost
     * about 5 ns of an object's 40 ns create + close, a slot read and an id compare cost about one. Read and written
     * plainly: a thread uses only an array whose {@link #ownerId} (final) is its own id, so a racy read of another
     * thread's array is only a miss, and its own array is the same for the thread's life. Two threads of ids equal
     * modulo the size only miss each other's slot, and go to the ThreadLocal. An ended thread's array leaves its slot
     * when {@link #pruneIfEnded} drops it.
     */
    private static final Roots[] RECENT = new Roots[256];
    /** Every thread's array, so that those of ended threads stay reachable; guarded by itself. */
    private static final ArrayList<Roots> ALL = new ArrayList<>();
    /** The size of {@link #ALL} at which the next registration first prunes the arrays of ended threads. */
    private static int pruneAt = 64;

    /**
     * The references found unreachable that the cleaner holds, from the queue, at which it is behind: about one per
     * KiB of the largest heap (262,144 for 256 MiB; their Java objects take about 5% of it), at least 16,384 and at
     * most 1,048,576.
     */
    static final int BEHIND_AT =
        Math.clamp(Runtime.getRuntime().maxMemory() / 1024, 16_384, 1_048_576);
    /** The references the cleaner holds at which it has caught up again. */
    static final int CAUGHT_UP_AT = BEHIND_AT / 2;
    /** The references the cleaner releases between two looks at the queue. */
    private static final int CHUNK = 1024;
    /** The longest a thread making an object waits for the cleaner at once: a slow destructor must not hang it. */
    private static final long LONGEST_WAIT_NANOS = 1_000_000_000L;
    /** The longest it waits while the cleaner finishes no {@link #CHUNK}: a stuck destructor holds it no longer. */
    private static final long LONGEST_STALL_NANOS = 100_000_000L;
    /** How often a waiting thread looks whether the cleaner has caught up. */
    private static final long WAIT_STEP_NANOS = 500_000L;
    /**
     * Whether the cleaner is behind: set when it holds {@link #BEHIND_AT} references, cleared at
     * {@link #CAUGHT_UP_AT}. Read only when {@link #add} misses {@link #RECENT}, which the cleaner empties while it is
     * behind (and for a sweep, after it was), so making an object pays nothing for it otherwise.
     */
    private static volatile boolean cleanerBehind;
    /** The chunks the cleaner has released while behind: what a waiting thread takes as its progress. */
    private static volatile int chunksReleased;
    /**
     * The references the cleaner releases between two requests that every thread drop the released references its
     * array still holds: a quarter of {@link #BEHIND_AT}. It asks only when it has been behind since it last asked:
     * arrays grow beyond twice their open references only then, and a sweep costs each thread a scan of its array,
     * which a thread that keeps a million objects open should not pay while the cleaner keeps up.
     */
    private static final int RELEASED_PER_SWEEP = BEHIND_AT / 4;
    /**
     * Counts the cleaner's requests to drop released references (see {@link #dropReleased()}); written only by the
     * cleaner, read where {@link #add} misses {@link #RECENT}, which the cleaner empties with each request.
     */
    private static volatile int sweeps;
    private static final Thread CLEANER;

    static {
      CLEANER = Thread.ofPlatform().name("packed4j-cleaner").daemon().unstarted(Roots::releaseUnreachable);
      CLEANER.setContextClassLoader(null); // the first user's loader must not stay reachable through it
      CLEANER.start();
    }

    private final WeakReference<Thread> thread = new WeakReference<>(Thread.currentThread());
    /** The id of the thread that owns this array (ids are never reused), compared against the cache's slot. */
    private final long ownerId = Thread.currentThread().threadId();
    /** The size of a thread's first array, and the least it shrinks to. */
    private static final int FIRST_SIZE = 64;

    private NativeReference[] references = new NativeReference[FIRST_SIZE];
    private int count;
    /** The value of {@link #sweeps} at which this array last dropped its released references. */
    private int sweptAt = sweeps;

    private Roots() {}

    static void add(NativeReference reference) {
      long id = Thread.currentThread().threadId();
      Roots roots = RECENT[(int) id & (RECENT.length - 1)];
      if (roots == null || roots.ownerId != id) {
        roots = ofThread(id);
      }
      NativeReference[] references = roots.references;
      int at = roots.count;
      if (at == references.length) {
        references = roots.replaceFull();
        at = roots.count;
      }
      references[at] = reference;
      roots.count = at + 1;
    }

    /**
     * This thread's array from the ThreadLocal, remembered in {@link #RECENT}; first, while the cleaner is behind,
     * waits for it (see {@link #waitForCleaner()}).
     */
    private static Roots ofThread(long id) {
      Roots roots = OF_THREAD.get();
      if (cleanerBehind && Thread.currentThread() != CLEANER) {
        waitForCleaner();
      }
      int sweep = sweeps;
      if (roots.sweptAt != sweep) {
        roots.sweptAt = sweep;
        roots.dropReleased();
      }
      RECENT[(int) id & (RECENT.length - 1)] = roots;
      return roots;
    }

    /**
     * The backpressure on threads that make objects while the cleaner is behind: parks until it has caught up, at
     * most {@link #LONGEST_WAIT_NANOS}, and at most {@link #LONGEST_STALL_NANOS} in which the cleaner finishes no
     * {@link #CHUNK}. The caller then caches its array again, and makes objects at full speed until the cleaner,
     * after its next chunk, empties the cache again: so threads are held back as long as the cleaner is behind and
     * making progress, and a cleaner stuck in a destructor holds each of them once, for the stall. Never called
     * inside the cleaner's own work (a destructor that makes an object), and only where an object is made, never
     * while a native release runs on the caller's thread.
     */
    private static void waitForCleaner() {
      if (Thread.currentThread().isInterrupted()) {
        return; // parkNanos would return at once: the wait would be a busy loop while the cleaner needs the CPU
      }
      long now = System.nanoTime();
      long deadline = now + LONGEST_WAIT_NANOS;
      long stalledAt = now + LONGEST_STALL_NANOS;
      int chunks = chunksReleased;
      while (cleanerBehind && deadline - now > 0 && stalledAt - now > 0 && !Thread.currentThread().isInterrupted()) {
        LockSupport.parkNanos(WAIT_STEP_NANOS);
        now = System.nanoTime();
        if (chunksReleased != chunks) {
          chunks = chunksReleased;
          stalledAt = now + LONGEST_STALL_NANOS;
        }
      }
    }

    private static Roots register() {
      Roots roots = new Roots();
      synchronized (ALL) {
        if (ALL.size() >= pruneAt) { // threads that ended (a virtual thread each task, say): drop their arrays
          ALL.removeIf(Roots::pruneIfEnded);
          pruneAt = Math.max(64, ALL.size() * 2);
        }
        ALL.add(roots);
      }
      return roots;
    }

    /**
     * Replaces the full array by a new one with its open references: twice as large when more than half of them
     * are open, a quarter as large when a large array keeps fewer than an eighth, else as large.
     *
     * @return the new array, whose first {@link #count} slots are taken
     */
    private NativeReference[] replaceFull() {
      NativeReference[] full = references;
      NativeReference[] open = new NativeReference[full.length];
      int kept = 0;
      for (NativeReference reference : full) {
        if (!reference.isClosed()) {
          open[kept++] = reference;
        }
      }
      if (kept > full.length / 2) {
        open = Arrays.copyOf(open, full.length * 2);
      } else if (full.length > 1024 && kept < full.length / 8) {
        open = Arrays.copyOf(open, Math.max(FIRST_SIZE, full.length / 4)); // after many were closed at once
      }
      references = open;
      count = kept;
      return open;
    }

    /**
     * Replaces this array by one that holds only its open references, at most half full (on the cleaner's request,
     * from the owner thread, which writes the array alone). The references the cleaner released stay reachable through
     * the arrays (40 bytes each) until they are dropped, and {@link #replaceFull} drops them only when an array fills:
     * while the cleaner was behind, they still counted as open each time the array filled, so it doubled, and a large
     * array fills slowly. Four producers' arrays in a 64 MiB heap held 300,000 released references, 12 MB, beside the
     * backlog itself, and the heap ran out (DroppedObjectsTest). With a sweep every {@link #RELEASED_PER_SWEEP}
     * releases while the cleaner is behind, the released references the arrays hold stay about that many, plus an
     * eighth of each array; while it keeps up, arrays do not grow past twice their open references.
     */
    private void dropReleased() {
      NativeReference[] all = references;
      int open = 0;
      for (int i = 0; i < count; i++) {
        if (!all[i].isClosed()) {
          open++;
        }
      }
      if (count - open <= count / 8) {
        return; // a few: not worth a new array, and they leave when it fills
      }
      int size = FIRST_SIZE;
      while (size < 2 * open) {
        size *= 2;
      }
      NativeReference[] kept = new NativeReference[size];
      int at = 0;
      for (int i = 0; i < count && at < open; i++) { // a reference closed since the count is dropped too
        if (!all[i].isClosed()) {
          kept[at++] = all[i];
        }
      }
      references = kept;
      count = at;
    }

    private int compact() {
      int kept = 0;
      for (int i = 0; i < count; i++) {
        NativeReference reference = references[i];
        if (!reference.isClosed()) {
          references[kept++] = reference;
        }
      }
      Arrays.fill(references, kept, count, null);
      count = kept;
      return kept;
    }

    /** For an ended thread's array (under ALL's lock): drops its closed references; {@return whether it is empty} */
    private boolean pruneIfEnded() {
      Thread owner = thread.get();
      if (owner != null && owner.isAlive()) {
        return false; // its thread may still write it
      }
      if (compact() != 0) {
        return false;
      }
      int slot = (int) ownerId & (RECENT.length - 1);
      if (RECENT[slot] == this) {
        RECENT[slot] = null; // its array, however large it grew, is not kept by the cache (a racing write only misses)
      }
      return true;
    }

    /**
     * The {@code packed4j-cleaner} thread: releases the references of owners found unreachable. It takes them from
     * the queue into its own deque, up to {@link #BEHIND_AT}, and releases them {@link #CHUNK} at a time: the count
     * it holds is how far behind it is, which the queue does not tell.
     */
    private static void releaseUnreachable() {
      ArrayDeque<NativeReference> held = new ArrayDeque<>();
      int releasedSinceSweep = 0;
      boolean behindSinceSweep = false;
      while (true) {
        try {
          if (held.isEmpty()) {
            cleanerBehind = false;
            held.add((NativeReference) UNREACHABLE.remove());
          }
          NativeReference next;
          while (held.size() < BEHIND_AT && (next = (NativeReference) UNREACHABLE.poll()) != null) {
            held.add(next);
          }
          if (held.size() >= BEHIND_AT) {
            cleanerBehind = true;
            behindSinceSweep = true;
            Arrays.fill(RECENT, null); // the next object each thread makes looks at cleanerBehind
          } else if (held.size() <= CAUGHT_UP_AT) {
            cleanerBehind = false;
          }
          int released = 0;
          for (; released < CHUNK && (next = held.poll()) != null; released++) {
            next.releaseUnreachable();
          }
          if (cleanerBehind) {
            chunksReleased++; // only this thread writes it
          }
          releasedSinceSweep += released;
          if (releasedSinceSweep >= RELEASED_PER_SWEEP && behindSinceSweep) {
            releasedSinceSweep = 0;
            behindSinceSweep = cleanerBehind;
            sweeps++; // only this thread writes it
            Arrays.fill(RECENT, null); // each thread's next object looks at sweeps
          }
        } catch (InterruptedException e) {
          // Nobody interrupts this thread on purpose; carry on, the references must still be released.
        } catch (RuntimeException | Error e) {
          Thread.currentThread().getUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), e);
        }
      }
    }
  }
}
