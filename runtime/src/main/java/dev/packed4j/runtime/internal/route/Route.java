package dev.packed4j.runtime.internal.route;

import java.lang.invoke.MethodHandle;

/**
 * How a generated method reaches its native function. Exactly one of three, chosen by {@link LinkedRoute} in this
 * order, each stating its own selection rule:
 *
 * <ol>
 *   <li>{@link TypedEntryRoute}: the function's typed entry, when its recorded signature fits the method;
 *   <li>{@link RegisterCallRoute}: the function's scalars entry, for at most four primitive arguments;
 *   <li>{@link FrameRoute}: the method's call frame, for everything else and for a function not registered yet.
 * </ol>
 *
 * <p>Every route's handle has the method's <em>wire type</em> ({@link LinkedRoute#wireType}): its Java type with
 * each {@code String} parameter replaced by {@code long}, the address of the string's span in the thread's scratch
 * memory, and each {@code NDArray} parameter by its tensor word, both made by the method's {@link ScratchScope}.
 * The direct routes convert results with {@link ResultFilters}, the frame with its own {@code return...} methods,
 * both through {@link dev.packed4j.runtime.internal.values.Results}; every route throws only unchecked exceptions: the same
 * error for the same failure, whichever route is taken.
 */
public sealed interface Route permits TypedEntryRoute, RegisterCallRoute, FrameRoute {
  /** The handle behind the method's invoker, of the method's wire type. */
  MethodHandle handle();

  /** What this route is, for {@code FunctionSite.toString()} and the route trace: "typed entry (int64) -> int64". */
  String describe();
}
