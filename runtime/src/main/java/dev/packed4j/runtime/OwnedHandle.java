package dev.packed4j.runtime;

/**
 * One owned reference to a native object, handed by the runtime to the constructor of a generated {@code @Object}
 * class, which passes it on to {@code ObjectRef}: {@code private Packed4j_Shape(OwnedHandle handle) { super(handle,
 * TYPE); }}.
 *
 * <p>Only the runtime makes one, and its reference is taken exactly once, by the first {@code ObjectRef} built from
 * it: a second object built from the same token (a factory that kept it) gets an {@link IllegalStateException},
 * never a second owner of the reference. So no Java code can make an {@code ObjectRef} over an address of its own
 * choosing and hand it to native code.
 */
public final class OwnedHandle {
  /** The owned handle until an ObjectRef takes it, then 0; read and cleared by {@code internal.OwnedHandles}. */
  @SuppressWarnings("unused") // accessed through a VarHandle
  private volatile long handle;

  private OwnedHandle(long handle) {
    this.handle = handle;
  }

  /** {@return {@code OwnedHandle[taken]} once an object took it, {@code OwnedHandle[owned]} before} */
  @Override
  public String toString() {
    return handle == 0 ? "OwnedHandle[taken]" : "OwnedHandle[owned]";
  }
}
