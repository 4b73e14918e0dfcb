package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.ConversionFailure;
import dev.packed4j.runtime.internal.Errors;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.ObjectFormatter;
import dev.packed4j.runtime.internal.ThreadStack;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.codec.Containers;
import dev.packed4j.runtime.internal.codec.ValueCodec;
import java.lang.ref.Reference;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A live view of a native list: reads come straight from the list's memory, writes go through the C ABI, and a
 * change made on either side is visible to the other.
 *
 * <pre>{@code
 * try (NativeList<Object> list = (NativeList<Object>) Registry.global("demo.MakeList").invoke()) {
 *   list.add(42L);
 *   list.get(0);        // decoded from the native P4JAny on each access
 *   list.size();
 * }
 * }</pre>
 *
 * <p>It follows the {@link java.util.List} contract (equality by elements, {@link IndexOutOfBoundsException}
 * for a bad index). Elements are converted by the list's element codec on each access: an object element is a
 * new reference each time, owned by the caller. Like {@link java.util.ArrayList}, it is not safe for concurrent
 * modification; {@link #close()} releases the native reference (a Cleaner does it for a list never closed).
 *
 * @param <E> the element type
 */
public final class NativeList<E> extends AbstractList<E> implements RandomAccess, AutoCloseable {
  private static final CallTarget SET = CallTarget.operation("NativeList.set", "element");
  private static final CallTarget ADD = CallTarget.operation("NativeList.add", "element");
  private static final CallTarget REMOVE = CallTarget.operation("NativeList.remove");

  private final NativeReference reference;
  private final ValueCodec<E> element;

  NativeList(long ownedHandle, ValueCodec<E> element) {
    this.element = element;
    this.reference = new NativeReference(this, ownedHandle);
  }

  /** The live handle; IllegalStateException after close. */
  long handle() {
    long handle = reference.handleOrZero();
    if (handle == 0) {
      throw new IllegalStateException("the NativeList<" + element.javaType() + "> is closed; it cannot be used "
          + "after close()");
    }
    return handle;
  }

  @Override
  public int size() {
    long size = Containers.listSize(handle());
    Reference.reachabilityFence(this);
    return (int) Math.min(size, Integer.MAX_VALUE);
  }

  @Override
  public E get(int index) {
    long handle = handle();
    try {
      checkIndex(index, Containers.listSize(handle));
      return element.decode(Containers.listItem(handle, index), false);
    } catch (ConversionFailure failure) {
      throw failure.toException("element " + index + " of NativeList<" + element.javaType() + ">", null);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public E set(int index, E value) {
    E previous = get(index);
    long handle = handle();
    try (Frame frame = ThreadStack.current().push(SET, 1)) {
      encode(frame, value);
      Errors.check(CApi.P4JListSetItem(handle, index, frame.slot(0)), null);
      return previous;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public boolean add(E value) {
    long handle = handle();
    try (Frame frame = ThreadStack.current().push(ADD, 1)) {
      encode(frame, value);
      Errors.check(CApi.P4JListAppend(handle, frame.slot(0)), null);
      modCount++;
      return true;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public void add(int index, E value) {
    long handle = handle();
    long size = Containers.listSize(handle);
    if (index < 0 || index > size) {
      throw new IndexOutOfBoundsException("index " + index + " out of bounds for insertion into a list of size "
          + size);
    }
    try (Frame frame = ThreadStack.current().push(ADD, 1)) {
      encode(frame, value);
      Errors.check(CApi.P4JListInsert(handle, index, frame.slot(0)), null);
      modCount++;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public E remove(int index) {
    long handle = handle();
    checkIndex(index, Containers.listSize(handle));
    try (Frame frame = ThreadStack.current().push(REMOVE, 0)) {
      Errors.check(CApi.P4JListErase(handle, index, frame.result()), null);
      modCount++;
      frame.resultWritten();
      return frame.returnValue(element);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public void clear() {
    long handle = handle();
    Errors.check(CApi.P4JListClear(handle), null);
    modCount++;
    Reference.reachabilityFence(this);
  }

  /** Releases the native reference; idempotent. */
  @Override
  public void close() {
    reference.release();
  }

  /** {@return whether {@link #close()} was called} */
  public boolean isClosed() {
    return reference.handleOrZero() == 0;
  }

  @Override
  public String toString() {
    if (isClosed()) {
      return "NativeList<" + element.javaType() + ">[closed]";
    }
    // Formatted from native memory with a depth limit: a native list may contain itself, which
    // AbstractList.toString would follow forever (each element read is a new view, not this one).
    try {
      return ObjectFormatter.format(handle(), CApi.kP4JList);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private void encode(Frame frame, E value) {
    if (value == null && !element.acceptsNull()) {
      throw new NullPointerException("NativeList<" + element.javaType() + "> elements must not be null");
    }
    frame.put(0, element, value);
  }

  private static void checkIndex(int index, long size) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("index " + index + " out of bounds for a list of size " + size);
    }
  }
}
