package dev.packed4j.runtime.internal.route;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.values.BytesCodec;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Containers;
import dev.packed4j.runtime.internal.values.ListCodec;
import dev.packed4j.runtime.internal.values.ObjectCodec;
import dev.packed4j.runtime.internal.values.OptionalCodec;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Reference;
import java.util.List;
import java.util.Optional;

/**
 * The String and NDArray parameters of a method, as every route takes them: the adapter from the Java method's type
 * to its wire type ({@link LinkedRoute#wireType}), for a method whose wire type differs. Built once per method with
 * method-handle combinators, so the JIT inlines it with the route behind it; for
 * {@code long count(String text, NDArray a)} it is:
 *
 * <pre>{@code
 * ThreadStack stack = ThreadStack.current();
 * long mark = stack.markScratch();
 * try {
 *   return route.invokeExact(span(stack, text), word(stack, a));
 * } finally {
 *   release(stack, mark);
 *   Reference.reachabilityFence(a);
 * }
 * }</pre>
 *
 * <p>A String becomes the address of its UTF-8 span ({@code P4JByteArray}) in the thread's scratch memory; an
 * NDArray its tensor word ({@code P4J_TENSOR_WORD_BORROWED} in c_api.h): its object's handle, pinned until the
 * outermost mark is released, or a borrowed DLTensor written there for a wrapped tensor that has none, which is why
 * the tensor is kept reachable until the call returns. Marks nest with frames and with each other (a callback that
 * calls again allocates above), so a call made from inside the call stacks above it.
 */
final class ScratchScope {
  private static final MethodHandle CURRENT;
  private static final MethodHandle MARK;
  private static final MethodHandle RELEASE;
  private static final MethodHandle SPAN;
  private static final MethodHandle WORD;
  private static final MethodHandle OBJECT_WORD;
  private static final MethodHandle BYTES_SPAN;
  private static final MethodHandle FENCE;
  private static final MethodHandle CURRENT_HELD;
  private static final MethodHandle HELD_DEPTH;
  private static final MethodHandle HELD_RESTORE;
  private static final MethodHandle LIST_WORD;
  private static final MethodHandle OPTIONAL_VALUE;
  private static final MethodHandle OUT_SLOT;

  static {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    try {
      CURRENT = lookup.findStatic(ThreadStack.class, "current", MethodType.methodType(ThreadStack.class));
      MARK = lookup.findVirtual(ThreadStack.class, "markScratch", MethodType.methodType(long.class));
      RELEASE = lookup.findStatic(ScratchScope.class, "release",
          MethodType.methodType(void.class, long.class, ThreadStack.class));
      SPAN = lookup.findStatic(ScratchScope.class, "span",
          MethodType.methodType(long.class, CallTarget.class, int.class, ThreadStack.class, String.class));
      WORD = lookup.findStatic(ScratchScope.class, "word",
          MethodType.methodType(long.class, CallTarget.class, int.class, ThreadStack.class, Object.class))
          .asType(MethodType.methodType(long.class, CallTarget.class, int.class, ThreadStack.class,
              LinkedRoute.NDARRAY));
      OBJECT_WORD = lookup.findStatic(ScratchScope.class, "objectWord", MethodType.methodType(long.class,
          CallTarget.class, int.class, ObjectCodec.class, ReleaseEpochs.HeldHandles.class, Object.class));
      CURRENT_HELD = lookup.findStatic(ThreadStack.class, "currentHeldHandles",
          MethodType.methodType(ReleaseEpochs.HeldHandles.class));
      HELD_DEPTH = lookup.findVirtual(ReleaseEpochs.HeldHandles.class, "depth", MethodType.methodType(int.class));
      HELD_RESTORE = lookup.findStatic(ScratchScope.class, "restore",
          MethodType.methodType(void.class, int.class, ReleaseEpochs.HeldHandles.class));
      BYTES_SPAN = lookup.findStatic(ScratchScope.class, "bytesSpan",
          MethodType.methodType(long.class, CallTarget.class, int.class, ThreadStack.class, byte[].class));
      LIST_WORD = lookup.findStatic(ScratchScope.class, "listWord", MethodType.methodType(long.class,
          CallTarget.class, int.class, ListCodec.class, ThreadStack.class, List.class));
      OPTIONAL_VALUE = lookup.findStatic(ScratchScope.class, "optionalValue", MethodType.methodType(long.class,
          CallTarget.class, int.class, OptionalCodec.class, ThreadStack.class, Optional.class));
      OUT_SLOT = lookup.findStatic(ScratchScope.class, "outSlot", MethodType.methodType(long.class,
          ThreadStack.class));
      FENCE = lookup.findStatic(Reference.class, "reachabilityFence", MethodType.methodType(void.class, Object.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the scratch operations", e);
    }
  }

  private ScratchScope() {}

  /** Whether a method of {@code javaType} needs the scope: it has a String or NDArray parameter. */
  static boolean needed(MethodType javaType) {
    return !javaType.equals(LinkedRoute.wireType(javaType));
  }

  /**
   * {@code wired}, of the wire type of {@code javaType}, adapted to {@code javaType}: each String and NDArray
   * argument made in scratch memory taken at a mark before the call and given back after it.
   */
  static MethodHandle around(MethodHandle wired, CallTarget target, MethodType javaType) {
    int count = javaType.parameterCount();
    MethodHandle[] conversions = new MethodHandle[count];
    for (int i = 0; i < count; i++) {
      Class<?> type = javaType.parameterType(i);
      MethodHandle conversion = type == String.class ? SPAN : type == LinkedRoute.NDARRAY ? WORD : null;
      if (conversion != null && wired.type().parameterType(i) == long.class) {
        conversions[i] = MethodHandles.insertArguments(conversion, 0, target, i);
      }
    }
    return scoped(wired, javaType, conversions);
  }

  /**
   * A typed entry's handle {@code wired}, which takes a {@code long} where {@code codecs} has a codec, adapted to
   * {@code outer}, which takes the value there: an {@code @Object} value as its object word, held by the thread
   * ({@link ReleaseEpochs.HeldHandles}: a close on another thread defers the release until the call has returned, as
   * the call frame's pin makes it wait) and kept reachable until the call returns; a {@code byte[]} as the address
   * of a span over a copy of its bytes in scratch memory (what the frame's {@code putBytes} copies), inside a scratch
   * mark; a {@code List} (of numbers or Strings) as its list word, a dense list of its numbers when its codec says so
   * ({@link ListCodec#denseTag}), else a borrowed list cell in scratch memory ({@code P4J_LIST_WORD_BORROWED}) or,
   * for a {@code NativeList}, its handle, pinned until the outermost mark is
   * released, as the frame passes it; an {@code Optional} of a number or boolean as the address of its
   * {@code P4JAny} in scratch memory (None for empty), as the frame would put it. The objects' scope is outermost and
   * takes no mark, so a method whose only such parameters are objects pays
   * for neither a mark nor a pin:
   *
   * <pre>{@code
   * HeldHandles held = ThreadStack.currentHeldHandles();
   * int depth = held.depth();
   * try {
   *   return route.invokeExact(objectWord(held, self), a, b);
   * } finally {
   *   held.restore(depth);
   *   Reference.reachabilityFence(self);
   * }
   * }</pre>
   *
   * @param codecs the codec of each parameter passed so (an {@link ObjectCodec}, {@link BytesCodec},
   *     {@link ListCodec} or {@link OptionalCodec}), null for the others
   */
  static MethodHandle aroundReferences(MethodHandle wired, CallTarget target, MethodType outer,
      ValueCodec<?>[] codecs) {
    MethodHandle[] objects = new MethodHandle[codecs.length];
    MethodHandle[] bytes = new MethodHandle[codecs.length];
    boolean anyObject = false;
    MethodType bytesOuter = wired.type(); // the objects' positions still take their words
    for (int i = 0; i < codecs.length; i++) {
      if (codecs[i] instanceof ObjectCodec<?> codec) {
        objects[i] = MethodHandles.insertArguments(OBJECT_WORD, 0, target, i, codec)
            .asType(MethodType.methodType(long.class, ReleaseEpochs.HeldHandles.class, outer.parameterType(i)));
        anyObject = true;
      } else if (codecs[i] instanceof BytesCodec) {
        bytes[i] = MethodHandles.insertArguments(BYTES_SPAN, 0, target, i);
        bytesOuter = bytesOuter.changeParameterType(i, byte[].class);
      } else if (codecs[i] instanceof ListCodec<?, ?> || codecs[i] instanceof OptionalCodec<?>) {
        MethodHandle conversion = codecs[i] instanceof ListCodec<?, ?> ? LIST_WORD : OPTIONAL_VALUE;
        bytes[i] = MethodHandles.insertArguments(conversion, 0, target, i, codecs[i])
            .asType(MethodType.methodType(long.class, ThreadStack.class, outer.parameterType(i)));
        bytesOuter = bytesOuter.changeParameterType(i, outer.parameterType(i));
      }
    }
    MethodHandle inner = bytesOuter.equals(wired.type()) ? wired
        : scoped(wired, bytesOuter, bytes, CURRENT, MARK, RELEASE);
    return anyObject ? scoped(inner, outer, objects, CURRENT_HELD, HELD_DEPTH, HELD_RESTORE) : inner;
  }

  /**
   * {@code wired} taking, at each position with a conversion {@code (ThreadStack, value) -> long}, the value of
   * {@code outer}'s type there instead, inside a scratch mark; every converted value but a String is kept reachable
   * until the mark is released.
   */
  private static MethodHandle scoped(MethodHandle wired, MethodType outer, MethodHandle[] conversions) {
    return scoped(wired, outer, conversions, CURRENT, MARK, RELEASE);
  }

  /**
   * {@code wired} taking, at each position with a conversion {@code (state, value) -> long}, the value of
   * {@code outer}'s type there instead: the thread's {@code state} found by {@code current}, a mark taken from it by
   * {@code mark} before the conversions and given back by {@code release(mark, state)} in a {@code finally}, which
   * also keeps every converted value but a String or a {@code byte[]} reachable until then.
   */
  private static MethodHandle scoped(MethodHandle wired, MethodType outer, MethodHandle[] conversions,
      MethodHandle current, MethodHandle mark, MethodHandle release) {
    int count = conversions.length;
    // (mark, state, w...) -> R, then each converted parameter made from the state and the value.
    MethodHandle core = MethodHandles.dropArguments(wired, 0, mark.type().returnType(),
        current.type().returnType());
    for (int i = 0; i < count; i++) {
      if (conversions[i] == null) {
        continue;
      }
      int position = 2 + i;
      // (mark, stack, ..., stack', value, ...): the conversion's stack is the first one.
      MethodHandle collected = MethodHandles.collectArguments(core, position, conversions[i]);
      MethodType merged = collected.type().dropParameterTypes(position, position + 1);
      int[] reorder = new int[collected.type().parameterCount()];
      for (int j = 0; j < reorder.length; j++) {
        reorder[j] = j < position ? j : j == position ? 1 : j - 1;
      }
      core = MethodHandles.permuteArguments(collected, merged, reorder);
    }
    // finally: (Throwable, [R,] mark, stack, J...) releases the mark and keeps each NDArray or object reachable.
    Class<?> result = outer.returnType();
    MethodHandle cleanup = result == void.class
        ? MethodHandles.empty(MethodType.methodType(void.class, Throwable.class))
        : MethodHandles.dropArguments(MethodHandles.identity(result), 0, Throwable.class);
    int leading = cleanup.type().parameterCount();
    cleanup = MethodHandles.dropArguments(cleanup, leading, core.type().parameterList());
    for (int i = count - 1; i >= 0; i--) {
      Class<?> type = outer.parameterType(i);
      if (conversions[i] != null && type != String.class && type != byte[].class) {
        cleanup = MethodHandles.foldArguments(cleanup, leading + 2 + i,
            FENCE.asType(MethodType.methodType(void.class, type)));
      }
    }
    cleanup = MethodHandles.foldArguments(cleanup, leading, release);
    // (mark, state, J...), the mark taken from the state, the state the thread's.
    MethodHandle scoped = MethodHandles.tryFinally(core, cleanup);
    scoped = MethodHandles.foldArguments(scoped, 0, mark);
    return MethodHandles.foldArguments(scoped, 0, current);
  }

  /**
   * {@code wired}, a typed entry's handle whose last parameter is the address of its {@code P4JAny* out} (an
   * {@code Optional} result), taking a slot for it in scratch memory inside a mark: the result is read from the slot
   * before the mark is released.
   */
  static MethodHandle aroundOut(MethodHandle wired) {
    MethodType type = wired.type();
    int out = type.parameterCount() - 1;
    // (stack, w..., out) -> R as (out, stack, w...) -> R, the out slot folded in from the stack.
    MethodType front = type.dropParameterTypes(out, out + 1).insertParameterTypes(0, long.class, ThreadStack.class);
    int[] reorder = new int[type.parameterCount()];
    for (int j = 0; j < out; j++) {
      reorder[j] = j + 2;
    }
    reorder[out] = 0;
    MethodHandle moved = MethodHandles.permuteArguments(wired, front, reorder);
    MethodHandle core = MethodHandles.foldArguments(moved, 0, OUT_SLOT); // (stack, w...) -> R
    core = MethodHandles.dropArguments(core, 0, long.class); // (mark, stack, w...) -> R
    MethodHandle cleanup = MethodHandles.dropArguments(MethodHandles.identity(type.returnType()), 0,
        Throwable.class);
    cleanup = MethodHandles.dropArguments(cleanup, 2, core.type().parameterList());
    cleanup = MethodHandles.foldArguments(cleanup, 2, RELEASE);
    MethodHandle scoped = MethodHandles.tryFinally(core, cleanup);
    scoped = MethodHandles.foldArguments(scoped, 0, MARK);
    return MethodHandles.foldArguments(scoped, 0, CURRENT);
  }

  /** The {@code P4JAny} slot of an entry's {@code out} result, None until written. */
  private static long outSlot(ThreadStack stack) {
    long slot = stack.allocateScratch(16);
    NativeMemory.putLong(slot, 0);
    NativeMemory.putLong(slot + 8, 0);
    return slot;
  }

  /**
   * A {@code List} argument as its list word (see {@link #aroundReferences}), with the call frame's failures: a null
   * list or element, a closed {@code NativeList}.
   */
  private static long listWord(CallTarget target, int index, ListCodec<?, ?> codec, ThreadStack stack,
      List<?> value) {
    if (value == null) { // the call frame's message (Frame.put)
      throw new NullPointerException(target.describeArgument(index) + " is null; " + codec.javaTypeWithArticle()
          + " argument must not be null" + (codec.nullHint().isEmpty() ? "" : " (" + codec.nullHint() + ")"));
    }
    try {
      // An ArrayList or List.of list is no NativeList: the common lists skip kindOf's type switch.
      if (!Containers.isPlainList(value) && RuntimeAccess.get().kindOf(value) == RuntimeAccess.ViewKind.LIST) {
        ReleaseEpochs.Pin pin;
        try {
          pin = RuntimeAccess.get().pinContainer(value);
        } catch (IllegalStateException closed) {
          throw new ConversionFailure(ConversionFailure.Kind.CLOSED, closed.getMessage());
        }
        stack.holdPin(pin);
        return pin.pinnedHandle();
      }
      int dense = codec.denseTag(); // numbers, for an entry that takes their plain values (ABI 2.7)
      if (dense != 0) {
        return Containers.denseList(value, dense, codec.javaType(), stack);
      }
      @SuppressWarnings("unchecked")
      ValueCodec<Object> element = (ValueCodec<Object>) codec.element();
      return Containers.borrowedList(value, element, codec.javaType(), stack);
    } catch (ConversionFailure failure) {
      throw failure.toException(target.describeArgument(index), target.exceptionFunctionName());
    }
  }

  /** An {@code Optional} argument of a number or boolean as the address of its {@code P4JAny} in scratch memory. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static long optionalValue(CallTarget target, int index, OptionalCodec codec, ThreadStack stack,
      Optional<?> value) {
    if (value == null) { // the call frame's message (Frame.put)
      throw new NullPointerException(target.describeArgument(index) + " is null; " + codec.javaTypeWithArticle()
          + " argument must not be null (" + codec.nullHint() + ")");
    }
    long slot = stack.allocateScratch(16);
    try {
      codec.encode(value, slot, null); // a number's or boolean's codec writes the slot alone
    } catch (ConversionFailure failure) {
      throw failure.toException(target.describeArgument(index), target.exceptionFunctionName());
    }
    return slot;
  }

  /** A {@code byte[]} argument as the address of a span over a copy of its bytes in scratch memory. */
  private static long bytesSpan(CallTarget target, int index, ThreadStack stack, byte[] value) {
    if (value == null) { // the call frame's message (Frame.putBytes)
      throw new NullPointerException(target.describeArgument(index)
          + " is null; a byte[] argument must not be null (declare Optional<byte[]> to pass None)");
    }
    long span = stack.allocateScratch(16 + Math.max(value.length, 1));
    MemorySegment.copy(value, 0, NativeMemory.ALL, ValueLayout.JAVA_BYTE, span + 16, value.length);
    NativeMemory.putLong(span, span + 16);
    NativeMemory.putLong(span + 8, value.length);
    return span;
  }

  /** An {@code @Object} argument as its object word, held (see {@link #aroundReferences}). */
  private static long objectWord(CallTarget target, int index, ObjectCodec<?> codec, ReleaseEpochs.HeldHandles held,
      Object value) {
    if (value == null) { // the call frame's message (Frame.put)
      throw new NullPointerException(target.describeArgument(index) + " is null; " + codec.javaTypeWithArticle()
          + " argument must not be null" + (codec.nullHint().isEmpty() ? "" : " (" + codec.nullHint() + ")"));
    }
    try {
      return codec.heldWord(value, held);
    } catch (ConversionFailure failure) {
      throw failure.toException(target.describeArgument(index), target.exceptionFunctionName());
    }
  }

  /** A String argument as the address of its span in scratch memory. */
  private static long span(CallTarget target, int index, ThreadStack stack, String value) {
    if (value == null) {
      throw new NullPointerException(target.describeArgument(index)
          + " is null; a String argument must not be null (declare Optional<String> to pass None)");
    }
    try {
      return stack.putStringSpan(value);
    } catch (ConversionFailure failure) {
      throw failure.toException(target.describeArgument(index), target.exceptionFunctionName());
    }
  }

  /** An NDArray argument as its tensor word. */
  private static long word(CallTarget target, int index, ThreadStack stack, Object value) {
    if (value == null) {
      throw new NullPointerException(target.describeArgument(index)
          + " is null; an NDArray argument must not be null (declare Optional<NDArray> to pass None)");
    }
    try {
      return RuntimeAccess.get().ndarrayWord(value, stack);
    } catch (IllegalStateException unusable) {
      throw new IllegalStateException(target.describeArgument(index) + ": " + unusable.getMessage(), unusable);
    }
  }

  /** Lets go of the objects held since {@code depth}: the call that passed them has returned. */
  private static void restore(int depth, ReleaseEpochs.HeldHandles held) {
    held.restore(depth);
  }

  /** Gives back the scratch memory taken since {@code mark}, and the pins held when it was the outermost mark. */
  private static void release(long mark, ThreadStack stack) {
    try {
      stack.releaseScratch(mark);
    } finally {
      if (stack.holdsPins()) { // a tensor passed by handle: its close on another thread waits for this
        stack.releaseHeldPins();
      }
    }
  }
}
