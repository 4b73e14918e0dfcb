package dev.packed4j.runtime.internal.route;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.internal.CallTarget;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The route of one generated method, behind a {@link MutableCallSite}: the generated code keeps the site's dynamic
 * invoker in a {@code static final} field, so the JIT inlines the current route like a constant, and a relink
 * (which deoptimizes the methods that inlined the old one) costs nothing on the hot path.
 *
 * <p>A method first linked before any loaded library registers its function takes the call frame, which reports
 * the unknown function; each {@code Packed4j.loadLibrary} then relinks such methods ({@link #relinkChanged()}), so a
 * method called before its plugin was loaded gets its direct entry as soon as the plugin is. A function replaced
 * with {@code Registry.register(name, f, true)} (or by a library's registration with override) is relinked the
 * same way: the site resolves the name again ({@link CallTarget#rebindReplacedGlobals()}) and its method takes the
 * new function's route.
 *
 * <p>With {@code -Dpacked4j.trace.routes=true}, every link and relink is printed to {@code System.err}, such as
 * {@code packed4j: calculator.MyAdd (Calculator.add) -> typed entry (int64, int64) -> int64}.
 */
public final class LinkedRoute {
  /** The system property that prints each link and relink. */
  public static final String TRACE_PROPERTY = "packed4j.trace.routes";

  private static final boolean TRACE = Boolean.getBoolean(TRACE_PROPERTY);

  /**
   * Every linked method, for {@link #relinkChanged()}: those on the call frame because their function was not
   * registered yet, and those whose function may be replaced. Guarded by itself.
   */
  private static final List<WeakReference<LinkedRoute>> LINKED = new ArrayList<>();

  private final CallTarget target;
  private final MethodType javaType;
  private final MethodHandle throughFrame;
  private final MutableCallSite callSite;
  private volatile Route route;
  private boolean waiting;
  /** The function the current route was chosen for; 0 while waiting. */
  private long routedFunction;

  private LinkedRoute(CallTarget target, MethodType javaType, MethodHandle throughFrame) {
    this.target = target;
    this.javaType = javaType;
    this.throughFrame = throughFrame;
    this.callSite = new MutableCallSite(throughFrame.type());
  }

  /**
   * Chooses the route of a method of {@code javaType} bound to {@code target}'s function.
   *
   * @param javaType the Java method's type: parameters primitives other than {@code char}, {@code String} or
   *     {@code NDArray}, result a primitive other than {@code char} or {@code void}
   * @param throughFrame the method's call-frame route, of the method's wire type ({@link #wireType})
   * @throws IllegalArgumentException when {@code javaType} or {@code throughFrame} does not have that shape
   */
  public static LinkedRoute link(CallTarget target, MethodType javaType, MethodHandle throughFrame) {
    for (Class<?> parameter : javaType.parameterList()) {
      if (!isScalar(parameter) && !inScratch(parameter)) {
        throw new IllegalArgumentException(javaType + ": a route takes primitive, String or NDArray parameters, not "
            + parameter);
      }
    }
    if (!isScalar(javaType.returnType()) && javaType.returnType() != void.class) {
      throw new IllegalArgumentException(javaType + ": a route returns a primitive or void");
    }
    if (!throughFrame.type().equals(wireType(javaType))) {
      throw new IllegalArgumentException("the call-frame route " + throughFrame + " of " + javaType
          + " must have the wire type " + wireType(javaType));
    }
    LinkedRoute linked = new LinkedRoute(target, javaType, throughFrame);
    synchronized (LINKED) {
      linked.relink();
      LINKED.add(new WeakReference<>(linked));
    }
    return linked;
  }

  private static boolean isScalar(Class<?> type) {
    return type.isPrimitive() && type != char.class && type != void.class;
  }

  /** Whether a route passes a parameter of this type as a long the call made with scratch memory. */
  private static boolean inScratch(Class<?> type) {
    return type == String.class || type == NDArray.class;
  }

  /**
   * {@code javaType} with each String parameter replaced by the {@code long} address of its span, each NDArray
   * parameter by its tensor word ({@code Scratch.tensorWord}).
   */
  public static MethodType wireType(MethodType javaType) {
    MethodType type = javaType;
    for (int i = 0; i < type.parameterCount(); i++) {
      if (inScratch(type.parameterType(i))) {
        type = type.changeParameterType(i, long.class);
      }
    }
    return type;
  }

  /** What generated code calls: the invoker of the call site, whose target is the current route's handle. */
  public MethodHandle invoker() {
    return callSite.dynamicInvoker();
  }

  /** The current route. */
  public Route route() {
    return route;
  }

  /**
   * After the registry changed (a library loaded, a function registered or replaced): relinks every method still
   * waiting for its function and every method whose function was replaced. Call it after
   * {@link CallTarget#rebindReplacedGlobals()}.
   */
  public static void relinkChanged() {
    synchronized (LINKED) {
      for (Iterator<WeakReference<LinkedRoute>> it = LINKED.iterator(); it.hasNext(); ) {
        LinkedRoute linked = it.next().get();
        if (linked == null) {
          it.remove();
        } else if (linked.waiting || linked.target.functionIfRegistered() != linked.routedFunction) {
          linked.relink();
        }
      }
    }
  }

  /** Chooses the route again and installs it when it changed. Called under the LINKED lock. */
  private void relink() {
    long before = routedFunction;
    Route chosen = select();
    Route previous = route;
    if (previous != null && before == routedFunction && previous.describe().equals(chosen.describe())) {
      return;
    }
    route = chosen;
    callSite.setTarget(chosen.handle());
    MutableCallSite.syncAll(new MutableCallSite[] {callSite});
    if (TRACE) {
      System.err.println("packed4j: " + target.describeSource() + " -> " + chosen.describe());
    }
  }

  /** The first route whose selection rule holds: typed entry, register call, call frame (see {@link Route}). */
  private Route select() {
    long function;
    try {
      function = target.functionIfRegistered();
    } catch (RuntimeException | LinkageError e) {
      waiting = true; // the call frame reports why at the call; a later load may fix it
      routedFunction = 0;
      return new FrameRoute(throughFrame, "the core library is not usable: " + e.getMessage());
    }
    if (function == 0) {
      waiting = true;
      routedFunction = 0;
      return new FrameRoute(throughFrame, "no loaded library registers it yet");
    }
    waiting = false;
    routedFunction = function;
    try {
      Route typed = TypedEntryRoute.link(target, function, javaType);
      if (typed != null) {
        return typed;
      }
      Route register = RegisterCallRoute.link(target, function, javaType);
      if (register != null) {
        return register;
      }
    } catch (RuntimeException e) {
      return new FrameRoute(throughFrame, "no direct entry could be linked: " + e.getMessage());
    }
    return new FrameRoute(throughFrame, javaType.parameterList().stream().anyMatch(LinkedRoute::inScratch)
        ? "no typed entry fits and the method has a String or NDArray parameter"
        : "no typed entry fits and the method has more than " + RegisterCallRoute.MAX_ARGUMENTS + " parameters");
  }
}
