package dev.packed4j.runtime.internal.codec;

import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.internal.ConversionFailure;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.RuntimeAccess;

/** Objects and containers passed as borrowed handles: Java keeps its reference, the frame keeps Java's owner. */
final class ObjectHandles {
  private ObjectHandles() {}

  static void encode(ObjectRef value, long slot, Frame frame) {
    long handle;
    try {
      handle = value.handle();
    } catch (IllegalStateException closed) {
      throw new ConversionFailure(ConversionFailure.Kind.CLOSED, closed.getMessage());
    }
    frame.keepAlive(value);
    NativeMemory.putAny(slot, NativeMemory.objectTypeIndex(handle), 0, handle);
  }

  /** A NativeList or NativeMap. */
  static void encodeContainer(Object container, long slot, Frame frame) {
    long handle;
    try {
      handle = RuntimeAccess.get().containerHandle(container);
    } catch (IllegalStateException closed) {
      throw new ConversionFailure(ConversionFailure.Kind.CLOSED, closed.getMessage());
    }
    frame.keepAlive(container);
    NativeMemory.putAny(slot, NativeMemory.objectTypeIndex(handle), 0, handle);
  }
}
