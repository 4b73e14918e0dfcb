package dev.packed4j.runtime.internal;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeMap;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.internal.codec.ValueCodec;

/**
 * What the internal packages need from {@code dev.packed4j.runtime} that its public API does not offer: the
 * constructors of the native views (which take ownership of a raw handle, so they are not public) and the
 * handles of the containers (which are not {@link ObjectRef}s, as they follow the {@code List}/{@code Map}
 * contracts for equality).
 *
 * <p>The public package installs the implementation when {@link ObjectRef} is initialised (the JDK's
 * {@code SharedSecrets} pattern); {@link #get()} makes sure that happened.
 */
public interface RuntimeAccess {

  NativeObject newNativeObject(long ownedHandle);

  PackedFunction newPackedFunction(long ownedHandle, String name);

  <E> NativeList<E> newNativeList(long ownedHandle, ValueCodec<E> elements);

  <K, V> NativeMap<K, V> newNativeMap(long ownedHandle, ValueCodec<K> keys, ValueCodec<V> values);

  Packed4jException newException(String kind, String message, String backtrace, String functionName);

  /**
   * A pin on a {@link NativeList} or {@link NativeMap}, for a call that passes it; IllegalStateException when closed.
   */
  ReleaseEpochs.Pin pinContainer(Object container);

  /**
   * The handle of an open object for a getter that reads its memory through {@link ReleaseEpochs#memory()}, loaded
   * before this call; marks the object so that its close waits for the epoch's end. IllegalStateException when
   * closed.
   */
  long handleForUnpinnedRead(ObjectRef object);

  /** The native type index of an object (also after close). */
  int typeIndex(ObjectRef object);

  /** A pin on an object, for a call that passes it; IllegalStateException when closed. */
  ReleaseEpochs.Pin pinObject(ObjectRef object);

  /** A view of an owned kP4JNDArray handle. */
  NDArray newNDArray(long ownedHandle);

  /**
   * A pin on an open tensor whose wrapped segment (if any) is alive, for a call that passes it;
   * IllegalStateException otherwise, so that a tensor over freed memory never reaches native code.
   */
  ReleaseEpochs.Pin pinNDArray(NDArray array);

  /**
   * A tensor as a typed entry's tensor word: its object's handle, or for a wrapped tensor without one a borrowed
   * DLTensor in {@code stack}'s scratch memory (see {@code P4J_TENSOR_WORD_BORROWED}); IllegalStateException as
   * {@link #pinNDArray}; a handle passed is pinned until the outermost scratch mark is released.
   */
  long ndarrayWord(NDArray array, ThreadStack stack);

  /** Sets the implementation; called once by {@code dev.packed4j.runtime}. */
  static void install(RuntimeAccess access) {
    Holder.instance = access;
  }

  /**
   * The implementation, initialising {@code dev.packed4j.runtime} first if needed. A constant to the JIT (a static
   * final field), so a call through it on a hot path is a direct call: no load, no null check, no type guard.
   */
  static RuntimeAccess get() {
    return Installed.INSTANCE;
  }

  /** Shorthand for {@code get().newException(kind.spelling(), message, "", functionName)}. */
  static Packed4jException error(ErrorKind kind, String message, String functionName) {
    return get().newException(kind.spelling(), message, "", functionName);
  }

  /** Holds the installed implementation. */
  final class Holder {
    private Holder() {}

    private static volatile RuntimeAccess instance;
  }

  /**
   * The installed implementation as a constant, read once: {@code ObjectRef}'s initialiser installs it before
   * anything else, so initialising {@code ObjectRef} here (a no-op once done, a wait while another thread does it)
   * always finds it.
   */
  final class Installed {
    private Installed() {}

    static final RuntimeAccess INSTANCE = load();

    private static RuntimeAccess load() {
      try {
        Class.forName(ObjectRef.class.getName(), true, ObjectRef.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new AssertionError(e);
      }
      RuntimeAccess access = Holder.instance;
      if (access == null) {
        throw new AssertionError("dev.packed4j.runtime did not install its RuntimeAccess while initialising ObjectRef");
      }
      return access;
    }
  }
}
