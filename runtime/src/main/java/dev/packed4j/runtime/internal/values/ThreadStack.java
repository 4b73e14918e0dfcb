package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.Arrays;

/**
 * The calling thread's argument stack: native memory for the {@code P4JAny} slots, result slots and scratch
 * bytes (UTF-8 strings, bulk arrays) of the calls in progress, and a pool of {@link Frame} objects, one per
 * nesting level.
 *
 * <p>Memory is bump-allocated from chunks; a frame gives back everything it allocated when it closes. A chunk
 * never moves while a frame uses it (a callback's frame may stack above a frame whose call is in progress), so
 * the stack grows by adding a chunk, not by reallocating one; a frame that allocates into a later chunk than the
 * one it opened in records that chunk, and restores it when it closes. Chunks up to
 * {@link #RETAINED_CHUNK_LIMIT} are kept; larger ones up to {@link #REUSED_CHUNK_LIMIT} are kept while calls keep
 * needing them (a million-element list passed again and again would otherwise pay for fresh, zeroed, page-faulted
 * memory every time) and dropped after {@link #LARGE_CHUNK_IDLE_CALLS} outermost calls that did not; larger still
 * are dropped when the outermost frame closes. Chunks come from {@link StackChunks} ({@code malloc}) and are freed
 * when dropped. A virtual thread's stack gives all its chunks back when its outermost call ends, so the native
 * memory of a program with a million virtual threads follows the calls in progress, not the threads; a platform
 * thread keeps its chunks, freed once the thread's stack is unreachable (a {@link Cleaner}).
 *
 * <p>The bookkeeping (tops, chunk limits) is checked with {@code assert} where a mistake would make native code write
 * outside the stack: with assertions enabled, as in the tests, such a bug is an AssertionError instead of memory
 * corruption. A scratch mark is checked at every release: a wrong one is an IllegalStateException.
 */
public final class ThreadStack {
  /** The first chunk: enough for the arguments and strings of ordinary calls. */
  static final long FIRST_CHUNK_SIZE = 8 * 1024;
  /** Chunks up to this size are kept for the life of the thread. */
  static final long RETAINED_CHUNK_LIMIT = 1024 * 1024;
  /** Chunks up to this size are kept while calls keep needing them; larger ones go when the call ends. */
  static final long REUSED_CHUNK_LIMIT = 16 * 1024 * 1024;
  /** Outermost calls in a row that do not reach a chunk above {@link #RETAINED_CHUNK_LIMIT} before it is dropped. */
  static final int LARGE_CHUNK_IDLE_CALLS = 256;

  private static final ThreadLocal<ThreadStack> CURRENT = ThreadLocal.withInitial(ThreadStack::new);
  private static final Cleaner CLEANER = Cleaner.create();

  /**
   * A cache in front of {@link #CURRENT}, one slot per thread id modulo its size: finding the stack there is a
   * shorter chain of dependent loads than a ThreadLocal lookup, which every call starts with. A slot is written
   * only when its thread misses (its first call, or another thread with the same slot called since), so threads
   * calling concurrently read their own slots without sharing written cache lines. A slot holds the stack itself,
   * recognised by its thread's id (unique among live threads, and in this JDK never reused), so a hit is one load
   * from the array and a comparison with the id the slot was chosen by; it keeps the stack of a thread that ended
   * until another thread takes the slot: at most {@code CACHE.length} stacks of ended threads stay reachable through
   * it, each holding at most its retained chunks.
   */
  private static final ThreadStack[] CACHE = new ThreadStack[64];

  /** The id of the thread this stack belongs to. */
  private final long threadId = Thread.currentThread().threadId();
  /** Whether that thread is virtual: its stack gives its chunks back after each outermost call. */
  private final boolean virtual = Thread.currentThread().isVirtual();

  /** The chunks, in a holder of their own so the Cleaner can free them without reaching this stack. */
  private final Chunks chunks = new Chunks();
  /** Whether a chunk above {@link #RETAINED_CHUNK_LIMIT} exists, to be dropped when it goes unused. */
  private boolean hasLargeChunk;
  /**
   * {@code virtual || hasLargeChunk}: whether the end of an outermost call has work to do. One field, tested first,
   * so that the close of every call on a platform thread without a large chunk costs one read, as it did before
   * virtual threads gave their memory back.
   */
  private boolean outermostWork;
  /** Whether a chunk above {@link #REUSED_CHUNK_LIMIT} exists, to be dropped when the stack empties. */
  private boolean hasHugeChunk;
  /** Outermost calls since the last that reached a chunk above {@link #RETAINED_CHUNK_LIMIT}. */
  private int callsWithoutLargeChunk;
  private int chunkIndex;
  private long top;
  private long limit;
  /**
   * The pooled frames, one per nesting level, made when the stack first goes that deep. Indexed by an int depth
   * rather than linked: push and pop then store no reference, and a reference store into a long-lived object costs
   * a G1 post-write barrier, which between old regions includes a StoreLoad fence.
   */
  private Frame[] frames = new Frame[8];
  /** Open frames: frames[depth] is the one the next push opens. */
  private int depth;
  /** Scratch marks taken and not yet released ({@link #markScratch}). */
  private int openScratches;
  /**
   * The current chunk's first byte. Chunks never touch ({@link StackChunks} leaves a gap after each), so an address
   * between a chunk's base and its limit, both included, belongs to that chunk alone.
   */
  private long chunkBase;
  /** The mark taken while no other was open: the one whose release closes the last open mark. */
  private long outermostMark;
  /**
   * Pins on the tensors passed by handle to the calls in progress ({@code RuntimeAccess.ndarrayWord}): a close on
   * another thread waits for them. Given back when the outermost scratch mark is released, which every call with
   * an NDArray parameter does in its {@code finally}; a nested call's pins wait for the outermost one, which only
   * delays a release.
   */
  private ReleaseEpochs.Pin[] heldPins = new ReleaseEpochs.Pin[4];
  private int heldPinCount;
  /**
   * The objects passed by handle to the direct calls in progress, held instead of pinned (see
   * {@link ReleaseEpochs.HeldHandles}); null until this thread's first such call.
   */
  private ReleaseEpochs.HeldHandles heldHandles;
  /**
   * The segments under the last wrapped tensors this thread passed to native code ({@link #notePassedSegment}); a
   * ring of four, overwritten, never cleared.
   */
  private final MemorySegment[] passedSegments = new MemorySegment[4];
  private int passedSegmentCount;

  /** The native chunks of one stack: base address, size and end of each; a base of 0 is no chunk. */
  private static final class Chunks implements Runnable {
    long[] bases = new long[4];
    long[] sizes = new long[4];
    long[] limits = new long[4];

    void set(int index, long base, long size) {
      if (index == bases.length) {
        bases = Arrays.copyOf(bases, index * 2);
        sizes = Arrays.copyOf(sizes, index * 2);
        limits = Arrays.copyOf(limits, index * 2);
      }
      bases[index] = base;
      sizes[index] = size;
      limits[index] = base + size;
    }

    /** Gives back chunk {@code index} and those above it. */
    void releaseFrom(int index) {
      for (int i = index; i < bases.length; i++) {
        if (bases[i] != 0) {
          StackChunks.release(bases[i], sizes[i]);
          bases[i] = 0;
          sizes[i] = 0;
          limits[i] = 0;
        }
      }
    }

    /** The Cleaner's action: the stack is unreachable, so its thread has ended. */
    @Override
    public void run() {
      releaseFrom(0);
    }
  }

  private ThreadStack() {
    // Every native call starts here: a core that cannot load (or may not) is its own error on every call, before
    // a class that links the C API fails in its initialiser.
    NativeLibraries.ensureLoaded();
    CLEANER.register(this, chunks);
    outermostWork = virtual;
    if (!virtual) {
      acquireFirstChunk();
    }
  }

  /** Gives the stack its first chunk: at creation, and for a virtual thread at the start of each outermost call. */
  private void acquireFirstChunk() {
    chunks.set(0, StackChunks.allocate(FIRST_CHUNK_SIZE), FIRST_CHUNK_SIZE);
    enterChunk(0);
  }

  /** Whether the stack holds no chunk (a virtual thread's between calls). */
  private boolean hasNoChunk() {
    return limit == 0;
  }

  /** At the end of an outermost call (no frame, no mark open): a virtual thread's stack gives its chunks back. */
  private void afterOutermost() {
    if (virtual) {
      chunks.releaseFrom(0);
      chunkIndex = 0;
      top = 0;
      limit = 0;
      chunkBase = 0;
      hasLargeChunk = false;
      hasHugeChunk = false;
      callsWithoutLargeChunk = 0;
    } else if (hasLargeChunk) {
      afterOutermostCall();
    }
  }

  /** The calling thread's stack. */
  public static ThreadStack current() {
    long threadId = Thread.currentThread().threadId();
    ThreadStack cached = CACHE[(int) threadId & (CACHE.length - 1)];
    if (cached != null && cached.threadId == threadId) {
      return cached;
    }
    return currentSlow(threadId);
  }

  private static ThreadStack currentSlow(long threadId) {
    ThreadStack stack = CURRENT.get();
    CACHE[(int) threadId & (CACHE.length - 1)] = stack;
    return stack;
  }

  /** Opens a frame with {@code argumentCount} argument slots (None until put or invoked) and a result slot (None). */
  public Frame push(CallTarget target, int argumentCount) {
    Frame frame = next();
    push(frame, target, argumentCount);
    return frame;
  }

  /** The frame the next {@link #push} opens: the pooled frame of the next level, made now the first time. */
  public Frame next() {
    Frame[] frames = this.frames;
    int depth = this.depth;
    if (depth < frames.length) {
      Frame frame = frames[depth];
      if (frame != null) {
        return frame;
      }
    }
    return addFrame();
  }

  private Frame addFrame() {
    if (depth == frames.length) {
      frames = Arrays.copyOf(frames, depth * 2);
    }
    Frame frame = new Frame(this, depth);
    frames[depth] = frame;
    return frame;
  }

  /**
   * Opens {@code frame}, which must be {@link #next()}, for a caller that reached it through a reference of its own
   * (the tests' {@code CallFrame} wrapper): the JIT, which cannot know that this frame is the one the stack handed
   * out, then sees the stores of the opening and the reads of the puts, invoke and close through one reference, and
   * folds the argument index checks, the unwritten-slot mask and the close checks.
   *
   * <p>The fast path, which every call through a call frame takes, is kept small enough for the JIT to inline
   * into the method with the rest of the call; a new chunk, a bad count or a misuse go to {@link #pushSlow}.
   */
  public void push(Frame frame, CallTarget target, int argumentCount) {
    long base = top;
    long arguments = (base + 15) & -16;
    long result = arguments + argumentCount * P4JAny.SIZE;
    int level = frame.level();
    if (level != depth || argumentCount < 0 || result + P4JAny.SIZE > limit) {
      pushSlow(frame, target, argumentCount);
      return;
    }
    top = result + P4JAny.SIZE;
    depth = level + 1;
    frame.open(target, argumentCount, arguments, result, base);
  }

  private void pushSlow(Frame frame, CallTarget target, int argumentCount) {
    if (frame.level() != depth || depth >= frames.length || frames[depth] != frame) {
      throw new IllegalStateException("not the next frame of this thread's stack");
    }
    if (argumentCount < 0) {
      throw new IllegalArgumentException("negative argument count " + argumentCount + " for "
          + target.functionName());
    }
    if (hasNoChunk()) {
      acquireFirstChunk();
    }
    long base = top;
    // The frame is the innermost from here on, so allocate() records on it a move to the next chunk.
    depth++;
    long arguments;
    try {
      arguments = allocate((argumentCount + 1L) * P4JAny.SIZE, 16);
    } catch (RuntimeException | Error e) {
      depth--;
      frame.forgetSavedChunk();
      throw e;
    }
    frame.open(target, argumentCount, arguments, arguments + argumentCount * P4JAny.SIZE, base);
  }

  /** Nesting level of open frames. */
  public int depth() {
    return depth;
  }

  /** The innermost open frame, or null. */
  private Frame innermost() {
    return depth == 0 ? null : frames[depth - 1];
  }

  /** Closes {@code frame}, first closing any frame above it that was left open. */
  void pop(Frame frame) {
    int level = frame.level();
    if (depth != level + 1) {
      closeAbove(frame);
      if (depth != level + 1) {
        return; // not open on this stack: closed already by a frame below it
      }
    }
    depth = level;
    top = frame.savedTop();
    if (frame.savedChunk() >= 0) {
      restoreChunk(frame);
    }
    assert top >= chunks.bases[chunkIndex] && top <= limit : "a frame restored a top outside its chunk";
    if (outermostWork && level == 0 && openScratches == 0) {
      afterOutermost();
    }
  }

  /** An outermost call ended while a large chunk exists: drops it if it is huge or has gone unused for long. */
  private void afterOutermostCall() {
    if (hasHugeChunk || ++callsWithoutLargeChunk > LARGE_CHUNK_IDLE_CALLS) {
      trim();
    }
  }

  // ------------------------------------------------------------- scratch marks (no frame)

  /**
   * Marks the top of the stack for {@link #releaseScratch}: scratch memory for a call that needs bytes but no frame
   * (a direct entry's strings and tensors). Marks nest with frames and with each other, and are released in reverse
   * order. The mark is the top's address; its chunk is found again from it when a release must go back to it.
   */
  public long markScratch() {
    if (hasNoChunk()) {
      acquireFirstChunk();
    }
    if (openScratches++ == 0) {
      outermostMark = top;
    }
    return top;
  }

  /**
   * Gives back everything allocated since {@code mark} (from {@link #markScratch}). In the same chunk, a mark at or
   * below the top, as the innermost open mark is, costs one test (and the last open mark a second, that it is the
   * outermost one); anything else takes {@link #releaseScratchSlow}.
   */
  public void releaseScratch(long mark) {
    int open = openScratches - 1;
    // No mark open, or not a mark of this chunk at or below the top, or the last release not of the outermost mark.
    if ((open | (mark - chunkBase) | (top - mark)) < 0 || (open == 0 && mark != outermostMark)) {
      releaseScratchSlow(mark);
      return;
    }
    openScratches = open;
    top = mark;
    if (outermostWork && depth == 0 && open == 0) {
      afterOutermost();
    }
  }

  /**
   * A release that goes back to an earlier chunk (calls above the mark moved the stack on), or that is wrong: no
   * mark is open, {@code mark} lies in no chunk of this stack at or below the top, or it would close the last open
   * mark but is not the outermost one (a mark released twice: letting it through would let a virtual thread give
   * back memory a call in progress still uses).
   */
  private void releaseScratchSlow(long mark) {
    int open = openScratches - 1;
    int chunk = open < 0 || (open == 0 && mark != outermostMark) ? -1 : chunkHolding(mark);
    if (chunk < 0 || (chunk == chunkIndex && mark > top)) {
      throw notTheInnermostMark(mark);
    }
    openScratches = open;
    enterChunk(chunk);
    top = mark;
    if (outermostWork && depth == 0 && open == 0) {
      afterOutermost();
    }
  }

  /** The chunk up to the current one whose memory (its end included) holds {@code address}, or -1. */
  private int chunkHolding(long address) {
    for (int i = 0; i <= chunkIndex; i++) {
      if (chunks.bases[i] != 0 && address >= chunks.bases[i] && address <= chunks.limits[i]) {
        return i;
      }
    }
    return -1;
  }

  private static IllegalStateException notTheInnermostMark(long mark) {
    return new IllegalStateException("scratch mark " + mark + " is not the innermost open mark of this thread's "
        + "stack: released twice, or out of order with the frames and marks above it");
  }

  /**
   * Notes that a wrapped tensor over {@code segment} is passed to native code by this thread. Native code may give
   * back a tensor over the same memory with a handle of its own (a view made by {@code NDArray::View}, or the object
   * a C++ {@code NDArray} parameter makes from a borrowed DLTensor), which Java cannot link to the wrapped tensor by
   * its handle; {@link #passedSegmentHolding} links it by its data pointer, so that it too checks the segment's
   * arena before every use.
   *
   * @param segment the wrapped tensor's segment
   */
  public void notePassedSegment(MemorySegment segment) {
    int count = passedSegmentCount;
    passedSegments[count & 3] = segment;
    passedSegmentCount = count + 1;
  }

  /**
   * The segment of a wrapped tensor this thread recently passed to native code ({@link #notePassedSegment}), the
   * newest first, that holds the bytes {@code [low, high)} of a tensor while its arena is open; else null. A dead
   * segment is no match: its memory may since hold a native tensor of its own.
   *
   * @param low the address of the tensor's first byte
   * @param high one past the address of its last byte ({@code low} for an empty tensor)
   * @return the segment, or null
   */
  public MemorySegment passedSegmentHolding(long low, long high) {
    MemorySegment[] recent = passedSegments;
    int count = passedSegmentCount;
    for (int back = 1; back <= recent.length; back++) {
      MemorySegment noted = recent[(count - back) & (recent.length - 1)];
      if (noted != null && low >= noted.address() && high - noted.address() <= noted.byteSize()
          && noted.scope().isAlive()) {
        return noted;
      }
    }
    return null;
  }

  /**
   * Holds {@code pin} until the outermost scratch mark is released ({@link #releaseHeldPins}).
   *
   * @param pin a pin the caller took for a direct call in progress, inside an open scratch mark
   */
  public void holdPin(ReleaseEpochs.Pin pin) {
    if (heldPinCount == heldPins.length) {
      heldPins = Arrays.copyOf(heldPins, heldPinCount * 2);
    }
    heldPins[heldPinCount++] = pin;
  }

  /**
   * The calling thread's held handles: a direct call holds the objects it passes there, and restores the depth it
   * found when it returns.
   *
   * @return the calling thread's list, registered with the release epochs at its first use
   */
  public static ReleaseEpochs.HeldHandles currentHeldHandles() {
    long threadId = Thread.currentThread().threadId();
    ReleaseEpochs.HeldHandles held = HELD_CACHE[(int) threadId & (HELD_CACHE.length - 1)];
    if (held != null && held.threadId() == threadId) {
      return held;
    }
    return currentHeldHandlesSlow(threadId);
  }

  /**
   * A cache of the threads' holders beside {@link #CACHE}, kept as that one is (one slot per thread id modulo its
   * size, written only when its thread misses): a call that passes an object finds its holder in one load from the
   * array and a comparison of ids, instead of the stack's lookup and a load of its field. It keeps the holder of a
   * thread that ended until another thread takes the slot (its count is 0: every call restored it).
   */
  private static final ReleaseEpochs.HeldHandles[] HELD_CACHE = new ReleaseEpochs.HeldHandles[64];

  private static ReleaseEpochs.HeldHandles currentHeldHandlesSlow(long threadId) {
    ThreadStack stack = current();
    ReleaseEpochs.HeldHandles held = stack.heldHandles;
    if (held == null) {
      held = ReleaseEpochs.HeldHandles.register();
      stack.heldHandles = held;
    }
    HELD_CACHE[(int) threadId & (HELD_CACHE.length - 1)] = held;
    return held;
  }

  /** {@return whether pins are held, which the release of a scratch mark then gives back if it is the outermost} */
  public boolean holdsPins() {
    return heldPinCount != 0;
  }

  /** Gives back the held pins once no scratch mark is open (the outermost direct call has ended). */
  public void releaseHeldPins() {
    if (openScratches != 0) {
      return;
    }
    while (heldPinCount > 0) {
      ReleaseEpochs.Pin pin = heldPins[--heldPinCount];
      heldPins[heldPinCount] = null;
      pin.unpin();
    }
  }

  /**
   * Writes the UTF-8 bytes of {@code value} into scratch memory as {@link #putStringSpan} does and, at {@code slot},
   * a {@code kP4JStrView} of them: a String argument that a native call reads during the call only.
   *
   * @param slot the address of the {@code P4JAny} to write
   * @param value the string
   * @throws ConversionFailure for a string whose UTF-8 form is too long for a view
   */
  public void putStringView(long slot, String value) {
    long span = putStringSpan(value);
    long length = NativeMemory.getLong(span + 8);
    Utf8.checkViewLength(length);
    NativeMemory.putAny(slot, CApi.kP4JStrView, (int) length, NativeMemory.getLong(span));
  }

  /**
   * The string encoder of every call: the span ({@code P4JByteArray}: data, size) of the UTF-8 bytes of
   * {@code value} followed by a NUL, both in scratch memory; its address, valid until the innermost mark or frame is
   * released. A typed entry takes the span's address, a call frame a {@code kP4JStrView} of its bytes.
   */
  public long putStringSpan(String value) {
    int chars = value.length();
    long span;
    long length;
    if (chars <= Utf8.BOUNDED_CHARS) {
      span = allocate(16 + Utf8.boundedCapacity(chars), 8);
      length = Utf8.encodeBounded(value, span + 16);
    } else {
      boolean ascii = Utf8.isAscii(value);
      length = ascii ? chars : Utf8.encodedLength(value);
      span = allocate(16 + length + 1, 8);
      Utf8.encode(value, span + 16, ascii);
    }
    NativeMemory.putLong(span, span + 16);
    NativeMemory.putLong(span + 8, length);
    return span;
  }

  /**
   * {@code size} bytes of scratch memory, 8-byte aligned, valid until the innermost mark or frame is released (the
   * caller holds one): what a direct entry's tensor argument is written into.
   */
  public long allocateScratch(long size) {
    return allocate(size, 8);
  }

  /** A frame left open above one that closes (a missed close): closed now, innermost first. */
  private void closeAbove(Frame frame) {
    while (depth > frame.level() + 1) {
      Frame inner = innermost();
      inner.close();
      if (innermost() == inner) {
        throw new IllegalStateException("a call frame of " + inner.target().functionName() + " did not close");
      }
    }
  }

  /** The frame allocated in a later chunk than the one it opened in: back to that chunk. */
  private void restoreChunk(Frame frame) {
    setChunk(frame.savedChunk());
    frame.forgetSavedChunk();
  }

  /** Bump-allocates {@code size} bytes aligned to {@code alignment} (a power of two), valid until the frame closes. */
  long allocate(long size, long alignment) {
    long address = (top + alignment - 1) & -alignment;
    if (address + size <= limit && address + size >= address) {
      top = address + size;
      assert address >= chunks.bases[chunkIndex] : "an allocation below its chunk";
      return address;
    }
    return allocateInNextChunk(size, alignment);
  }

  private long allocateInNextChunk(long size, long alignment) {
    if (size < 0) {
      throw new IllegalArgumentException("a negative size of scratch memory: " + size);
    }
    if (hasNoChunk()) {
      acquireFirstChunk(); // a virtual thread's stack, allocating outside a frame or mark (tests do)
      return allocate(size, alignment);
    }
    int next = chunkIndex + 1;
    long needed = size + alignment;
    if (next >= chunks.bases.length || chunks.bases[next] == 0 || chunks.sizes[next] < needed) {
      long previous = chunks.sizes[chunkIndex];
      long chunkSize = Math.max(previous * 2, Math.max(needed, FIRST_CHUNK_SIZE));
      // Chunks above the current one are not in use (frames are nested), so they can be replaced.
      chunks.releaseFrom(next);
      chunks.set(next, StackChunks.allocate(chunkSize), chunkSize);
      hasLargeChunk |= chunkSize > RETAINED_CHUNK_LIMIT;
      outermostWork = virtual || hasLargeChunk;
      hasHugeChunk |= chunkSize > REUSED_CHUNK_LIMIT;
    }
    Frame frame = innermost();
    if (frame != null) {
      frame.saveChunk(chunkIndex);
    }
    enterChunk(next);
    if (chunks.sizes[next] > RETAINED_CHUNK_LIMIT) {
      callsWithoutLargeChunk = 0;
    }
    return allocate(size, alignment);
  }

  private void enterChunk(int index) {
    assert chunks.bases[index] != 0 : "entering a chunk that does not exist";
    setChunk(index);
    top = chunks.bases[index];
  }

  /** Makes chunk {@code index} the current one (the caller sets the top). */
  private void setChunk(int index) {
    chunkIndex = index;
    limit = chunks.limits[index];
    chunkBase = chunks.bases[index];
  }

  private void trim() {
    for (int i = 1; i < chunks.bases.length; i++) {
      if (chunks.bases[i] != 0 && chunks.sizes[i] > RETAINED_CHUNK_LIMIT) {
        chunks.releaseFrom(i);
        if (chunkIndex >= i) {
          enterChunk(0); // nothing is open at the end of an outermost call
        }
        break;
      }
    }
    hasLargeChunk = false;
    hasHugeChunk = false;
    callsWithoutLargeChunk = 0;
    outermostWork = virtual;
  }

  /** Bytes of native memory this thread's stack holds, for tests. */
  long reservedBytes() {
    long total = 0;
    for (long size : chunks.sizes) {
      total += size;
    }
    return total;
  }

  /** Bytes of native memory the argument stacks of all threads hold, pooled chunks included. */
  public static long nativeBytesInUse() {
    return StackChunks.liveBytes();
  }
}
