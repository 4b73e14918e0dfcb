package dev.packed4j.runtime.internal.route;

import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_I64;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JFunctionCell;
import dev.packed4j.runtime.internal.values.CallTarget;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;

/**
 * A register call: the function's scalars entry ({@code P4JFunctionCell.scalars_entry}, signature
 * {@code P4JScalarsEntryType}), which runs the function's packed body with up to four arguments passed in registers
 * as (type index, payload) pairs and returns the result's payload when it has the kind the method returns. For a
 * closure of the C++ API the entry is compiled beside the body in the plugin, so the body runs inline in that one
 * native frame; for other functions it is the core's {@code P4JFunctionCallScalars}.
 *
 * <p>Selection rule: the method has at most four parameters, all primitives, a primitive or void result, and the
 * function has no typed entry that fits it. Arguments are passed as a call frame would write them: {@code kP4JInt}
 * for integers, {@code kP4JBool} for booleans, {@code kP4JFloat} with the double's bits for floats. A result of
 * another kind than the method's ({@code kP4JInt} for Java integers, {@code kP4JFloat} for {@code float} and
 * {@code double}, {@code kP4JBool}, anything for {@code void}) is kept by the core and converted, or rejected, by the
 * call frame's own result conversion ({@link ResultFilters}).
 */
record RegisterCallRoute(MethodHandle handle) implements Route {
  /** At most this many arguments travel in registers. */
  static final int MAX_ARGUMENTS = 4;

  private static final Linker LINKER = Linker.nativeLinker();

  /** {@code int64_t entry(func, shape, a0, a1, a2, a3)}, the pointer as an address: P4JScalarsEntryType. */
  private static final FunctionDescriptor SCALARS_ENTRY = FunctionDescriptor.of(ValueLayout.JAVA_LONG,
      ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
      ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);

  @Override
  public String describe() {
    return "register call";
  }

  /** The route to {@code function}'s scalars entry for a method of {@code javaType}, or null when the rule fails. */
  @SuppressWarnings("restricted") // the address is the entry the function object records for this contract
  static RegisterCallRoute link(CallTarget target, long function, MethodType javaType) {
    int count = javaType.parameterCount();
    if (count > MAX_ARGUMENTS || !javaType.parameterList().stream().allMatch(LinkedRoute::isScalar)
        || !(LinkedRoute.isScalar(javaType.returnType()) || javaType.returnType() == void.class)) {
      return null;
    }
    long entry = NativeMemory.getLong(NativeMemory.cell(function) + P4JFunctionCell.SCALARS_ENTRY);
    if (entry == 0) {
      return null; // c_api.h: never, every function object has one
    }
    Class<?> javaResult = javaType.returnType();
    long shape = count | (long) kindOf(javaResult) << 8;
    for (int i = 0; i < count; i++) {
      shape |= (long) kindOf(javaType.parameterType(i)) << (16 + 8 * i);
    }
    MethodHandle downcall = LINKER.downcallHandle(MemorySegment.ofAddress(entry), SCALARS_ENTRY);
    MethodHandle call = MethodHandles.insertArguments(downcall, 0, function, shape);
    // Registers past the arguments carry 0.
    Object[] unused = new Object[MAX_ARGUMENTS - count];
    Arrays.fill(unused, 0L);
    call = MethodHandles.insertArguments(call, count, unused);
    for (int i = 0; i < count; i++) {
      Class<?> parameter = javaType.parameterType(i);
      if (parameter == double.class || parameter == float.class) {
        call = MethodHandles.filterArguments(call, i, ResultFilters.DOUBLE_BITS);
      }
    }
    MethodHandle filtered = MethodHandles.filterReturnValue(call,
        ResultFilters.of(javaResult, target, P4J_TYPED_ERROR_I64, true));
    // int/short/byte -> long widen, float -> double widens, boolean -> long is 1 or 0.
    return new RegisterCallRoute(MethodHandles.explicitCastArguments(filtered, javaType));
  }

  /** The kind byte of a parameter or result in the shape. */
  private static int kindOf(Class<?> type) {
    if (type == void.class) {
      return CApi.kP4JNone;
    }
    if (type == boolean.class) {
      return CApi.kP4JBool;
    }
    return type == double.class || type == float.class ? CApi.kP4JFloat : CApi.kP4JInt;
  }
}
