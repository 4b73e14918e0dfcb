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
  private static final VarHandle MAKER;
  private static final VarHandle TYPE_INDEX;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(OwnedHandle.class, MethodHandles.lookup());
      NEW = lookup.findConstructor(OwnedHandle.class, MethodType.methodType(void.class, long.class, int.class));
      HANDLE = lookup.findVarHandle(OwnedHandle.class, "handle", long.class);
      MAKER = lookup.findVarHandle(OwnedHandle.class, "maker", Thread.class);
      TYPE_INDEX = lookup.findVarHandle(OwnedHandle.class, "typeIndex", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * A token owning {@code ownedHandle}, for the factory of a generated class.
   *
   * @param ownedHandle the owned object handle
   * @param typeIndex the type index in the object's header, which the caller has read already
   * @return the token
   */
  public static OwnedHandle of(long ownedHandle, int typeIndex) {
    try {
      return (OwnedHandle) NEW.invokeExact(ownedHandle, typeIndex);
    } catch (Throwable e) {
      throw new AssertionError(e);
    }
  }

  /**
   * The handle of {@code token}, taken: the token is empty afterwards. Only the thread that made the token (the one
   * the runtime calls the factory on) may take it, so plain reads and writes take it exactly once.
   *
   * @throws IllegalStateException when an object already took it, or on another thread
   */
  public static long take(OwnedHandle token) {
    if ((Thread) MAKER.get(token) != Thread.currentThread()) {
      throw new IllegalStateException("an OwnedHandle can only be taken on the thread the runtime gave it to its "
          + "factory on, during that call: a factory of ObjectType.define must build its object there");
    }
    long handle = (long) HANDLE.get(token);
    if (handle == 0) {
      throw new IllegalStateException("this OwnedHandle was already taken by another object: a factory of "
          + "ObjectType.define must build one object from each handle the runtime gives it, and keep none");
    }
    HANDLE.set(token, 0L);
    return handle;
  }

  /** {@return the type index of the object whose handle {@code token} owns (or owned), as the runtime read it} */
  public static int typeIndex(OwnedHandle token) {
    return (int) TYPE_INDEX.get(token);
  }

  /** {@return whether an object took the handle of {@code token}} Called on the thread that made it. */
  public static boolean isTaken(OwnedHandle token) {
    return (long) HANDLE.get(token) == 0;
  }

  /**
   * After a factory failed: leaves the caller holding the reference it handed over as {@code ownedHandle}. A token no
   * object took is emptied (its reference is the caller's again); when an object took it, that object keeps its own
   * and the caller gets a new one (the object still holds the native object, so taking one is safe). Called on the
   * thread that made the token, after the factory returned or threw.
   */
  public static void giveBack(OwnedHandle token, long ownedHandle) {
    if ((long) HANDLE.get(token) != 0) {
      HANDLE.set(token, 0L);
    } else {
      CApi.P4JObjectIncRef(ownedHandle);
    }
  }
}
