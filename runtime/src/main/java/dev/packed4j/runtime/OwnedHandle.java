package dev.packed4j.runtime;

/**
 * One owned reference to a native object, handed by the runtime to the constructor of a generated {@code @Object}
 * class, which passes it on to {@code ObjectRef}: {@code private Packed4j_Shape(OwnedHandle handle) { super(handle,
 * TYPE); }}.
 *
 * <p>Only the runtime makes one, and its reference is taken exactly once, by the first {@code ObjectRef} built from
 * it, on the thread the runtime handed it over on: a second object built from the same token (a factory that kept
 * it) gets an {@link IllegalStateException}, never a second owner of the reference, and so does an object built from
 * it on another thread. So no Java code can make an {@code ObjectRef} over an address of its own choosing and hand
 * it to native code; and as only one thread may take it, taking it needs no atomic operation.
 */
public final class OwnedHandle {
  /** The owned handle until an ObjectRef takes it, then 0; read and cleared by {@code internal.OwnedHandles}. */
  @SuppressWarnings("unused") // accessed through a VarHandle
  private long handle;

  /** The thread the runtime made this token on: the only one that may take it. */
  @SuppressWarnings("unused") // accessed through a VarHandle
  private final Thread maker;

  /**
   * The native type index of the handle's object, which the runtime read to choose the factory: the object built
   * from this token takes it from here instead of reading the object's header a second time.
   */
  @SuppressWarnings("unused") // accessed through a VarHandle
  private final int typeIndex;

  private OwnedHandle(long handle, int typeIndex) {
    this.handle = handle;
    this.maker = Thread.currentThread();
    this.typeIndex = typeIndex;
  }

  /** {@return {@code OwnedHandle[taken]} once an object took it, {@code OwnedHandle[owned]} before} */
  @Override
  public String toString() {
    return handle == 0 ? "OwnedHandle[taken]" : "OwnedHandle[owned]";
  }
}
