package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.objects.GeneratedClasses;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.objects.TypeView;

/**
 * An {@code @Object} interface: the handle of the generated class's instance as an argument; as a result, an
 * instance of the generated class of the object's type or nearest ancestor, checked against the declared type.
 */
public final class ObjectCodec<T> extends ValueCodec<T> {
  private final Class<T> javaType;
  private volatile TypeView<T> view;

  public ObjectCodec(Class<T> javaType) {
    super(javaType.getSimpleName());
    this.javaType = javaType;
    this.view = TypeView.forJavaType(javaType);
  }

  /** The view, loading the generated class on first use (its static TYPE registers it). */
  public TypeView<T> view() {
    TypeView<T> resolved = view;
    if (resolved == null) {
      resolved = TypeView.forJavaType(javaType);
      if (resolved == null) {
        GeneratedClasses.load(javaType, "@Object");
        resolved = TypeView.forJavaType(javaType);
      }
      if (resolved == null) {
        throw new IllegalStateException(GeneratedClasses.nameFor(javaType) + " did not define the object type of "
            + javaType.getName() + " (no ObjectType.define in its static TYPE): recompile it with packed4j-processor");
      }
      view = resolved;
    }
    return resolved;
  }

  @Override
  public String wireType() {
    TypeView<T> resolved = view;
    return resolved == null ? javaType.getSimpleName() : resolved.typeKey();
  }

  @Override
  public void encode(T value, long slot, Frame frame) {
    ObjectHandles.encode(value, javaType(), slot, frame);
  }

  @Override
  public T decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (!Values.isObject(type)) {
      throw mismatch(any);
    }
    long handle = NativeMemory.anyPayload(any);
    int objectType = handle != 0 ? NativeMemory.objectTypeIndex(handle) : 0; // 0: the factory's token refuses it
    TypeView.Factory factory = view().factoryFor(type);
    long kept = keep(handle, owned);
    try {
      return wrap(factory, kept, objectType);
    } catch (RuntimeException | Error e) {
      releaseIfOwned(kept, !owned); // a failed factory leaves the reference with us: ours is released, the caller's kept
      throw e;
    }
  }

  /**
   * A typed entry's object result, an owned object word ({@code 0} for None), as {@link #decode} makes an owned
   * object result: null for 0, else the generated class's instance, which takes the reference over.
   *
   * @throws ConversionFailure when the object is not an instance of the declared type; the reference is released
   */
  public T decodeOwnedWord(long handle) {
    if (handle == 0) {
      return null;
    }
    int objectType = NativeMemory.objectTypeIndex(handle);
    TypeView.Factory factory;
    try {
      factory = view().factoryFor(objectType);
    } catch (RuntimeException | Error e) {
      CApi.P4JObjectDecRef(handle);
      throw e;
    }
    try {
      return wrap(factory, handle, objectType);
    } catch (RuntimeException | Error e) {
      CApi.P4JObjectDecRef(handle); // a failed factory leaves the reference with us
      throw e;
    }
  }

  /**
   * The factory's object, unchecked: {@link TypeView#factoryFor} picks only a view whose Java type is assignable to
   * this codec's, and the view's factory checks that what it built implements that type (a second, interface
   * subtype check here cost a few nanoseconds per object result).
   */
  @SuppressWarnings("unchecked")
  private T wrap(TypeView.Factory factory, long ownedHandle, int typeIndex) {
    return (T) factory.make(ownedHandle, typeIndex);
  }

  /**
   * An argument as a typed entry's object word: the handle of {@code value}, held in {@code held} until the call
   * restores its depth, which keeps a close on another thread from releasing it as the call frame's pin does
   * ({@link ReleaseEpochs.HeldHandles}). The caller keeps {@code value} reachable until then.
   *
   * @throws ConversionFailure TYPE for a value that is not a native object, CLOSED for a closed one
   */
  public long heldWord(Object value, ReleaseEpochs.HeldHandles held) {
    return ObjectHandles.heldWord(value, javaType(), held);
  }

}
