package dev.packed4j.runtime.internal.route;

import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * The call frame: a {@link Frame} on the thread's argument stack, each argument put as a {@code P4JAny}, the
 * function's packed {@code safe_call}, the result converted, the frame closed in a {@code finally}. Built once per
 * method from its codecs with method-handle combinators, every step bound to its constant (the argument's index, its
 * codec), so the JIT inlines the whole call as it would the same code written out:
 *
 * <pre>{@code
 * Frame frame = ThreadStack.current().push(target, 2);
 * try {
 *   frame.putLong(0, a);
 *   frame.put(1, codec, values);
 *   frame.invoke();
 *   return frame.returnInt();
 * } finally {
 *   frame.close();
 * }
 * }</pre>
 *
 * <p>Selection rule: taken when neither direct route applies: the method has a parameter or result no direct entry
 * takes (a container, a box, an {@code Optional}, a function), the function is not registered yet (the method relinks
 * when a library loads), it has no typed entry that fits the method and the method has a String or NDArray parameter,
 * an object or {@code byte[]} parameter, a String, {@code byte[]} or object result or more than four parameters, or
 * direct routes are off ({@link LinkedRoute#DIRECT_PROPERTY}).
 *
 * <p>The handle has the method's wire type ({@link LinkedRoute#wireType}): a String parameter arrives as the address
 * of its span in scratch memory and is put as a view of the same bytes, an NDArray parameter of a method a direct
 * entry may take as its tensor word.
 */
record FrameRoute(MethodHandle handle, String reason) implements Route {
  private static final MethodHandle OPEN;
  private static final MethodHandle INVOKE;
  private static final MethodHandle CLOSE;
  private static final MethodHandle PUT_LONG;
  private static final MethodHandle PUT_DOUBLE;
  private static final MethodHandle PUT_BOOLEAN;
  private static final MethodHandle PUT_SPAN;
  private static final MethodHandle PUT_TENSOR_WORD;
  private static final MethodHandle PUT_BYTES;
  private static final MethodHandle PUT;
  private static final MethodHandle RETURN_VALUE;

  static {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    try {
      OPEN = lookup.findStatic(FrameRoute.class, "open",
          MethodType.methodType(Frame.class, CallTarget.class, int.class));
      INVOKE = lookup.findVirtual(Frame.class, "invoke", MethodType.methodType(void.class));
      CLOSE = lookup.findVirtual(Frame.class, "close", MethodType.methodType(void.class));
      PUT_LONG = put(lookup, "putLong", long.class);
      PUT_DOUBLE = put(lookup, "putDouble", double.class);
      PUT_BOOLEAN = put(lookup, "putBoolean", boolean.class);
      PUT_SPAN = put(lookup, "putSpan", long.class);
      PUT_TENSOR_WORD = put(lookup, "putTensorWord", long.class);
      PUT_BYTES = put(lookup, "putBytes", byte[].class);
      PUT = lookup.findVirtual(Frame.class, "put",
          MethodType.methodType(void.class, int.class, ValueCodec.class, Object.class));
      RETURN_VALUE = lookup.findVirtual(Frame.class, "returnValue",
          MethodType.methodType(Object.class, ValueCodec.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the frame operations", e);
    }
  }

  private static MethodHandle put(MethodHandles.Lookup lookup, String name, Class<?> value)
      throws ReflectiveOperationException {
    return lookup.findVirtual(Frame.class, name, MethodType.methodType(void.class, int.class, value));
  }

  @Override
  public String describe() {
    return "call frame (" + reason + ")";
  }

  /** Opens the calling thread's next frame for a call of {@code target}. */
  private static Frame open(CallTarget target, int argumentCount) {
    return ThreadStack.current().push(target, argumentCount);
  }

  /**
   * The call-frame handle of a method: of {@code wireType}, the Java method's type with each String and NDArray
   * parameter a {@code long} ({@link LinkedRoute#wireType}).
   *
   * @param javaType the Java method's type
   * @param codecs the codec of each parameter, then of the result (none for void)
   */
  static MethodHandle build(CallTarget target, MethodType javaType, List<ValueCodec<?>> codecs) {
    MethodType wireType = LinkedRoute.wireType(javaType);
    List<Class<?>> wire = wireType.parameterList();
    int count = wire.size();
    Class<?> result = javaType.returnType();
    // (Frame, w...) -> R: invoke, then take the result.
    MethodHandle body = MethodHandles.dropArguments(take(result, result == void.class ? null : codecs.get(count)),
        1, wire);
    body = MethodHandles.foldArguments(body, 0, INVOKE);
    // Each put runs before what follows it: fold them in from the last.
    for (int i = count - 1; i >= 0; i--) {
      MethodHandle put = put(i, javaType.parameterType(i), wire.get(i), codecs.get(i));
      body = MethodHandles.foldArguments(body, 0, MethodHandles.dropArguments(put, 1, wire.subList(0, i)));
    }
    // finally: close the frame, which releases temporaries, scratch bytes and a result not taken.
    MethodHandle cleanup;
    if (result == void.class) {
      cleanup = MethodHandles.dropArguments(CLOSE, 0, Throwable.class);
    } else {
      cleanup = MethodHandles.dropArguments(MethodHandles.identity(result), 0, Throwable.class);
      cleanup = MethodHandles.dropArguments(cleanup, 2, Frame.class);
      cleanup = MethodHandles.foldArguments(cleanup, 2, CLOSE);
    }
    body = MethodHandles.tryFinally(body, cleanup);
    return MethodHandles.foldArguments(body, 0, MethodHandles.insertArguments(OPEN, 0, target, count));
  }

  /** {@code (Frame, wire) -> void}: puts argument {@code index} of Java type {@code type}. */
  private static MethodHandle put(int index, Class<?> type, Class<?> wire, ValueCodec<?> codec) {
    MethodHandle put;
    if (type == boolean.class) {
      put = PUT_BOOLEAN;
    } else if (type == float.class || type == double.class) {
      put = PUT_DOUBLE;
    } else if (type.isPrimitive()) {
      put = PUT_LONG;
    } else if (type == String.class) {
      put = PUT_SPAN;
    } else if (LinkedRoute.passesWord(type) && wire == long.class) {
      put = PUT_TENSOR_WORD;
    } else if (type == byte[].class) {
      put = PUT_BYTES;
    } else {
      put = MethodHandles.insertArguments(PUT, 2, codec);
    }
    put = MethodHandles.insertArguments(put, 1, index);
    return put.asType(MethodType.methodType(void.class, Frame.class, wire));
  }

  /** {@code (Frame) -> R}: the result as the Java type {@code type}. */
  private static MethodHandle take(Class<?> type, ValueCodec<?> codec) {
    if (type == void.class) {
      return MethodHandles.empty(MethodType.methodType(void.class, Frame.class));
    }
    String name = type.isPrimitive()
        ? "return" + Character.toUpperCase(type.getName().charAt(0)) + type.getName().substring(1)
        : type == String.class ? "returnString"
        : type == byte[].class ? "returnBytes"
        : null;
    if (name == null) {
      return MethodHandles.insertArguments(RETURN_VALUE, 1, codec).asType(MethodType.methodType(type, Frame.class));
    }
    try {
      return MethodHandles.lookup().findVirtual(Frame.class, name, MethodType.methodType(type));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("Frame." + name, e);
    }
  }
}
