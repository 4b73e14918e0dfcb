package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.OwnedHandles;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.objects.TypeInfos;
import dev.packed4j.runtime.internal.values.ObjectFormatter;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * A Java reference to a native object: it owns one reference count of the object until {@link #close()}.
 *
 * <p>Generated {@code @Object} classes, {@link NativeObject} and {@link PackedFunction} extend it. Closing is
 * idempotent and thread-safe; an object never closed is released once it is unreachable (by a phantom reference
 * the runtime watches, as a {@link java.lang.ref.Cleaner} would). Using a closed object throws
 * {@link IllegalStateException}, never crashes. Two references are equal when they refer to the same native object.
 *
 * <pre>{@code
 * try (CalculatorRef calc = calculator.create("casio", 100)) {
 *   calc.price();         // 100, read from the object's memory
 *   calc.typeKey();       // "Calculator"
 *   calc.toString();      // "Calculator{brand=casio, price=100}"
 * }                       // the native reference is released here
 * }</pre>
 */
public abstract class ObjectRef implements AutoCloseable {
  static {
    // Before anything else: the internal packages reach the public ones only through these two.
    RuntimeAccess.install(new RuntimeBridge());
    Failures.install(Packed4jException::new);
  }

  private static final VarHandle REFERENCE;

  static {
    try {
      REFERENCE = MethodHandles.lookup().findVarHandle(ObjectRef.class, "reference", NativeReference.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * The owned native reference; null while the native object is not made yet (an {@link NDArray#wrap} tensor gets
   * one only when something needs its handle, see {@link #createNativeObject()}). Set once, by compare-and-set:
   * to the made reference, or to {@link NativeReference#CLOSED_BEFORE_CREATED} by a close that came first.
   */
  private volatile NativeReference reference;
  private final int typeIndex;

  /**
   * Takes over an owned reference, for generated classes: {@code super(handle)}. The handle comes from the runtime
   * only (the factory given to {@code ObjectType.define} receives it), and is taken once: no code can build an
   * object over an address of its own. The runtime checks that the object the factory built implements the
   * {@code @Object} interface it was defined for (else the object is closed and the factory's caller gets an
   * IllegalArgumentException).
   *
   * @param handle the owned reference the runtime handed to the generated class's factory; this object releases it
   * @throws IllegalStateException when an object was already built from {@code handle}
   */
  @SuppressWarnings("this-escape") // the phantom reference watches this object; it reads no state of a subclass
  protected ObjectRef(OwnedHandle handle) {
    // The token carries the type index the runtime read to pick the factory: a second read of the header here sat
    // so deep in the inlining of an object result that C2 left two calls of the memory access out of line.
    this(OwnedHandles.take(Objects.requireNonNull(handle, "handle")), OwnedHandles.typeIndex(handle));
  }

  ObjectRef(long handle) {
    this(handle, typeIndexOf(handle));
  }

  @SuppressWarnings("this-escape") // the phantom reference watches this object; it reads no state of a subclass
  private ObjectRef(long handle, int typeIndex) {
    this.typeIndex = typeIndex;
    // A release store, not a volatile one (a full fence on x86): an object reaches other threads only by a safe
    // publication, which orders this store before their reads.
    REFERENCE.setRelease(this, new NativeReference(this, handle));
  }

  /** The type index in the header of the object {@code handle}; IllegalArgumentException for 0. */
  private static int typeIndexOf(long handle) {
    if (handle == 0) {
      throw new IllegalArgumentException("a native object handle must not be 0 (null)");
    }
    return NativeMemory.objectTypeIndex(handle);
  }

  /** A reference whose native object of {@code typeIndex} is made at the first need ({@link #createNativeObject}). */
  ObjectRef(int typeIndex) {
    this.typeIndex = typeIndex;
  }

  /**
   * The native handle ({@code P4JObjectHandle}), borrowed: valid while this object is open. It holds nothing: native
   * code of your own that uses it must not race a {@link #close()} on another thread.
   *
   * @return the handle, borrowed
   * @throws IllegalStateException after {@link #close()}
   */
  public final long handle() {
    NativeReference current = reference;
    long handle = current != null ? current.handleOrZero() : 0;
    return handle != 0 ? handle : handleSlow();
  }

  /** The handle of an object whose native object is not made yet (made now), or the error of a closed one. */
  private long handleSlow() {
    NativeReference current = reference;
    if (current == null) {
      synchronized (this) { // one creation at a time; close does not take the lock
        current = reference;
        if (current == null) {
          NativeReference made = new NativeReference(this, createNativeObject());
          if (REFERENCE.compareAndSet(this, null, made)) {
            current = made;
          } else {
            made.release(); // closed while it was being made
            current = reference;
          }
        }
      }
    }
    long handle = current.handleOrZero();
    if (handle == 0) {
      throw closedError();
    }
    return handle;
  }

  /**
   * The handle for a getter that reads the object's memory without a pin, through {@link ReleaseEpochs#memory()}
   * loaded before this call: marks the reference so that a close waits for such reads (see NativeReference).
   *
   * @throws IllegalStateException after {@link #close()}
   */
  final long handleForUnpinnedRead() {
    NativeReference current = reference;
    return current != null && current.openForUnpinnedRead() ? current.address : handleSlow();
  }

  /**
   * A pin on the native reference, for a native call or a sequence of reads that must not see the object freed by
   * a close on another thread: a close while it is held waits for {@link ReleaseEpochs.Pin#unpin()}. The caller
   * keeps this object reachable until it unpins.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  final ReleaseEpochs.Pin pin() {
    NativeReference current = reference;
    if (current == null) {
      handleSlow(); // makes the native object of a deferred reference, or throws if closed first
      current = reference;
    }
    if (!current.tryPin()) {
      throw closedError();
    }
    return current;
  }

  /**
   * The handle for a direct call, held in {@code held} instead of pinned (see {@link ReleaseEpochs.HeldHandles}):
   * the address is held before the handle is loaded, so either the call gets the open handle and a close defers the
   * release until the call lets go, or it sees the close. The caller keeps this object reachable until then.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  final long heldHandle(ReleaseEpochs.HeldHandles held) {
    NativeReference current = reference;
    if (current == null) {
      handleSlow(); // makes the native object of a deferred reference, or throws if closed first
      current = reference;
    }
    long address = current.address;
    held.hold(address);
    if (!current.openForUnpinnedRead()) { // marks it: a close then retires through the epochs
      throw closedError();
    }
    return address;
  }

  private IllegalStateException closedError() {
    return new IllegalStateException(closedSubject() + " is closed; it cannot be used after close()");
  }

  /** What a use after close names: {@code the calc.Calculator object}. */
  String closedSubject() {
    return "the " + typeKey() + " object";
  }

  /**
   * Makes the native object of a reference created without one and returns its owned handle; called once, under
   * this object's lock. Only a deferred reference ({@code ObjectRef(int)}) is ever asked.
   */
  long createNativeObject() {
    throw new AssertionError(getClass().getName() + " was created with a native object");
  }

  /**
   * The handle if the native object is made, 0 for a deferred reference not yet used (which needs none to be
   * passed for a call: see {@code NDArray}).
   *
   * @throws IllegalStateException after {@link #close()}
   */
  final long handleIfMade() {
    NativeReference current = reference;
    if (current == null) {
      return 0;
    }
    long handle = current.handleOrZero();
    return handle != 0 ? handle : handleSlow();
  }

  /** {@return whether {@link #close()} was called} */
  public final boolean isClosed() {
    NativeReference current = reference;
    return current != null && current.handleOrZero() == 0;
  }

  /** {@return the native type key of the object, such as {@code "Calculator"}; also after close} */
  public final String typeKey() {
    return TypeInfos.keyOrIndex(typeIndex);
  }

  /**
   * The handle this object was made with, also after close (an identity, never to be dereferenced then); 0 for a
   * deferred reference whose native object was never made.
   */
  final long address() {
    NativeReference current = reference;
    return current != null ? current.address : 0;
  }

  /** The native type index of the object. */
  final int typeIndex() {
    return typeIndex;
  }

  /**
   * Whether the object's native type is {@code typeKey} or derives from it; false for a key no loaded library
   * registered.
   *
   * <pre>{@code
   * node.isInstanceOf("test.BaseNode"); // true for a test.DerivedNode
   * }</pre>
   *
   * @param typeKey a registered type key, such as {@code "Calculator"}
   * @return whether this object is of that type or a type derived from it
   */
  public final boolean isInstanceOf(String typeKey) {
    int ancestor = TypeInfos.indexOf(Objects.requireNonNull(typeKey, "typeKey"));
    return ancestor >= 0 && TypeInfos.isInstanceOf(typeIndex, ancestor);
  }

  /**
   * Releases the native reference; later calls do nothing. Safe to call from any thread, also while other threads
   * use this object: a use in progress finishes (a getter's read, a call that passed this object, a live view's
   * read), and the native object is released after it; a use that starts later throws
   * {@link IllegalStateException}. The native release (and so a C++ destructor, when this was the last reference)
   * runs inside this call, unless another thread's use still holds the object: then on that thread when its use
   * ends. For an object whose {@code int}/{@code long}/{@code double}/{@code boolean} fields Java has read or
   * written, or that was passed to a function's typed entry, it runs about a millisecond later on the
   * {@code packed4j-release} daemon thread, once no such read, write or call can still be in progress (when a call on
   * another thread still holds it, up to about 130 ms after that call returns); {@link Packed4j#liveObjectCount()}
   * waits for it.
   */
  @Override
  public final void close() {
    onClose(); // first: views this object handed out end before the memory under them can go
    NativeReference current = reference;
    if (current == null) {
      // No native object was made: nothing to release. A release store, not a compare-and-set, keeps wrap + call +
      // close cheap; should a creation on another thread slip in before it (a close racing a use), the object it
      // made is still released, as an unclosed object is, once this reference is unreachable.
      REFERENCE.setRelease(this, NativeReference.CLOSED_BEFORE_CREATED);
    } else {
      current.release();
    }
  }

  /** What a subclass of this package releases beside the native reference when closed (NDArray's views). */
  void onClose() {}

  /**
   * Same native object (address identity), while both references are open: after close the address may belong to
   * another object, so a closed reference equals only itself.
   */
  @Override
  public final boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof ObjectRef that)) {
      return false;
    }
    long address = address();
    return address != 0 && that.address() == address && !isClosed() && !that.isClosed();
  }

  /** Stable for the object's life: a deferred NDArray hashes without its native object (see {@link #hashKey}). */
  @Override
  public final int hashCode() {
    return Long.hashCode(hashKey());
  }

  /** What {@link #hashCode()} hashes: the same for references to the same native object, fixed at creation. */
  long hashKey() {
    return address();
  }

  /**
   * The type key and the fields from the native metadata, such as {@code Calculator{brand=casio, price=100}};
   * {@code Calculator{closed}} after close.
   */
  @Override
  public String toString() {
    NativeReference current = reference; // null: a deferred NDArray, which prints itself
    if (current == null || !current.tryPin()) {
      return typeKey() + "{closed}";
    }
    try {
      return ObjectFormatter.format(current.address, typeIndex);
    } finally {
      current.unpin();
      Reference.reachabilityFence(this);
    }
  }
}
