package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JFunctionCell;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.TypeInfo;
import dev.packed4j.runtime.internal.objects.TypeInfos;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * What a frame calls and how to name it in messages: a global function resolved by name on first use (for
 * generated code), a function object (for {@code PackedFunction}), or no function at all (for the container
 * operations, which use a frame only for its slots).
 */
public final class CallTarget {
  private final String functionName;
  private final String javaMethod;
  private final String[] parameterNames;
  private final boolean global;
  private final String exceptionFunctionName;
  /** For a member of a type's method table: the type key, the member's name and its kind; else null, null, 0. */
  private final String memberType;
  private final String memberName;
  private final int memberKind;
  private volatile long function;
  /**
   * What a frame needs to call the function, once resolved; null before. Volatile so that a function replaced with
   * {@code Registry.register(name, f, true)} is seen by every thread's next call (a volatile read is a plain load
   * on x86 and AArch64's ldar; the JIT only may not hoist it out of a loop); its fields are final.
   */
  private volatile Linked linked;

  /** Every global target created, for {@link #rebindReplacedGlobals()}; guarded by itself. */
  private static final List<WeakReference<CallTarget>> GLOBALS = new ArrayList<>();

  /**
   * A resolved function as a frame calls it: the handle and its cell's {@code self} and {@code safe_call}, which
   * never change for a function object (c_api.h: set once by {@code P4JFunctionCreate}). Reading them here
   * instead of from the cell at every call saves two dependent native reads.
   */
  public static final class Linked {
    /** The function object. */
    public final long function;
    /** The cell's {@code self}, the first argument of {@code safe_call}. */
    public final long self;
    /**
     * The address of the cell's {@code safe_call}. A {@code long}, not a segment: the caller wraps it in a segment
     * at each call, which escape analysis removes, so the linker's null check of the target compares a register
     * instead of reading a segment object's class and fields.
     */
    public final long safeCall;

    Linked(long function) {
      long cell = NativeMemory.cell(function);
      this.function = function;
      this.self = NativeMemory.getLong(cell + P4JFunctionCell.SELF);
      this.safeCall = NativeMemory.getLong(cell + P4JFunctionCell.SAFE_CALL);
    }
  }

  private CallTarget(String functionName, String javaMethod, String[] parameterNames, boolean global,
      long function) {
    this(functionName, functionName, javaMethod, parameterNames, global, function);
  }

  private CallTarget(String functionName, String exceptionFunctionName, String javaMethod, String[] parameterNames,
      boolean global, long function) {
    this(functionName, exceptionFunctionName, javaMethod, parameterNames, global, function, null, null, 0);
  }

  private CallTarget(String functionName, String exceptionFunctionName, String javaMethod, String[] parameterNames,
      boolean global, long function, String memberType, String memberName, int memberKind) {
    this.memberType = memberType;
    this.memberName = memberName;
    this.memberKind = memberKind;
    this.functionName = functionName;
    this.exceptionFunctionName = exceptionFunctionName;
    this.javaMethod = javaMethod;
    this.parameterNames = parameterNames;
    this.global = global;
    if (function != 0) {
      this.linked = new Linked(function);
    }
    this.function = function;
  }

  /** A global function, looked up in the registry on the first call. */
  public static CallTarget global(String globalName, String javaMethod, String[] parameterNames) {
    CallTarget target = new CallTarget(globalName, javaMethod, parameterNames.clone(), true, 0);
    synchronized (GLOBALS) {
      GLOBALS.add(new WeakReference<>(target));
    }
    return target;
  }

  /**
   * A member of an object type's method table (a method, a static method or the constructor), looked up on the first
   * call as {@code P4JTypeFindMethod} does: in the type's own table, then in its ancestors'. Messages name it
   * {@code "Calculator.add"}; a member's table entry lives until exit, so it is never rebound.
   *
   * @param typeKey the type whose table is searched first
   * @param memberName the registered name ({@code "__init__"} for the constructor)
   * @param kind the {@code P4JMethodKind} the Java declaration expects
   * @param javaMethod the Java method, for messages
   * @param parameterNames the Java parameter names, {@code "self"} first for a method
   */
  public static CallTarget member(String typeKey, String memberName, int kind, String javaMethod,
      String[] parameterNames) {
    String name = typeKey + "." + memberName;
    return new CallTarget(name, name, javaMethod, parameterNames.clone(), true, 0, typeKey, memberName, kind);
  }

  /** {@return the type key of a member target, else null} */
  public String memberType() {
    return memberType;
  }

  /** {@return the registered name of a member target, else null} */
  public String memberName() {
    return memberName;
  }

  /**
   * A function object found in a type's method table (a method an object's type overrides), named and with
   * parameter names as the member target it replaces.
   */
  public CallTarget withFunction(long handle) {
    return new CallTarget(functionName, exceptionFunctionName, javaMethod, parameterNames, false, handle);
  }

  /**
   * After the registry changed (a library loaded, a function registered): every global target that resolved its
   * name to a function the registry has since replaced resolves it again, so generated methods call the function
   * registered now. Returns whether any target changed.
   */
  public static boolean rebindReplacedGlobals() {
    boolean changed = false;
    synchronized (GLOBALS) {
      for (Iterator<WeakReference<CallTarget>> it = GLOBALS.iterator(); it.hasNext(); ) {
        CallTarget target = it.next().get();
        if (target == null) {
          it.remove();
        } else if (target.function != 0) {
          changed |= target.rebind();
        }
      }
    }
    return changed;
  }

  /** Resolves the name again; true when it now names another function (a replaced global is never unregistered). */
  private synchronized boolean rebind() {
    long current = lookupGlobal(functionName);
    long previous = function;
    if (current == 0 || current == previous) {
      return false;
    }
    CApi.P4JObjectIncRef(current);
    linked = new Linked(current);
    function = current;
    // The core keeps every replaced function alive until exit (function.cc, P4JFunctionSetGlobal), so a thread
    // that read the old Linked just before may still call it safely; this target's own reference can go.
    CApi.P4JObjectDecRef(previous);
    return true;
  }

  /** A function object whose handle stays valid while the target is used. */
  public static CallTarget function(long handle, String name) {
    if (NativeMemory.objectTypeIndex(handle) != CApi.kP4JFunction) {
      // Frames call the function through its cell's safe_call: only a function object has that cell.
      throw new IllegalArgumentException("the object at 0x" + Long.toHexString(handle) + " is not a function");
    }
    return new CallTarget(name == null ? "<anonymous function>" : name, name, null, new String[0], false, handle);
  }

  /** This function target with parameter names for messages ({@code "Calculator.add argument 1 (a)"}). */
  public CallTarget withParameterNames(String[] names) {
    return new CallTarget(functionName, exceptionFunctionName, javaMethod, names.clone(), false, function);
  }

  /** An operation that calls no function; {@code description} names it in messages. */
  public static CallTarget operation(String description, String... parameterNames) {
    return new CallTarget(description, null, null, parameterNames.clone(), false, 0);
  }

  public String functionName() {
    return functionName;
  }

  /** The function name for a Packed4jException, null for an operation that is not a function. */
  public String exceptionFunctionName() {
    return exceptionFunctionName;
  }

  /** The function handle, resolving a global on first use (a Packed4jException naming it when unknown). */
  public long function() {
    long handle = function;
    if (handle == 0) {
      handle = resolve(true);
    }
    return handle;
  }

  /**
   * The function with what a call needs, resolving a global on first use as {@link #function()} does; for the
   * call path, where one field read replaces the volatile read and the cell's two.
   */
  public Linked linked() {
    Linked resolved = linked;
    if (resolved == null) {
      resolved = link();
    }
    return resolved;
  }

  private synchronized Linked link() {
    resolve(true);
    return linked;
  }

  /**
   * The function handle when the global is registered now, resolving it as {@link #function()} does; 0 when no
   * loaded library registers it yet (a later call resolves it then).
   */
  public long functionIfRegistered() {
    long handle = function;
    if (handle == 0) {
      handle = resolve(false);
    }
    return handle;
  }

  private synchronized long resolve(boolean required) {
    if (function != 0) {
      return function;
    }
    if (!global) {
      throw new IllegalStateException(functionName + " is not a function");
    }
    long handle = memberType != null ? lookupMember(required) : lookupGlobal(functionName);
    if (handle == 0) {
      if (!required) {
        return 0;
      }
      throw Registries.unknownFunction(functionName, javaMethod);
    }
    // The registry keeps its reference until exit, but a later registration with allow_override could drop it;
    // the site keeps its own.
    CApi.P4JObjectIncRef(handle);
    linked = new Linked(handle);
    function = handle;
    return handle;
  }

  /**
   * The function of this member target: 0 when its type or member is not registered yet and {@code required} is
   * false; a Packed4jException naming the type, the member and the Java method when it is true.
   */
  private long lookupMember(boolean required) {
    int typeIndex = TypeInfos.indexOf(memberType);
    TypeInfo.MemberInfo member = typeIndex < 0 ? null : MemberCalls.find(typeIndex, memberName);
    if (member == null) {
      if (!required) {
        return 0;
      }
      throw typeIndex < 0
          ? Failures.error(ErrorKind.KEY_ERROR, "no object type '" + memberType + "' is registered (" + memberName
              + " bound to " + javaMethod + "). " + Registries.notRegisteredAdvice(), functionName)
          : MemberCalls.noSuchMember(typeIndex, memberName, javaMethod);
    }
    if (member.kind() != memberKind) {
      throw Failures.error(ErrorKind.TYPE_ERROR, functionName + " is a " + MemberCalls.kindName(member.kind())
          + " natively, but " + javaMethod + " calls it as a " + MemberCalls.kindName(memberKind), functionName);
    }
    return member.function();
  }

  /** A P4JByteArray of {@code value}'s UTF-8 bytes (zero-terminated), both in {@code arena}: for rare calls. */
  static MemorySegment utf8Span(Arena arena, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    MemorySegment data = arena.allocate(bytes.length + 1L);
    MemorySegment.copy(bytes, 0, data, ValueLayout.JAVA_BYTE, 0, bytes.length);
    MemorySegment span = arena.allocate(16, 8);
    span.set(ValueLayout.JAVA_LONG, 0, data.address());
    span.set(ValueLayout.JAVA_LONG, 8, bytes.length);
    return span;
  }

  /** The borrowed handle of a global function, or 0 when none is registered under {@code name}. */
  public static long lookupGlobal(String name) {
    NativeLibraries.ensureLoaded();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
      Errors.check(CApi.P4JFunctionGetGlobal(utf8Span(arena, name).address(), out.address()), name);
      return out.get(ValueLayout.JAVA_LONG, 0);
    }
  }

  /** {@code "calculator.Sum argument 0 (values)"}; for an operation {@code "NativeList.set(element)"}. */
  public String describeArgument(int index) {
    String name = index < parameterNames.length ? parameterNames[index] : null;
    if (!global && function == 0) {
      return functionName + "(" + (name == null ? "argument " + index : name) + ")";
    }
    return functionName + " argument " + index + (name == null ? "" : " (" + name + ")");
  }

  /**
   * The ValueError of a result that does not fit the Java type:
   * {@code "[ValueError] calculator.Foo (Calculator.foo) returned 4294967296, which does not fit in int"}.
   */
  public RuntimeException resultOutOfRange(String value, String javaType) {
    return Failures.error(ErrorKind.VALUE_ERROR, describeSource() + " returned " + value
        + ", which does not fit in " + javaType, exceptionFunctionName);
  }

  /** {@code "calculator.Foo (Calculator.foo)"}. */
  public String describeSource() {
    return javaMethod == null ? functionName : functionName + " (" + javaMethod + ")";
  }
}
