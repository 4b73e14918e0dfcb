package dev.packed4j.runtime.internal.route;

import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_F64_BITS;
import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_I32;
import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_I64;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.internal.CallTarget;
import dev.packed4j.runtime.internal.Errors;
import dev.packed4j.runtime.internal.NativeMemory;
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
 * The typed entry of a {@code set_body_typed} function ({@code P4JFunctionCell.typed_entry}): a plain C function
 * {@code R entry(P4JObjectHandle self, wire args...)} that runs the C++ body without packing, with {@code int64_t}
 * for every integer and bool parameter, {@code double} for floats, {@code const P4JByteArray*} for a string and an
 * {@code int64_t} tensor word for a tensor (an NDArray or TensorView parameter, signature type {@code NDArray}: see
 * {@code P4J_TENSOR_WORD_BORROWED}); its
 * result is {@code int64_t} for integers, {@code double} for floats, {@code int32_t} for bool and void, or the error
 * sentinel of that type.
 *
 * <p>Selection rule: the function has a typed entry and the signature it recorded (such as
 * {@code "(int32, string) -> bool"}) fits the Java method: same arity; a Java integer for any native integer
 * parameter (the entry range-checks, as a packed call does), {@code float}/{@code double} for a float,
 * {@code boolean} for bool, {@code String} for string; a native integer result read as any Java integer
 * (range-checked by {@link ResultFilters}), a float as {@code float}/{@code double}, bool as {@code boolean}, void as
 * {@code void}; {@code NDArray} for NDArray.
 */
public record TypedEntryRoute(MethodHandle handle, String signature) implements Route {
  private static final Linker LINKER = Linker.nativeLinker();
  /** {@code Double.doubleToRawLongBits}: a float64 result as the long a result filter takes. */
  private static final MethodHandle DOUBLE_BITS;

  static {
    try {
      DOUBLE_BITS = MethodHandles.lookup().findStatic(Double.class, "doubleToRawLongBits",
          MethodType.methodType(long.class, double.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("Double.doubleToRawLongBits", e);
    }
  }
  private static final List<String> INTEGERS =
      List.of("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64");
  private static final List<String> FLOATS = List.of("float32", "float64");
  /** The signature type of a tensor parameter, NDArray or TensorView in C++. */
  private static final String TENSOR = "NDArray";

  @Override
  public String describe() {
    return "typed entry " + signature;
  }

  /** The route to {@code function}'s typed entry for a method of {@code javaType}, or null when the rule fails. */
  static TypedEntryRoute link(CallTarget target, long function, MethodType javaType) {
    long entry = NativeMemory.getLong(NativeMemory.cell(function) + P4JFunctionCell.TYPED_ENTRY);
    if (entry == 0) {
      return null;
    }
    String signature = signatureOf(function);
    String[] nativeTypes = parse(signature);
    if (nativeTypes == null || !fits(nativeTypes, javaType)) {
      return null;
    }
    return new TypedEntryRoute(adapt(target, function, entry, nativeTypes, javaType), signature);
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
      if (!isScalarType(names[i]) && !names[i].equals("string") && !names[i].equals(TENSOR)) {
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

  /** The selection rule's type check: see the class comment. */
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
    if (nativeType.equals(TENSOR)) {
      return javaType == NDArray.class;
    }
    return nativeType.equals("bool") && javaType == boolean.class;
  }

  /**
   * The entry bound to {@code function}, its result filtered into the Java result ({@link ResultFilters}) and its
   * arguments cast from the wire type: {@code int}/{@code short}/{@code byte} widen to {@code long}, {@code float}
   * to {@code double}, {@code boolean} becomes 1 or 0. Every piece is a constant once the handle sits in a
   * {@code static final} field, so the JIT inlines the whole chain down to the downcall.
   */
  @SuppressWarnings("restricted") // the address is the typed entry the function object records for its signature
  private static MethodHandle adapt(CallTarget target, long function, long entry, String[] nativeTypes,
      MethodType javaType) {
    int count = nativeTypes.length - 1;
    MemoryLayout[] wireParameters = new MemoryLayout[count + 1];
    wireParameters[0] = ValueLayout.JAVA_LONG; // self, the function handle
    for (int i = 0; i < count; i++) {
      // A string's span is a pointer and a tensor word a handle or a tagged pointer; passed as longs, so the call
      // creates no MemorySegment.
      wireParameters[i + 1] = FLOATS.contains(nativeTypes[i]) ? ValueLayout.JAVA_DOUBLE : ValueLayout.JAVA_LONG;
    }
    String result = nativeTypes[count];
    ValueLayout wireResult = INTEGERS.contains(result) ? ValueLayout.JAVA_LONG
        : FLOATS.contains(result) ? ValueLayout.JAVA_DOUBLE
        : ValueLayout.JAVA_INT;
    // No Linker.Option.critical: the entry runs user code, which may take long or call back into Java.
    MethodHandle downcall = LINKER.downcallHandle(MemorySegment.ofAddress(entry),
        FunctionDescriptor.of(wireResult, wireParameters));
    MethodHandle bound = MethodHandles.insertArguments(downcall, 0, function);
    // The raw result as the long of its bits: int64 as is, float64 by its bits, int32 sign-extended.
    long sentinel;
    if (wireResult.carrier() == double.class) {
      bound = MethodHandles.filterReturnValue(bound, DOUBLE_BITS);
      sentinel = P4J_TYPED_ERROR_F64_BITS;
    } else if (wireResult.carrier() == int.class) {
      bound = MethodHandles.explicitCastArguments(bound, bound.type().changeReturnType(long.class));
      sentinel = P4J_TYPED_ERROR_I32;
    } else {
      sentinel = P4J_TYPED_ERROR_I64;
    }
    MethodHandle filtered = MethodHandles.filterReturnValue(bound,
        ResultFilters.of(javaType.returnType(), target, sentinel, false));
    return MethodHandles.explicitCastArguments(filtered, LinkedRoute.wireType(javaType));
  }
}
