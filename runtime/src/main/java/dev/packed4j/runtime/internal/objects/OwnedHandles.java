package dev.packed4j.runtime.internal.objects;

import dev.packed4j.runtime.OwnedHandle;
import dev.packed4j.runtime.internal.capi.CApi;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

/** Makes and takes {@link OwnedHandle} tokens: the only code that sees the handle inside one. */
public final class OwnedHandles {
  private OwnedHandles() {}

  private static final MethodHandle NEW;
  private static final VarHandle HANDLE;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(OwnedHandle.class, MethodHandles.lookup());
      NEW = lookup.findConstructor(OwnedHandle.class, MethodType.methodType(void.class, long.class));
      HANDLE = lookup.findVarHandle(OwnedHandle.class, "handle", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** A token owning {@code ownedHandle}, for the factory of a generated class. */
  public static OwnedHandle of(long ownedHandle) {
    try {
      return (OwnedHandle) NEW.invokeExact(ownedHandle);
    } catch (Throwable e) {
      throw new AssertionError(e);
    }
  }

  /**
   * The handle of {@code token}, taken: the token is empty afterwards.
   *
   * @throws IllegalStateException when an object already took it
   */
  public static long take(OwnedHandle token) {
    long handle = (long) HANDLE.getAndSet(token, 0L);
    if (handle == 0) {
      throw new IllegalStateException("this OwnedHandle was already taken by another object: a factory of "
          + "ObjectType.define must build one object from each handle the runtime gives it, and keep none");
    }
    return handle;
  }

  /** Releases the handle of a token no object took; {@return whether it did} */
  public static boolean releaseIfUntaken(OwnedHandle token) {
    if ((long) HANDLE.getVolatile(token) == 0) {
      return false; // taken, the usual case: no atomic write
    }
    long handle = (long) HANDLE.getAndSet(token, 0L);
    if (handle == 0) {
      return false;
    }
    CApi.P4JObjectDecRef(handle);
    return true;
  }
}
