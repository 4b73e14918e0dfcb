package dev.packed4j.runtime.internal.route;

import dev.packed4j.runtime.internal.values.BooleanCodec;
import dev.packed4j.runtime.internal.values.BytesCodec;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.FloatCodec;
import dev.packed4j.runtime.internal.values.IntegerCodec;
import dev.packed4j.runtime.internal.values.NDArrayCodec;
import dev.packed4j.runtime.internal.values.ObjectCodec;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import dev.packed4j.runtime.internal.values.StringCodec;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The route of one generated method, behind a {@link MutableCallSite}: the generated code keeps the site's dynamic
 * invoker (in the method's {@link ScratchScope} when it has String or NDArray parameters) in a {@code static final}
 * field, so the JIT inlines the current route like a constant, and a relink (which deoptimizes the methods that
 * inlined the old one) costs nothing on the hot path. A method whose parameter or result types no direct entry takes
 * holds its call frame ({@link FrameRoute}) directly, with no call site.
 *
 * <p>A method first linked before any loaded library registers its function takes the call frame, which reports
 * the unknown function; each {@code Packed4j.loadLibrary} then relinks such methods ({@link #relinkChanged()}), so a
 * method called before its plugin was loaded gets its direct entry as soon as the plugin is. A function replaced
 * with {@code Registry.register(name, f, true)} (or by a library's registration with override) is relinked the
 * same way: the site resolves the name again ({@link CallTarget#rebindReplacedGlobals()}) and its method takes the
 * new function's route.
 *
 * <p>With {@code -Dpacked4j.trace.routes=true}, every link and relink is printed to {@code System.err}, such as
 * {@code packed4j: calculator.MyAdd (Calculator.add) -> typed entry (int64, int64) -> int64}, a method that only the
 * call frame can take included.
 */
public final class LinkedRoute {
  /** The public {@code NDArray} class, which the routes give a wire form of its own (the tensor word). */
  static final Class<?> NDARRAY = RuntimeAccess.get().ndarrayClass();

  /** The system property that prints each link and relink. */
  public static final String TRACE_PROPERTY = "packed4j.trace.routes";

  /**
   * The system property that turns the direct routes off: with {@code -Dpacked4j.routes.direct=false} every method
   * takes the call frame. For measuring what a direct route earns (docs/benchmarks.md) and for ruling one out.
   */
  public static final String DIRECT_PROPERTY = "packed4j.routes.direct";

  private static final boolean TRACE = Boolean.getBoolean(TRACE_PROPERTY);
  private static final boolean DIRECT = !"false".equals(System.getProperty(DIRECT_PROPERTY));

  /**
   * Every linked method, for {@link #relinkChanged()}: those on the call frame because their function was not
   * registered yet, and those whose function may be replaced. Guarded by itself.
   */
  private static final List<WeakReference<LinkedRoute>> LINKED = new ArrayList<>();

  private final CallTarget target;
  private final MethodType javaType;
  private final List<ValueCodec<?>> codecs;
  private final MethodHandle frame;
  /** The site behind the invoker; null for a method no direct route can take, which always takes the frame. */
  private final MutableCallSite callSite;
  private final MethodHandle invoker;
  private volatile Route route;
  private boolean waiting;
  /** The function the current route was chosen for; 0 while waiting. */
  private long routedFunction;

  private LinkedRoute(CallTarget target, MethodType javaType, List<ValueCodec<?>> codecs, MethodHandle frame,
      boolean direct) {
    this.target = target;
    this.javaType = javaType;
    this.codecs = List.copyOf(codecs);
    this.frame = frame;
    MethodHandle wired;
    if (direct) {
      this.callSite = new MutableCallSite(frame.type());
      wired = callSite.dynamicInvoker();
    } else {
      this.callSite = null;
      this.route = new FrameRoute(frame, mayBeDirect(javaType, codecs) ? "direct routes are off"
          : "no direct entry takes its parameter or result types");
      wired = frame;
      trace(target, route); // linked once: never relinked
    }
    this.invoker = ScratchScope.needed(javaType) ? ScratchScope.around(wired, target, javaType) : wired;
  }

  /**
   * Links the method of {@code javaType} bound to {@code target}'s function: builds its call frame from
   * {@code codecs} and, when a direct entry may take its types, chooses its route now and again whenever the
   * registry changes. This is the one place that decides which route a method takes.
   *
   * @param javaType the Java method's type
   * @param codecs the codec of each parameter, in order, then of the result (none for {@code void})
   * @throws IllegalArgumentException when the codecs do not match {@code javaType}
   */
  public static LinkedRoute link(CallTarget target, MethodType javaType, List<ValueCodec<?>> codecs) {
    return link(target, javaType, codecs, DIRECT);
  }

  /**
   * {@link #link(CallTarget, MethodType, List)}, with the direct routes allowed or not: {@code directRoutes} false
   * links the method to its call frame whatever its function, as {@code -Dpacked4j.routes.direct=false} does for
   * every method (for the tests that hold each direct route to the frame's behaviour).
   */
  public static LinkedRoute link(CallTarget target, MethodType javaType, List<ValueCodec<?>> codecs,
      boolean directRoutes) {
    int expected = javaType.parameterCount() + (javaType.returnType() == void.class ? 0 : 1);
    if (codecs.size() != expected) {
      throw new IllegalArgumentException(javaType + " takes " + expected + " codecs (one per parameter, then one for"
          + " the result unless it is void), not " + codecs.size());
    }
    for (int i = 0; i < javaType.parameterCount(); i++) {
      checkCodec(javaType, javaType.parameterType(i), codecs.get(i));
    }
    if (javaType.returnType() != void.class) {
      checkCodec(javaType, javaType.returnType(), codecs.get(codecs.size() - 1));
    }
    MethodHandle frame = FrameRoute.build(target, javaType, codecs);
    boolean direct = directRoutes && mayBeDirect(javaType, codecs);
    LinkedRoute linked = new LinkedRoute(target, javaType, codecs, frame, direct);
    if (direct) {
      synchronized (LINKED) {
        linked.relink();
        LINKED.add(new WeakReference<>(linked));
      }
    }
    return linked;
  }

  /**
   * A primitive or box, String, byte[] or NDArray type needs its own codec; other types (objects, containers,
   * optionals, functions) any codec of the runtime, which checks the values it is given.
   */
  private static void checkCodec(MethodType javaType, Class<?> type, ValueCodec<?> codec) {
    ValueCodec<?> own = FIXED_CODECS.get(type);
    if (type == char.class || type == void.class || (own != null && own != codec)) {
      throw new IllegalArgumentException(javaType + ": " + type.getName() + " takes "
          + (own == null ? "no codec: it is not a supported type" : "the codec " + own + ", not " + codec));
    }
  }

  /** The codec each primitive (its box's), box, String, byte[] and NDArray must be given. */
  private static final Map<Class<?>, ValueCodec<?>> FIXED_CODECS = fixedCodecs();

  private static Map<Class<?>, ValueCodec<?>> fixedCodecs() {
    Map<Class<?>, ValueCodec<?>> codecs = new HashMap<>();
    for (Class<?> type : List.of(boolean.class, Boolean.class)) {
      codecs.put(type, BooleanCodec.BOOLEAN);
    }
    for (Class<?> type : List.of(byte.class, Byte.class)) {
      codecs.put(type, IntegerCodec.BYTE);
    }
    for (Class<?> type : List.of(short.class, Short.class)) {
      codecs.put(type, IntegerCodec.SHORT);
    }
    for (Class<?> type : List.of(int.class, Integer.class)) {
      codecs.put(type, IntegerCodec.INT);
    }
    for (Class<?> type : List.of(long.class, Long.class)) {
      codecs.put(type, IntegerCodec.LONG);
    }
    for (Class<?> type : List.of(float.class, Float.class)) {
      codecs.put(type, FloatCodec.FLOAT);
    }
    for (Class<?> type : List.of(double.class, Double.class)) {
      codecs.put(type, FloatCodec.DOUBLE);
    }
    codecs.put(String.class, StringCodec.STRING);
    codecs.put(byte[].class, BytesCodec.BYTES);
    codecs.put(NDARRAY, NDArrayCodec.NDARRAY);
    return Map.copyOf(codecs);
  }

  /**
   * Whether a direct entry may take a method of this type and codecs: primitive or boxed, String, {@code byte[]},
   * NDArray or {@code @Object} parameters, lists and {@code Optional}s a typed entry may take
   * ({@link TypedEntryRoute#mayTake}), and a primitive or boxed, void, String, {@code byte[]}, {@code @Object} or such
   * {@code Optional} result. Which one, if any, depends on the function ({@link #select()}).
   */
  private static boolean mayBeDirect(MethodType javaType, List<ValueCodec<?>> codecs) {
    for (int i = 0; i < javaType.parameterCount(); i++) {
      Class<?> parameter = javaType.parameterType(i);
      if (!isScalar(parameter) && !isBox(parameter) && !inScratch(parameter) && parameter != byte[].class
          && !(codecs.get(i) instanceof ObjectCodec<?>) && !FunctionWords.takes(codecs.get(i))
          && !TypedEntryRoute.mayTake(codecs.get(i), true)) {
        return false;
      }
    }
    Class<?> result = javaType.returnType();
    return isScalar(result) || isBox(result) || result == void.class || result == String.class
        || result == byte[].class || codecs.get(codecs.size() - 1) instanceof ObjectCodec<?>
        || FunctionWords.takes(codecs.get(codecs.size() - 1))
        || TypedEntryRoute.mayTake(codecs.get(codecs.size() - 1), false);
  }

  /** Whether {@code type} boxes a primitive a route takes: Boolean, Byte, Short, Integer, Long, Float, Double. */
  static boolean isBox(Class<?> type) {
    return type == Long.class || type == Integer.class || type == Double.class || type == Boolean.class
        || type == Short.class || type == Byte.class || type == Float.class;
  }

  /**
   * Whether the NDArray parameters of a method of this type travel as tensor words (on every route): its other
   * parameters are primitives, Strings or NDArrays and its result a primitive or void, so the call cannot return the
   * tensor (a call that may gets the object the Java tensor owns, never a view of a borrowed DLTensor).
   */
  private static boolean passesWords(MethodType javaType) {
    for (Class<?> parameter : javaType.parameterList()) {
      if (!isScalar(parameter) && !inScratch(parameter)) {
        return false;
      }
    }
    return isScalar(javaType.returnType()) || javaType.returnType() == void.class;
  }

  static boolean isScalar(Class<?> type) {
    return type.isPrimitive() && type != char.class && type != void.class;
  }

  /** Whether a route passes a parameter of this type as a long made in scratch memory ({@link ScratchScope}). */
  private static boolean inScratch(Class<?> type) {
    return type == String.class || passesWord(type);
  }

  /** Whether a route passes a parameter of this type as its tensor word. */
  static boolean passesWord(Class<?> type) {
    return type == NDARRAY;
  }

  /**
   * {@code javaType} with each String parameter replaced by the {@code long} address of its span and, in a method a
   * direct entry may take, each NDArray parameter by its tensor word ({@link ScratchScope}): the type of every route's
   * handle. In other methods an NDArray parameter is put by its codec, as its native object (a call that may return
   * or keep the tensor gets the object the Java tensor owns, never a view of a borrowed DLTensor).
   */
  public static MethodType wireType(MethodType javaType) {
    boolean words = passesWords(javaType);
    MethodType type = javaType;
    for (int i = 0; i < type.parameterCount(); i++) {
      Class<?> parameter = type.parameterType(i);
      if (parameter == String.class || (words && passesWord(parameter))) {
        type = type.changeParameterType(i, long.class);
      }
    }
    return type;
  }

  /**
   * What generated code calls, of the Java method's type: the current route, behind the {@link ScratchScope} of a
   * method with String or NDArray parameters.
   */
  public MethodHandle invoker() {
    return invoker;
  }

  /** The current route. */
  public Route route() {
    return route;
  }

  /**
   * After a library loaded or a function was registered: generated methods whose global was replaced call the new
   * function, and those first called before their name existed take their direct entries now.
   */
  public static void registryChanged() {
    CallTarget.rebindReplacedGlobals();
    relinkChanged();
  }

  /**
   * After the registry changed (a library loaded, a function registered or replaced): relinks every method still
   * waiting for its function and every method whose function was replaced. Call it after
   * {@link CallTarget#rebindReplacedGlobals()}.
   */
  static void relinkChanged() {
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
    trace(target, chosen);
  }

  /** Prints a link or relink with {@code -Dpacked4j.trace.routes=true}. */
  private static void trace(CallTarget target, Route route) {
    if (TRACE) {
      System.err.println("packed4j: " + target.describeSource() + " -> " + route.describe());
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
      return new FrameRoute(frame, "the core library is not usable: " + e.getMessage());
    }
    if (function == 0) {
      waiting = true;
      routedFunction = 0;
      return new FrameRoute(frame, "no loaded library registers it yet");
    }
    waiting = false;
    routedFunction = function;
    try {
      Route typed = TypedEntryRoute.link(target, function, javaType, codecs);
      if (typed != null) {
        return typed;
      }
      Route register = RegisterCallRoute.link(target, function, javaType);
      if (register != null) {
        return register;
      }
    } catch (RuntimeException e) {
      return new FrameRoute(frame, "no direct entry could be linked: " + e.getMessage());
    }
    Class<?> result = javaType.returnType();
    return new FrameRoute(frame, javaType.parameterList().stream().anyMatch(LinkedRoute::inScratch)
        ? "no typed entry fits and the method has a String or NDArray parameter"
        : !javaType.parameterList().stream().allMatch(LinkedRoute::isScalar)
        ? "no typed entry fits and the method has an object, byte[], List or Optional parameter"
        : !isScalar(result) && result != void.class
        ? "no typed entry fits and the method returns a " + result.getSimpleName()
        : "no typed entry fits and the method has more than " + RegisterCallRoute.MAX_ARGUMENTS + " parameters");
  }
}
