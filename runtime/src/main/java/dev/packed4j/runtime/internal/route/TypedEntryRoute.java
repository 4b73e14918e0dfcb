package dev.packed4j.runtime.internal.route;

import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_F64_BITS;
import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_I32;
import static dev.packed4j.runtime.internal.capi.CApi.P4J_TYPED_ERROR_I64;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JFunctionCell;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.values.BooleanCodec;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.FloatCodec;
import dev.packed4j.runtime.internal.values.IntegerCodec;
import dev.packed4j.runtime.internal.values.ListCodec;
import dev.packed4j.runtime.internal.values.ObjectCodec;
import dev.packed4j.runtime.internal.values.OptionalCodec;
import dev.packed4j.runtime.internal.values.StringCodec;
import dev.packed4j.runtime.internal.values.ValueCodec;
import dev.packed4j.runtime.internal.values.Values;
import dev.packed4j.types.Carrier;
import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The typed entry of a {@code set_body_typed} function ({@code P4JFunctionCell.typed_entry}): a plain C function
 * {@code R entry(P4JObjectHandle self, wire args...)} that runs the C++ body without packing, with {@code int64_t} for
 * every integer and bool parameter, {@code double} for floats, {@code const P4JByteArray*} for a string or bytes, an
 * {@code int64_t} tensor word for a tensor (an NDArray or TensorView parameter, signature type {@code NDArray}: see
 * {@code P4J_TENSOR_WORD_BORROWED}) and an {@code int64_t} object word for an object (its handle, borrowed); its result
 * is {@code int64_t} for integers, {@code double} for floats, {@code int32_t} for bool and void, the address of a span
 * the thread keeps for a string or bytes (NULL on failure, data NULL for None) and an owned object word for an object
 * (0 for None), or the error sentinel of that type.
 *
 * <p>Selection rule: the function has a typed entry and the signature it recorded (such as {@code "(int32, string) ->
 * bool"}) fits the Java method: same arity; a Java integer for any native integer parameter (the entry range-checks, as
 * a packed call does), {@code float}/{@code double} for a float, {@code boolean} for bool, {@code String} for string,
 * {@code byte[]} for bytes, {@code NDArray} for NDArray (when the method passes it as a tensor word, {@link
 * LinkedRoute#wireType}), an {@code @Object} interface for an object type key; a native integer result read as any Java
 * integer (range-checked by {@link ResultFilters}), a float as {@code float}/{@code double}, bool as {@code boolean},
 * void as {@code void}, string as {@code String}, bytes as {@code byte[]}, an object type key as an {@code @Object}
 * interface. Each number may also be boxed ({@code Long}, {@code Integer}, ..., {@code Boolean}): a boxed argument is
 * unboxed (a null one is the call frame's NullPointerException) and a boxed result boxed after the same check. An
 * object argument is pinned for the call as on the call frame ({@link ScratchScope#aroundReferences}); the entry checks
 * its native type, and the object codec the result's, so a mismatch fails as on the frame.
 *
 * <p>Lists and optionals (the shapes of a common API that are not scalars): a {@code List} of {@code Long},
 * {@code Integer}, {@code Short}, {@code Byte}, {@code Double}, {@code Float} or {@code String} parameter for a
 * {@code list<T>} of a native integer, float or string, when the entry takes a borrowed list cell (its cell's
 * {@code typed_forms} has {@code P4J_TYPED_FORM_BORROWED_LIST}, ABI 2.6; a function of an older plugin keeps its
 * call frame): the values written once into scratch memory, numbers as plain 8-byte values when it also has
 * {@code P4J_TYPED_FORM_DENSE_LIST} (ABI 2.7; else as {@code P4JAny}s), a {@code NativeList} passed by its handle; an
 * {@code Optional} of a boxed number or {@code Boolean} parameter for {@code optional<T>} of the same kind, as a
 * {@code P4JAny} in scratch memory (None for empty); such an {@code Optional} result for {@code optional<T>}, and an
 * {@code Optional<String>} or {@code Optional} of an {@code @Object} interface result for {@code optional<string>} or
 * {@code optional<}<i>type key</i>{@code >}, read from the entry's {@code out} slot by the codec the frame reads it
 * with. Every other list or optional (an optional parameter of a String or an object, of lists, a list result)
 * takes the call frame.
 */
record TypedEntryRoute(MethodHandle handle, String signature) implements Route {
  private static final Linker LINKER = Linker.nativeLinker();
  /** The parameter forms this route passes. */
  private static final Set<Carrier> PARAMETER_CARRIERS =
      EnumSet.of(Carrier.INT64, Carrier.DOUBLE, Carrier.SPAN, Carrier.TENSOR_WORD, Carrier.OBJECT_WORD,
          Carrier.PACKED_VALUE);
  /** The result forms this route reads (a tensor's object word is refused by the type check). */
  private static final Set<Carrier> RESULT_CARRIERS =
      EnumSet.of(Carrier.INT64, Carrier.DOUBLE, Carrier.INT32, Carrier.SPAN, Carrier.OBJECT_WORD, Carrier.OUT_VALUE);

  /** {@link #nonNull}: a boxed argument, refused when null. */
  private static final MethodHandle NON_NULL;
  /** {@link #outResult}: an {@code Optional} result read from the entry's out slot. */
  private static final MethodHandle OUT_RESULT;

  static {
    try {
      NON_NULL = MethodHandles.lookup().findStatic(TypedEntryRoute.class, "nonNull",
          MethodType.methodType(Object.class, CallTarget.class, int.class, ValueCodec.class, Object.class));
      OUT_RESULT = MethodHandles.lookup().findStatic(TypedEntryRoute.class, "outResult",
          MethodType.methodType(Object.class, CallTarget.class, ValueCodec.class, int.class, long.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("TypedEntryRoute.nonNull", e);
    }
  }

  /** A boxed argument, or the call frame's NullPointerException for a null one ({@code Frame.put}). */
  private static Object nonNull(CallTarget target, int index, ValueCodec<?> codec, Object value) {
    if (value == null) {
      throw new NullPointerException(target.describeArgument(index) + " is null; " + codec.javaTypeWithArticle()
          + " argument must not be null" + (codec.nullHint().isEmpty() ? "" : " (" + codec.nullHint() + ")"));
    }
    return value;
  }

  /**
   * An {@code out} result (P4J_TYPED_ERROR_I32: the raised error), read from its slot by the codec the call frame
   * reads the result with, with the frame's failure for a value it refuses ({@code Frame.returnValue}).
   */
  private static Object outResult(CallTarget target, ValueCodec<?> codec, int status, long out) {
    if (status == P4J_TYPED_ERROR_I32) {
      throw Errors.takeRaised(target.exceptionFunctionName());
    }
    boolean object = Values.isObject(NativeMemory.anyTypeIndex(out)); // a String or an object: owned by the slot
    boolean taken = false;
    try {
      Object value = codec.decode(out, object);
      taken = true;
      return value;
    } catch (ConversionFailure failure) {
      throw failure.toResultException(target.describeSource(), target.exceptionFunctionName());
    } finally {
      if (!taken && object) { // a codec that throws leaves its caller the reference, as the frame releases its result
        CApi.P4JObjectDecRef(NativeMemory.anyPayload(out));
      }
    }
  }

  /**
   * Whether this route may take a parameter ({@code parameter}) or result of this codec that is not a scalar,
   * String, {@code byte[]}, NDArray or object: a list of numbers or Strings (parameters only), an {@code Optional}
   * of a number or boolean. Whether it does depends on the function's signature ({@link #fits}).
   */
  static boolean mayTake(ValueCodec<?> codec, boolean parameter) {
    if (codec instanceof ListCodec<?, ?> list) {
      return parameter && listElement(list.element());
    }
    return codec instanceof OptionalCodec<?> optional
        && (optionalValue(optional.inner()) || !parameter && optionalReference(optional.inner()));
  }

  /**
   * An {@code Optional} result's element read from the out slot besides numbers and booleans: a String or an
   * object, which the slot holds as an owned object (the codec takes it; see {@link #outResult}).
   */
  private static boolean optionalReference(ValueCodec<?> inner) {
    return inner == StringCodec.STRING || inner instanceof ObjectCodec<?>;
  }

  /** An element a borrowed list cell holds ({@code Containers.borrowedList}): numbers and Strings. */
  private static boolean listElement(ValueCodec<?> element) {
    return element instanceof IntegerCodec<?> || element instanceof FloatCodec<?> || element == StringCodec.STRING;
  }

  /** A value an optional parameter or result carries here: a number or boolean. */
  private static boolean optionalValue(ValueCodec<?> inner) {
    return inner instanceof IntegerCodec<?> || inner instanceof FloatCodec<?> || inner == BooleanCodec.BOOLEAN;
  }

  @Override
  public String describe() {
    return "typed entry " + signature;
  }

  /** The route to {@code function}'s typed entry for a method of {@code javaType}, or null when the rule fails. */
  static TypedEntryRoute link(CallTarget target, long function, MethodType javaType, List<ValueCodec<?>> codecs) {
    long entry = NativeMemory.getLong(NativeMemory.cell(function) + P4JFunctionCell.TYPED_ENTRY);
    if (entry == 0) {
      return null;
    }
    String signature = signatureOf(function);
    NativeType[] nativeTypes = parse(signature);
    boolean borrowedLists = (NativeMemory.getLong(NativeMemory.cell(function) + P4JFunctionCell.TYPED_FORMS)
        & CApi.P4J_TYPED_FORM_BORROWED_LIST) != 0;
    if (nativeTypes == null || !fits(nativeTypes, javaType, codecs, borrowedLists)) {
      return null;
    }
    return new TypedEntryRoute(adapt(target, function, entry, nativeTypes, javaType, codecs), signature);
  }

  private static String signatureOf(long function) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment span = arena.allocate(16, 8);
      Errors.check(CApi.P4JFunctionGetSignature(function, span.address()), null);
      return NativeMemory.spanString(span.address());
    }
  }

  /**
   * {@code "(int64, string) -> void"} as {@code [int64, string, void]}, the result last, read by packed4j-types; null
   * for a signature with a type whose carrier ({@link Carrier}) this route does not pass: it passes scalars, string
   * spans and tensor words, and reads scalar and void results.
   */
  static NativeType[] parse(String signature) {
    Signature parsed;
    try {
      parsed = Signature.parse(signature);
    } catch (IllegalArgumentException e) {
      return null;
    }
    List<NativeType> parameters = parsed.parameters();
    NativeType[] types = new NativeType[parameters.size() + 1];
    for (int i = 0; i < parameters.size(); i++) {
      if (!PARAMETER_CARRIERS.contains(Carrier.ofParameter(parameters.get(i)).orElse(null))) {
        return null;
      }
      types[i] = parameters.get(i);
    }
    if (!RESULT_CARRIERS.contains(Carrier.ofResult(parsed.result()))) {
      return null;
    }
    types[parameters.size()] = parsed.result();
    return types;
  }

  /**
   * The selection rule's type check: see the class comment.
   *
   * @param borrowedLists whether the entry takes a borrowed list cell for a list parameter
   */
  static boolean fits(NativeType[] nativeTypes, MethodType javaType, List<ValueCodec<?>> codecs,
      boolean borrowedLists) {
    if (nativeTypes.length != javaType.parameterCount() + 1) {
      return false;
    }
    MethodType wireType = LinkedRoute.wireType(javaType);
    for (int i = 0; i < javaType.parameterCount(); i++) {
      Class<?> type = javaType.parameterType(i);
      if (!sameKind(nativeTypes[i], type, codecs.get(i), true, borrowedLists)
          // an NDArray the method's other types keep off the tensor word (LinkedRoute.wireType)
          || (type == LinkedRoute.NDARRAY && wireType.parameterType(i) != long.class)) {
        return false;
      }
    }
    NativeType result = nativeTypes[nativeTypes.length - 1];
    if (result.kind() == NativeType.Kind.VOID) {
      return javaType.returnType() == void.class;
    }
    return javaType.returnType() != void.class && javaType.returnType() != LinkedRoute.NDARRAY
        && sameKind(result, javaType.returnType(), codecs.get(codecs.size() - 1), false, false);
  }

  private static boolean sameKind(NativeType nativeType, Class<?> javaType, ValueCodec<?> codec, boolean parameter,
      boolean borrowedLists) {
    Class<?> scalar = LinkedRoute.isBox(javaType) ? MethodType.methodType(javaType).unwrap().returnType() : javaType;
    return switch (nativeType.kind()) {
      case INTEGER -> scalar == long.class || scalar == int.class || scalar == short.class || scalar == byte.class;
      case FLOAT -> scalar == double.class || scalar == float.class;
      case STRING -> javaType == String.class;
      case BYTES -> javaType == byte[].class;
      case BOOL -> scalar == boolean.class;
      // An object type key: any @Object interface; the entry checks the argument's type, the codec the result's.
      case OBJECT -> nativeType.isTensor() ? javaType == LinkedRoute.NDARRAY
          : codec instanceof ObjectCodec<?> && Carrier.ofResult(nativeType) == Carrier.OBJECT_WORD;
      // A function: a functional interface or PackedFunction, as an object word (FunctionWords).
      case FUNCTION -> FunctionWords.takes(codec);
      // A list parameter as a borrowed list cell of the same element kind.
      case LIST -> parameter && borrowedLists && codec instanceof ListCodec<?, ?> list
          && listElement(list.element()) && sameElement(nativeType.element(), list.element());
      // An optional number or boolean, as a packed value (a parameter) or through out (a result).
      case OPTIONAL -> codec instanceof OptionalCodec<?> optional
          && (optionalValue(optional.inner()) && sameElement(nativeType.element(), optional.inner())
              || !parameter && optionalReference(optional.inner())
                  && sameReference(nativeType.element(), optional.inner()));
      default -> false;
    };
  }

  /**
   * Whether an optional result's native element is a string for a String, or an object type key (not a tensor) for
   * an {@code @Object} interface, whose codec then checks the object's type as it checks a plain object result.
   */
  private static boolean sameReference(NativeType element, ValueCodec<?> codec) {
    return switch (element.kind()) {
      case STRING -> codec == StringCodec.STRING;
      case OBJECT -> !element.isTensor() && codec instanceof ObjectCodec<?>;
      default -> false;
    };
  }

  /** Whether a list's or optional's native element type is the kind of the Java element's codec. */
  private static boolean sameElement(NativeType element, ValueCodec<?> codec) {
    return switch (element.kind()) {
      case INTEGER -> codec instanceof IntegerCodec<?>;
      case FLOAT -> codec instanceof FloatCodec<?>;
      case BOOL -> codec == BooleanCodec.BOOLEAN;
      case STRING -> codec == StringCodec.STRING;
      default -> false;
    };
  }

  /**
   * The entry bound to {@code function}, its result filtered into the Java result ({@link ResultFilters}) and its
   * arguments cast from the wire type: {@code int}/{@code short}/{@code byte} widen to {@code long}, {@code float}
   * to {@code double}, {@code boolean} becomes 1 or 0. Every piece is a constant once the handle sits in a
   * {@code static final} field, so the JIT inlines the whole chain down to the downcall.
   */
  @SuppressWarnings("restricted") // the address is the typed entry the function object records for its signature
  private static MethodHandle adapt(CallTarget target, long function, long entry, NativeType[] nativeTypes,
      MethodType javaType, List<ValueCodec<?>> codecs) {
    int count = nativeTypes.length - 1;
    MemoryLayout[] wireParameters = new MemoryLayout[count + 1];
    wireParameters[0] = ValueLayout.JAVA_LONG; // self, the function handle
    for (int i = 0; i < count; i++) {
      // A string's span is a pointer and a tensor word a handle or a tagged pointer; passed as longs, so the call
      // creates no MemorySegment.
      wireParameters[i + 1] = layout(Carrier.ofParameter(nativeTypes[i]).orElseThrow());
    }
    boolean out = Carrier.ofResult(nativeTypes[count]) == Carrier.OUT_VALUE;
    if (out) { // an Optional result: the entry's trailing P4JAny* out
      wireParameters = java.util.Arrays.copyOf(wireParameters, count + 2);
      wireParameters[count + 1] = ValueLayout.JAVA_LONG;
    }
    ValueLayout wireResult = layout(Carrier.ofResult(nativeTypes[count]));
    // No Linker.Option.critical: the entry runs user code, which may take long or call back into Java.
    MethodHandle downcall = LINKER.downcallHandle(MemorySegment.ofAddress(entry),
        FunctionDescriptor.of(wireResult, wireParameters));
    MethodHandle bound = MethodHandles.insertArguments(downcall, 0, function);
    MethodHandle filtered;
    Class<?> javaResult = javaType.returnType();
    if (out) {
      // (w..., out) -> int, then (status, out) -> Optional: the slot read once the entry has returned.
      MethodHandle read = MethodHandles.insertArguments(OUT_RESULT, 0, target, codecs.get(count));
      read = MethodHandles.dropArguments(read, 1, bound.type().parameterList().subList(0, count));
      filtered = ScratchScope.aroundOut(MethodHandles.foldArguments(read, 0, bound));
    } else if (javaResult == String.class) {
      filtered = MethodHandles.filterReturnValue(bound, ResultFilters.ofString(target));
    } else if (javaResult == byte[].class) {
      filtered = MethodHandles.filterReturnValue(bound, ResultFilters.ofBytes(target));
    } else if (javaResult != void.class && FunctionWords.takes(codecs.get(count))) {
      filtered = MethodHandles.filterReturnValue(bound,
          FunctionWords.resultFilter(target, codecs.get(count), javaResult));
    } else if (!javaResult.isPrimitive() && !LinkedRoute.isBox(javaResult)) {
      filtered = MethodHandles.filterReturnValue(bound,
          ResultFilters.ofObject(target, (ObjectCodec<?>) codecs.get(count), javaResult));
    } else {
      // A box's value is filtered as its primitive, then boxed by the cast to the route's type below.
      Class<?> scalar = MethodType.methodType(javaResult).unwrap().returnType();
      filtered = MethodHandles.filterReturnValue(scalarBits(bound, wireResult),
          ResultFilters.of(scalar, target, sentinelOf(wireResult), false));
    }
    // Object and byte[] parameters: a long object word or span for the entry, the value for the route (ScratchScope
    // pins the object, copies the bytes).
    MethodType routeType = LinkedRoute.wireType(javaType);
    MethodType entryType = routeType;
    ValueCodec<?>[] referenceCodecs = new ValueCodec<?>[count];
    boolean references = false;
    for (int i = 0; i < count; i++) {
      if (codecs.get(i) instanceof ObjectCodec<?> || javaType.parameterType(i) == byte[].class
          || codecs.get(i) instanceof ListCodec<?, ?> || codecs.get(i) instanceof OptionalCodec<?>) {
        referenceCodecs[i] = codecs.get(i);
        // A list of numbers as its plain values when the entry takes dense list words (ABI 2.7).
        if (codecs.get(i) instanceof ListCodec<?, ?> list && (NativeMemory.getLong(NativeMemory.cell(function)
            + P4JFunctionCell.TYPED_FORMS) & CApi.P4J_TYPED_FORM_DENSE_LIST) != 0) {
          referenceCodecs[i] = list.withDenseWords();
        }
        entryType = entryType.changeParameterType(i, long.class);
        references = true;
      }
    }
    // Boxed parameters: the entry takes the primitive, the route the box, refused as the frame refuses a null one.
    for (int i = 0; i < count; i++) {
      if (LinkedRoute.isBox(javaType.parameterType(i))) {
        entryType = entryType.changeParameterType(i, MethodType.methodType(javaType.parameterType(i)).unwrap()
            .returnType());
      }
    }
    // Function parameters: the entry takes an owned object word, released after the call (FunctionWords).
    for (int i = 0; i < count; i++) {
      if (FunctionWords.takes(codecs.get(i))) {
        entryType = entryType.changeParameterType(i, long.class);
      }
    }
    MethodHandle wired = MethodHandles.explicitCastArguments(filtered, entryType);
    for (int i = 0; i < count; i++) {
      Class<?> box = javaType.parameterType(i);
      if (LinkedRoute.isBox(box)) {
        MethodHandle unbox = MethodHandles.insertArguments(NON_NULL, 0, target, i, codecs.get(i))
            .asType(MethodType.methodType(entryType.parameterType(i), box));
        wired = MethodHandles.filterArguments(wired, i, unbox);
      }
    }
    for (int i = 0; i < count; i++) {
      if (FunctionWords.takes(codecs.get(i))) {
        wired = FunctionWords.around(wired, target, i, codecs.get(i), javaType.parameterType(i));
      }
    }
    return references ? ScratchScope.aroundReferences(wired, target, routeType, referenceCodecs) : wired;
  }

  /** The raw scalar result as the long of its bits: int64 as is, float64 by its bits, int32 sign-extended. */
  private static MethodHandle scalarBits(MethodHandle bound, ValueLayout wireResult) {
    if (wireResult.carrier() == double.class) {
      return MethodHandles.filterReturnValue(bound, ResultFilters.DOUBLE_BITS);
    }
    if (wireResult.carrier() == int.class) {
      return MethodHandles.explicitCastArguments(bound, bound.type().changeReturnType(long.class));
    }
    return bound;
  }

  /** The error sentinel of a scalar wire result, as a long. */
  private static long sentinelOf(ValueLayout wireResult) {
    return wireResult.carrier() == double.class ? P4J_TYPED_ERROR_F64_BITS
        : wireResult.carrier() == int.class ? P4J_TYPED_ERROR_I32 : P4J_TYPED_ERROR_I64;
  }

  /** The linker's layout of a carrier: {@code double}, {@code int}, or {@code long} (a span or a tensor word too). */
  private static ValueLayout layout(Carrier carrier) {
    return switch (carrier) {
      case DOUBLE -> ValueLayout.JAVA_DOUBLE;
      case INT32 -> ValueLayout.JAVA_INT;
      case INT64, SPAN, TENSOR_WORD, OBJECT_WORD, PACKED_VALUE -> ValueLayout.JAVA_LONG;
      case OUT_VALUE -> ValueLayout.JAVA_INT;
      default -> throw new IllegalArgumentException(carrier + " is not a form this route passes");
    };
  }
}
