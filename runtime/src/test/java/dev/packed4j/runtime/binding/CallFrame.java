package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * For tests: one call through the thread's call frame, written out: put the arguments, invoke, take the result,
 * close. The runtime builds the same steps into a method's call-frame route ({@code internal.route.FrameRoute});
 * this facade over {@link Frame} lets the tests drive each step and each failure on its own.
 *
 * <pre>{@code
 * try (CallFrame frame = CallFrame.open(ADD, 2)) {
 *   frame.putLong(0, a);
 *   frame.putLong(1, b);
 *   frame.invoke();
 *   return frame.returnInt();
 * }
 * }</pre>
 *
 * <p>The frame lives on the calling thread's argument stack (native memory reused across calls); opening one
 * allocates nothing, and a callback that calls again from inside the call stacks a new frame above it.
 * Arguments are borrowed by the callee: strings and bytes are copied to the stack's scratch memory, objects pass
 * the handle Java owns, and Java collections become temporary native containers. {@link #close()} releases those
 * temporaries, the scratch memory and any result not taken.
 *
 * <p>A frame belongs to the thread that opened it and is used inside one try-with-resources block.
 */
public final class CallFrame implements AutoCloseable {
  /** The wrapper of each of the thread's frames, made once, so that driving a frame allocates nothing. */
  private static final ThreadLocal<Map<Frame, CallFrame>> WRAPPERS =
      ThreadLocal.withInitial(IdentityHashMap::new);

  private final Frame frame;

  private CallFrame(Frame frame) {
    this.frame = frame;
  }

  /**
   * Opens a frame for a call of {@code site} with {@code argumentCount} arguments (each None until put).
   *
   * @param site the call site
   * @param argumentCount the number of arguments
   * @return the thread's frame, open for this call; close it (try-with-resources) when the call is over
   */
  public static CallFrame open(FunctionSite site, int argumentCount) {
    ThreadStack stack = ThreadStack.current();
    Frame next = stack.next();
    CallFrame callFrame = WRAPPERS.get().computeIfAbsent(next, CallFrame::new);
    // Opened through callFrame.frame, the reference every method below reads (see ThreadStack.push).
    stack.push(callFrame.frame, site.target, argumentCount);
    return callFrame;
  }

  /**
   * An int64 argument; also for {@code int}, {@code short}, {@code byte} and {@code char}, widened.
   *
   * @param index the argument's position, from 0
   * @param value the value
   */
  public void putLong(int index, long value) {
    frame.putLong(index, value);
  }

  /**
   * A float64 argument; also for {@code float}, widened.
   *
   * @param index the argument's position, from 0
   * @param value the value
   */
  public void putDouble(int index, double value) {
    frame.putDouble(index, value);
  }

  /**
   * A bool argument.
   *
   * @param index the argument's position, from 0
   * @param value the value
   */
  public void putBoolean(int index, boolean value) {
    frame.putBoolean(index, value);
  }

  /**
   * A string argument, passed as a UTF-8 view (embedded NULs kept).
   *
   * @param index the argument's position, from 0
   * @param value the string, read during the call only
   * @throws NullPointerException naming function and argument when {@code value} is null
   */
  public void putString(int index, String value) {
    frame.putString(index, value);
  }

  /**
   * A bytes argument, passed as a view of a copy.
   *
   * @param index the argument's position, from 0
   * @param value the bytes, copied
   * @throws NullPointerException naming function and argument when {@code value} is null
   */
  public void putBytes(int index, byte[] value) {
    frame.putBytes(index, value);
  }

  /**
   * Any other argument (boxes, objects, containers, optionals), converted by {@code codec}.
   *
   * @param <T> the Java type
   * @param index the argument's position, from 0
   * @param codec the codec of the parameter's type
   * @param value the value
   * @throws NullPointerException naming function and argument when {@code value} (or an element) is null and
   *     the type forbids it
   * @throws IllegalStateException when {@code value} (or an element) is a closed object
   */
  public <T> void put(int index, Codec<T> codec, T value) {
    frame.put(index, Codecs.implementation(codec), value);
  }

  /**
   * Calls the function.
   *
   * @throws dev.packed4j.runtime.Packed4jException with the native error's kind, message and backtrace, or a
   *     KeyError when no loaded library registers the function
   */
  public void invoke() {
    frame.invoke();
  }

  /** For a {@code void} method: the result, if any, is released at close. */
  public void returnVoid() {
    // Nothing to convert: close() releases whatever the function returned.
  }

  /** {@return an int64 result; a TypeError naming expected and actual type for anything else} */
  public long returnLong() {
    return frame.returnLong();
  }

  /** {@return an int64 result that fits in {@code int}; ValueError otherwise, never truncation} */
  public int returnInt() {
    return frame.returnInt();
  }

  /** {@return an int64 result that fits in {@code short}; ValueError otherwise} */
  public short returnShort() {
    return frame.returnShort();
  }

  /** {@return an int64 result that fits in {@code byte}; ValueError otherwise} */
  public byte returnByte() {
    return frame.returnByte();
  }

  /** {@return a float64 result (an int64 result is widened)} */
  public double returnDouble() {
    return frame.returnDouble();
  }

  /** {@return a float64 result as {@code float}; ValueError for a finite value beyond the float range} */
  public float returnFloat() {
    return frame.returnFloat();
  }

  /** {@return a bool result} */
  public boolean returnBoolean() {
    return frame.returnBoolean();
  }

  /** {@return a string result (null for None)} */
  public String returnString() {
    return frame.returnString();
  }

  /** {@return a bytes result (null for None)} */
  public byte[] returnBytes() {
    return frame.returnBytes();
  }

  /**
   * The result converted by {@code codec}; the result's native reference moves to the returned value.
   *
   * @param <T> the Java type
   * @param codec the codec of the result type
   * @return the converted result
   */
  public <T> T returnValue(Codec<T> codec) {
    return frame.returnValue(Codecs.implementation(codec));
  }

  /** Releases temporaries, scratch memory and a result not taken; idempotent. */
  @Override
  public void close() {
    frame.close();
  }
}
