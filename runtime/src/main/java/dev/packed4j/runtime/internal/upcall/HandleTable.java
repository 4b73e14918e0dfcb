package dev.packed4j.runtime.internal.upcall;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Java objects that native code refers to by an index (the {@code self} of a function's cell), since a native
 * pointer cannot hold a Java reference.
 *
 * <p>Adding and removing take a lock (they come with a native allocation anyway); {@link #get} does not: the slots
 * array is published through a volatile field after every change, and a slot's index reaches native code only
 * after the store of its value, so a reader with any published array sees the value of every live index.
 */
final class HandleTable<T> {
  private volatile Object[] slots = new Object[64];
  /** Free indices, a stack: the most recently freed is reused first (its cache line is likely warm). */
  private int[] free = new int[0];
  private int freeCount;
  /** The first index never used. */
  private int used;
  private int size;

  /** Stores {@code value} in a free slot; its index. */
  synchronized int add(T value) {
    int index;
    if (freeCount > 0) {
      index = free[--freeCount];
    } else {
      index = used++;
      if (index == slots.length) {
        slots = Arrays.copyOf(slots, index * 2);
      }
    }
    Object[] current = slots;
    current[index] = value;
    size++;
    slots = current; // publishes the store above to readers of the volatile field
    return index;
  }

  /** The value at {@code index}; IllegalStateException when the slot is free. */
  @SuppressWarnings("unchecked")
  T get(int index) {
    Object[] current = slots;
    Object value = index >= 0 && index < current.length ? current[index] : null;
    if (value == null) {
      throw new IllegalStateException("no Java function is registered at index " + index
          + " (released already, or a corrupt function object)");
    }
    return (T) value;
  }

  /** Frees the slot at {@code index}; IllegalStateException when it is free already (a double release). */
  synchronized void remove(int index) {
    Object[] current = slots;
    if (index < 0 || index >= used || current[index] == null) {
      throw new IllegalStateException("the Java function slot " + index + " is not in use");
    }
    current[index] = null;
    size--;
    if (freeCount == free.length) {
      free = Arrays.copyOf(free, Math.max(16, freeCount * 2));
    }
    free[freeCount++] = index;
    slots = current;
  }

  /** Slots in use whose value passes {@code test}. */
  @SuppressWarnings("unchecked")
  synchronized int count(Predicate<? super T> test) {
    int count = 0;
    for (int i = 0; i < used; i++) {
      Object value = slots[i];
      if (value != null && test.test((T) value)) {
        count++;
      }
    }
    return count;
  }

  /** Slots in use. */
  synchronized int size() {
    return size;
  }
}
