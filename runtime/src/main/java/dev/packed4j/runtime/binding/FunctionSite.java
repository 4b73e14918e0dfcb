package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeMap;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.internal.objects.TypeInfo;
import dev.packed4j.runtime.internal.objects.TypeInfos;
import dev.packed4j.runtime.internal.route.LinkedRoute;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.MemberCalls;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

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
 * <p>Each method links its handle through its site ({@link #link}); {@link #toString()} names the route it took.
 */
public final class FunctionSite {
  final CallTarget target;
  /** The route of the method, once linked; null before its first call. */
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

  private FunctionSite(CallTarget target, String javaMethod) {
    this.globalName = target.functionName();
    this.javaMethod = javaMethod;
    this.target = target;
  }

  /**
   * A site for a generated method of an {@code @Object} interface that calls a method its type's object definition
   * registers ({@code .def("add", ...)}), with the object first. The method is looked up on the first call in the
   * type's method table, then in its ancestors'; an object whose type overrides it is dispatched by
   * {@link #overrideFor(ObjectRef, MethodHandle)}.
   *
   * @param typeKey the type key of the {@code @Object} interface
   * @param method the registered name of the method
   * @param javaMethod the Java method for messages, such as {@code "CalculatorRef.add"}
   * @param parameterNames the Java parameter names, {@code "self"} first
   * @return the site
   */
  public static FunctionSite method(String typeKey, String method, String javaMethod, String[] parameterNames) {
    return member(typeKey, method, METHOD_KIND, javaMethod, parameterNames);
  }

  /**
   * A site for a generated method of a bound interface that calls a static method of a type
   * ({@code .def_static("parse", ...)}), found in the type's method table or its ancestors'.
   *
   * @param typeKey the type whose static method is called
   * @param method the registered name of the static method
   * @param javaMethod the Java method for messages
   * @param parameterNames the Java parameter names
   * @return the site
   */
  public static FunctionSite staticMethod(String typeKey, String method, String javaMethod,
      String[] parameterNames) {
    return member(typeKey, method, STATIC_KIND, javaMethod, parameterNames);
  }

  /**
   * A site for a generated method of a bound interface that constructs an object with the constructor its type's
   * object definition registers ({@code .def(init<Args...>())}); constructors are not inherited.
   *
   * @param typeKey the type constructed
   * @param javaMethod the Java method for messages
   * @param parameterNames the Java parameter names
   * @return the site
   */
  public static FunctionSite constructor(String typeKey, String javaMethod, String[] parameterNames) {
    return member(typeKey, "__init__", CONSTRUCTOR_KIND, javaMethod, parameterNames);
  }

  private static FunctionSite member(String typeKey, String name, int kind, String javaMethod,
      String[] parameterNames) {
    Objects.requireNonNull(typeKey, "typeKey");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(javaMethod, "javaMethod");
    return new FunctionSite(CallTarget.member(typeKey, name, kind, javaMethod,
        Objects.requireNonNull(parameterNames, "parameterNames")), javaMethod);
  }

  /**
   * For a method site: the handle to call instead of the linked one when {@code self}'s native type overrides the
   * method (its own table, or an ancestor's below the declaring type, registers the same name), so that a child's
   * override wins even when Java sees the object through its parent's interface; null when the linked method is
   * the one to call. One comparison of type indices when {@code self} is of the interface's own type; a type seen
   * before is answered from a cache. Generated code passes its route's handle (reading it links the site), and calls
   * that constant handle when there is no override, so the JIT inlines the route:
   *
   * <pre>{@code
   * MethodHandle override = ADD.overrideFor(this, AddRoute.HANDLE);
   * if (override == null) {
   *   return (long) AddRoute.HANDLE.invokeExact((CalculatorRef) this, a, b);
   * }
   * return (long) override.invokeExact((CalculatorRef) this, a, b);
   * }</pre>
   *
   * @param self the object the method is called on
   * @param linked the handle {@link #link} returned for this site
   * @return the override's handle, of the linked handle's type, or null
   */
  public MethodHandle overrideFor(ObjectRef self, MethodHandle linked) {
    int type = RuntimeAccess.get().typeIndex(self);
    if (type == declaredType) {
      return null;
    }
    Dispatch last = lastOverride;
    if (last != null && last.typeIndex == type) {
      return last.handle;
    }
    return findOverride(type);
  }

  private MethodHandle findOverride(int type) {
    if (target.memberType() == null || linkedType == null) {
      return null; // a global, or not linked yet: the linked handle is the one
    }
    int declared = TypeInfos.indexOf(target.memberType());
    if (declared >= 0) {
      declaredType = declared;
    }
    if (type == declared) {
      return null;
    }
    TypeInfo.MemberInfo member = MemberCalls.find(type, target.memberName());
    MethodHandle handle = null;
    if (member != null && member.kind() == METHOD_KIND && member.function() != target.function()) {
      handle = overrides.computeIfAbsent(member.function(),
          function -> LinkedRoute.link(target.withFunction(function), linkedType, linkedCodecs).invoker());
    }
    lastOverride = new Dispatch(type, handle);
    return handle;
  }

  /** The last type {@link #overrideFor} answered that is not the declared one, and its answer. */
  private record Dispatch(int typeIndex, MethodHandle handle) {}

  private static final int METHOD_KIND = 1;
  private static final int STATIC_KIND = 2;
  private static final int CONSTRUCTOR_KIND = 3;
  /** The type index of a method site's type, once known; -1 before (and for other sites). */
  private volatile int declaredType = -1;
  private volatile Dispatch lastOverride;
  private final ConcurrentHashMap<Long, MethodHandle> overrides = new ConcurrentHashMap<>();
  private volatile MethodType linkedType;
  private volatile List<ValueCodec<?>> linkedCodecs;

  /**
   * Links the method this site implements and returns the handle it calls: of exactly the Java method's type, the
   * whole call (arguments converted, the function called, the result converted, everything the call made released)
   * on the route the runtime chooses for it (see {@code docs/architecture.md}, "Call routes"): the function's typed
   * entry or register call when one applies, else a call frame built from {@code codecs}. Generated code keeps it
   * in a {@code static final} field of a holder class initialised at the method's first call, so the JIT inlines the
   * route, and calls it with {@code invokeExact}:
   *
   * <pre>{@code
   * private static final class Sum {
   *   static final MethodHandle HANDLE = SUM.link(MethodType.methodType(long.class, List.class),
   *       Codecs.list(Codecs.LONG), Codecs.LONG);
   * }
   *
   * @Override public long sum(List<Long> values) {
   *   try {
   *     return (long) Sum.HANDLE.invokeExact(values);
   *   } catch (Throwable e) {
   *     throw FunctionSite.rethrow(e);
   *   }
   * }
   * }</pre>
   *
   * <p>Every route behaves as the call frame does: the same conversions, range checks and errors, each naming the
   * function, the Java method and the argument. A method linked before any loaded library registers its function
   * is relinked when a library loads. The handle throws no checked exception (see {@link #rethrow(Throwable)}).
   *
   * @param javaType the Java method's type
   * @param codecs the codec of each parameter, in order, then the codec of the result (none for {@code void}); a
   *     primitive takes its box's codec ({@link Codecs#INT} for {@code int}), a String {@link Codecs#STRING}, a
   *     {@code byte[]} {@link Codecs#BYTES}, an NDArray {@link Codecs#NDARRAY}
   * @return the handle of the method, of type {@code javaType}
   * @throws IllegalArgumentException when the codecs do not match {@code javaType}, or are not the runtime's
   */
  public MethodHandle link(MethodType javaType, Codec<?>... codecs) {
    Objects.requireNonNull(javaType, "javaType");
    List<ValueCodec<?>> implementations = new ArrayList<>(codecs.length);
    for (Codec<?> codec : codecs) {
      implementations.add(Codecs.implementation(codec));
    }
    LinkedRoute linked = LinkedRoute.link(target, javaType, implementations);
    this.linkedCodecs = List.copyOf(implementations);
    this.linkedType = javaType;
    this.linked = linked;
    return linked.invoker();
  }

  /**
   * Rethrows what a method's handle threw, as it is: {@code invokeExact} declares {@link Throwable}, and a handle
   * throws what the call raised, a {@code Packed4jException} or another unchecked exception, or the very exception
   * a Java callback called from inside the call threw, checked or not (it crosses the native frames unchanged).
   * Always throws; declared to return so a caller can write {@code throw FunctionSite.rethrow(e)}.
   *
   * @param failure what the handle threw
   * @return never: it always throws
   */
  public static RuntimeException rethrow(Throwable failure) {
    throw FunctionSite.<RuntimeException>unchecked(Objects.requireNonNull(failure, "failure"));
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T unchecked(Throwable failure) throws T {
    throw (T) failure;
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
   * How the errors of a call through this site name argument {@code index} (counted from 0, {@code self} first for
   * a method), such as {@code "calculator.Sum argument 0 (values)"}: a session's client names an argument it
   * refuses the same way.
   *
   * @param index the argument's position
   * @return the argument as messages name it
   */
  public String describeArgument(int index) {
    return target.describeArgument(index);
  }

  /**
   * The route the method takes, for diagnostics: {@code "typed entry (int64, int64) -> int64"},
   * {@code "register call"} or {@code "call frame (...)"} with the reason; {@code "not linked yet"} before the
   * method's first call.
   *
   * @return the route's description
   */
  public String route() {
    LinkedRoute current = linked;
    return current == null ? "not linked yet" : current.route().describe();
  }

  /** {@code calculator.MyAdd (Calculator.add) via typed entry (int64, int64) -> int64}. */
  @Override
  public String toString() {
    return globalName + " (" + javaMethod + ") via " + route();
  }

  /**
   * How the errors of a typed setter name the value it writes, as {@link Codecs#checkNulls} takes it:
   * {@code "inv.Item.tags(value)"}.
   *
   * @param typeKey the object's type key, as its {@code @Object} interface declares it
   * @param field the field's name
   * @return the value as messages name it
   */
  public static String describeFieldValue(String typeKey, String field) {
    return CallTarget.operation(typeKey + "." + field, "value").describeArgument(0);
  }

  /**
   * The exception of a typed setter given null for a string, list or map field: a typed setter never writes null
   * there, so C++ code that filled such a field may rely on it staying filled (an object field takes null as "no
   * object"). A field C++ left unset, or a document loaded with null, may still read as null. One message for the
   * generated setter and a session's client: {@code "inv.Item.tags(value) is null; a typed setter writes a List to a
   * list field, never null (set List.of() to empty it)"}.
   *
   * @param typeKey the object's type key, as its {@code @Object} interface declares it
   * @param field the field's name
   * @param parameterType the setter's parameter class: {@code String}, {@code List}, {@code Map}, {@code NativeList}
   *     or {@code NativeMap}
   * @return the exception, not thrown
   * @throws IllegalArgumentException for a parameter class whose field may hold null
   */
  public static NullPointerException nullFieldValue(String typeKey, String field, Class<?> parameterType) {
    String holds;
    if (parameterType == String.class) {
      holds = "a typed setter writes a String to a string field, never null (set \"\" to empty it)";
    } else if (parameterType == List.class) {
      holds = "a typed setter writes a List to a list field, never null (set List.of() to empty it)";
    } else if (parameterType == NativeList.class) {
      holds = "a typed setter writes a list to a list field, never null (call clear() on its NativeList to empty it)";
    } else if (parameterType == Map.class) {
      holds = "a typed setter writes a Map to a map field, never null (set Map.of() to empty it)";
    } else if (parameterType == NativeMap.class) {
      holds = "a typed setter writes a map to a map field, never null (call clear() on its NativeMap to empty it)";
    } else {
      throw new IllegalArgumentException("a field written as " + parameterType.getName() + " may hold null");
    }
    return new NullPointerException(describeFieldValue(typeKey, field) + " is null; " + holds);
  }
}
