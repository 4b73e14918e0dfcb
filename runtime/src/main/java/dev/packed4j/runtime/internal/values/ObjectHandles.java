package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;

/**
 * Objects and containers passed as borrowed handles: Java keeps its reference, and the frame holds a pin on it and
 * keeps its owner reachable until the call ends, so a close on another thread waits for the call.
 */
public final class ObjectHandles {
  private ObjectHandles() {}

  /**
   * Writes the handle of {@code value}, an {@code ObjectRef} of the declared type, into {@code slot}, pinned until
   * the frame closes.
   *
   * @throws ConversionFailure TYPE naming {@code expected} when it is not an {@code ObjectRef}, CLOSED when closed
   */
  static void encode(Object value, String expected, long slot, Frame frame) {
    ReleaseEpochs.Pin pin = pin(value, expected);
    frame.keepPinned(value, pin);
    long handle = pin.pinnedHandle();
    NativeMemory.putAny(slot, NativeMemory.objectTypeIndex(handle), 0, handle);
  }

  /**
   * The handle of {@code value} as a typed entry's object word, held in {@code held} until the call restores its
   * depth ({@link ReleaseEpochs.HeldHandles}), which keeps it from a close on another thread as a pin would.
   *
   * @throws ConversionFailure as {@link #encode}
   */
  static long heldWord(Object value, String expected, ReleaseEpochs.HeldHandles held) {
    long handle;
    try {
      handle = RuntimeAccess.get().heldHandle(value, held);
    } catch (IllegalStateException closed) {
      throw new ConversionFailure(ConversionFailure.Kind.CLOSED, closed.getMessage());
    }
    if (handle == 0) {
      throw notNative(value, expected);
    }
    return handle;
  }

  static ReleaseEpochs.Pin pin(Object value, String expected) {
    ReleaseEpochs.Pin pin;
    try {
      pin = RuntimeAccess.get().pinObject(value);
    } catch (IllegalStateException closed) {
      throw new ConversionFailure(ConversionFailure.Kind.CLOSED, closed.getMessage());
    }
    if (pin == null) {
      throw notNative(value, expected);
    }
    return pin;
  }

  /**
   * {@code "a proxy implementing Cat (an object a session returned lives in its server)"} for a session's object, as
   * packed4j-remote makes them; null for any other value.
   */
  public static String describeSessionObject(Object value) {
    if (!java.lang.reflect.Proxy.isProxyClass(value.getClass())) {
      return null;
    }
    String interfaces = java.util.Arrays.stream(value.getClass().getInterfaces()).map(Class::getSimpleName)
        .collect(java.util.stream.Collectors.joining(", "));
    return "a proxy implementing " + interfaces + " (an object a session returned lives in its server)";
  }

  private static ConversionFailure notNative(Object value, String expected) {
    String sessionObject = describeSessionObject(value);
    if (sessionObject != null) {
      return new ConversionFailure(ConversionFailure.Kind.TYPE, sessionObject + ": only objects of this process can"
          + " be passed as " + expected + " here; pass it to an interface that session bound");
    }
    return new ConversionFailure(ConversionFailure.Kind.TYPE, "a " + value.getClass().getName()
        + ", which is not a native object: only objects packed4j returned (generated classes) can be passed as "
        + expected);
  }

  /** A NativeList or NativeMap, pinned until the frame closes. */
  static void encodeContainer(Object container, long slot, Frame frame) {
    ReleaseEpochs.Pin pin;
    try {
      pin = RuntimeAccess.get().pinContainer(container);
    } catch (IllegalStateException closed) {
      throw new ConversionFailure(ConversionFailure.Kind.CLOSED, closed.getMessage());
    }
    frame.keepPinned(container, pin);
    long handle = pin.pinnedHandle();
    NativeMemory.putAny(slot, NativeMemory.objectTypeIndex(handle), 0, handle);
  }
}
