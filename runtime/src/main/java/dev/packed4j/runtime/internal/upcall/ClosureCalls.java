package dev.packed4j.runtime.internal.upcall;

import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.values.AnyCodec;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.lang.ref.Reference;

/** Calls of a native function through a functional interface a {@code @Global} returned (a closure out). */
public final class ClosureCalls {
  private ClosureCalls() {}

  /** Calls {@code function}; the result converted by {@code result}, or released when it is null. */
  public static <R> R call(Object function, String name, Codec<R> result, Object[] args) {
    ReleaseEpochs.Pin pin = RuntimeAccess.get().pinObject(function); // a close on another thread waits for the call
    try (Frame frame = ThreadStack.current().push(CallTarget.function(pin.pinnedHandle(), name),
        args.length)) {
      for (int i = 0; i < args.length; i++) {
        frame.put(i, AnyCodec.ANY, args[i]);
      }
      frame.invoke();
      return result == null ? null : frame.returnValue((ValueCodec<R>) result);
    } finally {
      pin.unpin();
      Reference.reachabilityFence(function);
    }
  }
}
