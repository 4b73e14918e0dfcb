package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;

/**
 * What the internal packages need from {@code dev.packed4j.runtime} that its public API does not offer: the
 * constructors of the native views (which take ownership of a raw handle, so they are not public), their pins and
 * handles, and what kind of native view a Java value is.
 *
 * <p>The internal packages sit below the public package and import none of its classes except the leaves, which
 * import nothing internal ({@link Packed4jException} and the records): so the views appear here as {@code Object},
 * and the public package's implementation casts them. Every view this interface returns is owned by the caller.
 *
 * <p>The public package installs the implementation when {@code ObjectRef} is initialised (the JDK's
 * {@code SharedSecrets} pattern); {@link #get()} makes sure that happened.
 */
public interface RuntimeAccess {

  /** The kinds of native view a Java value can be, for the codecs that take any value. */
  enum ViewKind {
    /** Not a native view: a Java value. */
    NONE,
    /** An {@code NDArray}. */
    NDARRAY,
    /** A {@code PackedFunction}. */
    FUNCTION,
    /** Any other {@code ObjectRef}: a generated view or a {@code NativeObject}. */
    OBJECT,
    /** A {@code NativeList}. */
    LIST,
    /** A {@code NativeMap}. */
    MAP,
    /** A {@code NativeClosure}, the view of a native function as a Java functional interface. */
    CLOSURE
  }

  /** A {@code NativeObject} over an owned handle. */
  Object newNativeObject(long ownedHandle);

  /** A {@code PackedFunction} over an owned handle, named in messages by {@code name} (null: anonymous). */
  Object newPackedFunction(long ownedHandle, String name);

  /**
   * A {@code PackedFunction} over an owned handle that a use after close names by {@code origin} ({@code "the
   * LongUnaryOperator closure (int64) -> int64"}) when it has no {@code name}.
   */
  Object newPackedFunction(long ownedHandle, String name, String origin);

  /** A {@code NativeList} over an owned handle, its elements read with {@code elements}. */
  Object newNativeList(long ownedHandle, ValueCodec<?> elements);

  /** A {@code NativeMap} over an owned handle. */
  Object newNativeMap(long ownedHandle, ValueCodec<?> keys, ValueCodec<?> values);

  /** A view of an owned kP4JNDArray handle. */
  Object newNDArray(long ownedHandle);

  /** What {@code NDArray.toString()} prints for a borrowed kP4JNDArray handle, which stays borrowed. */
  String formatNDArray(long borrowedHandle);

  /** What kind of native view {@code value} is; {@link ViewKind#NONE} for null and every Java value. */
  ViewKind kindOf(Object value);

  /** The {@code NDArray} class, for the routes that give a tensor parameter its own wire form. */
  Class<?> ndarrayClass();

  /**
   * A pin on a {@code NativeList} or {@code NativeMap}, for a call that passes it; IllegalStateException when
   * closed.
   */
  ReleaseEpochs.Pin pinContainer(Object container);

  /**
   * The handle of an open {@code ObjectRef} for a getter that reads its memory through {@link ReleaseEpochs#memory()},
   * loaded before this call; marks the object so that its close waits for the epoch's end. IllegalStateException
   * when closed.
   */
  long handleForUnpinnedRead(Object object);

  /** Whether an {@code ObjectRef} is closed. */
  boolean isClosed(Object object);

  /** The native type index of an {@code ObjectRef} (also after close). */
  int typeIndex(Object object);

  /**
   * A pin on an {@code ObjectRef}, for a call that passes it; null when {@code object} is not an {@code ObjectRef}
   * (the caller reports it as the argument's type error); IllegalStateException when closed.
   */
  ReleaseEpochs.Pin pinObject(Object object);

  /**
   * The handle of an {@code ObjectRef} for a direct call, held in {@code held} until the call restores its depth
   * ({@link ReleaseEpochs.HeldHandles}): what a pin guarantees, without its atomic operations. 0 when
   * {@code object} is not an {@code ObjectRef}; IllegalStateException when closed.
   */
  long heldHandle(Object object, ReleaseEpochs.HeldHandles held);

  /**
   * A pin on an open {@code NDArray} whose wrapped segment (if any) is alive, for a call that passes it;
   * IllegalStateException otherwise, so that a tensor over freed memory never reaches native code.
   */
  ReleaseEpochs.Pin pinNDArray(Object array);

  /**
   * Whether an {@code NDArray}'s elements lie in a Java segment whose arena Java closes ({@code NDArray.wrap}, a view
   * of one, or a tensor native code made over such memory): a native field must not keep it, since the object may
   * outlive the arena. Also true after close.
   */
  boolean ndarrayOverJavaMemory(Object array);

  /**
   * An {@code NDArray} as a typed entry's tensor word: its object's handle, or for a wrapped tensor without one a
   * borrowed DLTensor in {@code stack}'s scratch memory (see {@code P4J_TENSOR_WORD_BORROWED}); IllegalStateException
   * as {@link #pinNDArray}; a handle passed is pinned until the outermost scratch mark is released.
   */
  long ndarrayWord(Object array, ThreadStack stack);

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

    /** The class whose initialiser installs the implementation: named, not imported (see the interface). */
    private static final String INSTALLER = "dev.packed4j.runtime.ObjectRef";

    static final RuntimeAccess INSTANCE = load();

    private static RuntimeAccess load() {
      try {
        Class.forName(INSTALLER, true, RuntimeAccess.class.getClassLoader());
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
