package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JBool;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JBytes;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JBytesView;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JFloat;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JInt;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JStrView;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JString;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.tensor.TensorWords;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * One call in progress on this thread: argument slots, a result slot, scratch memory and the native objects
 * made for the arguments, all released by {@link #close()}.
 *
 * <p>Frames are pooled per nesting level by {@link ThreadStack}; opening and closing one allocates nothing on the
 * Java heap. Arguments are borrowed by the callee: strings and bytes are views of scratch memory, objects are
 * the handles Java owns (kept reachable until the frame closes), containers built from Java collections are
 * temporary native objects released at close. The result is owned by the frame until a {@code return...}
 * method takes it; close releases a result nobody took.
 */
public final class Frame implements AutoCloseable {
  /** {@link #state}: closed, or not yet opened. */
  private static final int CLOSED = 0;
  /** {@link #state}: open. */
  private static final int OPEN = 1;
  /** {@link #state} bit: the result slot holds what a call wrote, which close releases unless it was taken. */
  private static final int RESULT = 2;
  /** {@link #state} bit: temporaries or kept-alive owners, dropped at close. */
  private static final int EXTRAS = 4;

  private final ThreadStack stack;
  private final int level;
  private CallTarget target;
  private int argumentCount;
  private long arguments;
  private long result;
  /** The stack's top when this frame opened, restored when it closes. */
  private long savedTop;
  /** The chunk this frame opened in when it has since allocated in a later one, else -1. */
  private int savedChunk = -1;
  private long[] temporaries = new long[8];
  private int temporaryCount;
  private Object[] keptAlive = new Object[8];
  /** The pins of {@link #keptAlive}'s handles, index for index. */
  private ReleaseEpochs.Pin[] keptPins = new ReleaseEpochs.Pin[8];
  private int keptAliveCount;
  /** Bit i: argument slot i (below 64) was not written since open; invoke() writes None there. */
  private long unwritten;
  /**
   * {@link #CLOSED}, or {@link #OPEN} with the bits {@link #RESULT} and {@link #EXTRAS}: one field to write at
   * open and to test at close, so a call that made no temporaries and whose result was taken closes with one
   * comparison.
   */
  private int state;

  Frame(ThreadStack stack, int level) {
    this.stack = stack;
    this.level = level;
  }

  void open(CallTarget target, int argumentCount, long arguments, long result, long savedTop) {
    if (this.target != target) {
      // Skips the GC write barrier of a reference store when the frame serves the same call again.
      this.target = target;
    }
    this.argumentCount = argumentCount;
    this.arguments = arguments;
    this.result = result;
    this.savedTop = savedTop;
    // None is all zero bits: type index 0, small length 0, payload 0. Argument slots are written once, by their
    // put or, for those never put, by invoke(): writing None first and the value over it costs twice the stores,
    // and the callee reading a slot written in several pieces is slower still.
    NativeMemory.putLong(result, 0);
    NativeMemory.putLong(result + 8, 0);
    if (argumentCount < Long.SIZE) {
      unwritten = (1L << argumentCount) - 1;
    } else {
      unwritten = -1L;
      writeNone(Long.SIZE, argumentCount);
    }
    this.state = OPEN;
  }

  int level() {
    return level;
  }

  long savedTop() {
    return savedTop;
  }

  int savedChunk() {
    return savedChunk;
  }

  /** Records that this frame, opened in chunk {@code index}, now allocates in a later one (the first time only). */
  void saveChunk(int index) {
    if (savedChunk < 0) {
      savedChunk = index;
    }
  }

  void forgetSavedChunk() {
    savedChunk = -1;
  }

  public CallTarget target() {
    return target;
  }

  /** Whether the frame is open (between ThreadStack.push and close). */
  public boolean isOpen() {
    return state != CLOSED;
  }

  // ---------------------------------------------------------------- memory

  /** The address of argument slot {@code index}, which the caller writes a whole value to. */
  public long slot(int index) {
    if (index < 0 || index >= argumentCount) {
      throw new IndexOutOfBoundsException("argument index " + index + " of " + target.functionName()
          + ", which takes " + argumentCount + " argument" + (argumentCount == 1 ? "" : "s"));
    }
    if (index < Long.SIZE) {
      unwritten &= ~(1L << index);
    }
    return arguments + index * P4JAny.SIZE;
  }

  /** Sets the argument slots {@code from} (inclusive) to {@code to} (exclusive) to None. */
  private void writeNone(int from, int to) {
    for (int i = from; i < to; i++) {
      long slot = arguments + i * P4JAny.SIZE;
      NativeMemory.putLong(slot, 0);
      NativeMemory.putLong(slot + 8, 0);
    }
  }

  /** Sets the argument slots below 64 that were not written to None. */
  private void writeNoneToUnwritten() {
    long bits = unwritten;
    while (bits != 0) {
      int index = Long.numberOfTrailingZeros(bits);
      writeNone(index, index + 1);
      bits &= bits - 1;
    }
    unwritten = 0;
  }

  /** The address of the first argument slot. */
  public long arguments() {
    return arguments;
  }

  /** The address of the result slot. */
  public long result() {
    return result;
  }

  /** Scratch memory valid until this frame closes. */
  public long scratch(long size, long alignment) {
    return stack.allocate(size, alignment);
  }

  /** A native object made for an argument; released when the frame closes. */
  public void ownTemporary(long handle) {
    if (temporaryCount == temporaries.length) {
      temporaries = Arrays.copyOf(temporaries, temporaryCount * 2);
    }
    temporaries[temporaryCount++] = handle;
    state |= EXTRAS;
  }

  /**
   * Holds a borrowed handle's pin and keeps its Java owner reachable (its Cleaner cannot run) until the frame
   * closes: a close of the owner on another thread during the call waits for it.
   *
   * @param owner the Java object the handle belongs to
   * @param pin the pin the caller took on it, given back at close
   */
  public void keepPinned(Object owner, ReleaseEpochs.Pin pin) {
    if (keptAliveCount == keptAlive.length) {
      keptAlive = Arrays.copyOf(keptAlive, keptAliveCount * 2);
      keptPins = Arrays.copyOf(keptPins, keptAliveCount * 2);
    }
    keptPins[keptAliveCount] = pin;
    keptAlive[keptAliveCount++] = owner;
    state |= EXTRAS;
  }

  // ---------------------------------------------------------------- arguments

  public void putLong(int index, long value) {
    NativeMemory.putAny(slot(index), kP4JInt, 0, value);
  }

  public void putDouble(int index, double value) {
    NativeMemory.putAnyDouble(slot(index), kP4JFloat, value);
  }

  public void putBoolean(int index, boolean value) {
    NativeMemory.putAny(slot(index), kP4JBool, 0, value ? 1 : 0);
  }

  public void putString(int index, String value) {
    long slot = slot(index);
    if (value == null) {
      throw new NullPointerException(target.describeArgument(index)
          + " is null; a String argument must not be null (declare Optional<String> to pass None)");
    }
    try {
      encodeString(slot, value);
    } catch (ConversionFailure failure) {
      throw failure.toException(target.describeArgument(index), target.exceptionFunctionName());
    }
  }

  public void putBytes(int index, byte[] value) {
    long slot = slot(index);
    if (value == null) {
      throw new NullPointerException(target.describeArgument(index)
          + " is null; a byte[] argument must not be null (declare Optional<byte[]> to pass None)");
    }
    encodeBytes(slot, value);
  }

  public <T> void put(int index, ValueCodec<T> codec, T value) {
    long slot = slot(index);
    if (value == null && !codec.acceptsNull()) {
      throw codec.nullArgument(target.describeArgument(index));
    }
    try {
      codec.encode(value, slot, this);
    } catch (ConversionFailure failure) {
      throw failure.toException(target.describeArgument(index), target.exceptionFunctionName());
    } catch (ClassCastException wrongClass) {
      // A value of another class than T, which only a raw or unchecked caller can pass (a String added to a raw
      // NativeList<Long>): the codec's cast found it.
      throw ConversionFailure.wrongClass(value, codec.javaType())
          .toException(target.describeArgument(index), target.exceptionFunctionName());
    }
  }

  /**
   * A String argument already in scratch memory as a span ({@code P4JByteArray}, from
   * {@link ThreadStack#putStringSpan}): written as a {@code kP4JStrView} of the same bytes, not copied again. The
   * call-frame route takes a String parameter this way, as a typed entry does.
   */
  public void putSpan(int index, long span) {
    long slot = slot(index);
    long length = NativeMemory.getLong(span + 8);
    try {
      Utf8.checkViewLength(length);
    } catch (ConversionFailure failure) {
      throw failure.toException(target.describeArgument(index), target.exceptionFunctionName());
    }
    NativeMemory.putAny(slot, kP4JStrView, (int) length, NativeMemory.getLong(span));
  }

  /**
   * Writes the tensor a typed entry's tensor word stands for (from {@code RuntimeAccess.ndarrayWord}): the NDArray
   * object of a handle, borrowed, or a {@code kP4JDLTensorPtr} to a borrowed DLTensor, completed first.
   */
  public void putTensorWord(int index, long word) {
    long slot = slot(index);
    if ((word & CApi.P4J_TENSOR_WORD_BORROWED) != 0) {
      NativeMemory.putAny(slot, CApi.kP4JDLTensorPtr, 0, TensorWords.completeBorrowed(word));
    } else {
      NativeMemory.putAny(slot, CApi.kP4JNDArray, 0, word);
    }
  }

  /** Writes a {@code kP4JStrView} of the UTF-8 bytes of {@code value}, copied to scratch memory. */
  public void encodeString(long slot, String value) {
    stack.putStringView(slot, value);
  }

  /**
   * A {@code P4JByteArray} in scratch memory spanning the UTF-8 bytes of {@code value} (followed by a NUL); its
   * address, valid until the frame closes.
   */
  public long stringSpan(String value) {
    return stack.putStringSpan(value);
  }

  /** Writes a {@code kP4JBytesView} of a copy of {@code value} in scratch memory. */
  public void encodeBytes(long slot, byte[] value) {
    long data = scratch(Math.max(value.length, 1), 1);
    MemorySegment.copy(value, 0, NativeMemory.ALL, ValueLayout.JAVA_BYTE, data, value.length);
    NativeMemory.putAny(slot, kP4JBytesView, value.length, data);
  }

  // ---------------------------------------------------------------- call

  /** Calls the target with the arguments; a native error becomes a Packed4jException naming the function. */
  public void invoke() {
    if (state != OPEN) {
      prepareInvoke();
    }
    if (unwritten != 0) {
      writeNoneToUnwritten();
    }
    CallTarget.Linked function = target.linked();
    // Set before the call, not after it: after a downcall the JIT reloads the frame from wherever its caller keeps
    // it and cannot tell that it is this one, so a store here would stay a read-modify-write of memory.
    // Whether the result is an object is left to whoever looks at it next: a return method, or close.
    state |= RESULT;
    int status = SafeCalls.call(function, arguments, argumentCount, result);
    if (status != 0) {
      state &= ~RESULT;
      NativeMemory.putLong(result, 0);
      NativeMemory.putLong(result + 8, 0);
      throw Errors.takeRaised(target.exceptionFunctionName());
    }
  }

  /** Before a call on a frame that is closed (an error) or holds a result already (released, the slot None). */
  private void prepareInvoke() {
    checkOpen();
    if ((state & RESULT) != 0) {
      releaseResult();
      NativeMemory.putLong(result, 0);
      NativeMemory.putLong(result + 8, 0);
    }
  }

  /**
   * Records that a C function other than P4JFunctionCall wrote an owned value to {@link #result()}, so that
   * close releases it unless a {@code return...} method takes it.
   */
  public void resultWritten() {
    checkOpen();
    state |= RESULT;
  }

  // ---------------------------------------------------------------- result
  //
  // A scalar result holds no reference: reading one clears RESULT, so that close has nothing to look at.

  // A mismatch names the Java type the caller declared (long, int, float, ...), not the wire kind: the reader of
  // "returned string, expected long" knows the method it wrote.

  public long returnLong() {
    return wireInt("long");
  }

  public int returnInt() {
    return Results.toInt(target, wireInt("int"));
  }

  public short returnShort() {
    return Results.toShort(target, wireInt("short"));
  }

  public byte returnByte() {
    return Results.toByte(target, wireInt("byte"));
  }

  private long wireInt(String javaType) {
    long result = this.result;
    if (NativeMemory.anyTypeIndex(result) != kP4JInt) {
      throw resultMismatch(javaType);
    }
    state &= ~RESULT;
    return NativeMemory.anyPayload(result);
  }

  public double returnDouble() {
    return wireFloat("double");
  }

  public float returnFloat() {
    return Results.toFloat(target, wireFloat("float"));
  }

  private double wireFloat(String javaType) {
    long result = this.result;
    int type = NativeMemory.anyTypeIndex(result);
    if (type == kP4JFloat) {
      state &= ~RESULT;
      return NativeMemory.anyDouble(result);
    }
    if (type == kP4JInt) {
      state &= ~RESULT;
      return Results.toDouble(target, NativeMemory.anyPayload(result));
    }
    throw resultMismatch(javaType);
  }

  public boolean returnBoolean() {
    long result = this.result;
    if (NativeMemory.anyTypeIndex(result) != kP4JBool) {
      throw resultMismatch("boolean");
    }
    state &= ~RESULT;
    return NativeMemory.anyPayload(result) != 0;
  }

  /** The string result; null when the function returned None. */
  public String returnString() {
    int type = NativeMemory.anyTypeIndex(result);
    if (type == kP4JNone) {
      return null;
    }
    if (type != kP4JString) {
      throw resultMismatch("String");
    }
    String value = NativeMemory.spanString(NativeMemory.cell(NativeMemory.anyPayload(result)));
    releaseResult();
    return value;
  }

  /** The bytes result; null when the function returned None. */
  public byte[] returnBytes() {
    int type = NativeMemory.anyTypeIndex(result);
    if (type == kP4JNone) {
      return null;
    }
    if (type != kP4JBytes) {
      throw resultMismatch("byte[]");
    }
    byte[] value = NativeMemory.spanBytes(NativeMemory.cell(NativeMemory.anyPayload(result)));
    releaseResult();
    return value;
  }

  /** The result converted by {@code codec}, which takes over the reference the result holds. */
  public <T> T returnValue(ValueCodec<T> codec) {
    boolean owned = (state & RESULT) != 0 && Values.isObject(NativeMemory.anyTypeIndex(result));
    T value;
    try {
      value = codec.decode(result, owned);
    } catch (ConversionFailure failure) {
      throw failure.toResultException(target.describeSource(), target.exceptionFunctionName());
    }
    state &= ~RESULT;
    return value;
  }

  /** Releases the result a call wrote, if it is an object and was not taken; the slot keeps the stale handle. */
  private void releaseResult() {
    if ((state & RESULT) != 0) {
      state &= ~RESULT;
      releaseResultObject();
    }
  }

  private void releaseResultObject() {
    if (Values.isObject(NativeMemory.anyTypeIndex(result))) {
      CApi.P4JObjectDecRef(NativeMemory.anyPayload(result));
    }
  }

  private RuntimeException resultMismatch(String expected) {
    return ConversionFailure.typeMismatch(Values.describe(result), expected)
        .toResultException(target.describeSource(), target.exceptionFunctionName());
  }

  private void checkOpen() {
    if (state == CLOSED) {
      throw new IllegalStateException("the call frame of " + (target == null ? "a call" : target.functionName())
          + " is closed");
    }
  }

  // ---------------------------------------------------------------- close

  /**
   * Releases the result if not taken, the temporaries and the scratch memory; idempotent. A frame left open
   * above this one (a missed close) is closed first.
   */
  @Override
  public void close() {
    int state = this.state;
    if (state == OPEN) {
      this.state = CLOSED;
      stack.pop(this);
    } else if (state != CLOSED) {
      closeWithResources(state);
    }
  }

  /** close() of a frame whose result was not taken or that made temporaries or kept owners alive. */
  private void closeWithResources(int state) {
    this.state = CLOSED;
    try {
      if ((state & RESULT) != 0) {
        releaseResultObject();
      }
      while (temporaryCount > 0) {
        long handle = temporaries[--temporaryCount];
        CApi.P4JObjectDecRef(handle);
      }
    } finally {
      while (keptAliveCount > 0) {
        int kept = --keptAliveCount;
        ReleaseEpochs.Pin pin = keptPins[kept];
        keptPins[kept] = null;
        keptAlive[kept] = null;
        pin.unpin();
      }
      temporaryCount = 0;
      stack.pop(this);
    }
  }
}
