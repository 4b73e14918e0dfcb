package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.ContainerLocks;
import dev.packed4j.runtime.internal.values.Containers;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.ObjectFormatter;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.ValueCodec;
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
 * new reference each time, owned by the caller. Each read and change is atomic, also across several views of one
 * list, as in {@link java.util.Collections#synchronizedList}: threads may share and change a list through its views.
 * Iterating while another thread changes the list may skip or repeat elements, or end with an exception; lock
 * around it for a consistent pass. C++ code that changes a list while Java uses it must synchronize with Java
 * itself. {@link #close()} releases the native reference (a Cleaner does it for a list never closed).
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

  /**
   * A pin on the list's reference, so that a close on another thread cannot free the list while this thread reads
   * or changes it: give it back with {@code reference.unpin()}, then fence this object. IllegalStateException after
   * close.
   */
  ReleaseEpochs.Pin pin() {
    if (!reference.tryPin()) {
      throw new IllegalStateException(closedText());
    }
    return reference;
  }

  /** {@return what using the list after close says: "the NativeList<Long> is closed; ..."} */
  private String closedText() {
    return "the NativeList<" + element.javaType() + "> is closed; it cannot be used after close()";
  }

  /**
   * The pinned handle; every use below unpins in its finally. After close, the IllegalStateException names the
   * method, {@code member} ({@code "NativeList.size(): the NativeList<Long> is closed; ..."}), as a function's
   * message names the function.
   */
  private long pinHandle(String member) {
    if (!reference.tryPin()) {
      throw new IllegalStateException("NativeList." + member + ": " + closedText());
    }
    return reference.pinnedHandle();
  }

  @Override
  public int size() {
    long handle = pinHandle("size()");
    try {
      synchronized (ContainerLocks.of(handle)) {
        return (int) Math.min(Containers.listSize(handle), Integer.MAX_VALUE);
      }
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public E get(int index) {
    long handle = pinHandle("get(index)");
    try {
      synchronized (ContainerLocks.of(handle)) {
        checkIndex(index, Containers.listSize(handle));
        return element.decode(Containers.listItem(handle, index), false);
      }
    } catch (ConversionFailure failure) {
      throw failure.toException("element " + index + " of NativeList<" + element.javaType() + ">", null);
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public E set(int index, E value) {
    long handle = pinHandle("set(index, element)");
    try (Frame frame = ThreadStack.current().push(SET, 1)) {
      encode(frame, value);
      synchronized (ContainerLocks.of(handle)) {
        E previous = get(index);
        Errors.check(CApi.P4JListSetItem(handle, index, frame.slot(0)), null);
        return previous;
      }
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public boolean add(E value) {
    long handle = pinHandle("add(element)");
    try (Frame frame = ThreadStack.current().push(ADD, 1)) {
      encode(frame, value);
      synchronized (ContainerLocks.of(handle)) {
        Errors.check(CApi.P4JListAppend(handle, frame.slot(0)), null);
        modCount++;
      }
      return true;
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public void add(int index, E value) {
    long handle = pinHandle("add(index, element)");
    try (Frame frame = ThreadStack.current().push(ADD, 1)) {
      encode(frame, value);
      synchronized (ContainerLocks.of(handle)) {
        long size = Containers.listSize(handle);
        if (index < 0 || index > size) {
          throw new IndexOutOfBoundsException("index " + index + " out of bounds for insertion into a list of size "
              + size);
        }
        Errors.check(CApi.P4JListInsert(handle, index, frame.slot(0)), null);
        modCount++;
      }
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public E remove(int index) {
    long handle = pinHandle("remove(index)");
    try (Frame frame = ThreadStack.current().push(REMOVE, 0)) {
      synchronized (ContainerLocks.of(handle)) {
        checkIndex(index, Containers.listSize(handle));
        Errors.check(CApi.P4JListErase(handle, index, frame.result()), null);
        modCount++;
      }
      frame.resultWritten();
      return frame.returnValue(element);
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public void clear() {
    long handle = pinHandle("clear()");
    try {
      synchronized (ContainerLocks.of(handle)) {
        Errors.check(CApi.P4JListClear(handle), null);
        modCount++;
      }
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Releases the native reference; idempotent. A read or change in progress on another thread finishes first (the
   * list is released after it); one that starts later throws {@link IllegalStateException}.
   */
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
    if (!reference.tryPin()) {
      return "NativeList<" + element.javaType() + ">[closed]";
    }
    // Formatted from native memory with a depth limit: a native list may contain itself, which
    // AbstractList.toString would follow forever (each element read is a new view, not this one).
    try {
      synchronized (ContainerLocks.of(reference.pinnedHandle())) {
        return ObjectFormatter.format(reference.pinnedHandle(), CApi.kP4JList);
      }
    } finally {
      reference.unpin();
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
