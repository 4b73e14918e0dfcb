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
import java.util.List;

/**
 * Links the typed entry of a {@code set_body_typed} function ({@code P4JFunctionGetTypedEntry}) for a Java method
 * whose parameters and result are primitives: one downcall, no packing, no frame.
 *
 * <p>The entry is {@code R entry(P4JObjectHandle self, wire args...)}: {@code int64_t} for every integer and bool
 * parameter, {@code double} for floats; the result is {@code int64_t} for integers, {@code double} for floats,
 * {@code int32_t} for bool and void. The handle {@link #link} returns has the Java method's exact type: it binds
 * {@code self}, widens {@code int}/{@code short}/{@code byte} to {@code long}, {@code float} to {@code double} and
 * {@code boolean} to 0/1, and filters the result: the error sentinel of the wire type means "look for a raised
 * error" (a native exception becomes the {@link Packed4jException} {@link Frame#invoke()} would throw; none means
 * the sentinel was a real result), and narrowing to {@code int}, {@code short}, {@code byte} or {@code float} is
 * range-checked with {@link Frame}'s ValueError. Argument narrowing is the entry's own: it range-checks like a
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

  /**
   * The typed entry of {@code target}'s function adapted to {@code javaType}, or null when the call must go through
   * a call frame: the function is not registered yet (or the core library does not load), was registered with
   * {@code set_body}, or its recorded signature does not fit {@code javaType} (the frame then reports the native
   * TypeError as it always did).
   *
   * @param javaType the Java method's type; its parameters and result must be primitives other than {@code char}
   *     (the result may be {@code void})
   * @throws IllegalArgumentException when {@code javaType} has any other type: generated code never asks for one
   */
  public static MethodHandle link(CallTarget target, MethodType javaType) {
    for (Class<?> parameter : javaType.parameterList()) {
      if (!isScalar(parameter) || parameter == void.class) {
        throw new IllegalArgumentException(javaType + ": a typed entry takes primitive parameters, not " + parameter);
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
      if (entry == 0) {
        return null;
      }
      signature = signatureOf(function);
    } catch (RuntimeException | LinkageError e) {
      // The core library or the registry is not usable: the call frame reports why, at the call.
      return null;
    }
    String[] nativeTypes = parse(signature);
    if (nativeTypes == null || !fits(nativeTypes, javaType)) {
      return null;
    }
    return adapt(target, function, entry, nativeTypes, javaType);
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
   * {@code "(int64, bool) -> void"} as {@code [int64, bool, void]}, the result last; null for a signature with a
   * type that is not a scalar (a typed entry exists only for scalar signatures, so this is defensive).
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
      if (!INTEGERS.contains(names[i]) && !FLOATS.contains(names[i]) && !names[i].equals("bool")) {
        return null;
      }
      types[i] = names[i];
    }
    String result = signature.substring(arrow + ") -> ".length());
    if (!INTEGERS.contains(result) && !FLOATS.contains(result) && !result.equals("bool") && !result.equals("void")) {
      return null;
    }
    types[names.length] = result;
    return types;
  }

  /**
   * Whether a Java method of {@code javaType} may call an entry of {@code nativeTypes}: same arity; a Java integer
   * for any native integer parameter (the entry range-checks), {@code float}/{@code double} for a float,
   * {@code boolean} for bool; a native integer result read as a Java integer (range-checked here), a float as
   * {@code float}/{@code double}, bool as {@code boolean}, void as {@code void}.
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
    return nativeType.equals("bool") && javaType == boolean.class;
  }

  @SuppressWarnings("restricted") // the address is the typed entry the function object records for its signature
  private static MethodHandle adapt(CallTarget target, long function, long entry, String[] nativeTypes,
      MethodType javaType) {
    int count = nativeTypes.length - 1;
    MemoryLayout[] wireParameters = new MemoryLayout[count + 1];
    wireParameters[0] = ValueLayout.JAVA_LONG; // self, the function handle
    for (int i = 0; i < count; i++) {
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
