package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import dev.packed4j.runtime.internal.values.RuntimeAccess.ViewKind;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.ValueCodec;

/** The internal packages' access to this package's non-public constructors and handles. */
final class RuntimeBridge implements RuntimeAccess {
  @Override
  public Object newNativeObject(long ownedHandle) {
    return new NativeObject(ownedHandle);
  }

  @Override
  public Object newPackedFunction(long ownedHandle, String name) {
    return new PackedFunction(ownedHandle, name);
  }

  @Override
  public Object newPackedFunction(long ownedHandle, String name, String origin) {
    return new PackedFunction(ownedHandle, name, origin);
  }

  @Override
  public Object newNativeList(long ownedHandle, ValueCodec<?> elements) {
    return new NativeList<>(ownedHandle, elements);
  }

  @Override
  public Object newNativeMap(long ownedHandle, ValueCodec<?> keys, ValueCodec<?> values) {
    return new NativeMap<>(ownedHandle, keys, values);
  }

  @Override
  public Object newNDArray(long ownedHandle) {
    return new NDArray(ownedHandle, null);
  }

  @Override
  public String formatNDArray(long borrowedHandle) {
    return NDArray.describe(borrowedHandle);
  }

  @Override
  public ReleaseEpochs.Pin pinNDArray(Object array) {
    return ((NDArray) array).usablePin();
  }

  @Override
  public boolean ndarrayOverJavaMemory(Object array) {
    return ((NDArray) array).overJavaMemory();
  }

  @Override
  public long handleForUnpinnedRead(Object object) {
    return ((ObjectRef) object).handleForUnpinnedRead();
  }

  @Override
  public boolean isClosed(Object object) {
    return ((ObjectRef) object).isClosed();
  }

  @Override
  public int typeIndex(Object object) {
    return ((ObjectRef) object).typeIndex();
  }

  @Override
  public ReleaseEpochs.Pin pinObject(Object object) {
    return object instanceof ObjectRef ref ? ref.pin() : null;
  }

  @Override
  public long heldHandle(Object object, ReleaseEpochs.HeldHandles held) {
    return object instanceof ObjectRef ref ? ref.heldHandle(held) : 0;
  }

  @Override
  public long ndarrayWord(Object array, ThreadStack stack) {
    return ((NDArray) array).tensorWord(stack);
  }

  @Override
  public ViewKind kindOf(Object value) {
    return switch (value) {
      case NDArray array -> ViewKind.NDARRAY;
      case PackedFunction function -> ViewKind.FUNCTION;
      case ObjectRef object -> ViewKind.OBJECT;
      case NativeList<?> list -> ViewKind.LIST;
      case NativeMap<?, ?> map -> ViewKind.MAP;
      case NativeClosure closure -> ViewKind.CLOSURE;
      case null, default -> ViewKind.NONE;
    };
  }

  @Override
  public Class<?> ndarrayClass() {
    return NDArray.class;
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
