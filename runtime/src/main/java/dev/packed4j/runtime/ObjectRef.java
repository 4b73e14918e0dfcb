package dev.packed4j.runtime;

import dev.packed4j.runtime.binding.ObjectType;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.ObjectFormatter;
import dev.packed4j.runtime.internal.RuntimeAccess;
import dev.packed4j.runtime.internal.TypeInfos;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * A Java reference to a native object: it owns one reference count of the object until {@link #close()}.
 *
 * <p>Generated {@code @Object} classes, {@link NativeObject} and {@link PackedFunction} extend it. Closing is
 * idempotent and thread-safe; an object never closed is released by a {@link java.lang.ref.Cleaner} once it is
 * unreachable. Using a closed object throws {@link IllegalStateException}, never crashes. Two references are
 * equal when they refer to the same native object.
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
    RuntimeAccess.install(new RuntimeBridge());
  }

  private final NativeReference reference;
  private final long address;
  private final int typeIndex;

  /**
   * Takes over an owned reference, for generated classes: {@code super(handle, TYPE)}.
   *
   * @param handle an owned {@code P4JObjectHandle}; this object releases it
   * @param type the {@code ObjectType} the generated class defines; this object must implement its interface
   */
  @SuppressWarnings("this-escape") // the Cleaner registers this object; it reads no state of a subclass
  protected ObjectRef(long handle, ObjectType<?> type) {
    this(handle);
    Objects.requireNonNull(type, "type");
    if (!type.javaType().isInstance(this)) {
      reference.release();
      throw new IllegalArgumentException(getClass().getName() + " does not implement " + type.javaType().getName()
          + ", the Java type of " + type.typeKey() + ": pass the TYPE of the generated class itself");
    }
  }

  @SuppressWarnings("this-escape") // the Cleaner registers this object; it reads no state of a subclass
  ObjectRef(long handle) {
    if (handle == 0) {
      throw new IllegalArgumentException("a native object handle must not be 0 (null)");
    }
    this.address = handle;
    this.typeIndex = NativeMemory.objectTypeIndex(handle);
    this.reference = new NativeReference(this, handle);
  }

  /**
   * The native handle ({@code P4JObjectHandle}), borrowed: valid while this object is open.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public final long handle() {
    long handle = reference.handleOrZero();
    if (handle == 0) {
      throw new IllegalStateException("the " + typeKey() + " object is closed; it cannot be used after close()");
    }
    return handle;
  }

  /** Whether {@link #close()} was called. */
  public final boolean isClosed() {
    return reference.handleOrZero() == 0;
  }

  /** The native type key of the object, such as {@code "Calculator"}; also after close. */
  public final String typeKey() {
    return TypeInfos.keyOrIndex(typeIndex);
  }

  /** The handle this object was made with, also after close (an identity, never to be dereferenced then). */
  final long address() {
    return address;
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
   */
  public final boolean isInstanceOf(String typeKey) {
    int ancestor = TypeInfos.indexOf(Objects.requireNonNull(typeKey, "typeKey"));
    return ancestor >= 0 && TypeInfos.isInstanceOf(typeIndex, ancestor);
  }

  /** Releases the native reference; later calls do nothing. Safe to call from any thread. */
  @Override
  public final void close() {
    reference.release();
    onClose();
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
    return other instanceof ObjectRef that && that.address == address && !isClosed() && !that.isClosed();
  }

  @Override
  public final int hashCode() {
    return Long.hashCode(address);
  }

  /**
   * The type key and the fields from the native metadata, such as {@code Calculator{brand=casio, price=100}};
   * {@code Calculator{closed}} after close.
   */
  @Override
  public String toString() {
    long handle = reference.handleOrZero();
    if (handle == 0) {
      return typeKey() + "{closed}";
    }
    try {
      return ObjectFormatter.format(handle, typeIndex);
    } finally {
      Reference.reachabilityFence(this);
    }
  }
}
