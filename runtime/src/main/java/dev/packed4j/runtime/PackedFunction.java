package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.Errors;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.ThreadStack;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.codec.AnyCodec;
import java.lang.ref.Reference;

/**
 * A native function object, called with dynamically converted arguments.
 *
 * <pre>{@code
 * PackedFunction add = Registry.global("calculator.MyAdd");
 * Object sum = add.invoke(1, 2);   // 3L
 * add.signature();                 // "" for set_body, "(int64, int64) -> int64" for set_body_typed
 * }</pre>
 *
 * <p>Arguments: null, Boolean, Byte/Short/Integer/Long, Float/Double, String, byte[], native objects (generated
 * {@code @Object} classes, NativeObject, PackedFunction, NativeList, NativeMap), java.util.List and Map (copied
 * to temporary native containers), Optional. Results: null, Boolean, Long, Double, String, byte[],
 * PackedFunction, {@code NativeList<Object>} and {@code NativeMap<Object, Object>} (live views), and objects as
 * the generated class of their type or nearest ancestor, else {@link NativeObject}. Object results are owned by
 * the caller: close them.
 */
public final class PackedFunction extends ObjectRef {
  private final String name;
  private final CallTarget target;

  PackedFunction(long handle, String name) {
    super(handle);
    this.name = name;
    this.target = CallTarget.function(handle, name);
  }

  /**
   * Calls the function.
   *
   * @throws Packed4jException the native error (kind, message, backtrace), or a TypeError for an argument
   *     without native representation
   * @throws NullPointerException when {@code args} is null (pass {@code (Object) null} for a None argument)
   * @throws IllegalStateException when this function or an object argument is closed
   */
  public Object invoke(Object... args) {
    handle();
    try (Frame frame = ThreadStack.current().push(target, args.length)) {
      for (int i = 0; i < args.length; i++) {
        frame.put(i, AnyCodec.ANY, args[i]);
      }
      frame.invoke();
      return frame.returnValue(AnyCodec.ANY);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** The registered name when this function came from {@link Registry}, else null. */
  public String name() {
    return name;
  }

  /**
   * The signature recorded by {@code set_body_typed}, such as {@code "(int64, int64) -> int64"}; empty for an
   * untyped function.
   */
  public String signature() {
    long handle = handle();
    try (Frame frame = ThreadStack.current().push(target, 0)) {
      long span = frame.scratch(16, 8);
      Errors.check(CApi.P4JFunctionGetSignature(handle, span), name);
      return NativeMemory.spanString(span);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** {@code PackedFunction[calculator.Mul (int64, int64) -> int64]}. */
  @Override
  public String toString() {
    if (isClosed()) {
      return "PackedFunction[" + (name == null ? "anonymous" : name) + ", closed]";
    }
    String signature = signature();
    return "PackedFunction[" + (name == null ? "anonymous" : name) + (signature.isEmpty() ? "" : " " + signature)
        + "]";
  }
}
