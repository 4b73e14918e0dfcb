package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JMap;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import java.util.Map;

/**
 * {@code Map<K, V>} (an immutable, insertion-ordered copy as a result) and {@code NativeMap<K, V>} (a live view).
 * As an argument, a NativeMap passes its handle; any other map becomes a temporary native map.
 */
public final class MapCodec<K, V, M extends Map<K, V>> extends ValueCodec<M> {
  private final ValueCodec<K> keys;
  private final ValueCodec<V> values;
  private final boolean live;

  private MapCodec(String javaType, ValueCodec<K> keys, ValueCodec<V> values, boolean live) {
    super(javaType);
    this.keys = keys;
    this.values = values;
    this.live = live;
  }

  /** {@code Map<K, V>}: results are unmodifiable copies. */
  public static <K, V> MapCodec<K, V, Map<K, V>> copying(ValueCodec<K> keys, ValueCodec<V> values) {
    return new MapCodec<>("Map<" + keys.javaType() + ", " + values.javaType() + ">", keys, values, false);
  }

  /** {@code NativeMap<K, V>}: results are live views. */
  public static <K, V, M extends Map<K, V>> MapCodec<K, V, M> live(ValueCodec<K> keys, ValueCodec<V> values) {
    return new MapCodec<>("NativeMap<" + keys.javaType() + ", " + values.javaType() + ">", keys, values, true);
  }

  public ValueCodec<K> keys() {
    return keys;
  }

  public ValueCodec<V> values() {
    return values;
  }

  @Override
  @SuppressWarnings("unchecked")
  public M nullFieldValue() {
    return live ? null : (M) Map.of(); // as ListCodec's
  }

  @Override
  public boolean nests() {
    return true;
  }

  @Override
  public String wireType() {
    return "map";
  }

  @Override
  public void encode(M value, long slot, Frame frame) {
    if (RuntimeAccess.get().kindOf(value) == RuntimeAccess.ViewKind.MAP) {
      ObjectHandles.encodeContainer(value, slot, frame);
      return;
    }
    long handle = Containers.buildMap(value, keys, values, javaType(), frame);
    frame.ownTemporary(handle);
    NativeMemory.putAny(slot, kP4JMap, 0, handle);
  }

  @Override
  @SuppressWarnings("unchecked")
  public M decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (type != kP4JMap) {
      throw mismatch(any);
    }
    long handle = NativeMemory.anyPayload(any);
    if (live) {
      return (M) RuntimeAccess.get().newNativeMap(keep(handle, owned), keys, values);
    }
    Map<K, V> copy = Containers.copyMap(handle, keys, values);
    releaseIfOwned(handle, owned);
    return (M) copy;
  }
}
