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
 * the unknown function; each {@code Packed4j.loadLibrary} then relinks such methods ({@link #relinkWaiting()}), so a
 * method called before its plugin was loaded gets its direct entry as soon as the plugin is. A method whose function
 * is registered keeps the route chosen for it: the function of a site never changes.
 *
 * <p>With {@code -Dpacked4j.trace.routes=true}, every link and relink is printed to {@code System.err}, such as
 * {@code packed4j: calculator.MyAdd (Calculator.add) -> typed entry (int64, int64) -> int64}.
 */
public final class LinkedRoute {
  /** The system property that prints each link and relink. */
  public static final String TRACE_PROPERTY = "packed4j.trace.routes";

  private static final boolean TRACE = Boolean.getBoolean(TRACE_PROPERTY);

  /** Methods on the call frame because their function was not registered yet: relinked when a library loads. */
  private static final List<WeakReference<LinkedRoute>> WAITING = new ArrayList<>();

  private final CallTarget target;
  private final MethodType javaType;
  private final MethodHandle throughFrame;
  private final MutableCallSite callSite;
  private volatile Route route;
  private boolean waiting;

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
    synchronized (WAITING) {
      linked.relink();
      if (linked.waiting) {
        WAITING.add(new WeakReference<>(linked));
      }
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

  /** After a library loaded: relinks every method still waiting for its function. */
  public static void relinkWaiting() {
    synchronized (WAITING) {
      for (Iterator<WeakReference<LinkedRoute>> it = WAITING.iterator(); it.hasNext(); ) {
        LinkedRoute linked = it.next().get();
        if (linked == null) {
          it.remove();
          continue;
        }
        linked.relink();
        if (!linked.waiting) {
          it.remove();
        }
      }
    }
  }

  /** Chooses the route again and installs it when it changed. Called under the WAITING lock. */
  private void relink() {
    Route chosen = select();
    Route previous = route;
    if (previous != null && previous.describe().equals(chosen.describe())) {
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
      return new FrameRoute(throughFrame, "the core library is not usable: " + e.getMessage());
    }
    if (function == 0) {
      waiting = true;
      return new FrameRoute(throughFrame, "no loaded library registers it yet");
    }
    waiting = false;
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
