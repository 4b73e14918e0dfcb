package dev.packed4j.runtime.internal.objects;

import dev.packed4j.runtime.internal.capi.CApi;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Deferred release of closed native references, so that a thread reading an object's memory without holding a
 * count never reads freed memory when another thread closes the object at the same moment.
 *
 * <p>Field getters read an object's memory straight from Java, with no native call and no reference count: a count
 * taken and given back per read would cost two atomic operations on every getter, several times the read itself.
 * Instead they read through {@link #memory()}, a segment over the whole address space that belongs to the current
 * epoch's shared arena, and the release of a closed object's reference ({@code P4JObjectDecRef}) waits for the end
 * of the epoch it was closed in:
 *
 * <ol>
 *   <li>A reader loads the current epoch's segment, then the object's handle (both volatile reads), then reads
 *       through the segment.
 *   <li>{@code close()} marks the reference closed (what a reader's handle load tests: a closed reference's handle
 *       reads as 0), then adds the reference to the current epoch's list ({@link #retire}). As the reader's handle
 *       load came before the mark, the epoch the reader loaded is that one or an earlier
 *       one.
 *   <li>A flip publishes a new epoch and closes the old epoch's arena. Closing a shared arena is a handshake with
 *       every thread: when it returns no thread is inside an access through that arena's segment, and every later
 *       access through it throws {@link IllegalStateException}, which the reader answers by reading again through
 *       the new epoch (or by reporting the object closed). Only then are the old epoch's references released.
 * </ol>
 *
 * <p>A reader's cost is one volatile load (a plain load on x86) and the session check of a shared segment, which
 * the JIT keeps out of loops, plus a test of the reference's mark (below); a close costs an append under a lock.
 * Flips run on the {@code packed4j-release} daemon thread about a millisecond after a close (while only references
 * held by calls in progress wait, at pauses that double up to 128 ms, until a close comes), so such an object is
 * destroyed natively within about a millisecond; {@link #drain()} releases everything closed so far at once (leak
 * counts and tests use it). Only references a getter read without a pin come here: the first such read marks the
 * reference, and a close of an unmarked one (an object Java never read a field of, a function, a container, a
 * tensor) releases it at once, so its C++ destructor still runs inside {@code close()}.
 *
 * <p>Reads that are a sequence (a live list's size then its element, a string getter's native call) are not
 * covered by one access: they hold a pin on the reference instead ({@link Pin}), which defers the retirement
 * itself until the last pin goes.
 *
 * <p>A direct call that passes an object (a typed entry's object word) takes no pin, which would cost two atomic
 * operations per call: its thread <em>holds</em> the handle instead ({@link HeldHandles}), a plain store into a
 * list of its own made before the handle is loaded, cleared when the call has returned. The handshake that ends an
 * epoch reaches every thread at a safepoint poll or a native-state transition, so after it the flipper sees every
 * handle a thread held when the handshake reached it; a thread that loaded the handle after the handshake reached it
 * loaded the closed mark its close stored before the flip (and reports the object closed). So a retired handle that some
 * thread holds after the handshake is kept for the next epoch instead of released, and one no thread holds is not in
 * any call. This relies on a store not being moved below a safepoint poll or a call, which HotSpot never does.
 */
public final class ReleaseEpochs {
  private ReleaseEpochs() {}

  /** How long a closed reference waits for others to gather before a flip, in nanoseconds. */
  private static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  /**
   * The longest pause between flips while every retired reference is held by a call in progress: each flip that
   * releases nothing doubles the pause, up to this, so that a native call of seconds on an object closed meanwhile
   * costs a few dozen handshakes, not one a millisecond. A close wakes the flipper at once.
   */
  private static final long HELD_PAUSE_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(128);

  /** Guards the current epoch's list and the flipper's start. */
  private static final Object LOCK = new Object();
  /** Serialises flips: an epoch's references are released only after every earlier epoch is closed. */
  private static final Object FLIP = new Object();

  private static volatile Epoch current = new Epoch();
  /** {@code current.memory}, kept apart so that a reader's load of it is one load, not two. */
  private static volatile MemorySegment currentMemory = current.memory;
  /** Whether the flipper thread runs (under LOCK). */
  private static boolean flipperStarted;
  /** Closes since the current epoch began (under LOCK): references a flip kept for a holder are not counted. */
  private static int closedSinceFlip;
  /** How many epochs have ended. */
  private static volatile long flips;

  /** One epoch: its arena, the segment readers use while it is current, and the references closed in it. */
  private static final class Epoch {
    final Arena arena = Arena.ofShared();
    @SuppressWarnings("restricted") // every address read through it is an object handle plus a field offset
    final MemorySegment memory = MemorySegment.NULL.reinterpret(Long.MAX_VALUE, arena, null);
    long[] retired = new long[16];
    int retiredCount;
  }

  /**
   * The segment a reader without a pin reads object memory through: load it before the handle, and read again
   * (through a fresh call) when an access throws {@link IllegalStateException}, which means the epoch ended.
   *
   * @return the whole address space, valid until the current epoch ends
   */
  public static MemorySegment memory() {
    return currentMemory;
  }

  /**
   * What a reader does when an access through {@link #memory()} threw because its epoch ended, before it reads again.
   * A flip that finds a thread inside such an access stops it with an asynchronous exception, and JDK 25's HotSpot
   * also sets that thread's interrupt status when it installs one (JDK-8306324, fixed in later JDKs): a platform
   * thread reading a field would find itself interrupted by packed4j, and its next {@code sleep} or {@code wait}
   * would throw. So the reader clears the status unless it was set before the access ({@code wasInterrupted}, read
   * just before it); only an interrupt from another thread that arrives during that one access is lost with it.
   *
   * @param wasInterrupted the reader's interrupt status just before the access
   */
  public static void epochEnded(boolean wasInterrupted) {
    if (!wasInterrupted) {
      Thread.interrupted();
    }
  }

  /**
   * Releases {@code handle}'s reference ({@code P4JObjectDecRef}) once every thread that could still read the object
   * through {@link #memory()} has finished: after the end of the current epoch.
   *
   * @param handle an owned object handle whose Java owner is closed
   */
  public static void retire(long handle) {
    synchronized (LOCK) {
      closedSinceFlip++;
      keep(handle);
    }
  }

  /**
   * {@return how many epochs have ended} Each end is a handshake with every thread; tests count them to see that a
   * reference held by a long call does not end one every millisecond.
   */
  public static long flips() {
    return flips;
  }

  /** Adds {@code handle} to the current epoch's list and wakes or starts the flipper; holds LOCK. */
  private static void keep(long handle) {
    Epoch epoch = current;
    if (epoch.retiredCount == epoch.retired.length) {
      epoch.retired = Arrays.copyOf(epoch.retired, epoch.retiredCount * 2);
    }
    epoch.retired[epoch.retiredCount++] = handle;
    if (!flipperStarted) {
      Thread flipper =
          Thread.ofPlatform().name("packed4j-release").daemon().unstarted(ReleaseEpochs::flipWhenRetired);
      flipper.setContextClassLoader(null); // the first closer's loader must not stay reachable through it
      flipper.start(); // should this fail, the next retirement tries again
      flipperStarted = true;
    } else {
      LOCK.notifyAll(); // the flipper waits for a first retirement, or for a close while it pauses
    }
  }

  /** Ends the current epoch and releases every reference closed before this call; nothing when none waits. */
  public static void drain() {
    synchronized (FLIP) { // first waits for a flip in progress, whose releases are "before" too
      boolean waiting;
      synchronized (LOCK) {
        waiting = current.retiredCount != 0;
      }
      if (waiting) {
        flip();
      }
    }
  }

  /**
   * The flipper: waits for a retirement, lets others gather for a moment, then flips. While the flips release
   * nothing (every retired reference is held by a call in progress) it pauses longer between them, up to
   * {@link #HELD_PAUSE_MAX_NANOS}, unless a close comes.
   */
  private static void flipWhenRetired() {
    long pause = 0;
    while (true) {
      try {
        synchronized (LOCK) {
          while (current.retiredCount == 0) {
            LOCK.wait();
            pause = 0;
          }
          long end = System.nanoTime() + pause;
          for (long left = pause; left > 0 && closedSinceFlip == 0; left = end - System.nanoTime()) {
            LOCK.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
          }
        }
        TimeUnit.NANOSECONDS.sleep(GATHER_NANOS);
        pause = flip() ? 0 : Math.min(Math.max(2 * pause, 2 * GATHER_NANOS), HELD_PAUSE_MAX_NANOS);
      } catch (InterruptedException e) {
        // Nobody interrupts this thread on purpose; carry on, the references must still be released.
      } catch (RuntimeException | Error e) {
        // A failed flip must not end the thread: report it and go on with the next epoch.
        Thread.currentThread().getUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), e);
      }
    }
  }

  /** Ends the current epoch; whether it released a reference (false when every one was held, or none waited). */
  private static boolean flip() {
    synchronized (FLIP) {
      Epoch ended;
      synchronized (LOCK) {
        ended = current;
        Epoch next = new Epoch();
        current = next;
        currentMemory = next.memory;
        closedSinceFlip = 0;
      }
      flips++; // one writer at a time: under FLIP
      try {
        // The handshake: returns once no thread is inside an access through ended.memory.
        ended.arena.close();
      } catch (RuntimeException refused) {
        // Only a segment of the arena kept acquired (passed to a downcall in progress) makes a close fail: the
        // references must not be released while it may still be read, so they wait for the next epoch.
        synchronized (LOCK) {
          for (int i = 0; i < ended.retiredCount; i++) {
            keep(ended.retired[i]);
          }
        }
        throw refused;
      }
      boolean[] held = HeldHandles.held(ended.retired, ended.retiredCount);
      boolean released = false;
      for (int i = 0; i < ended.retiredCount; i++) {
        if (held[i]) {
          synchronized (LOCK) {
            keep(ended.retired[i]); // a direct call in progress passed it: the next epoch tries again
          }
        } else {
          CApi.P4JObjectDecRef(ended.retired[i]);
          released = true;
        }
      }
      return released;
    }
  }

  /**
   * The handles one thread's direct calls in progress were passed (see the class comment): written only by that
   * thread, read by the flipper after an epoch's handshake. Made by {@link #register()} on the thread's first such
   * call, and watched weakly: a holder whose thread has ended is dropped at the next flip.
   */
  public static final class HeldHandles {
    /** Every registered holder, weakly; guarded by itself. */
    private static final ArrayList<WeakReference<HeldHandles>> HOLDERS = new ArrayList<>();

    /** The first handle held (most calls hold one), in a field so that a hold needs no array. */
    private long first;
    /** The handles held after the first: {@code more[i]} is the {@code i + 2}th. */
    private long[] more = new long[8];
    private int count;
    /** The id of the thread that registered this holder, the only one that writes it. */
    private final long threadId = Thread.currentThread().threadId();

    private HeldHandles() {}

    /** {@return a new holder for the calling thread, registered so that flips see what it holds} */
    public static HeldHandles register() {
      HeldHandles holder = new HeldHandles();
      synchronized (HOLDERS) {
        if (HOLDERS.size() >= pruneAt) { // threads that ended (a virtual thread each call, say): drop their holders
          HOLDERS.removeIf(reference -> reference.get() == null);
          pruneAt = Math.max(64, HOLDERS.size() * 2);
        }
        HOLDERS.add(new WeakReference<>(holder));
      }
      return holder;
    }

    /** The size of {@link #HOLDERS} at which the next registration first drops the holders of ended threads. */
    private static int pruneAt = 64;

    /** {@return the id of the thread this holder belongs to (which made it)} */
    public long threadId() {
      return threadId;
    }

    /**
     * Holds {@code address} until the count is restored below it ({@link #restore}): call before loading the
     * object's handle, which is then either the open handle (and a release waits for the restore) or zero (the
     * object is closed; nothing is passed).
     *
     * @param address the address the object's reference was made with (its handle while open)
     */
    public void hold(long address) {
      int at = count;
      if (at == 0) {
        first = address;
      } else {
        holdMore(at - 1, address);
      }
      count = at + 1;
    }

    private void holdMore(int index, long address) {
      if (index == more.length) {
        more = Arrays.copyOf(more, index * 2);
      }
      more[index] = address;
    }

    /** {@return the number of handles held, for {@link #restore} when the call that holds more has returned} */
    public int depth() {
      return count;
    }

    /**
     * Lets go of the handles held since {@link #depth()} returned {@code depth}: a call's, once it has returned.
     * Calls nest (a callback's calls hold above the outer call's), so they restore in reverse order.
     *
     * @param depth what {@link #depth()} returned before the call held its handles
     */
    public void restore(int depth) {
      count = depth;
    }

    /** Which of {@code retired[0..count)} any thread holds now; called by a flip after its handshake. */
    static boolean[] held(long[] retired, int retiredCount) {
      boolean[] held = new boolean[retiredCount];
      synchronized (HOLDERS) {
        for (int h = HOLDERS.size() - 1; h >= 0; h--) {
          HeldHandles holder = HOLDERS.get(h).get();
          if (holder == null) {
            HOLDERS.set(h, HOLDERS.get(HOLDERS.size() - 1));
            HOLDERS.remove(HOLDERS.size() - 1);
            continue;
          }
          int count = holder.count;
          if (count > 0) {
            markHeld(holder.first, retired, retiredCount, held);
          }
          long[] more = holder.more;
          for (int i = 0; i < Math.min(count - 1, more.length); i++) {
            markHeld(more[i], retired, retiredCount, held);
          }
        }
      }
      return held;
    }

    /** Marks in {@code held} every entry of {@code retired[0..retiredCount)} that is {@code handle}. */
    private static void markHeld(long handle, long[] retired, int retiredCount, boolean[] held) {
      for (int r = 0; r < retiredCount; r++) {
        if (retired[r] == handle) {
          held[r] = true;
        }
      }
    }
  }

  /**
   * A reference held for a sequence of reads or a native call: while any pin is held, a close only marks the
   * reference closed, and the last pin's release retires it.
   */
  public interface Pin {
    /**
     * {@return the pinned handle, valid until {@link #unpin()}}
     */
    long pinnedHandle();

    /** Gives the pin back; the last one after a close retires the reference. */
    void unpin();
  }
}
