package dev.packed4j.runtime.internal.capi;

import dev.packed4j.runtime.internal.NativeLibraries;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM bindings of {@code native-core/include/packed4j/c_api.h}, in jextract's layout.
 *
 * <p>Each C function has a private holder class (descriptor, address, downcall handle) that is linked the first
 * time the function is called, and a static method that calls the handle with {@code invokeExact}. Functions
 * taking pointers have a second overload taking them as {@code long} addresses: the runtime keeps every native
 * address as a {@code long} and reads memory through {@link dev.packed4j.runtime.internal.NativeMemory}, so a
 * call on the hot path creates no {@link MemorySegment}. That overload links the same symbol with every
 * {@code C_POINTER} replaced by {@code JAVA_LONG}, which is the same register class on the 64-bit platforms the
 * runtime supports (linux-x86_64).
 *
 * <p>{@code scripts/regenerate-capi-bindings.sh} compares this class with jextract's output, and
 * {@code CApiBindingTest} checks it against the header on every build.
 */
@SuppressWarnings("restricted") // binding native functions is what this class is for
public final class CApi {
  private CApi() {}

  /** {@code int} / {@code int32_t} / {@code uint32_t}. */
  public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
  /** {@code int64_t} ({@code long} on LP64). */
  public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
  /** {@code double}. */
  public static final ValueLayout.OfDouble C_DOUBLE = ValueLayout.JAVA_DOUBLE;
  /** Any pointer. */
  public static final AddressLayout C_POINTER =
      ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(Long.MAX_VALUE, ValueLayout.JAVA_BYTE));

  /** {@code #define P4J_ABI_VERSION 1}: the version these bindings were written for. */
  public static final int P4J_ABI_VERSION = 1;

  /** {@code #define P4J_TYPED_ERROR_I64 ((int64_t)0x7ff4dead0badc0deLL)}. */
  public static final long P4J_TYPED_ERROR_I64 = 0x7ff4dead0badc0deL;
  /** {@code #define P4J_TYPED_ERROR_F64_BITS ((int64_t)0x7ffcdead0badc0deLL)}. */
  public static final long P4J_TYPED_ERROR_F64_BITS = 0x7ffcdead0badc0deL;
  /** {@code #define P4J_TYPED_ERROR_I32 ((int32_t)-0x0badc0de)}. */
  public static final int P4J_TYPED_ERROR_I32 = -0x0badc0de;

  // P4JTypeIndex
  /** null; payload is 0. */
  public static final int kP4JNone = 0;
  /** v_int64. */
  public static final int kP4JInt = 1;
  /** v_int64, 0 or 1. */
  public static final int kP4JBool = 2;
  /** v_float64. */
  public static final int kP4JFloat = 3;
  /** v_ptr, not owned. */
  public static final int kP4JOpaquePtr = 4;
  /** v_dtype. */
  public static final int kP4JDataType = 5;
  /** v_device. */
  public static final int kP4JDevice = 6;
  /** v_ptr to a DLTensor, borrowed. */
  public static final int kP4JDLTensorPtr = 7;
  /** Borrowed UTF-8: v_ptr = first byte, small_len = byte length; only as an argument. */
  public static final int kP4JStrView = 8;
  /** Borrowed bytes: v_ptr = first byte, small_len = byte length; only as an argument. */
  public static final int kP4JBytesView = 9;
  /** First object type index. */
  public static final int kP4JStaticObjectBegin = 64;
  /** The root object type. */
  public static final int kP4JObject = 64;
  /** A PackedFunc. */
  public static final int kP4JFunction = 65;
  /** Immutable UTF-8 string, cell P4JByteArray. */
  public static final int kP4JString = 66;
  /** Immutable bytes, cell P4JByteArray. */
  public static final int kP4JBytes = 67;
  /** Mutable list of values, cell P4JListCell. */
  public static final int kP4JList = 68;
  /** Mutable insertion-ordered map, cell P4JMapCell. */
  public static final int kP4JMap = 69;
  /** An error, cell P4JErrorCell. */
  public static final int kP4JError = 70;
  /** Reserved for tensors. */
  public static final int kP4JNDArray = 71;
  /** Type indices allocated at registration start here. */
  public static final int kP4JDynamicObjectBegin = 128;

  // P4JFieldKind
  /** int32_t / int. */
  public static final int kP4JFieldInt32 = 1;
  /** int64_t. */
  public static final int kP4JFieldInt64 = 2;
  /** uint64_t. */
  public static final int kP4JFieldUInt64 = 3;
  /** double. */
  public static final int kP4JFieldFloat64 = 4;
  /** bool, one byte. */
  public static final int kP4JFieldBool = 5;
  /** std::string; read with P4JObjectGetField. */
  public static final int kP4JFieldString = 6;
  /** An ObjectRef (pointer-sized, may be null); read with P4JObjectGetField. */
  public static final int kP4JFieldObject = 7;

  private static final Linker LINKER = Linker.nativeLinker();

  private static MemorySegment findOrThrow(String symbol) {
    return NativeLibraries.core()
        .find(symbol)
        .orElseThrow(() -> new UnsatisfiedLinkError(
            "libpacked4j.so (" + NativeLibraries.corePath() + ") does not export " + symbol
                + "; the library is older than the packed4j runtime: use both from the same packed4j version"));
  }

  private static FunctionDescriptor pointersAsAddresses(FunctionDescriptor descriptor) {
    MemoryLayout[] arguments = descriptor.argumentLayouts().stream()
        .map(layout -> layout instanceof AddressLayout ? ValueLayout.JAVA_LONG : layout)
        .toArray(MemoryLayout[]::new);
    return descriptor.returnLayout()
        .map(result -> FunctionDescriptor.of(result instanceof AddressLayout ? ValueLayout.JAVA_LONG : result,
            arguments))
        .orElseGet(() -> FunctionDescriptor.ofVoid(arguments));
  }

  private static final class P4JAbiVersion {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JAbiVersion");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
  }

  /** Function descriptor of {@code int32_t P4JAbiVersion(void)}. */
  public static FunctionDescriptor P4JAbiVersion$descriptor() {
    return P4JAbiVersion.DESC;
  }

  /** Downcall handle of {@code P4JAbiVersion}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JAbiVersion$handle() {
    return P4JAbiVersion.HANDLE;
  }

  /** Address of {@code P4JAbiVersion} in libpacked4j.so. */
  public static MemorySegment P4JAbiVersion$address() {
    return P4JAbiVersion.ADDR;
  }

  /**
   * {@code int32_t P4JAbiVersion(void)}
   *
   * P4J_ABI_VERSION of the loaded library.
   */
  public static int P4JAbiVersion() {
    MethodHandle handle = P4JAbiVersion.HANDLE;
    try {
      return (int) handle.invokeExact();
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JErrorMoveFromRaised {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JErrorMoveFromRaised");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JErrorMoveFromRaised(P4JObjectHandle* result)}. */
  public static FunctionDescriptor P4JErrorMoveFromRaised$descriptor() {
    return P4JErrorMoveFromRaised.DESC;
  }

  /** Downcall handle of {@code P4JErrorMoveFromRaised}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JErrorMoveFromRaised$handle() {
    return P4JErrorMoveFromRaised.HANDLE;
  }

  /** Address of {@code P4JErrorMoveFromRaised} in libpacked4j.so. */
  public static MemorySegment P4JErrorMoveFromRaised$address() {
    return P4JErrorMoveFromRaised.ADDR;
  }

  /**
   * {@code int P4JErrorMoveFromRaised(P4JObjectHandle* result)}
   *
   * Moves this thread's raised error into *result (owned, a kP4JError object) and clears it. *result is NULL
   * when no error is raised. Never fails.
   */
  public static int P4JErrorMoveFromRaised(MemorySegment result) {
    MethodHandle handle = P4JErrorMoveFromRaised.HANDLE;
    try {
      return (int) handle.invokeExact(result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JErrorMoveFromRaised(P4JObjectHandle* result)}
   *
   * Moves this thread's raised error into *result (owned, a kP4JError object) and clears it. *result is NULL
   * when no error is raised. Never fails.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JErrorMoveFromRaised(long result) {
    MethodHandle handle = P4JErrorMoveFromRaised.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JErrorSetRaised {
    static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JErrorSetRaised");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code void P4JErrorSetRaised(P4JObjectHandle error)}. */
  public static FunctionDescriptor P4JErrorSetRaised$descriptor() {
    return P4JErrorSetRaised.DESC;
  }

  /** Downcall handle of {@code P4JErrorSetRaised}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JErrorSetRaised$handle() {
    return P4JErrorSetRaised.HANDLE;
  }

  /** Address of {@code P4JErrorSetRaised} in libpacked4j.so. */
  public static MemorySegment P4JErrorSetRaised$address() {
    return P4JErrorSetRaised.ADDR;
  }

  /**
   * {@code void P4JErrorSetRaised(P4JObjectHandle error)}
   *
   * Raises an error on this thread; error is borrowed (a reference is taken).
   */
  public static void P4JErrorSetRaised(MemorySegment error) {
    MethodHandle handle = P4JErrorSetRaised.HANDLE;
    try {
      handle.invokeExact(error);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code void P4JErrorSetRaised(P4JObjectHandle error)}
   *
   * Raises an error on this thread; error is borrowed (a reference is taken).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static void P4JErrorSetRaised(long error) {
    MethodHandle handle = P4JErrorSetRaised.ADDRESS_HANDLE;
    try {
      handle.invokeExact(error);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JErrorSetRaisedFromCStr {
    static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JErrorSetRaisedFromCStr");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code void P4JErrorSetRaisedFromCStr(const char* kind, const char* message)}. */
  public static FunctionDescriptor P4JErrorSetRaisedFromCStr$descriptor() {
    return P4JErrorSetRaisedFromCStr.DESC;
  }

  /** Downcall handle of {@code P4JErrorSetRaisedFromCStr}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JErrorSetRaisedFromCStr$handle() {
    return P4JErrorSetRaisedFromCStr.HANDLE;
  }

  /** Address of {@code P4JErrorSetRaisedFromCStr} in libpacked4j.so. */
  public static MemorySegment P4JErrorSetRaisedFromCStr$address() {
    return P4JErrorSetRaisedFromCStr.ADDR;
  }

  /**
   * {@code void P4JErrorSetRaisedFromCStr(const char* kind, const char* message)}
   *
   * Raises an error built from a kind and a message (both NUL-terminated, copied).
   */
  public static void P4JErrorSetRaisedFromCStr(MemorySegment kind, MemorySegment message) {
    MethodHandle handle = P4JErrorSetRaisedFromCStr.HANDLE;
    try {
      handle.invokeExact(kind, message);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code void P4JErrorSetRaisedFromCStr(const char* kind, const char* message)}
   *
   * Raises an error built from a kind and a message (both NUL-terminated, copied).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static void P4JErrorSetRaisedFromCStr(long kind, long message) {
    MethodHandle handle = P4JErrorSetRaisedFromCStr.ADDRESS_HANDLE;
    try {
      handle.invokeExact(kind, message);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JErrorCreate {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JErrorCreate");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JErrorCreate(const P4JByteArray* kind, const P4JByteArray* message, const P4JByteArray* backtrace, P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JErrorCreate$descriptor() {
    return P4JErrorCreate.DESC;
  }

  /** Downcall handle of {@code P4JErrorCreate}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JErrorCreate$handle() {
    return P4JErrorCreate.HANDLE;
  }

  /** Address of {@code P4JErrorCreate} in libpacked4j.so. */
  public static MemorySegment P4JErrorCreate$address() {
    return P4JErrorCreate.ADDR;
  }

  /**
   * {@code int P4JErrorCreate(const P4JByteArray* kind, const P4JByteArray* message, const P4JByteArray* backtrace, P4JObjectHandle* out)}
   *
   * Creates an error object. All three spans are copied; backtrace may be NULL. param: out owned.
   */
  public static int P4JErrorCreate(MemorySegment kind, MemorySegment message, MemorySegment backtrace, MemorySegment out) {
    MethodHandle handle = P4JErrorCreate.HANDLE;
    try {
      return (int) handle.invokeExact(kind, message, backtrace, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JErrorCreate(const P4JByteArray* kind, const P4JByteArray* message, const P4JByteArray* backtrace, P4JObjectHandle* out)}
   *
   * Creates an error object. All three spans are copied; backtrace may be NULL. param: out owned.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JErrorCreate(long kind, long message, long backtrace, long out) {
    MethodHandle handle = P4JErrorCreate.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(kind, message, backtrace, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * Linked critical (no thread state transition): an atomic increment that never blocks and never calls Java.
   * P4JObjectDecRef is not: the last release runs the object's deleter, which for a function object made from a
   * Java callback will call back into Java, and an upcall from a critical downcall is not allowed.
   */
  private static final class P4JObjectIncRef {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectIncRef");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC, Linker.Option.critical(false));
    static final MethodHandle ADDRESS_HANDLE =
        LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC), Linker.Option.critical(false));
  }

  /** Function descriptor of {@code int P4JObjectIncRef(P4JObjectHandle obj)}. */
  public static FunctionDescriptor P4JObjectIncRef$descriptor() {
    return P4JObjectIncRef.DESC;
  }

  /** Downcall handle of {@code P4JObjectIncRef}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JObjectIncRef$handle() {
    return P4JObjectIncRef.HANDLE;
  }

  /** Address of {@code P4JObjectIncRef} in libpacked4j.so. */
  public static MemorySegment P4JObjectIncRef$address() {
    return P4JObjectIncRef.ADDR;
  }

  /**
   * {@code int P4JObjectIncRef(P4JObjectHandle obj)}
   *
   * Takes one more reference to obj (which must not be NULL).
   */
  public static int P4JObjectIncRef(MemorySegment obj) {
    MethodHandle handle = P4JObjectIncRef.HANDLE;
    try {
      return (int) handle.invokeExact(obj);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JObjectIncRef(P4JObjectHandle obj)}
   *
   * Takes one more reference to obj (which must not be NULL).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JObjectIncRef(long obj) {
    MethodHandle handle = P4JObjectIncRef.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(obj);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectDecRef {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectDecRef");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JObjectDecRef(P4JObjectHandle obj)}. */
  public static FunctionDescriptor P4JObjectDecRef$descriptor() {
    return P4JObjectDecRef.DESC;
  }

  /** Downcall handle of {@code P4JObjectDecRef}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JObjectDecRef$handle() {
    return P4JObjectDecRef.HANDLE;
  }

  /** Address of {@code P4JObjectDecRef} in libpacked4j.so. */
  public static MemorySegment P4JObjectDecRef$address() {
    return P4JObjectDecRef.ADDR;
  }

  /**
   * {@code int P4JObjectDecRef(P4JObjectHandle obj)}
   *
   * Releases one reference; the object is deleted when the count reaches zero. NULL is ignored.
   */
  public static int P4JObjectDecRef(MemorySegment obj) {
    MethodHandle handle = P4JObjectDecRef.HANDLE;
    try {
      return (int) handle.invokeExact(obj);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JObjectDecRef(P4JObjectHandle obj)}
   *
   * Releases one reference; the object is deleted when the count reaches zero. NULL is ignored.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JObjectDecRef(long obj) {
    MethodHandle handle = P4JObjectDecRef.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(obj);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectLiveCount {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG);
    static final MemorySegment ADDR = findOrThrow("P4JObjectLiveCount");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
  }

  /** Function descriptor of {@code int64_t P4JObjectLiveCount(void)}. */
  public static FunctionDescriptor P4JObjectLiveCount$descriptor() {
    return P4JObjectLiveCount.DESC;
  }

  /** Downcall handle of {@code P4JObjectLiveCount}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JObjectLiveCount$handle() {
    return P4JObjectLiveCount.HANDLE;
  }

  /** Address of {@code P4JObjectLiveCount} in libpacked4j.so. */
  public static MemorySegment P4JObjectLiveCount$address() {
    return P4JObjectLiveCount.ADDR;
  }

  /**
   * {@code int64_t P4JObjectLiveCount(void)}
   *
   * Objects created and not yet deleted, in this process, for leak tests.
   */
  public static long P4JObjectLiveCount() {
    MethodHandle handle = P4JObjectLiveCount.HANDLE;
    try {
      return (long) handle.invokeExact();
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectLiveCounterAddress {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectLiveCounterAddress");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
  }

  /** Function descriptor of {@code int64_t* P4JObjectLiveCounterAddress(void)}. */
  public static FunctionDescriptor P4JObjectLiveCounterAddress$descriptor() {
    return P4JObjectLiveCounterAddress.DESC;
  }

  /** Downcall handle of {@code P4JObjectLiveCounterAddress}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JObjectLiveCounterAddress$handle() {
    return P4JObjectLiveCounterAddress.HANDLE;
  }

  /** Address of {@code P4JObjectLiveCounterAddress} in libpacked4j.so. */
  public static MemorySegment P4JObjectLiveCounterAddress$address() {
    return P4JObjectLiveCounterAddress.ADDR;
  }

  /**
   * {@code int64_t* P4JObjectLiveCounterAddress(void)}
   *
   * (Addition to ABI 1.) The address of the process-wide live object counter that P4JObjectLiveCount reads. Code
   * that allocates objects itself (the inline C++ make_object of a plugin) fetches it once and updates it with
   * atomic increments (+1 on creation, -1 in the deleter), so counting costs no call. Never NULL.
   */
  public static MemorySegment P4JObjectLiveCounterAddress() {
    MethodHandle handle = P4JObjectLiveCounterAddress.HANDLE;
    try {
      return (MemorySegment) handle.invokeExact();
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeGetOrAllocIndex {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeGetOrAllocIndex");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeGetOrAllocIndex(const P4JByteArray* type_key, int32_t parent_type_index, int64_t instance_size, int32_t* out_type_index)}. */
  public static FunctionDescriptor P4JTypeGetOrAllocIndex$descriptor() {
    return P4JTypeGetOrAllocIndex.DESC;
  }

  /** Downcall handle of {@code P4JTypeGetOrAllocIndex}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JTypeGetOrAllocIndex$handle() {
    return P4JTypeGetOrAllocIndex.HANDLE;
  }

  /** Address of {@code P4JTypeGetOrAllocIndex} in libpacked4j.so. */
  public static MemorySegment P4JTypeGetOrAllocIndex$address() {
    return P4JTypeGetOrAllocIndex.ADDR;
  }

  /**
   * {@code int P4JTypeGetOrAllocIndex(const P4JByteArray* type_key, int32_t parent_type_index, int64_t instance_size, int32_t* out_type_index)}
   *
   * Returns the index of type_key, allocating one on first use. Called by P4J_REGISTER_OBJECT_TYPE / the C++
   * type info of each Object subclass; parent_type_index must be registered already. Registering a key again
   * with a different parent is a ValueError.
   */
  public static int P4JTypeGetOrAllocIndex(MemorySegment type_key, int parent_type_index, long instance_size, MemorySegment out_type_index) {
    MethodHandle handle = P4JTypeGetOrAllocIndex.HANDLE;
    try {
      return (int) handle.invokeExact(type_key, parent_type_index, instance_size, out_type_index);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JTypeGetOrAllocIndex(const P4JByteArray* type_key, int32_t parent_type_index, int64_t instance_size, int32_t* out_type_index)}
   *
   * Returns the index of type_key, allocating one on first use. Called by P4J_REGISTER_OBJECT_TYPE / the C++
   * type info of each Object subclass; parent_type_index must be registered already. Registering a key again
   * with a different parent is a ValueError.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JTypeGetOrAllocIndex(long type_key, int parent_type_index, long instance_size, long out_type_index) {
    MethodHandle handle = P4JTypeGetOrAllocIndex.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(type_key, parent_type_index, instance_size, out_type_index);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeRegisterFields {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JTypeRegisterFields");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeRegisterFields(int32_t type_index, const P4JFieldInfo* fields, int32_t num_fields)}. */
  public static FunctionDescriptor P4JTypeRegisterFields$descriptor() {
    return P4JTypeRegisterFields.DESC;
  }

  /** Downcall handle of {@code P4JTypeRegisterFields}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JTypeRegisterFields$handle() {
    return P4JTypeRegisterFields.HANDLE;
  }

  /** Address of {@code P4JTypeRegisterFields} in libpacked4j.so. */
  public static MemorySegment P4JTypeRegisterFields$address() {
    return P4JTypeRegisterFields.ADDR;
  }

  /**
   * {@code int P4JTypeRegisterFields(int32_t type_index, const P4JFieldInfo* fields, int32_t num_fields)}
   *
   * Records the fields of a registered type (replacing earlier ones), copied from fields[0..num_fields). Field
   * offsets are from the handle. Inherited fields are merged in by the registry.
   */
  public static int P4JTypeRegisterFields(int type_index, MemorySegment fields, int num_fields) {
    MethodHandle handle = P4JTypeRegisterFields.HANDLE;
    try {
      return (int) handle.invokeExact(type_index, fields, num_fields);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JTypeRegisterFields(int32_t type_index, const P4JFieldInfo* fields, int32_t num_fields)}
   *
   * Records the fields of a registered type (replacing earlier ones), copied from fields[0..num_fields). Field
   * offsets are from the handle. Inherited fields are merged in by the registry.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JTypeRegisterFields(int type_index, long fields, int num_fields) {
    MethodHandle handle = P4JTypeRegisterFields.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(type_index, fields, num_fields);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeKeyToIndex {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeKeyToIndex");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeKeyToIndex(const P4JByteArray* type_key, int32_t* out_type_index)}. */
  public static FunctionDescriptor P4JTypeKeyToIndex$descriptor() {
    return P4JTypeKeyToIndex.DESC;
  }

  /** Downcall handle of {@code P4JTypeKeyToIndex}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JTypeKeyToIndex$handle() {
    return P4JTypeKeyToIndex.HANDLE;
  }

  /** Address of {@code P4JTypeKeyToIndex} in libpacked4j.so. */
  public static MemorySegment P4JTypeKeyToIndex$address() {
    return P4JTypeKeyToIndex.ADDR;
  }

  /**
   * {@code int P4JTypeKeyToIndex(const P4JByteArray* type_key, int32_t* out_type_index)}
   *
   * The index of a registered type key; KeyError naming the key when none is registered.
   */
  public static int P4JTypeKeyToIndex(MemorySegment type_key, MemorySegment out_type_index) {
    MethodHandle handle = P4JTypeKeyToIndex.HANDLE;
    try {
      return (int) handle.invokeExact(type_key, out_type_index);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JTypeKeyToIndex(const P4JByteArray* type_key, int32_t* out_type_index)}
   *
   * The index of a registered type key; KeyError naming the key when none is registered.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JTypeKeyToIndex(long type_key, long out_type_index) {
    MethodHandle handle = P4JTypeKeyToIndex.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(type_key, out_type_index);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeGetInfo {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeGetInfo");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeGetInfo(int32_t type_index, const P4JTypeInfo** out)}. */
  public static FunctionDescriptor P4JTypeGetInfo$descriptor() {
    return P4JTypeGetInfo.DESC;
  }

  /** Downcall handle of {@code P4JTypeGetInfo}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JTypeGetInfo$handle() {
    return P4JTypeGetInfo.HANDLE;
  }

  /** Address of {@code P4JTypeGetInfo} in libpacked4j.so. */
  public static MemorySegment P4JTypeGetInfo$address() {
    return P4JTypeGetInfo.ADDR;
  }

  /**
   * {@code int P4JTypeGetInfo(int32_t type_index, const P4JTypeInfo** out)}
   *
   * Metadata of a type; the pointer stays valid for the life of the process (updated in place).
   */
  public static int P4JTypeGetInfo(int type_index, MemorySegment out) {
    MethodHandle handle = P4JTypeGetInfo.HANDLE;
    try {
      return (int) handle.invokeExact(type_index, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JTypeGetInfo(int32_t type_index, const P4JTypeInfo** out)}
   *
   * Metadata of a type; the pointer stays valid for the life of the process (updated in place).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JTypeGetInfo(int type_index, long out) {
    MethodHandle handle = P4JTypeGetInfo.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(type_index, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeIsInstanceOf {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JTypeIsInstanceOf");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
  }

  /** Function descriptor of {@code int32_t P4JTypeIsInstanceOf(int32_t type_index, int32_t ancestor_type_index)}. */
  public static FunctionDescriptor P4JTypeIsInstanceOf$descriptor() {
    return P4JTypeIsInstanceOf.DESC;
  }

  /** Downcall handle of {@code P4JTypeIsInstanceOf}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JTypeIsInstanceOf$handle() {
    return P4JTypeIsInstanceOf.HANDLE;
  }

  /** Address of {@code P4JTypeIsInstanceOf} in libpacked4j.so. */
  public static MemorySegment P4JTypeIsInstanceOf$address() {
    return P4JTypeIsInstanceOf.ADDR;
  }

  /**
   * {@code int32_t P4JTypeIsInstanceOf(int32_t type_index, int32_t ancestor_type_index)}
   *
   * 1 when type_index is ancestor_type_index or derives from it, else 0.
   */
  public static int P4JTypeIsInstanceOf(int type_index, int ancestor_type_index) {
    MethodHandle handle = P4JTypeIsInstanceOf.HANDLE;
    try {
      return (int) handle.invokeExact(type_index, ancestor_type_index);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectGetAttr {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectGetAttr");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JObjectGetAttr(P4JObjectHandle obj, const P4JByteArray* name, P4JAny* result)}. */
  public static FunctionDescriptor P4JObjectGetAttr$descriptor() {
    return P4JObjectGetAttr.DESC;
  }

  /** Downcall handle of {@code P4JObjectGetAttr}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JObjectGetAttr$handle() {
    return P4JObjectGetAttr.HANDLE;
  }

  /** Address of {@code P4JObjectGetAttr} in libpacked4j.so. */
  public static MemorySegment P4JObjectGetAttr$address() {
    return P4JObjectGetAttr.ADDR;
  }

  /**
   * {@code int P4JObjectGetAttr(P4JObjectHandle obj, const P4JByteArray* name, P4JAny* result)}
   *
   * Reads a field by exact name. AttributeError naming the type and the field when there is none. param: result
   * owned: kP4JInt/kP4JBool/kP4JFloat, a kP4JString object, an object or kP4JNone.
   */
  public static int P4JObjectGetAttr(MemorySegment obj, MemorySegment name, MemorySegment result) {
    MethodHandle handle = P4JObjectGetAttr.HANDLE;
    try {
      return (int) handle.invokeExact(obj, name, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JObjectGetAttr(P4JObjectHandle obj, const P4JByteArray* name, P4JAny* result)}
   *
   * Reads a field by exact name. AttributeError naming the type and the field when there is none. param: result
   * owned: kP4JInt/kP4JBool/kP4JFloat, a kP4JString object, an object or kP4JNone.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JObjectGetAttr(long obj, long name, long result) {
    MethodHandle handle = P4JObjectGetAttr.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(obj, name, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectGetField {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectGetField");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JObjectGetField(P4JObjectHandle obj, int32_t field_index, P4JAny* result)}. */
  public static FunctionDescriptor P4JObjectGetField$descriptor() {
    return P4JObjectGetField.DESC;
  }

  /** Downcall handle of {@code P4JObjectGetField}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JObjectGetField$handle() {
    return P4JObjectGetField.HANDLE;
  }

  /** Address of {@code P4JObjectGetField} in libpacked4j.so. */
  public static MemorySegment P4JObjectGetField$address() {
    return P4JObjectGetField.ADDR;
  }

  /**
   * {@code int P4JObjectGetField(P4JObjectHandle obj, int32_t field_index, P4JAny* result)}
   *
   * Reads the field at field_index of the object's type info (IndexError when out of range).
   */
  public static int P4JObjectGetField(MemorySegment obj, int field_index, MemorySegment result) {
    MethodHandle handle = P4JObjectGetField.HANDLE;
    try {
      return (int) handle.invokeExact(obj, field_index, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JObjectGetField(P4JObjectHandle obj, int32_t field_index, P4JAny* result)}
   *
   * Reads the field at field_index of the object's type info (IndexError when out of range).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JObjectGetField(long obj, int field_index, long result) {
    MethodHandle handle = P4JObjectGetField.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(obj, field_index, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JStringFromByteArray {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JStringFromByteArray");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JStringFromByteArray(const P4JByteArray* input, P4JAny* out)}. */
  public static FunctionDescriptor P4JStringFromByteArray$descriptor() {
    return P4JStringFromByteArray.DESC;
  }

  /** Downcall handle of {@code P4JStringFromByteArray}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JStringFromByteArray$handle() {
    return P4JStringFromByteArray.HANDLE;
  }

  /** Address of {@code P4JStringFromByteArray} in libpacked4j.so. */
  public static MemorySegment P4JStringFromByteArray$address() {
    return P4JStringFromByteArray.ADDR;
  }

  /**
   * {@code int P4JStringFromByteArray(const P4JByteArray* input, P4JAny* out)}
   *
   * Creates a kP4JString object holding a copy of input (owned, in out).
   */
  public static int P4JStringFromByteArray(MemorySegment input, MemorySegment out) {
    MethodHandle handle = P4JStringFromByteArray.HANDLE;
    try {
      return (int) handle.invokeExact(input, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JStringFromByteArray(const P4JByteArray* input, P4JAny* out)}
   *
   * Creates a kP4JString object holding a copy of input (owned, in out).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JStringFromByteArray(long input, long out) {
    MethodHandle handle = P4JStringFromByteArray.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(input, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JBytesFromByteArray {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JBytesFromByteArray");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JBytesFromByteArray(const P4JByteArray* input, P4JAny* out)}. */
  public static FunctionDescriptor P4JBytesFromByteArray$descriptor() {
    return P4JBytesFromByteArray.DESC;
  }

  /** Downcall handle of {@code P4JBytesFromByteArray}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JBytesFromByteArray$handle() {
    return P4JBytesFromByteArray.HANDLE;
  }

  /** Address of {@code P4JBytesFromByteArray} in libpacked4j.so. */
  public static MemorySegment P4JBytesFromByteArray$address() {
    return P4JBytesFromByteArray.ADDR;
  }

  /**
   * {@code int P4JBytesFromByteArray(const P4JByteArray* input, P4JAny* out)}
   *
   * Creates a kP4JBytes object holding a copy of input (owned, in out).
   */
  public static int P4JBytesFromByteArray(MemorySegment input, MemorySegment out) {
    MethodHandle handle = P4JBytesFromByteArray.HANDLE;
    try {
      return (int) handle.invokeExact(input, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JBytesFromByteArray(const P4JByteArray* input, P4JAny* out)}
   *
   * Creates a kP4JBytes object holding a copy of input (owned, in out).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JBytesFromByteArray(long input, long out) {
    MethodHandle handle = P4JBytesFromByteArray.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(input, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionCreate {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionCreate");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionCreate(void* self, P4JSafeCallType safe_call, void (*deleter)(void* self), P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JFunctionCreate$descriptor() {
    return P4JFunctionCreate.DESC;
  }

  /** Downcall handle of {@code P4JFunctionCreate}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionCreate$handle() {
    return P4JFunctionCreate.HANDLE;
  }

  /** Address of {@code P4JFunctionCreate} in libpacked4j.so. */
  public static MemorySegment P4JFunctionCreate$address() {
    return P4JFunctionCreate.ADDR;
  }

  /**
   * {@code int P4JFunctionCreate(void* self, P4JSafeCallType safe_call, void (*deleter)(void* self), P4JObjectHandle* out)}
   *
   * Creates a function object that calls safe_call(self, ...). deleter(self) runs when it is deleted (deleter
   * may be NULL). param: out owned.
   */
  public static int P4JFunctionCreate(MemorySegment self, MemorySegment safe_call, MemorySegment deleter, MemorySegment out) {
    MethodHandle handle = P4JFunctionCreate.HANDLE;
    try {
      return (int) handle.invokeExact(self, safe_call, deleter, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionCreate(void* self, P4JSafeCallType safe_call, void (*deleter)(void* self), P4JObjectHandle* out)}
   *
   * Creates a function object that calls safe_call(self, ...). deleter(self) runs when it is deleted (deleter
   * may be NULL). param: out owned.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionCreate(long self, long safe_call, long deleter, long out) {
    MethodHandle handle = P4JFunctionCreate.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(self, safe_call, deleter, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionCreateTyped {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionCreateTyped");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionCreateTyped(void* self, P4JSafeCallType safe_call, void (*deleter)(void* self), const P4JByteArray* signature, void* typed_entry, P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JFunctionCreateTyped$descriptor() {
    return P4JFunctionCreateTyped.DESC;
  }

  /** Downcall handle of {@code P4JFunctionCreateTyped}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionCreateTyped$handle() {
    return P4JFunctionCreateTyped.HANDLE;
  }

  /** Address of {@code P4JFunctionCreateTyped} in libpacked4j.so. */
  public static MemorySegment P4JFunctionCreateTyped$address() {
    return P4JFunctionCreateTyped.ADDR;
  }

  /**
   * {@code int P4JFunctionCreateTyped(void* self, P4JSafeCallType safe_call, void (*deleter)(void* self), const P4JByteArray* signature, void* typed_entry, P4JObjectHandle* out)}
   *
   * (Addition to ABI 1.) P4JFunctionCreate plus what set_body_typed knows: the signature (copied; NULL or size 0
   * for none, grammar of P4JFunctionGetSignature) and the typed entry (NULL for none; the entry finds its state
   * in the function's P4JFunctionCell.self). param: out owned.
   */
  public static int P4JFunctionCreateTyped(MemorySegment self, MemorySegment safe_call, MemorySegment deleter, MemorySegment signature, MemorySegment typed_entry, MemorySegment out) {
    MethodHandle handle = P4JFunctionCreateTyped.HANDLE;
    try {
      return (int) handle.invokeExact(self, safe_call, deleter, signature, typed_entry, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionCreateTyped(void* self, P4JSafeCallType safe_call, void (*deleter)(void* self), const P4JByteArray* signature, void* typed_entry, P4JObjectHandle* out)}
   *
   * (Addition to ABI 1.) P4JFunctionCreate plus what set_body_typed knows: the signature (copied; NULL or size 0
   * for none, grammar of P4JFunctionGetSignature) and the typed entry (NULL for none; the entry finds its state
   * in the function's P4JFunctionCell.self). param: out owned.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionCreateTyped(long self, long safe_call, long deleter, long signature, long typed_entry, long out) {
    MethodHandle handle = P4JFunctionCreateTyped.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(self, safe_call, deleter, signature, typed_entry, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionCreateFromCell {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionCreateFromCell");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionCreateFromCell(const P4JFunctionCell* cell, int64_t cell_size, void (*deleter)(void* self), const P4JByteArray* signature, P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JFunctionCreateFromCell$descriptor() {
    return P4JFunctionCreateFromCell.DESC;
  }

  /** Downcall handle of {@code P4JFunctionCreateFromCell}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionCreateFromCell$handle() {
    return P4JFunctionCreateFromCell.HANDLE;
  }

  /** Address of {@code P4JFunctionCreateFromCell} in libpacked4j.so. */
  public static MemorySegment P4JFunctionCreateFromCell$address() {
    return P4JFunctionCreateFromCell.ADDR;
  }

  /**
   * {@code int P4JFunctionCreateFromCell(const P4JFunctionCell* cell, int64_t cell_size, void (*deleter)(void* self), const P4JByteArray* signature, P4JObjectHandle* out)}
   *
   * (Addition to ABI 1.) Creates a function object from a cell (copied): self, safe_call (required), typed_entry
   * and scalars_entry (each NULL for none), with deleter(self) run when it is deleted (may be NULL) and the
   * signature of P4JFunctionCreateTyped. The way new fields of P4JFunctionCell reach the function object.
   * param: cell_size sizeof(P4JFunctionCell) as the caller was compiled: fields past it are NULL in the function,
   * fields the caller has and this library does not know are ignored; at least self and safe_call (16 bytes).
   * param: out owned.
   */
  public static int P4JFunctionCreateFromCell(MemorySegment cell, long cell_size, MemorySegment deleter, MemorySegment signature, MemorySegment out) {
    MethodHandle handle = P4JFunctionCreateFromCell.HANDLE;
    try {
      return (int) handle.invokeExact(cell, cell_size, deleter, signature, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionCreateFromCell(const P4JFunctionCell* cell, int64_t cell_size, void (*deleter)(void* self), const P4JByteArray* signature, P4JObjectHandle* out)}
   *
   * (Addition to ABI 1.) Creates a function object from a cell (copied): self, safe_call (required), typed_entry
   * and scalars_entry (each NULL for none), with deleter(self) run when it is deleted (may be NULL) and the
   * signature of P4JFunctionCreateTyped. The way new fields of P4JFunctionCell reach the function object.
   * param: cell_size sizeof(P4JFunctionCell) as the caller was compiled: fields past it are NULL in the function,
   * fields the caller has and this library does not know are ignored; at least self and safe_call (16 bytes).
   * param: out owned.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionCreateFromCell(long cell, long cell_size, long deleter, long signature, long out) {
    MethodHandle handle = P4JFunctionCreateFromCell.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(cell, cell_size, deleter, signature, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionCall {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionCall");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionCall(P4JObjectHandle func, const P4JAny* args, int32_t num_args, P4JAny* result)}. */
  public static FunctionDescriptor P4JFunctionCall$descriptor() {
    return P4JFunctionCall.DESC;
  }

  /** Downcall handle of {@code P4JFunctionCall}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionCall$handle() {
    return P4JFunctionCall.HANDLE;
  }

  /** Address of {@code P4JFunctionCall} in libpacked4j.so. */
  public static MemorySegment P4JFunctionCall$address() {
    return P4JFunctionCall.ADDR;
  }

  /**
   * {@code int P4JFunctionCall(P4JObjectHandle func, const P4JAny* args, int32_t num_args, P4JAny* result)}
   *
   * Calls a function. args are borrowed; *result is owned by the caller on success and kP4JNone on failure.
   */
  public static int P4JFunctionCall(MemorySegment func, MemorySegment args, int num_args, MemorySegment result) {
    MethodHandle handle = P4JFunctionCall.HANDLE;
    try {
      return (int) handle.invokeExact(func, args, num_args, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionCall(P4JObjectHandle func, const P4JAny* args, int32_t num_args, P4JAny* result)}
   *
   * Calls a function. args are borrowed; *result is owned by the caller on success and kP4JNone on failure.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionCall(long func, long args, int num_args, long result) {
    MethodHandle handle = P4JFunctionCall.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(func, args, num_args, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionScalarsResult {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG, C_POINTER, C_LONG);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionScalarsResult");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int64_t P4JFunctionScalarsResult(P4JAny* result, int64_t shape)}. */
  public static FunctionDescriptor P4JFunctionScalarsResult$descriptor() {
    return P4JFunctionScalarsResult.DESC;
  }

  /** Downcall handle of {@code P4JFunctionScalarsResult}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionScalarsResult$handle() {
    return P4JFunctionScalarsResult.HANDLE;
  }

  /** Address of {@code P4JFunctionScalarsResult} in libpacked4j.so. */
  public static MemorySegment P4JFunctionScalarsResult$address() {
    return P4JFunctionScalarsResult.ADDR;
  }

  /**
   * {@code int64_t P4JFunctionScalarsResult(P4JAny* result, int64_t shape)}
   *
   * (Addition to ABI 1.) The end of a scalars entry (P4JFunctionCell.scalars_entry) whose body returned *result
   * (owned; taken) that is not simply a payload of the kind shape asks for: returns what P4JFunctionCallScalars
   * returns for it (0 for a void call, the payload of a real result equal to the sentinel, or
   * P4J_TYPED_ERROR_I64 with the result kept for P4JFunctionCallScalarsTakeResult). Never fails.
   */
  public static long P4JFunctionScalarsResult(MemorySegment result, long shape) {
    MethodHandle handle = P4JFunctionScalarsResult.HANDLE;
    try {
      return (long) handle.invokeExact(result, shape);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int64_t P4JFunctionScalarsResult(P4JAny* result, int64_t shape)}
   *
   * (Addition to ABI 1.) The end of a scalars entry (P4JFunctionCell.scalars_entry) whose body returned *result
   * (owned; taken) that is not simply a payload of the kind shape asks for: returns what P4JFunctionCallScalars
   * returns for it (0 for a void call, the payload of a real result equal to the sentinel, or
   * P4J_TYPED_ERROR_I64 with the result kept for P4JFunctionCallScalarsTakeResult). Never fails.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static long P4JFunctionScalarsResult(long result, long shape) {
    MethodHandle handle = P4JFunctionScalarsResult.ADDRESS_HANDLE;
    try {
      return (long) handle.invokeExact(result, shape);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionGetGlobal {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionGetGlobal");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionGetGlobal(const P4JByteArray* name, P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JFunctionGetGlobal$descriptor() {
    return P4JFunctionGetGlobal.DESC;
  }

  /** Downcall handle of {@code P4JFunctionGetGlobal}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionGetGlobal$handle() {
    return P4JFunctionGetGlobal.HANDLE;
  }

  /** Address of {@code P4JFunctionGetGlobal} in libpacked4j.so. */
  public static MemorySegment P4JFunctionGetGlobal$address() {
    return P4JFunctionGetGlobal.ADDR;
  }

  /**
   * {@code int P4JFunctionGetGlobal(const P4JByteArray* name, P4JObjectHandle* out)}
   *
   * Looks a global function up. *out is a borrowed handle (globals live until exit), NULL if none.
   */
  public static int P4JFunctionGetGlobal(MemorySegment name, MemorySegment out) {
    MethodHandle handle = P4JFunctionGetGlobal.HANDLE;
    try {
      return (int) handle.invokeExact(name, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionGetGlobal(const P4JByteArray* name, P4JObjectHandle* out)}
   *
   * Looks a global function up. *out is a borrowed handle (globals live until exit), NULL if none.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionGetGlobal(long name, long out) {
    MethodHandle handle = P4JFunctionGetGlobal.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(name, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionSetGlobal {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionSetGlobal");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionSetGlobal(const P4JByteArray* name, P4JObjectHandle func, int32_t allow_override)}. */
  public static FunctionDescriptor P4JFunctionSetGlobal$descriptor() {
    return P4JFunctionSetGlobal.DESC;
  }

  /** Downcall handle of {@code P4JFunctionSetGlobal}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionSetGlobal$handle() {
    return P4JFunctionSetGlobal.HANDLE;
  }

  /** Address of {@code P4JFunctionSetGlobal} in libpacked4j.so. */
  public static MemorySegment P4JFunctionSetGlobal$address() {
    return P4JFunctionSetGlobal.ADDR;
  }

  /**
   * {@code int P4JFunctionSetGlobal(const P4JByteArray* name, P4JObjectHandle func, int32_t allow_override)}
   *
   * Registers func (borrowed; the registry takes a reference) under name. A name registered already is a
   * ValueError unless allow_override is non-zero.
   */
  public static int P4JFunctionSetGlobal(MemorySegment name, MemorySegment func, int allow_override) {
    MethodHandle handle = P4JFunctionSetGlobal.HANDLE;
    try {
      return (int) handle.invokeExact(name, func, allow_override);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionSetGlobal(const P4JByteArray* name, P4JObjectHandle func, int32_t allow_override)}
   *
   * Registers func (borrowed; the registry takes a reference) under name. A name registered already is a
   * ValueError unless allow_override is non-zero.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionSetGlobal(long name, long func, int allow_override) {
    MethodHandle handle = P4JFunctionSetGlobal.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(name, func, allow_override);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionListGlobalNames {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionListGlobalNames");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionListGlobalNames(P4JAny* out)}. */
  public static FunctionDescriptor P4JFunctionListGlobalNames$descriptor() {
    return P4JFunctionListGlobalNames.DESC;
  }

  /** Downcall handle of {@code P4JFunctionListGlobalNames}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionListGlobalNames$handle() {
    return P4JFunctionListGlobalNames.HANDLE;
  }

  /** Address of {@code P4JFunctionListGlobalNames} in libpacked4j.so. */
  public static MemorySegment P4JFunctionListGlobalNames$address() {
    return P4JFunctionListGlobalNames.ADDR;
  }

  /**
   * {@code int P4JFunctionListGlobalNames(P4JAny* out)}
   *
   * The registered names, sorted, as an owned kP4JList of kP4JString in *out.
   */
  public static int P4JFunctionListGlobalNames(MemorySegment out) {
    MethodHandle handle = P4JFunctionListGlobalNames.HANDLE;
    try {
      return (int) handle.invokeExact(out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionListGlobalNames(P4JAny* out)}
   *
   * The registered names, sorted, as an owned kP4JList of kP4JString in *out.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionListGlobalNames(long out) {
    MethodHandle handle = P4JFunctionListGlobalNames.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionGetSignature {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionGetSignature");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionGetSignature(P4JObjectHandle func, P4JByteArray* out)}. */
  public static FunctionDescriptor P4JFunctionGetSignature$descriptor() {
    return P4JFunctionGetSignature.DESC;
  }

  /** Downcall handle of {@code P4JFunctionGetSignature}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionGetSignature$handle() {
    return P4JFunctionGetSignature.HANDLE;
  }

  /** Address of {@code P4JFunctionGetSignature} in libpacked4j.so. */
  public static MemorySegment P4JFunctionGetSignature$address() {
    return P4JFunctionGetSignature.ADDR;
  }

  /**
   * {@code int P4JFunctionGetSignature(P4JObjectHandle func, P4JByteArray* out)}
   *
   * The signature recorded by set_body_typed, such as "(int64, int64) -&gt; int64", as a borrowed span valid
   * while func lives; size 0 for an untyped function (set_body). Type names: bool int8 int16 int32 int64 uint8
   * uint16 uint32 uint64 float32 float64 string bytes any void function list&lt;T&gt; map&lt;K, V&gt;
   * optional&lt;T&gt;, and an object type key for an ObjectRef type.
   */
  public static int P4JFunctionGetSignature(MemorySegment func, MemorySegment out) {
    MethodHandle handle = P4JFunctionGetSignature.HANDLE;
    try {
      return (int) handle.invokeExact(func, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionGetSignature(P4JObjectHandle func, P4JByteArray* out)}
   *
   * The signature recorded by set_body_typed, such as "(int64, int64) -&gt; int64", as a borrowed span valid
   * while func lives; size 0 for an untyped function (set_body). Type names: bool int8 int16 int32 int64 uint8
   * uint16 uint32 uint64 float32 float64 string bytes any void function list&lt;T&gt; map&lt;K, V&gt;
   * optional&lt;T&gt;, and an object type key for an ObjectRef type.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionGetSignature(long func, long out) {
    MethodHandle handle = P4JFunctionGetSignature.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(func, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionGetTypedEntry {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionGetTypedEntry");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionGetTypedEntry(P4JObjectHandle func, void** out_entry)}. */
  public static FunctionDescriptor P4JFunctionGetTypedEntry$descriptor() {
    return P4JFunctionGetTypedEntry.DESC;
  }

  /** Downcall handle of {@code P4JFunctionGetTypedEntry}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionGetTypedEntry$handle() {
    return P4JFunctionGetTypedEntry.HANDLE;
  }

  /** Address of {@code P4JFunctionGetTypedEntry} in libpacked4j.so. */
  public static MemorySegment P4JFunctionGetTypedEntry$address() {
    return P4JFunctionGetTypedEntry.ADDR;
  }

  /**
   * {@code int P4JFunctionGetTypedEntry(P4JObjectHandle func, void** out_entry)}
   *
   * The typed entry of a set_body_typed function whose parameters and result are all scalars, else NULL. The
   * entry is a plain C function `R entry(P4JObjectHandle self, A1 a1, ..., An an)`, self being func, with the
   * wire types: int64_t for every integer type and bool (0/1) parameter, double for float32/float64, and (an
   * addition to ABI 1) `const P4JByteArray*` for a string parameter taken as std::string_view or std::string: a
   * borrowed span of valid UTF-8, read during the call only. The result is int64_t for integers, double for
   * floats, int32_t for bool (0/1) and for void (0). A function whose parameters include a string taken as a
   * packed4j::String object, or any other type, or whose result is not a scalar, has no typed entry. It packs
   * nothing. On a
   * failure it raises the error on the thread and returns the sentinel of its result type (P4J_TYPED_ERROR_I64,
   * P4J_TYPED_ERROR_F64 bit pattern, P4J_TYPED_ERROR_I32); a caller that sees the sentinel calls
   * P4JErrorMoveFromRaised: a NULL error means the sentinel was a real result.
   */
  public static int P4JFunctionGetTypedEntry(MemorySegment func, MemorySegment out_entry) {
    MethodHandle handle = P4JFunctionGetTypedEntry.HANDLE;
    try {
      return (int) handle.invokeExact(func, out_entry);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionGetTypedEntry(P4JObjectHandle func, void** out_entry)}
   *
   * The typed entry of a set_body_typed function whose parameters and result are all scalars, else NULL. The
   * entry is a plain C function `R entry(P4JObjectHandle self, A1 a1, ..., An an)`, self being func, with the
   * wire types: int64_t for every integer type and bool (0/1) parameter, double for float32/float64, and (an
   * addition to ABI 1) `const P4JByteArray*` for a string parameter taken as std::string_view or std::string: a
   * borrowed span of valid UTF-8, read during the call only. The result is int64_t for integers, double for
   * floats, int32_t for bool (0/1) and for void (0). A function whose parameters include a string taken as a
   * packed4j::String object, or any other type, or whose result is not a scalar, has no typed entry. It packs
   * nothing. On a
   * failure it raises the error on the thread and returns the sentinel of its result type (P4J_TYPED_ERROR_I64,
   * P4J_TYPED_ERROR_F64 bit pattern, P4J_TYPED_ERROR_I32); a caller that sees the sentinel calls
   * P4JErrorMoveFromRaised: a NULL error means the sentinel was a real result.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionGetTypedEntry(long func, long out_entry) {
    MethodHandle handle = P4JFunctionGetTypedEntry.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(func, out_entry);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionCallScalars {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG, C_POINTER, C_LONG, C_LONG, C_LONG, C_LONG, C_LONG);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionCallScalars");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int64_t P4JFunctionCallScalars(P4JObjectHandle func, int64_t shape, int64_t a0, int64_t a1, int64_t a2, int64_t a3)}. */
  public static FunctionDescriptor P4JFunctionCallScalars$descriptor() {
    return P4JFunctionCallScalars.DESC;
  }

  /** Downcall handle of {@code P4JFunctionCallScalars}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionCallScalars$handle() {
    return P4JFunctionCallScalars.HANDLE;
  }

  /** Address of {@code P4JFunctionCallScalars} in libpacked4j.so. */
  public static MemorySegment P4JFunctionCallScalars$address() {
    return P4JFunctionCallScalars.ADDR;
  }

  /**
   * {@code int64_t P4JFunctionCallScalars(P4JObjectHandle func, int64_t shape, int64_t a0, int64_t a1, int64_t a2, int64_t a3)}
   *
   * (Addition to ABI 1.) A packed call whose arguments are scalars passed in registers and whose result comes
   * back in one: the path of a Java method over numbers to a function without a typed entry (set_body), so the
   * caller writes no argument memory. The function runs exactly as through P4JFunctionCall. The shape has one byte
   * each: byte 0 the number of arguments (0 to 4), byte 1 the result kind the caller takes (kP4JInt, kP4JBool,
   * kP4JFloat, or kP4JNone for any, released), byte 2 + i the type index of argument i (kP4JInt, kP4JBool, kP4JFloat
   * or kP4JNone). Returns the result's payload when its type index is the kind asked for, 0 for kP4JNone;
   * P4J_TYPED_ERROR_I64 otherwise: an error raised on the thread, or a result of another kind kept for
   * P4JFunctionCallScalarsTakeResult.
   */
  public static long P4JFunctionCallScalars(MemorySegment func, long shape, long a0, long a1, long a2, long a3) {
    MethodHandle handle = P4JFunctionCallScalars.HANDLE;
    try {
      return (long) handle.invokeExact(func, shape, a0, a1, a2, a3);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int64_t P4JFunctionCallScalars(P4JObjectHandle func, int64_t shape, int64_t a0, int64_t a1, int64_t a2, int64_t a3)}
   *
   * (Addition to ABI 1.) A packed call whose arguments are scalars passed in registers and whose result comes
   * back in one: the path of a Java method over numbers to a function without a typed entry (set_body), so the
   * caller writes no argument memory. The function runs exactly as through P4JFunctionCall. The shape has one byte
   * each: byte 0 the number of arguments (0 to 4), byte 1 the result kind the caller takes (kP4JInt, kP4JBool,
   * kP4JFloat, or kP4JNone for any, released), byte 2 + i the type index of argument i (kP4JInt, kP4JBool, kP4JFloat
   * or kP4JNone). Returns the result's payload when its type index is the kind asked for, 0 for kP4JNone;
   * P4J_TYPED_ERROR_I64 otherwise: an error raised on the thread, or a result of another kind kept for
   * P4JFunctionCallScalarsTakeResult.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static long P4JFunctionCallScalars(long func, long shape, long a0, long a1, long a2, long a3) {
    MethodHandle handle = P4JFunctionCallScalars.ADDRESS_HANDLE;
    try {
      return (long) handle.invokeExact(func, shape, a0, a1, a2, a3);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionCallScalarsTakeResult {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionCallScalarsTakeResult");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionCallScalarsTakeResult(P4JAny* result, int32_t* found)}. */
  public static FunctionDescriptor P4JFunctionCallScalarsTakeResult$descriptor() {
    return P4JFunctionCallScalarsTakeResult.DESC;
  }

  /** Downcall handle of {@code P4JFunctionCallScalarsTakeResult}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JFunctionCallScalarsTakeResult$handle() {
    return P4JFunctionCallScalarsTakeResult.HANDLE;
  }

  /** Address of {@code P4JFunctionCallScalarsTakeResult} in libpacked4j.so. */
  public static MemorySegment P4JFunctionCallScalarsTakeResult$address() {
    return P4JFunctionCallScalarsTakeResult.ADDR;
  }

  /**
   * {@code int P4JFunctionCallScalarsTakeResult(P4JAny* result, int32_t* found)}
   *
   * (Addition to ABI 1.) Moves the result this thread's last P4JFunctionCallScalars kept because it was not of
   * the kind asked for into *result (owned) and sets *found to 1; *found 0 and *result kP4JNone when none is kept.
   * Never fails.
   */
  public static int P4JFunctionCallScalarsTakeResult(MemorySegment result, MemorySegment found) {
    MethodHandle handle = P4JFunctionCallScalarsTakeResult.HANDLE;
    try {
      return (int) handle.invokeExact(result, found);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JFunctionCallScalarsTakeResult(P4JAny* result, int32_t* found)}
   *
   * (Addition to ABI 1.) Moves the result this thread's last P4JFunctionCallScalars kept because it was not of
   * the kind asked for into *result (owned) and sets *found to 1; *found 0 and *result kP4JNone when none is kept.
   * Never fails.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JFunctionCallScalarsTakeResult(long result, long found) {
    MethodHandle handle = P4JFunctionCallScalarsTakeResult.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(result, found);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListCreate {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListCreate");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListCreate(const P4JAny* items, int64_t count, P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JListCreate$descriptor() {
    return P4JListCreate.DESC;
  }

  /** Downcall handle of {@code P4JListCreate}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListCreate$handle() {
    return P4JListCreate.HANDLE;
  }

  /** Address of {@code P4JListCreate} in libpacked4j.so. */
  public static MemorySegment P4JListCreate$address() {
    return P4JListCreate.ADDR;
  }

  /**
   * {@code int P4JListCreate(const P4JAny* items, int64_t count, P4JObjectHandle* out)}
   *
   * A new list of count values copied from items (borrowed; the list takes references). param: out owned
   */
  public static int P4JListCreate(MemorySegment items, long count, MemorySegment out) {
    MethodHandle handle = P4JListCreate.HANDLE;
    try {
      return (int) handle.invokeExact(items, count, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListCreate(const P4JAny* items, int64_t count, P4JObjectHandle* out)}
   *
   * A new list of count values copied from items (borrowed; the list takes references). param: out owned
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListCreate(long items, long count, long out) {
    MethodHandle handle = P4JListCreate.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(items, count, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListFromInt64s {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListFromInt64s");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListFromInt64s(const int64_t* values, int64_t count, P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JListFromInt64s$descriptor() {
    return P4JListFromInt64s.DESC;
  }

  /** Downcall handle of {@code P4JListFromInt64s}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListFromInt64s$handle() {
    return P4JListFromInt64s.HANDLE;
  }

  /** Address of {@code P4JListFromInt64s} in libpacked4j.so. */
  public static MemorySegment P4JListFromInt64s$address() {
    return P4JListFromInt64s.ADDR;
  }

  /**
   * {@code int P4JListFromInt64s(const int64_t* values, int64_t count, P4JObjectHandle* out)}
   *
   * A new list of count kP4JInt values; the bulk path for long arrays. param: out owned
   */
  public static int P4JListFromInt64s(MemorySegment values, long count, MemorySegment out) {
    MethodHandle handle = P4JListFromInt64s.HANDLE;
    try {
      return (int) handle.invokeExact(values, count, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListFromInt64s(const int64_t* values, int64_t count, P4JObjectHandle* out)}
   *
   * A new list of count kP4JInt values; the bulk path for long arrays. param: out owned
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListFromInt64s(long values, long count, long out) {
    MethodHandle handle = P4JListFromInt64s.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(values, count, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListFromFloat64s {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListFromFloat64s");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListFromFloat64s(const double* values, int64_t count, P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JListFromFloat64s$descriptor() {
    return P4JListFromFloat64s.DESC;
  }

  /** Downcall handle of {@code P4JListFromFloat64s}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListFromFloat64s$handle() {
    return P4JListFromFloat64s.HANDLE;
  }

  /** Address of {@code P4JListFromFloat64s} in libpacked4j.so. */
  public static MemorySegment P4JListFromFloat64s$address() {
    return P4JListFromFloat64s.ADDR;
  }

  /**
   * {@code int P4JListFromFloat64s(const double* values, int64_t count, P4JObjectHandle* out)}
   *
   * A new list of count kP4JFloat values. param: out owned
   */
  public static int P4JListFromFloat64s(MemorySegment values, long count, MemorySegment out) {
    MethodHandle handle = P4JListFromFloat64s.HANDLE;
    try {
      return (int) handle.invokeExact(values, count, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListFromFloat64s(const double* values, int64_t count, P4JObjectHandle* out)}
   *
   * A new list of count kP4JFloat values. param: out owned
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListFromFloat64s(long values, long count, long out) {
    MethodHandle handle = P4JListFromFloat64s.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(values, count, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListCreateWithCapacity {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListCreateWithCapacity");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListCreateWithCapacity(int64_t capacity, P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JListCreateWithCapacity$descriptor() {
    return P4JListCreateWithCapacity.DESC;
  }

  /** Downcall handle of {@code P4JListCreateWithCapacity}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListCreateWithCapacity$handle() {
    return P4JListCreateWithCapacity.HANDLE;
  }

  /** Address of {@code P4JListCreateWithCapacity} in libpacked4j.so. */
  public static MemorySegment P4JListCreateWithCapacity$address() {
    return P4JListCreateWithCapacity.ADDR;
  }

  /**
   * {@code int P4JListCreateWithCapacity(int64_t capacity, P4JObjectHandle* out)}
   *
   * (Addition to ABI 1.) A new empty list (size 0) with room for capacity values, for a caller that writes values
   * straight into the list's storage instead of passing them in an array of its own: the storage is the cell's
   * data (at handle + sizeof(P4JObject)), uninitialised past size; P4JListAppendWritten then makes the written
   * values elements. The list owns its storage (freed with the list). param: out owned
   */
  public static int P4JListCreateWithCapacity(long capacity, MemorySegment out) {
    MethodHandle handle = P4JListCreateWithCapacity.HANDLE;
    try {
      return (int) handle.invokeExact(capacity, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListCreateWithCapacity(int64_t capacity, P4JObjectHandle* out)}
   *
   * (Addition to ABI 1.) A new empty list (size 0) with room for capacity values, for a caller that writes values
   * straight into the list's storage instead of passing them in an array of its own: the storage is the cell's
   * data (at handle + sizeof(P4JObject)), uninitialised past size; P4JListAppendWritten then makes the written
   * values elements. The list owns its storage (freed with the list). param: out owned
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListCreateWithCapacity(long capacity, long out) {
    MethodHandle handle = P4JListCreateWithCapacity.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(capacity, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListAppendWritten {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JListAppendWritten");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListAppendWritten(P4JObjectHandle list, int64_t count, int32_t all_pods)}. */
  public static FunctionDescriptor P4JListAppendWritten$descriptor() {
    return P4JListAppendWritten.DESC;
  }

  /** Downcall handle of {@code P4JListAppendWritten}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListAppendWritten$handle() {
    return P4JListAppendWritten.HANDLE;
  }

  /** Address of {@code P4JListAppendWritten} in libpacked4j.so. */
  public static MemorySegment P4JListAppendWritten$address() {
    return P4JListAppendWritten.ADDR;
  }

  /**
   * {@code int P4JListAppendWritten(P4JObjectHandle list, int64_t count, int32_t all_pods)}
   *
   * (Addition to ABI 1.) Makes the count values the caller wrote at data[size .. size + count) of the list's cell
   * elements: size grows by count (count <= capacity - size, else a ValueError). The written values are borrowed,
   * as P4JListCreate's items are: the list takes its own reference to each object and copies string and bytes
   * views into objects, replacing them in place. all_pods non-zero is the caller's promise that every value is
   * kP4JNone, kP4JInt, kP4JBool, kP4JFloat, kP4JOpaquePtr, kP4JDataType or kP4JDevice, which need no owning, so
   * the values are not read at all (a bulk write of numbers costs one pass over the memory, the caller's). On
   * failure (a value that cannot be owned, such as a kP4JDLTensorPtr) the size is unchanged and the list holds no
   * reference it took. Writing the values and this call must not be interleaved with other changes to the list.
   */
  public static int P4JListAppendWritten(MemorySegment list, long count, int all_pods) {
    MethodHandle handle = P4JListAppendWritten.HANDLE;
    try {
      return (int) handle.invokeExact(list, count, all_pods);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListAppendWritten(P4JObjectHandle list, int64_t count, int32_t all_pods)}
   *
   * (Addition to ABI 1.) Makes the count values the caller wrote at data[size .. size + count) of the list's cell
   * elements: size grows by count (count <= capacity - size, else a ValueError). The written values are borrowed,
   * as P4JListCreate's items are: the list takes its own reference to each object and copies string and bytes
   * views into objects, replacing them in place. all_pods non-zero is the caller's promise that every value is
   * kP4JNone, kP4JInt, kP4JBool, kP4JFloat, kP4JOpaquePtr, kP4JDataType or kP4JDevice, which need no owning, so
   * the values are not read at all (a bulk write of numbers costs one pass over the memory, the caller's). On
   * failure (a value that cannot be owned, such as a kP4JDLTensorPtr) the size is unchanged and the list holds no
   * reference it took. Writing the values and this call must not be interleaved with other changes to the list.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListAppendWritten(long list, long count, int all_pods) {
    MethodHandle handle = P4JListAppendWritten.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(list, count, all_pods);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListAppend {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListAppend");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListAppend(P4JObjectHandle list, const P4JAny* item)}. */
  public static FunctionDescriptor P4JListAppend$descriptor() {
    return P4JListAppend.DESC;
  }

  /** Downcall handle of {@code P4JListAppend}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListAppend$handle() {
    return P4JListAppend.HANDLE;
  }

  /** Address of {@code P4JListAppend} in libpacked4j.so. */
  public static MemorySegment P4JListAppend$address() {
    return P4JListAppend.ADDR;
  }

  /**
   * {@code int P4JListAppend(P4JObjectHandle list, const P4JAny* item)}
   *
   * Appends item (borrowed).
   */
  public static int P4JListAppend(MemorySegment list, MemorySegment item) {
    MethodHandle handle = P4JListAppend.HANDLE;
    try {
      return (int) handle.invokeExact(list, item);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListAppend(P4JObjectHandle list, const P4JAny* item)}
   *
   * Appends item (borrowed).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListAppend(long list, long item) {
    MethodHandle handle = P4JListAppend.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(list, item);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListSetItem {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListSetItem");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListSetItem(P4JObjectHandle list, int64_t index, const P4JAny* item)}. */
  public static FunctionDescriptor P4JListSetItem$descriptor() {
    return P4JListSetItem.DESC;
  }

  /** Downcall handle of {@code P4JListSetItem}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListSetItem$handle() {
    return P4JListSetItem.HANDLE;
  }

  /** Address of {@code P4JListSetItem} in libpacked4j.so. */
  public static MemorySegment P4JListSetItem$address() {
    return P4JListSetItem.ADDR;
  }

  /**
   * {@code int P4JListSetItem(P4JObjectHandle list, int64_t index, const P4JAny* item)}
   *
   * Replaces the value at index (IndexError naming index and size).
   */
  public static int P4JListSetItem(MemorySegment list, long index, MemorySegment item) {
    MethodHandle handle = P4JListSetItem.HANDLE;
    try {
      return (int) handle.invokeExact(list, index, item);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListSetItem(P4JObjectHandle list, int64_t index, const P4JAny* item)}
   *
   * Replaces the value at index (IndexError naming index and size).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListSetItem(long list, long index, long item) {
    MethodHandle handle = P4JListSetItem.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(list, index, item);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListInsert {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListInsert");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListInsert(P4JObjectHandle list, int64_t index, const P4JAny* item)}. */
  public static FunctionDescriptor P4JListInsert$descriptor() {
    return P4JListInsert.DESC;
  }

  /** Downcall handle of {@code P4JListInsert}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListInsert$handle() {
    return P4JListInsert.HANDLE;
  }

  /** Address of {@code P4JListInsert} in libpacked4j.so. */
  public static MemorySegment P4JListInsert$address() {
    return P4JListInsert.ADDR;
  }

  /**
   * {@code int P4JListInsert(P4JObjectHandle list, int64_t index, const P4JAny* item)}
   *
   * Inserts item before index (0 &lt;= index &lt;= size).
   */
  public static int P4JListInsert(MemorySegment list, long index, MemorySegment item) {
    MethodHandle handle = P4JListInsert.HANDLE;
    try {
      return (int) handle.invokeExact(list, index, item);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListInsert(P4JObjectHandle list, int64_t index, const P4JAny* item)}
   *
   * Inserts item before index (0 &lt;= index &lt;= size).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListInsert(long list, long index, long item) {
    MethodHandle handle = P4JListInsert.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(list, index, item);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListErase {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListErase");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListErase(P4JObjectHandle list, int64_t index, P4JAny* removed)}. */
  public static FunctionDescriptor P4JListErase$descriptor() {
    return P4JListErase.DESC;
  }

  /** Downcall handle of {@code P4JListErase}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListErase$handle() {
    return P4JListErase.HANDLE;
  }

  /** Address of {@code P4JListErase} in libpacked4j.so. */
  public static MemorySegment P4JListErase$address() {
    return P4JListErase.ADDR;
  }

  /**
   * {@code int P4JListErase(P4JObjectHandle list, int64_t index, P4JAny* removed)}
   *
   * Removes the value at index and moves it to *removed (owned).
   */
  public static int P4JListErase(MemorySegment list, long index, MemorySegment removed) {
    MethodHandle handle = P4JListErase.HANDLE;
    try {
      return (int) handle.invokeExact(list, index, removed);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListErase(P4JObjectHandle list, int64_t index, P4JAny* removed)}
   *
   * Removes the value at index and moves it to *removed (owned).
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListErase(long list, long index, long removed) {
    MethodHandle handle = P4JListErase.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(list, index, removed);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListClear {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListClear");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListClear(P4JObjectHandle list)}. */
  public static FunctionDescriptor P4JListClear$descriptor() {
    return P4JListClear.DESC;
  }

  /** Downcall handle of {@code P4JListClear}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JListClear$handle() {
    return P4JListClear.HANDLE;
  }

  /** Address of {@code P4JListClear} in libpacked4j.so. */
  public static MemorySegment P4JListClear$address() {
    return P4JListClear.ADDR;
  }

  /**
   * {@code int P4JListClear(P4JObjectHandle list)}
   *
   * Removes every value.
   */
  public static int P4JListClear(MemorySegment list) {
    MethodHandle handle = P4JListClear.HANDLE;
    try {
      return (int) handle.invokeExact(list);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JListClear(P4JObjectHandle list)}
   *
   * Removes every value.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JListClear(long list) {
    MethodHandle handle = P4JListClear.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(list);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapCreate {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapCreate");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapCreate(const P4JAny* keys_and_values, int64_t num_pairs, P4JObjectHandle* out)}. */
  public static FunctionDescriptor P4JMapCreate$descriptor() {
    return P4JMapCreate.DESC;
  }

  /** Downcall handle of {@code P4JMapCreate}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JMapCreate$handle() {
    return P4JMapCreate.HANDLE;
  }

  /** Address of {@code P4JMapCreate} in libpacked4j.so. */
  public static MemorySegment P4JMapCreate$address() {
    return P4JMapCreate.ADDR;
  }

  /**
   * {@code int P4JMapCreate(const P4JAny* keys_and_values, int64_t num_pairs, P4JObjectHandle* out)}
   *
   * A new map from num_pairs key/value pairs at keys_and_values (key, value, key, value, ...; borrowed). Keys:
   * kP4JInt, a kP4JStrView / kP4JString (stored as kP4JString), or an object (by identity). A duplicate key
   * keeps the last value at the position of its first occurrence. param: out owned
   */
  public static int P4JMapCreate(MemorySegment keys_and_values, long num_pairs, MemorySegment out) {
    MethodHandle handle = P4JMapCreate.HANDLE;
    try {
      return (int) handle.invokeExact(keys_and_values, num_pairs, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JMapCreate(const P4JAny* keys_and_values, int64_t num_pairs, P4JObjectHandle* out)}
   *
   * A new map from num_pairs key/value pairs at keys_and_values (key, value, key, value, ...; borrowed). Keys:
   * kP4JInt, a kP4JStrView / kP4JString (stored as kP4JString), or an object (by identity). A duplicate key
   * keeps the last value at the position of its first occurrence. param: out owned
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JMapCreate(long keys_and_values, long num_pairs, long out) {
    MethodHandle handle = P4JMapCreate.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(keys_and_values, num_pairs, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapGetItem {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapGetItem");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapGetItem(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* value)}. */
  public static FunctionDescriptor P4JMapGetItem$descriptor() {
    return P4JMapGetItem.DESC;
  }

  /** Downcall handle of {@code P4JMapGetItem}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JMapGetItem$handle() {
    return P4JMapGetItem.HANDLE;
  }

  /** Address of {@code P4JMapGetItem} in libpacked4j.so. */
  public static MemorySegment P4JMapGetItem$address() {
    return P4JMapGetItem.ADDR;
  }

  /**
   * {@code int P4JMapGetItem(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* value)}
   *
   * Looks key up: *found is 1 and *value an owned copy, or *found is 0 and *value kP4JNone.
   */
  public static int P4JMapGetItem(MemorySegment map, MemorySegment key, MemorySegment found, MemorySegment value) {
    MethodHandle handle = P4JMapGetItem.HANDLE;
    try {
      return (int) handle.invokeExact(map, key, found, value);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JMapGetItem(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* value)}
   *
   * Looks key up: *found is 1 and *value an owned copy, or *found is 0 and *value kP4JNone.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JMapGetItem(long map, long key, long found, long value) {
    MethodHandle handle = P4JMapGetItem.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(map, key, found, value);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapSetItem {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapSetItem");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapSetItem(P4JObjectHandle map, const P4JAny* key, const P4JAny* value)}. */
  public static FunctionDescriptor P4JMapSetItem$descriptor() {
    return P4JMapSetItem.DESC;
  }

  /** Downcall handle of {@code P4JMapSetItem}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JMapSetItem$handle() {
    return P4JMapSetItem.HANDLE;
  }

  /** Address of {@code P4JMapSetItem} in libpacked4j.so. */
  public static MemorySegment P4JMapSetItem$address() {
    return P4JMapSetItem.ADDR;
  }

  /**
   * {@code int P4JMapSetItem(P4JObjectHandle map, const P4JAny* key, const P4JAny* value)}
   *
   * Inserts or replaces; a new key goes last.
   */
  public static int P4JMapSetItem(MemorySegment map, MemorySegment key, MemorySegment value) {
    MethodHandle handle = P4JMapSetItem.HANDLE;
    try {
      return (int) handle.invokeExact(map, key, value);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JMapSetItem(P4JObjectHandle map, const P4JAny* key, const P4JAny* value)}
   *
   * Inserts or replaces; a new key goes last.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JMapSetItem(long map, long key, long value) {
    MethodHandle handle = P4JMapSetItem.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(map, key, value);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapErase {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapErase");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapErase(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* removed)}. */
  public static FunctionDescriptor P4JMapErase$descriptor() {
    return P4JMapErase.DESC;
  }

  /** Downcall handle of {@code P4JMapErase}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JMapErase$handle() {
    return P4JMapErase.HANDLE;
  }

  /** Address of {@code P4JMapErase} in libpacked4j.so. */
  public static MemorySegment P4JMapErase$address() {
    return P4JMapErase.ADDR;
  }

  /**
   * {@code int P4JMapErase(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* removed)}
   *
   * Removes key: *found is 1 and *removed the owned value, or 0 and kP4JNone. Order of the rest kept.
   */
  public static int P4JMapErase(MemorySegment map, MemorySegment key, MemorySegment found, MemorySegment removed) {
    MethodHandle handle = P4JMapErase.HANDLE;
    try {
      return (int) handle.invokeExact(map, key, found, removed);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JMapErase(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* removed)}
   *
   * Removes key: *found is 1 and *removed the owned value, or 0 and kP4JNone. Order of the rest kept.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JMapErase(long map, long key, long found, long removed) {
    MethodHandle handle = P4JMapErase.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(map, key, found, removed);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapClear {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapClear");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    static final MethodHandle ADDRESS_HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapClear(P4JObjectHandle map)}. */
  public static FunctionDescriptor P4JMapClear$descriptor() {
    return P4JMapClear.DESC;
  }

  /** Downcall handle of {@code P4JMapClear}, pointers as {@link MemorySegment}. */
  public static MethodHandle P4JMapClear$handle() {
    return P4JMapClear.HANDLE;
  }

  /** Address of {@code P4JMapClear} in libpacked4j.so. */
  public static MemorySegment P4JMapClear$address() {
    return P4JMapClear.ADDR;
  }

  /**
   * {@code int P4JMapClear(P4JObjectHandle map)}
   *
   * Removes every entry.
   */
  public static int P4JMapClear(MemorySegment map) {
    MethodHandle handle = P4JMapClear.HANDLE;
    try {
      return (int) handle.invokeExact(map);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  /**
   * {@code int P4JMapClear(P4JObjectHandle map)}
   *
   * Removes every entry.
   *
   * <p>Pointers passed as raw addresses, so a call creates no {@link MemorySegment}.
   */
  public static int P4JMapClear(long map) {
    MethodHandle handle = P4JMapClear.ADDRESS_HANDLE;
    try {
      return (int) handle.invokeExact(map);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }
}
