package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
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
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * A live view of a native map (insertion-ordered): lookups go through the native hash ({@code P4JMapGetItem}),
 * iteration reads the entries straight from the map's memory, writes go through the C ABI, and a change made on
 * either side is visible to the other.
 *
 * <pre>{@code
 * try (NativeMap<Object, Object> map = (NativeMap<Object, Object>) Registry.global("demo.MakeMap").invoke()) {
 *   map.put("brand", "casio");
 *   map.get("brand");      // "casio"
 *   map.get("missing");    // null
 * }
 * }</pre>
 *
 * <p>It follows the {@link java.util.Map} contract; a key of a type the map cannot hold is simply absent.
 * Values are converted on each access (an object value is a new reference, owned by the caller). Each read and
 * change is atomic, also across several views of one map, as in {@link java.util.Collections#synchronizedMap}:
 * threads may share and change a map through its views. Iterating while another thread changes the map may skip or
 * repeat entries, or end with an exception; lock around it for a consistent pass. C++ code that changes a map while
 * Java uses it must synchronize with Java itself. {@link #close()} releases the native reference (a Cleaner does it
 * otherwise).
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class NativeMap<K, V> extends AbstractMap<K, V> implements AutoCloseable {
  private static final CallTarget LOOKUP = CallTarget.operation("NativeMap.get", "key");
  private static final CallTarget PUT = CallTarget.operation("NativeMap.put", "key", "value");

  private final NativeReference reference;
  private final ValueCodec<K> keys;
  private final ValueCodec<V> values;
  private final EntrySet entrySet = new EntrySet();

  NativeMap(long ownedHandle, ValueCodec<K> keys, ValueCodec<V> values) {
    this.keys = keys;
    this.values = values;
    this.reference = new NativeReference(this, ownedHandle);
  }

  /**
   * A pin on the map's reference, so that a close on another thread cannot free the map while this thread reads or
   * changes it: give it back with {@code reference.unpin()}, then fence this object. IllegalStateException after
   * close.
   */
  ReleaseEpochs.Pin pin() {
    if (!reference.tryPin()) {
      throw new IllegalStateException("the " + javaType() + " is closed; it cannot be used after close()");
    }
    return reference;
  }

  /** The pinned handle; every use below unpins in its finally. */
  private long pinHandle() {
    return pin().pinnedHandle();
  }

  private String javaType() {
    return "NativeMap<" + keys.javaType() + ", " + values.javaType() + ">";
  }

  @Override
  public int size() {
    long handle = pinHandle();
    try {
      synchronized (ContainerLocks.of(handle)) {
        return (int) Math.min(Containers.mapSize(handle), Integer.MAX_VALUE);
      }
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public V get(Object key) {
    Object value = lookUp(key, false, true);
    return value == ABSENT ? null : castValue(value);
  }

  @Override
  public boolean containsKey(Object key) {
    return lookUp(key, false, false) != ABSENT;
  }

  /** What {@link #lookUp} returns for a key the map does not hold (or cannot hold: see {@code encodeKey}). */
  private static final Object ABSENT = new Object();

  /**
   * The value under {@code key} ({@code P4JMapGetItem}), or with {@code erase} the value taken out of the map
   * ({@code P4JMapErase}): decoded when {@code decode}, else {@link Boolean#TRUE}; {@link #ABSENT} when there is none.
   */
  private Object lookUp(Object key, boolean erase, boolean decode) {
    long handle = pinHandle();
    try (Frame frame = ThreadStack.current().push(LOOKUP, 1)) {
      if (!encodeKey(frame, key)) {
        return ABSENT;
      }
      long found = frame.scratch(4, 4);
      synchronized (ContainerLocks.of(handle)) {
        // The value comes out with its own reference (a copy of a string): safe to decode after the lock.
        Errors.check(erase ? CApi.P4JMapErase(handle, frame.slot(0), found, frame.result())
            : CApi.P4JMapGetItem(handle, frame.slot(0), found, frame.result()), null);
      }
      frame.resultWritten();
      if (NativeMemory.getInt(found) == 0) {
        return ABSENT;
      }
      return decode ? decodeValue(frame) : Boolean.TRUE;
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @SuppressWarnings("unchecked") // a value lookUp decoded with the values' codec
  private V castValue(Object value) {
    return (V) value;
  }

  @Override
  public V put(K key, V value) {
    if (key == null && !keys.acceptsNull()) {
      throw new NullPointerException(javaType() + " keys must not be null");
    }
    if (value == null && !values.acceptsNull()) {
      throw new NullPointerException(javaType() + " values must not be null");
    }
    long handle = pinHandle();
    try (Frame frame = ThreadStack.current().push(PUT, 2)) {
      frame.put(0, keys, key);
      frame.put(1, values, value);
      synchronized (ContainerLocks.of(handle)) {
        V previous = get(key);
        Errors.check(CApi.P4JMapSetItem(handle, frame.slot(0), frame.slot(1)), null);
        return previous;
      }
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public V remove(Object key) {
    Object value = lookUp(key, true, true);
    return value == ABSENT ? null : castValue(value);
  }

  @Override
  public void clear() {
    long handle = pinHandle();
    try {
      synchronized (ContainerLocks.of(handle)) {
        Errors.check(CApi.P4JMapClear(handle), null);
      }
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public Set<Entry<K, V>> entrySet() {
    return entrySet;
  }

  /**
   * Releases the native reference; idempotent. A read or change in progress on another thread finishes first (the
   * map is released after it); one that starts later throws {@link IllegalStateException}.
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
      return javaType() + "{closed}";
    }
    // Depth-limited, from native memory: a native map may contain itself (see NativeList.toString).
    try {
      synchronized (ContainerLocks.of(reference.pinnedHandle())) {
        return ObjectFormatter.format(reference.pinnedHandle(), CApi.kP4JMap);
      }
    } finally {
      reference.unpin();
      Reference.reachabilityFence(this);
    }
  }

  /** Writes the key to slot 0; false when it cannot be a key of this map (so it is absent). */
  @SuppressWarnings("unchecked")
  private boolean encodeKey(Frame frame, Object key) {
    if (key == null && !keys.acceptsNull()) {
      return false;
    }
    try {
      keys.encode((K) key, frame.slot(0), frame);
      return true;
    } catch (ClassCastException | ConversionFailure notAKey) {
      return false;
    }
  }

  private V decodeValue(Frame frame) {
    return frame.returnValue(values);
  }

  private K keyAt(long handle, int index) {
    try {
      return keys.decode(Containers.mapEntry(handle, index), false);
    } catch (ConversionFailure failure) {
      throw failure.toException("key " + index + " of " + javaType(), null);
    }
  }

  private V valueAt(long handle, int index) {
    try {
      return values.decode(Containers.mapEntry(handle, index) + P4JAny.SIZE, false);
    } catch (ConversionFailure failure) {
      throw failure.toException("value " + index + " of " + javaType(), null);
    }
  }

  /** The entries in insertion order, read from the map's memory. */
  private final class EntrySet extends AbstractSet<Entry<K, V>> {
    @Override
    public int size() {
      return NativeMap.this.size();
    }

    @Override
    public void clear() {
      NativeMap.this.clear();
    }

    @Override
    public Iterator<Entry<K, V>> iterator() {
      return new Iterator<>() {
        private int next;
        private K lastKey;
        private boolean canRemove;

        @Override
        public boolean hasNext() {
          return next < NativeMap.this.size();
        }

        @Override
        public Entry<K, V> next() {
          long handle = pinHandle();
          try {
            K key;
            V value;
            synchronized (ContainerLocks.of(handle)) {
              if (next >= Containers.mapSize(handle)) {
                throw new NoSuchElementException();
              }
              key = keyAt(handle, next);
              value = valueAt(handle, next);
            }
            next++;
            lastKey = key;
            canRemove = true;
            return new LiveEntry(key, value);
          } finally {
            reference.unpin();
            Reference.reachabilityFence(NativeMap.this);
          }
        }

        @Override
        public void remove() {
          if (!canRemove) {
            throw new IllegalStateException("next() was not called, or remove() was called already");
          }
          canRemove = false;
          if (!NativeMap.this.containsKey(lastKey)) {
            throw new ConcurrentModificationException("the key " + lastKey + " was removed from the native map");
          }
          NativeMap.this.remove(lastKey);
          next--;
        }
      };
    }
  }

  /** An entry whose setValue writes through to the native map. */
  private final class LiveEntry implements Entry<K, V> {
    private final K key;
    private V value;

    LiveEntry(K key, V value) {
      this.key = key;
      this.value = value;
    }

    @Override
    public K getKey() {
      return key;
    }

    @Override
    public V getValue() {
      return value;
    }

    @Override
    public V setValue(V newValue) {
      NativeMap.this.put(key, newValue);
      V previous = value;
      value = newValue;
      return previous;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Entry<?, ?> entry && Objects.equals(key, entry.getKey())
          && Objects.equals(value, entry.getValue());
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(key) ^ Objects.hashCode(value);
    }

    @Override
    public String toString() {
      return key + "=" + value;
    }
  }
}
