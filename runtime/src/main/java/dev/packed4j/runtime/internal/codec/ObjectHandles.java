package dev.packed4j.runtime.internal.codec;

import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.internal.ConversionFailure;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.ReleaseEpochs;
import dev.packed4j.runtime.internal.RuntimeAccess;
import dev.packed4j.runtime.internal.ThreadStack;

/**
 * Objects and containers passed as borrowed handles: Java keeps its reference, and the frame holds a pin on it and
 * keeps its owner reachable until the call ends, so a close on another thread waits for the call.
 */
final class ObjectHandles {
  private ObjectHandles() {}

  static void encode(ObjectRef value, long slot, Frame frame) {
    ReleaseEpochs.Pin pin;
    try {
      pin = RuntimeAccess.get().pinObject(value);
    } catch (IllegalStateException closed) {
      throw new ConversionFailure(ConversionFailure.Kind.CLOSED, closed.getMessage());
    }
    frame.keepPinned(value, pin);
    long handle = pin.pinnedHandle();
    NativeMemory.putAny(slot, NativeMemory.objectTypeIndex(handle), 0, handle);
  }

  /**
   * The handle of {@code value} as a typed entry's object word, pinned like {@link #encode} pins it, the pin held by
   * {@code stack} until its outermost scratch mark is released.
   */
  static long pinnedWord(ObjectRef value, ThreadStack stack) {
    ReleaseEpochs.Pin pin;
    try {
      pin = RuntimeAccess.get().pinObject(value);
    } catch (IllegalStateException closed) {
      throw new ConversionFailure(ConversionFailure.Kind.CLOSED, closed.getMessage());
    }
    stack.holdPin(pin);
    return pin.pinnedHandle();
  }

  /** A NativeList or NativeMap. */
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
