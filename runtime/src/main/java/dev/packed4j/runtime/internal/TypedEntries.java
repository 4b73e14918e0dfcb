package dev.packed4j.runtime.internal;

import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_F64_BITS;
import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_I32;
import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_I64;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.P4JFunctionCell;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;

/**
 * Links the direct entry of a Java method whose parameters are primitives or Strings and whose result is a
 * primitive or void: one downcall, no {@code P4JAny} packing, no argument slots.
 *
 * <p>Two entries exist. The typed entry of a {@code set_body_typed} function ({@code P4JFunctionGetTypedEntry}) is
 * {@code R entry(P4JObjectHandle self, wire args...)}: {@code int64_t} for every integer and bool parameter,
 * {@code double} for floats, {@code const P4JByteArray*} for a string; the result is {@code int64_t} for integers,
 * {@code double} for floats, {@code int32_t} for bool and void. A function without one (registered with
 * {@code set_body}), or whose signature does not fit the Java method, is reached through its own scalars entry
 * ({@code P4JFunctionCell.scalars_entry}, compiled beside its body) or, for a function without one,
 * {@code P4JFunctionCallScalars}, when the method has at most four primitive parameters: the arguments travel as
 * (type index, payload) in registers, the function runs its packed body as through a call frame, and the result
 * comes back as a payload when it has the kind the method returns.
 *
 * <p>The handle {@link #link} returns has the Java method's type with each {@code String} parameter replaced by
 * {@code long}, the span address {@link Frame#putStringSpan} gives. It binds the function, widens
 * {@code int}/{@code short}/{@code byte} to {@code long}, {@code float} to {@code double} and {@code boolean} to
 * 0/1, and filters the result: the error sentinel of the wire type means "look for a raised error" (a native
 * exception becomes the {@link Packed4jException} {@link Frame#invoke()} would throw; none means the sentinel was
 * a real result, or for {@code P4JFunctionCallScalars} a result of another kind, converted, or rejected, by the
 * frame's own result conversion), and narrowing to {@code int}, {@code short}, {@code byte} or {@code float} is
 * range-checked with {@link Frame}'s ValueError. Argument narrowing is the native side's: it range-checks like a
 * packed call and raises the same ValueError.
 *
 * <p>Every piece of the handle is a constant once it sits in a {@code static final} field, so the JIT inlines the
 * whole chain down to the downcall.
 */
public final class TypedEntries {
  private TypedEntries() {}

  private static final Linker LINKER = Linker.nativeLinker();
  private static final List<String> INTEGERS =
      List.of("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64");
  private static final List<String> FLOATS = List.of("float32", "float64");
  /** At most this many arguments travel in registers through {@code P4JFunctionCallScalars}. */
  static final int MAX_SCALAR_ARGUMENTS = 4;

  /**
   * The direct entry of {@code target}'s function adapted to {@code javaType}, or null when the call must go through
   * a call frame: the function is not registered yet (or the core library does not load), or it has no typed entry
   * that fits {@code javaType} and {@code javaType} has a String parameter or more than
   * {@value #MAX_SCALAR_ARGUMENTS} parameters.
   *
   * @param javaType the Java method's type; its parameters must be primitives other than {@code char} or
   *     {@code String}, its result a primitive other than {@code char} or {@code void}
   * @throws IllegalArgumentException when {@code javaType} has any other type: generated code never asks for one
   */
  public static MethodHandle link(CallTarget target, MethodType javaType) {
    boolean strings = false;
    for (Class<?> parameter : javaType.parameterList()) {
      strings |= parameter == String.class;
      if ((!isScalar(parameter) || parameter == void.class) && parameter != String.class) {
        throw new IllegalArgumentException(javaType + ": a typed entry takes primitive or String parameters, not "
            + parameter);
      }
    }
    if (!isScalar(javaType.returnType())) {
      throw new IllegalArgumentException(javaType + ": a typed entry returns a primitive or void");
    }
    long function;
    long entry;
    String signature;
    try {
      function = target.functionIfRegistered();
      if (function == 0) {
        return null;
      }
      entry = NativeMemory.getLong(NativeMemory.cell(function) + P4JFunctionCell.TYPED_ENTRY);
      signature = entry == 0 ? "" : signatureOf(function);
    } catch (RuntimeException | LinkageError e) {
      // The core library or the registry is not usable: the call frame reports why, at the call.
      return null;
    }
    String[] nativeTypes = entry == 0 ? null : parse(signature);
    if (nativeTypes != null && fits(nativeTypes, javaType)) {
      return adapt(target, function, entry, nativeTypes, javaType);
    }
    if (!strings && javaType.parameterCount() <= MAX_SCALAR_ARGUMENTS) {
      try {
        return adaptScalars(target, function, javaType);
      } catch (LinkageError e) {
        return null; // a core library without P4JFunctionCallScalars: the call frame works with any
      }
    }
    return null;
  }

  private static boolean isScalar(Class<?> type) {
    return type.isPrimitive() && type != char.class;
  }

  private static String signatureOf(long function) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment span = arena.allocate(16, 8);
      Errors.check(CApi.P4JFunctionGetSignature(function, span.address()), null);
      return NativeMemory.spanString(span.address());
    }
  }

  /**
   * {@code "(int64, string) -> void"} as {@code [int64, string, void]}, the result last; null for a signature with
   * a type no typed entry takes (a typed entry exists only for such signatures, so this is defensive).
   */
  static String[] parse(String signature) {
    int arrow = signature.indexOf(") -> ");
    if (!signature.startsWith("(") || arrow < 0) {
      return null;
    }
    String parameters = signature.substring(1, arrow);
    String[] names = parameters.isEmpty() ? new String[0] : parameters.split(", ", -1);
    String[] types = new String[names.length + 1];
    for (int i = 0; i < names.length; i++) {
      if (!isScalarType(names[i]) && !names[i].equals("string")) {
        return null;
      }
      types[i] = names[i];
    }
    String result = signature.substring(arrow + ") -> ".length());
    if (!isScalarType(result) && !result.equals("void")) {
      return null;
    }
    types[names.length] = result;
    return types;
  }

  private static boolean isScalarType(String nativeType) {
    return INTEGERS.contains(nativeType) || FLOATS.contains(nativeType) || nativeType.equals("bool");
  }

  /**
   * Whether a Java method of {@code javaType} may call an entry of {@code nativeTypes}: same arity; a Java integer
   * for any native integer parameter (the entry range-checks), {@code float}/{@code double} for a float,
   * {@code boolean} for bool, {@code String} for string; a native integer result read as a Java integer
   * (range-checked here), a float as {@code float}/{@code double}, bool as {@code boolean}, void as {@code void}.
   */
  static boolean fits(String[] nativeTypes, MethodType javaType) {
    if (nativeTypes.length != javaType.parameterCount() + 1) {
      return false;
    }
    for (int i = 0; i < javaType.parameterCount(); i++) {
      if (!sameKind(nativeTypes[i], javaType.parameterType(i))) {
        return false;
      }
    }
    String result = nativeTypes[nativeTypes.length - 1];
    return result.equals("void") ? javaType.returnType() == void.class : sameKind(result, javaType.returnType());
  }

  private static boolean sameKind(String nativeType, Class<?> javaType) {
    if (INTEGERS.contains(nativeType)) {
      return javaType == long.class || javaType == int.class || javaType == short.class || javaType == byte.class;
    }
    if (FLOATS.contains(nativeType)) {
      return javaType == double.class || javaType == float.class;
    }
    if (nativeType.equals("string")) {
      return javaType == String.class;
    }
    return nativeType.equals("bool") && javaType == boolean.class;
  }

  /** {@code javaType} with each String parameter replaced by the {@code long} address of its span. */
  private static MethodType wireType(MethodType javaType) {
    MethodType type = javaType;
    for (int i = 0; i < type.parameterCount(); i++) {
      if (type.parameterType(i) == String.class) {
        type = type.changeParameterType(i, long.class);
      }
    }
    return type;
  }

  @SuppressWarnings("restricted") // the address is the typed entry the function object records for its signature
  private static MethodHandle adapt(CallTarget target, long function, long entry, String[] nativeTypes,
      MethodType javaType) {
    int count = nativeTypes.length - 1;
    MemoryLayout[] wireParameters = new MemoryLayout[count + 1];
    wireParameters[0] = ValueLayout.JAVA_LONG; // self, the function handle
    for (int i = 0; i < count; i++) {
      // A string's span address is a pointer; passed as a long, so the call creates no MemorySegment.
      wireParameters[i + 1] = FLOATS.contains(nativeTypes[i]) ? ValueLayout.JAVA_DOUBLE : ValueLayout.JAVA_LONG;
    }
    String result = nativeTypes[count];
    ValueLayout wireResult = INTEGERS.contains(result) ? ValueLayout.JAVA_LONG
        : FLOATS.contains(result) ? ValueLayout.JAVA_DOUBLE
        : ValueLayout.JAVA_INT;
    // No Linker.Option.critical: the entry runs user code, which may take long or (with callbacks) call Java.
    MethodHandle downcall = LINKER.downcallHandle(MemorySegment.ofAddress(entry),
        FunctionDescriptor.of(wireResult, wireParameters));
    MethodHandle bound = MethodHandles.insertArguments(downcall, 0, function);
    MethodHandle filtered = MethodHandles.filterReturnValue(bound,
        MethodHandles.insertArguments(resultFilter(javaType.returnType()), 0, target));
    // int/short/byte -> long widen, float -> double widens, boolean -> long is 1 or 0.
    return MethodHandles.explicitCastArguments(filtered, wireType(javaType));
  }

  /** {@code Double.doubleToRawLongBits}: a float argument's payload. */
  private static final MethodHandle DOUBLE_BITS;

  static {
    try {
      DOUBLE_BITS = MethodHandles.lookup().findStatic(Double.class, "doubleToRawLongBits",
          MethodType.methodType(long.class, double.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("Double.doubleToRawLongBits", e);
    }
  }

  /** {@code int64_t (func, shape, a0, a1, a2, a3)}, pointers as addresses: P4JScalarsEntryType. */
  private static final FunctionDescriptor SCALARS_ENTRY = FunctionDescriptor.of(ValueLayout.JAVA_LONG,
      ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
      ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);

  /**
   * Whether the loaded core's function cells have {@code scalars_entry}. A core of the same ABI version from before
   * that addition has other data there, so the field is read only from a core that exports the functions added with
   * it.
   */
  private static final class CoreCell {
    static final boolean HAS_SCALARS_ENTRY = NativeLibraries.core().find("P4JFunctionCreateFromCell").isPresent();
  }

  /** {@code P4JFunctionCallScalars}, for a function without its own scalars entry; linked on first use. */
  private static final class CallScalars {
    static final MethodHandle HANDLE = LINKER.downcallHandle(CApi.P4JFunctionCallScalars$address(), SCALARS_ENTRY);
  }

  /**
   * The scalars entry {@code function} carries in its cell (compiled beside its body, so the body runs in the
   * entry's frame), else {@code P4JFunctionCallScalars}: the same contract either way.
   */
  @SuppressWarnings("restricted") // the address is the entry the function object records for this contract
  private static MethodHandle scalarsEntryOf(long function) {
    if (!CoreCell.HAS_SCALARS_ENTRY) {
      return CallScalars.HANDLE;
    }
    long entry = NativeMemory.getLong(NativeMemory.cell(function) + P4JFunctionCell.SCALARS_ENTRY);
    return entry == 0 ? CallScalars.HANDLE
        : LINKER.downcallHandle(MemorySegment.ofAddress(entry), SCALARS_ENTRY);
  }

  /**
   * {@code P4JFunctionCallScalars} bound to {@code function} and the shape of {@code javaType}: each argument is a
   * (type index, payload) pair in registers, as a call frame would write it ({@code kP4JInt} for integers,
   * {@code kP4JBool} for booleans, {@code kP4JFloat} with the double's bits for floats), and the result is taken
   * when it has the kind the frame's {@code return...} method accepts directly.
   */
  private static MethodHandle adaptScalars(CallTarget target, long function, MethodType javaType) {
    int count = javaType.parameterCount();
    Class<?> javaResult = javaType.returnType();
    int resultKind = javaResult == void.class ? CApi.kP4JNone
        : javaResult == boolean.class ? CApi.kP4JBool
        : javaResult == double.class || javaResult == float.class ? CApi.kP4JFloat
        : CApi.kP4JInt;
    long shape = count | (long) resultKind << 8;
    for (int i = 0; i < count; i++) {
      Class<?> parameter = javaType.parameterType(i);
      long kind = parameter == boolean.class ? CApi.kP4JBool
          : parameter == double.class || parameter == float.class ? CApi.kP4JFloat
          : CApi.kP4JInt;
      shape |= kind << (16 + 8 * i);
    }
    MethodHandle call = MethodHandles.insertArguments(scalarsEntryOf(function), 0, function, shape);
    // Registers past the arguments carry 0.
    Object[] unused = new Object[MAX_SCALAR_ARGUMENTS - count];
    Arrays.fill(unused, 0L);
    call = MethodHandles.insertArguments(call, count, unused);
    for (int i = 0; i < count; i++) {
      Class<?> parameter = javaType.parameterType(i);
      if (parameter == double.class || parameter == float.class) {
        call = MethodHandles.filterArguments(call, i, DOUBLE_BITS);
      }
    }
    MethodHandle filtered = MethodHandles.filterReturnValue(call,
        MethodHandles.insertArguments(scalarsResultFilter(javaResult), 0, target));
    // int/short/byte -> long widen, float -> double widens, boolean -> long is 1 or 0.
    return MethodHandles.explicitCastArguments(filtered, javaType);
  }

  private static MethodHandle resultFilter(Class<?> javaResult) {
    String name;
    MethodType type;
    if (javaResult == long.class || javaResult == int.class || javaResult == short.class
        || javaResult == byte.class) {
      name = javaResult.getName() + "Result";
      type = MethodType.methodType(javaResult, CallTarget.class, long.class);
    } else if (javaResult == double.class || javaResult == float.class) {
      name = javaResult.getName() + "Result";
      type = MethodType.methodType(javaResult, CallTarget.class, double.class);
    } else if (javaResult == boolean.class) {
      name = "booleanResult";
      type = MethodType.methodType(boolean.class, CallTarget.class, int.class);
    } else {
      name = "voidResult";
      type = MethodType.methodType(void.class, CallTarget.class, int.class);
    }
    try {
      return MethodHandles.lookup().findStatic(TypedEntries.class, name, type);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the result filter " + name + type, e);
    }
  }

  // ---------------------------------------------------------------- result filters (bound to the target)

  private static long longResult(CallTarget target, long result) {
    if (result == P4J_TYPED_ERROR_I64) {
      throwIfRaised(target);
    }
    return result;
  }

  private static int intResult(CallTarget target, long result) {
    if ((int) result != result) {
      throw outOfRange(target, result, "int");
    }
    return (int) result;
  }

  private static short shortResult(CallTarget target, long result) {
    if ((short) result != result) {
      throw outOfRange(target, result, "short");
    }
    return (short) result;
  }

  private static byte byteResult(CallTarget target, long result) {
    if ((byte) result != result) {
      throw outOfRange(target, result, "byte");
    }
    return (byte) result;
  }

  private static double doubleResult(CallTarget target, double result) {
    if (Double.doubleToRawLongBits(result) == P4J_TYPED_ERROR_F64_BITS) {
      throwIfRaised(target);
    }
    return result;
  }

  private static float floatResult(CallTarget target, double result) {
    if (Double.doubleToRawLongBits(result) == P4J_TYPED_ERROR_F64_BITS) {
      throwIfRaised(target); // a NaN otherwise, which fits
    } else if (Double.isFinite(result) && Math.abs(result) > Float.MAX_VALUE) {
      throw target.resultOutOfRange(String.valueOf(result), "float");
    }
    return (float) result;
  }

  private static boolean booleanResult(CallTarget target, int result) {
    if (result == P4J_TYPED_ERROR_I32) {
      throw Errors.takeRaised(target.exceptionFunctionName()); // a bool entry returns 0 or 1 otherwise
    }
    return result != 0;
  }

  private static void voidResult(CallTarget target, int result) {
    if (result == P4J_TYPED_ERROR_I32) {
      throw Errors.takeRaised(target.exceptionFunctionName()); // a void entry returns 0 otherwise
    }
  }

  // ------------------------------------------ P4JFunctionCallScalars result filters (bound to the target)

  private static MethodHandle scalarsResultFilter(Class<?> javaResult) {
    String name = "scalars" + Character.toUpperCase(javaResult.getName().charAt(0)) + javaResult.getName().substring(1)
        + "Result";
    try {
      return MethodHandles.lookup().findStatic(TypedEntries.class, name,
          MethodType.methodType(javaResult, CallTarget.class, long.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the result filter " + name, e);
    }
  }

  // Each filter is a comparison and a return, small enough to inline into the generated method; the rare paths
  // (an error, a result of another kind, a value out of range) are methods of their own.

  private static long scalarsLongResult(CallTarget target, long result) {
    return result != P4J_TYPED_ERROR_I64 ? result : keptLong(target, result);
  }

  private static int scalarsIntResult(CallTarget target, long result) {
    return result != P4J_TYPED_ERROR_I64 && (int) result == result ? (int) result : keptInt(target, result);
  }

  private static short scalarsShortResult(CallTarget target, long result) {
    return result != P4J_TYPED_ERROR_I64 && (short) result == result ? (short) result : keptShort(target, result);
  }

  private static byte scalarsByteResult(CallTarget target, long result) {
    return result != P4J_TYPED_ERROR_I64 && (byte) result == result ? (byte) result : keptByte(target, result);
  }

  private static double scalarsDoubleResult(CallTarget target, long result) {
    return result != P4J_TYPED_ERROR_I64 ? Double.longBitsToDouble(result) : keptDouble(target, result);
  }

  private static float scalarsFloatResult(CallTarget target, long result) {
    double value = Double.longBitsToDouble(result);
    return result != P4J_TYPED_ERROR_I64 && !(Math.abs(value) > Float.MAX_VALUE) ? (float) value
        : keptFloat(target, result);
  }

  private static boolean scalarsBooleanResult(CallTarget target, long result) {
    return result != P4J_TYPED_ERROR_I64 ? result != 0 : keptBoolean(target, result);
  }

  private static void scalarsVoidResult(CallTarget target, long result) {
    if (result == P4J_TYPED_ERROR_I64) {
      throwIfRaised(target); // a void call takes any result and keeps none
    }
  }

  private static long keptLong(CallTarget target, long result) {
    try (Frame kept = keptResult(target)) {
      return kept != null ? kept.returnLong() : result;
    }
  }

  private static int keptInt(CallTarget target, long result) {
    return (int) keptNarrowed(target, result, Integer.MIN_VALUE, Integer.MAX_VALUE, "int");
  }

  private static short keptShort(CallTarget target, long result) {
    return (short) keptNarrowed(target, result, Short.MIN_VALUE, Short.MAX_VALUE, "short");
  }

  private static byte keptByte(CallTarget target, long result) {
    return (byte) keptNarrowed(target, result, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
  }

  /**
   * An integer result that is the sentinel or out of {@code [min, max]}: the kept result read as the frame's
   * {@code returnLong} reads it, or the real one, range-checked with the frame's ValueError.
   */
  private static long keptNarrowed(CallTarget target, long result, long min, long max, String javaType) {
    long value = result;
    if (result == P4J_TYPED_ERROR_I64) {
      try (Frame kept = keptResult(target)) {
        if (kept != null) {
          value = kept.returnLong();
        }
      }
    }
    if (value < min || value > max) {
      throw target.resultOutOfRange(String.valueOf(value), javaType);
    }
    return value;
  }

  private static double keptDouble(CallTarget target, long result) {
    try (Frame kept = keptResult(target)) {
      // An int64 result becomes a double when exact, as through a frame.
      return kept != null ? kept.returnDouble() : Double.longBitsToDouble(result);
    }
  }

  private static float keptFloat(CallTarget target, long result) {
    if (result == P4J_TYPED_ERROR_I64) {
      try (Frame kept = keptResult(target)) {
        if (kept != null) {
          return kept.returnFloat();
        }
      }
    }
    double value = Double.longBitsToDouble(result);
    if (Double.isFinite(value) && Math.abs(value) > Float.MAX_VALUE) {
      throw target.resultOutOfRange(String.valueOf(value), "float");
    }
    return (float) value;
  }

  private static boolean keptBoolean(CallTarget target, long result) {
    try (Frame kept = keptResult(target)) {
      if (kept != null) {
        return kept.returnBoolean();
      }
    }
    // A bool result is 0 or 1, so the sentinel with nothing raised and nothing kept cannot happen; be exact anyway.
    throw target.resultOutOfRange(String.valueOf(result), "boolean");
  }

  /**
   * After {@code P4JFunctionCallScalars} returned the sentinel: throws the raised error if there is one; else a
   * frame holding the result it kept because the result had another kind, for the frame's own conversion to take or
   * reject (the caller closes it); null when nothing was kept, so the sentinel was the real result.
   */
  private static Frame keptResult(CallTarget target) {
    throwIfRaised(target);
    Frame frame = ThreadStack.current().push(target, 0);
    try {
      long found = frame.scratch(4, 4);
      CApi.P4JFunctionCallScalarsTakeResult(frame.result(), found);
      if (NativeMemory.getInt(found) == 0) {
        frame.close();
        return null;
      }
      frame.resultWritten();
      return frame;
    } catch (RuntimeException | Error e) {
      frame.close();
      throw e;
    }
  }

  /** The sentinel (which never fits a narrower type) with an error raised, or a real result out of range. */
  private static RuntimeException outOfRange(CallTarget target, long result, String javaType) {
    if (result == P4J_TYPED_ERROR_I64) {
      throwIfRaised(target);
    }
    return target.resultOutOfRange(String.valueOf(result), javaType);
  }

  /** After a sentinel result: the raised error as the exception a frame would throw; none: the result is real. */
  private static void throwIfRaised(CallTarget target) {
    Packed4jException raised = Errors.takeRaisedIfAny(target.exceptionFunctionName());
    if (raised != null) {
      throw raised;
    }
  }
}
