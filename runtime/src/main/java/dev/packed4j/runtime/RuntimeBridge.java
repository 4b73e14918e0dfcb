package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.ReleaseEpochs;
import dev.packed4j.runtime.internal.RuntimeAccess;
import dev.packed4j.runtime.internal.ThreadStack;
import dev.packed4j.runtime.internal.codec.ValueCodec;

/** The internal packages' access to this package's non-public constructors and handles. */
final class RuntimeBridge implements RuntimeAccess {
  @Override
  public NativeObject newNativeObject(long ownedHandle) {
    return new NativeObject(ownedHandle);
  }

  @Override
  public PackedFunction newPackedFunction(long ownedHandle, String name) {
    return new PackedFunction(ownedHandle, name);
  }

  @Override
  public <E> NativeList<E> newNativeList(long ownedHandle, ValueCodec<E> elements) {
    return new NativeList<>(ownedHandle, elements);
  }

  @Override
  public <K, V> NativeMap<K, V> newNativeMap(long ownedHandle, ValueCodec<K> keys, ValueCodec<V> values) {
    return new NativeMap<>(ownedHandle, keys, values);
  }

  @Override
  public Packed4jException newException(String kind, String message, String backtrace, String functionName) {
    return new Packed4jException(kind, message, backtrace, functionName);
  }

  @Override
  public NDArray newNDArray(long ownedHandle) {
    return new NDArray(ownedHandle, null);
  }

  @Override
  public ReleaseEpochs.Pin pinNDArray(NDArray array) {
    return array.usablePin();
  }

  @Override
  public long handleForUnpinnedRead(ObjectRef object) {
    return object.handleForUnpinnedRead();
  }

  @Override
  public int typeIndex(ObjectRef object) {
    return object.typeIndex();
  }

  @Override
  public ReleaseEpochs.Pin pinObject(ObjectRef object) {
    return object.pin();
  }

  @Override
  public long ndarrayWord(NDArray array, ThreadStack stack) {
    return array.tensorWord(stack);
  }

  @Override
  public ReleaseEpochs.Pin pinContainer(Object container) {
    return switch (container) {
      case NativeList<?> list -> list.pin();
      case NativeMap<?, ?> map -> map.pin();
      default -> throw new IllegalArgumentException(container.getClass().getName() + " is not a native container");
    };
  }
}
