package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.route.LinkedRoute;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;

/**
 * A call site in generated code: a global function name, the Java method bound to it and its parameter names.
 *
 * <p>The function is looked up in the registry on the first call and cached (an unknown name is a
 * {@code Packed4jException} naming it, with near names). Every conversion error of a call names the function,
 * the Java method and the argument.
 *
 * <pre>{@code
 * private static final FunctionSite ADD =
 *     new FunctionSite("calculator.MyAdd", "Calculator.add", new String[] {"a", "b"});
 * }</pre>
 *
 * <p>A method whose parameters are primitives or Strings and whose result is a primitive or void also links a
 * route through the site ({@link #route}); {@link #toString()} names the route it took.
 */
public final class FunctionSite {
  final CallTarget target;
  /** The route of the method, once linked; null for a method that always uses a call frame. */
  private volatile LinkedRoute linked;
  private final String globalName;
  private final String javaMethod;

  /**
   * A site for one generated method; the function is looked up at the method's first call.
   *
   * @param globalName the registered name, such as {@code "calculator.MyAdd"}
   * @param javaMethod the bound method for messages, such as {@code "Calculator.add"}
   * @param parameterNames the Java parameter names, in order
   */
  public FunctionSite(String globalName, String javaMethod, String[] parameterNames) {
    this.globalName = Objects.requireNonNull(globalName, "globalName");
    this.javaMethod = Objects.requireNonNull(javaMethod, "javaMethod");
    this.target = CallTarget.global(globalName, javaMethod, Objects.requireNonNull(parameterNames, "parameterNames"));
  }

  /**
   * Links the route of a method whose parameters are primitives or Strings and whose result is a primitive or
   * {@code void}, and returns the handle the method calls: the function's typed entry or register call when one
   * applies, else the method's own call-frame method {@code throughFrame} (see {@code docs/architecture.md}, "Call
   * routes"). Generated code keeps it in a {@code static final} field of a holder class initialised at the method's
   * first call, so the JIT inlines the route, and calls it with {@code invokeExact}:
   *
   * <pre>{@code
   * private static final class AddRoute {
   *   static final MethodHandle HANDLE = ADD.route(MethodHandles.lookup(), "addThroughFrame",
   *       MethodType.methodType(int.class, int.class, int.class));
   * }
   * }</pre>
   *
   * <p>The handle has the method's wire type: {@code javaType} with each {@code String} parameter replaced by
   * {@code long}, the address {@link Scratch#putStringSpan} returns. Every route behaves as the call frame does:
   * the same conversions, range checks and errors. A method linked before any loaded library registers its function
   * is relinked when a library loads. The handle throws no checked exception (see {@link #rethrow(Throwable)}).
   *
   * @param lookup a lookup of the generated class (or of a class nested in it), to find {@code throughFrame}
   * @param throughFrame the name of a static method of the lookup's nest host that makes the call through a
   *     {@link CallFrame}, of the wire type
   * @param javaType the Java method's type: primitive (not {@code char}) or {@code String} parameters and a primitive
   *     (not {@code char}) or {@code void} result
   * @return the dynamic invoker of the method's call site, of the wire type
   * @throws IllegalArgumentException when {@code javaType} has any other type, or {@code throughFrame} is missing or
   *     of another type
   */
  public MethodHandle route(MethodHandles.Lookup lookup, String throughFrame, MethodType javaType) {
    Objects.requireNonNull(javaType, "javaType");
    MethodHandle frame;
    try {
      frame = lookup.findStatic(lookup.lookupClass().getNestHost(), throughFrame, LinkedRoute.wireType(javaType));
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("no static method " + throughFrame + LinkedRoute.wireType(javaType)
          + " in " + lookup.lookupClass().getNestHost().getName(), e);
    }
    LinkedRoute linked = LinkedRoute.link(target, javaType, frame);
    this.linked = linked;
    return linked.invoker();
  }

  /**
   * Rethrows what a route threw: a route's handle throws only unchecked exceptions, but
   * {@code invokeExact} declares {@link Throwable}. Always throws; declared to return so a caller can write
   * {@code throw FunctionSite.rethrow(e)}.
   *
   * @param failure what the handle threw
   * @return never: it always throws
   */
  public static RuntimeException rethrow(Throwable failure) {
    if (failure instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    throw new AssertionError("a typed entry threw a checked exception", failure);
  }

  /** {@return the registered function name} */
  public String globalName() {
    return globalName;
  }

  /** {@return the Java method this site implements, such as {@code Calculator.add}} */
  public String javaMethod() {
    return javaMethod;
  }

  /**
   * The route the method takes: {@code "typed entry (int64, int64) -> int64"}, {@code "register call"} or
   * {@code "call frame (...)"} with the reason; {@code "call frame"} for a method that has no route to link (its
   * parameters or result are objects, containers, boxes or a String result) or has not been called yet.
   *
   * @return the route's description
   */
  public String route() {
    LinkedRoute current = linked;
    return current == null ? "call frame" : current.route().describe();
  }

  /** {@code calculator.MyAdd (Calculator.add) via typed entry (int64, int64) -> int64}. */
  @Override
  public String toString() {
    return globalName + " (" + javaMethod + ") via " + route();
  }
}
