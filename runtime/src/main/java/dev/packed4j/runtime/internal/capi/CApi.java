package dev.packed4j.runtime.internal.capi;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM bindings of the functions of {@code native-core/include/packed4j/c_api.h} that the runtime calls, in
 * jextract's layout. Written by {@code runtime/scripts/generate-capi.py}; do not edit by hand.
 *
 * <p>Each C function has a private holder class (descriptor, address, downcall handle) that is linked the first
 * time the function is called, and one static method that calls the handle with {@code invokeExact}. Pointers are
 * passed as {@code long} addresses: the runtime keeps every native address as a {@code long} and reads memory through
 * {@link NativeMemory}, so a call creates no {@link MemorySegment}. The handle links the
 * symbol with every {@code C_POINTER} of jextract's descriptor replaced by {@code JAVA_LONG}, the same register class
 * on the 64-bit platforms the runtime supports. {@code CApiBindingTest} checks every binding and constant against the
 * header on every build.
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

  /** {@code #define P4J_ABI_VERSION_MAJOR 2}. */
  public static final int P4J_ABI_VERSION_MAJOR = 2;
  /** {@code #define P4J_ABI_VERSION_MINOR 12}. */
  public static final int P4J_ABI_VERSION_MINOR = 12;
  /** {@code #define P4J_ABI_VERSION ((P4J_ABI_VERSION_MAJOR << 16) | P4J_ABI_VERSION_MINOR)}. */
  public static final int P4J_ABI_VERSION = ((P4J_ABI_VERSION_MAJOR << 16) | P4J_ABI_VERSION_MINOR);
  /** {@code #define P4J_FIELD_MUTABLE 1}. */
  public static final int P4J_FIELD_MUTABLE = 1;
  /** {@code #define P4J_TYPED_ERROR_I64 ((int64_t)0x7ff4dead0badc0deLL)}. */
  public static final long P4J_TYPED_ERROR_I64 = (0x7ff4dead0badc0deL);
  /** {@code #define P4J_TYPED_ERROR_F64_BITS ((int64_t)0x7ffcdead0badc0deLL)}. */
  public static final long P4J_TYPED_ERROR_F64_BITS = (0x7ffcdead0badc0deL);
  /** {@code #define P4J_TYPED_ERROR_I32 ((int32_t)-0x0badc0de)}. */
  public static final int P4J_TYPED_ERROR_I32 = (-0x0badc0de);
  /** {@code #define P4J_TENSOR_WORD_BORROWED 1}. */
  public static final int P4J_TENSOR_WORD_BORROWED = 1;
  /** {@code #define P4J_LIST_WORD_BORROWED 1}. */
  public static final int P4J_LIST_WORD_BORROWED = 1;
  /** {@code #define P4J_TYPED_FORM_BORROWED_LIST 1}. */
  public static final int P4J_TYPED_FORM_BORROWED_LIST = 1;
  /** {@code #define P4J_LIST_WORD_TAG_MASK 7}. */
  public static final int P4J_LIST_WORD_TAG_MASK = 7;
  /** {@code #define P4J_LIST_WORD_DENSE_I64 3}. */
  public static final int P4J_LIST_WORD_DENSE_I64 = 3;
  /** {@code #define P4J_LIST_WORD_DENSE_F64 5}. */
  public static final int P4J_LIST_WORD_DENSE_F64 = 5;
  /** {@code #define P4J_TYPED_FORM_DENSE_LIST 2}. */
  public static final int P4J_TYPED_FORM_DENSE_LIST = 2;
  /** {@code #define P4J_HOST_DEFAULT_STACK_RESERVE 196608}. */
  public static final int P4J_HOST_DEFAULT_STACK_RESERVE = 196608;
  /** {@code #define P4J_HOST_TYPED_ENTRIES 4096}. */
  public static final int P4J_HOST_TYPED_ENTRIES = 4096;
  /** {@code #define P4J_DLPACK_MAJOR_VERSION 1}. */
  public static final int P4J_DLPACK_MAJOR_VERSION = 1;
  /** {@code #define P4J_DL_BOOL_CODE 6}. */
  public static final int P4J_DL_BOOL_CODE = 6;

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
  /** v_ptr to a DLTensor, borrowed for the call; owning it makes an NDArray over its memory. */
  public static final int kP4JDLTensorPtr = 7;
  /** borrowed UTF-8: v_ptr = first byte, small_len = byte length; only as an argument. */
  public static final int kP4JStrView = 8;
  /** borrowed bytes: v_ptr = first byte, small_len = byte length; only as an argument. */
  public static final int kP4JBytesView = 9;
  /** kP4JStaticObjectBegin. */
  public static final int kP4JStaticObjectBegin = 64;
  /** the root object type. */
  public static final int kP4JObject = 64;
  /** a PackedFunc. */
  public static final int kP4JFunction = 65;
  /** immutable UTF-8 string, cell P4JByteArray. */
  public static final int kP4JString = 66;
  /** immutable bytes, cell P4JByteArray. */
  public static final int kP4JBytes = 67;
  /** mutable list of values, cell P4JListCell. */
  public static final int kP4JList = 68;
  /** mutable insertion-ordered map, cell P4JMapCell. */
  public static final int kP4JMap = 69;
  /** an error, cell P4JErrorCell. */
  public static final int kP4JError = 70;
  /** a tensor over DLPack's DLTensor, cell P4JNDArrayCell. */
  public static final int kP4JNDArray = 71;
  /** type indices allocated at registration start here. */
  public static final int kP4JDynamicObjectBegin = 128;
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
  /** an object; read only with P4JObjectGetField/GetAttr (see below). */
  public static final int kP4JFieldObject = 7;
  /** a method: the function's first parameter is the object (self). */
  public static final int kP4JMethodInstance = 1;
  /** a static method: a plain function tied to the type. */
  public static final int kP4JMethodStatic = 2;
  /** the constructor, named P4J_CONSTRUCTOR_NAME: returns a new object of the type. */
  public static final int kP4JMethodConstructor = 3;

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

  private static final class P4JErrorMoveFromRaised {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JErrorMoveFromRaised");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JErrorMoveFromRaised(P4JObjectHandle* result)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JErrorMoveFromRaised$descriptor() {
    return P4JErrorMoveFromRaised.DESC;
  }

  /** Address of {@code P4JErrorMoveFromRaised} in libpacked4j.so. */
  public static MemorySegment P4JErrorMoveFromRaised$address() {
    return P4JErrorMoveFromRaised.ADDR;
  }

  /**
   * {@code int P4JErrorMoveFromRaised(P4JObjectHandle* result)}
   *
   * Moves this thread's raised error into *result (owned, a kP4JError object) and clears it. *result is NULL when
   * no error is raised. Never fails.
   */
  public static int P4JErrorMoveFromRaised(long result) {
    try {
      return (int) P4JErrorMoveFromRaised.HANDLE.invokeExact(result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JErrorSetRaised {
    static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JErrorSetRaised");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code void P4JErrorSetRaised(P4JObjectHandle error)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JErrorSetRaised$descriptor() {
    return P4JErrorSetRaised.DESC;
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
  public static void P4JErrorSetRaised(long error) {
    try {
      P4JErrorSetRaised.HANDLE.invokeExact(error);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JErrorSetRaisedFromCStr {
    static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JErrorSetRaisedFromCStr");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code void P4JErrorSetRaisedFromCStr(const char* kind, const char* message)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JErrorSetRaisedFromCStr$descriptor() {
    return P4JErrorSetRaisedFromCStr.DESC;
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
  public static void P4JErrorSetRaisedFromCStr(long kind, long message) {
    try {
      P4JErrorSetRaisedFromCStr.HANDLE.invokeExact(kind, message);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JErrorCreate {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JErrorCreate");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JErrorCreate(const P4JByteArray* kind, const P4JByteArray* message, const P4JByteArray* backtrace, P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JErrorCreate$descriptor() {
    return P4JErrorCreate.DESC;
  }

  /** Address of {@code P4JErrorCreate} in libpacked4j.so. */
  public static MemorySegment P4JErrorCreate$address() {
    return P4JErrorCreate.ADDR;
  }

  /**
   * {@code int P4JErrorCreate(const P4JByteArray* kind, const P4JByteArray* message, const P4JByteArray* backtrace, P4JObjectHandle* out)}
   *
   * Creates an error object. All three spans are copied; backtrace may be NULL. param out owned.
   */
  public static int P4JErrorCreate(long kind, long message, long backtrace, long out) {
    try {
      return (int) P4JErrorCreate.HANDLE.invokeExact(kind, message, backtrace, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectIncRef {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectIncRef");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JObjectIncRef(P4JObjectHandle obj)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JObjectIncRef$descriptor() {
    return P4JObjectIncRef.DESC;
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
  public static int P4JObjectIncRef(long obj) {
    try {
      return (int) P4JObjectIncRef.HANDLE.invokeExact(obj);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectDecRef {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectDecRef");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JObjectDecRef(P4JObjectHandle obj)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JObjectDecRef$descriptor() {
    return P4JObjectDecRef.DESC;
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
  public static int P4JObjectDecRef(long obj) {
    try {
      return (int) P4JObjectDecRef.HANDLE.invokeExact(obj);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectLiveCount {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG);
    static final MemorySegment ADDR = findOrThrow("P4JObjectLiveCount");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int64_t P4JObjectLiveCount(void)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JObjectLiveCount$descriptor() {
    return P4JObjectLiveCount.DESC;
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
    try {
      return (long) P4JObjectLiveCount.HANDLE.invokeExact();
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeKeyToIndex {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeKeyToIndex");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeKeyToIndex(const P4JByteArray* type_key, int32_t* out_type_index)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JTypeKeyToIndex$descriptor() {
    return P4JTypeKeyToIndex.DESC;
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
  public static int P4JTypeKeyToIndex(long type_key, long out_type_index) {
    try {
      return (int) P4JTypeKeyToIndex.HANDLE.invokeExact(type_key, out_type_index);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeGetInfo {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeGetInfo");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeGetInfo(int32_t type_index, const P4JTypeInfo** out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JTypeGetInfo$descriptor() {
    return P4JTypeGetInfo.DESC;
  }

  /** Address of {@code P4JTypeGetInfo} in libpacked4j.so. */
  public static MemorySegment P4JTypeGetInfo$address() {
    return P4JTypeGetInfo.ADDR;
  }

  /**
   * {@code int P4JTypeGetInfo(int32_t type_index, const P4JTypeInfo** out)}
   *
   * Metadata of a type; the pointer stays valid for the life of the process (updated in place when a library
   * registers fields or a subtype's parent). Field arrays are never freed and are published before their count:
   * read num_fields first, then fields.
   */
  public static int P4JTypeGetInfo(int type_index, long out) {
    try {
      return (int) P4JTypeGetInfo.HANDLE.invokeExact(type_index, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeIsInstanceOf {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JTypeIsInstanceOf");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int32_t P4JTypeIsInstanceOf(int32_t type_index, int32_t ancestor_type_index)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JTypeIsInstanceOf$descriptor() {
    return P4JTypeIsInstanceOf.DESC;
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
    try {
      return (int) P4JTypeIsInstanceOf.HANDLE.invokeExact(type_index, ancestor_type_index);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectGetAttr {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectGetAttr");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JObjectGetAttr(P4JObjectHandle obj, const P4JByteArray* name, P4JAny* result)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JObjectGetAttr$descriptor() {
    return P4JObjectGetAttr.DESC;
  }

  /** Address of {@code P4JObjectGetAttr} in libpacked4j.so. */
  public static MemorySegment P4JObjectGetAttr$address() {
    return P4JObjectGetAttr.ADDR;
  }

  /**
   * {@code int P4JObjectGetAttr(P4JObjectHandle obj, const P4JByteArray* name, P4JAny* result)}
   *
   * Reads a field by exact name. AttributeError naming the type and the field when there is none. param result
   * owned: kP4JInt/kP4JBool/kP4JFloat, a kP4JString object, an object or kP4JNone.
   */
  public static int P4JObjectGetAttr(long obj, long name, long result) {
    try {
      return (int) P4JObjectGetAttr.HANDLE.invokeExact(obj, name, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectGetField {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectGetField");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JObjectGetField(P4JObjectHandle obj, int32_t field_index, P4JAny* result)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JObjectGetField$descriptor() {
    return P4JObjectGetField.DESC;
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
  public static int P4JObjectGetField(long obj, int field_index, long result) {
    try {
      return (int) P4JObjectGetField.HANDLE.invokeExact(obj, field_index, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeGetDoc {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeGetDoc");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeGetDoc(int32_t type_index, P4JByteArray* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JTypeGetDoc$descriptor() {
    return P4JTypeGetDoc.DESC;
  }

  /** Address of {@code P4JTypeGetDoc} in libpacked4j.so. */
  public static MemorySegment P4JTypeGetDoc$address() {
    return P4JTypeGetDoc.ADDR;
  }

  /**
   * {@code int P4JTypeGetDoc(int32_t type_index, P4JByteArray* out)}
   *
   * The doc string of a type, a span valid for the life of the process (size 0 when none).
   */
  public static int P4JTypeGetDoc(int type_index, long out) {
    try {
      return (int) P4JTypeGetDoc.HANDLE.invokeExact(type_index, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeGetFieldMeta {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeGetFieldMeta");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeGetFieldMeta(int32_t type_index, int32_t field_index, int32_t* out_flags, P4JByteArray* out_doc)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JTypeGetFieldMeta$descriptor() {
    return P4JTypeGetFieldMeta.DESC;
  }

  /** Address of {@code P4JTypeGetFieldMeta} in libpacked4j.so. */
  public static MemorySegment P4JTypeGetFieldMeta$address() {
    return P4JTypeGetFieldMeta.ADDR;
  }

  /**
   * {@code int P4JTypeGetFieldMeta(int32_t type_index, int32_t field_index, int32_t* out_flags, P4JByteArray* out_doc)}
   *
   * The flags (P4J_FIELD_MUTABLE or 0) and doc string (valid for the life of the process; size 0 when none) of the
   * field at field_index of P4JTypeInfo.fields. IndexError naming the type when out of range.
   */
  public static int P4JTypeGetFieldMeta(int type_index, int field_index, long out_flags, long out_doc) {
    try {
      return (int) P4JTypeGetFieldMeta.HANDLE.invokeExact(type_index, field_index, out_flags, out_doc);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeGetFieldType {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeGetFieldType");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeGetFieldType(int32_t type_index, int32_t field_index, P4JByteArray* out_type)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JTypeGetFieldType$descriptor() {
    return P4JTypeGetFieldType.DESC;
  }

  /** Address of {@code P4JTypeGetFieldType} in libpacked4j.so. */
  public static MemorySegment P4JTypeGetFieldType$address() {
    return P4JTypeGetFieldType.ADDR;
  }

  /**
   * {@code int P4JTypeGetFieldType(int32_t type_index, int32_t field_index, P4JByteArray* out_type)}
   *
   * The declared type of the field at field_index of P4JTypeInfo.fields, as P4JTypeSetFieldType recorded it (valid
   * for the life of the process), or size 0 when none was recorded: a field of another kind than kP4JFieldObject,
   * whose kind is its type, or a field of a plugin built before ABI 2.10. IndexError naming the type when
   * field_index is out of range.
   */
  public static int P4JTypeGetFieldType(int type_index, int field_index, long out_type) {
    try {
      return (int) P4JTypeGetFieldType.HANDLE.invokeExact(type_index, field_index, out_type);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeGetNumMethods {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeGetNumMethods");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeGetNumMethods(int32_t type_index, int32_t* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JTypeGetNumMethods$descriptor() {
    return P4JTypeGetNumMethods.DESC;
  }

  /** Address of {@code P4JTypeGetNumMethods} in libpacked4j.so. */
  public static MemorySegment P4JTypeGetNumMethods$address() {
    return P4JTypeGetNumMethods.ADDR;
  }

  /**
   * {@code int P4JTypeGetNumMethods(int32_t type_index, int32_t* out)}
   *
   * How many members the type's own method table holds (inherited ones not counted).
   */
  public static int P4JTypeGetNumMethods(int type_index, long out) {
    try {
      return (int) P4JTypeGetNumMethods.HANDLE.invokeExact(type_index, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JTypeGetMethod {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JTypeGetMethod");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JTypeGetMethod(int32_t type_index, int32_t method_index, const P4JMethodInfo** out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JTypeGetMethod$descriptor() {
    return P4JTypeGetMethod.DESC;
  }

  /** Address of {@code P4JTypeGetMethod} in libpacked4j.so. */
  public static MemorySegment P4JTypeGetMethod$address() {
    return P4JTypeGetMethod.ADDR;
  }

  /**
   * {@code int P4JTypeGetMethod(int32_t type_index, int32_t method_index, const P4JMethodInfo** out)}
   *
   * The member at method_index (0 <= method_index < P4JTypeGetNumMethods) of the type's own table, in the order of
   * registration. IndexError when out of range.
   */
  public static int P4JTypeGetMethod(int type_index, int method_index, long out) {
    try {
      return (int) P4JTypeGetMethod.HANDLE.invokeExact(type_index, method_index, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectSetField {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectSetField");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JObjectSetField(P4JObjectHandle obj, int32_t field_index, const P4JAny* value)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JObjectSetField$descriptor() {
    return P4JObjectSetField.DESC;
  }

  /** Address of {@code P4JObjectSetField} in libpacked4j.so. */
  public static MemorySegment P4JObjectSetField$address() {
    return P4JObjectSetField.ADDR;
  }

  /**
   * {@code int P4JObjectSetField(P4JObjectHandle obj, int32_t field_index, const P4JAny* value)}
   *
   * Writes the field at field_index of the object's type info from value (borrowed), thread-safely. The field must
   * carry P4J_FIELD_MUTABLE (else a ValueError naming the type and the field, "read-only"). The value is converted
   * as a typed argument of the field's type: kP4JInt for int32 (range-checked), int64 and uint64 (not negative),
   * kP4JFloat or kP4JInt for float64, kP4JBool for bool, a string (kP4JStrView or a String) for a string field, and
   * for an object field None or an object of the declared type (a string view for a String field); a TypeError or
   * ValueError names the type, the field and the expected type. A field whose declared type (P4JTypeSetFieldType)
   * is a list or map also has each element, key and value checked as a typed argument of that type would be, nested
   * containers included, before the lock is taken: the error names the declared type and the element's index or
   * key, and the field keeps its value. A number is written with one store, as a caller that writes the offset
   * itself does. A string or object field is swapped under a lock of the object that P4JObjectGetField and
   * P4JObjectGetAttr also take, so concurrent writers and readers through these functions see a whole value; the
   * old value is released once, after the swap. IndexError when field_index is out of range.
   */
  public static int P4JObjectSetField(long obj, int field_index, long value) {
    try {
      return (int) P4JObjectSetField.HANDLE.invokeExact(obj, field_index, value);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JObjectSetAttr {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JObjectSetAttr");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JObjectSetAttr(P4JObjectHandle obj, const P4JByteArray* name, const P4JAny* value)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JObjectSetAttr$descriptor() {
    return P4JObjectSetAttr.DESC;
  }

  /** Address of {@code P4JObjectSetAttr} in libpacked4j.so. */
  public static MemorySegment P4JObjectSetAttr$address() {
    return P4JObjectSetAttr.ADDR;
  }

  /**
   * {@code int P4JObjectSetAttr(P4JObjectHandle obj, const P4JByteArray* name, const P4JAny* value)}
   *
   * P4JObjectSetField by the field's exact name; AttributeError naming the type and listing its fields.
   */
  public static int P4JObjectSetAttr(long obj, long name, long value) {
    try {
      return (int) P4JObjectSetAttr.HANDLE.invokeExact(obj, name, value);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionSetGlobalDoc {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionSetGlobalDoc");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionSetGlobalDoc(const P4JByteArray* name, const P4JByteArray* doc, const P4JByteArray* param_names, int32_t num_param_names)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JFunctionSetGlobalDoc$descriptor() {
    return P4JFunctionSetGlobalDoc.DESC;
  }

  /** Address of {@code P4JFunctionSetGlobalDoc} in libpacked4j.so. */
  public static MemorySegment P4JFunctionSetGlobalDoc$address() {
    return P4JFunctionSetGlobalDoc.ADDR;
  }

  /**
   * {@code int P4JFunctionSetGlobalDoc(const P4JByteArray* name, const P4JByteArray* doc, const P4JByteArray* param_names, int32_t num_param_names)}
   *
   * Sets the doc string and parameter names of a registered global (the Registry's describe and params). param doc
   * copied, replacing an earlier one; NULL keeps it. param param_names num_param_names names (copied);
   * num_param_names -1 keeps the earlier ones. When the function has a signature there must be one name per
   * parameter (ValueError naming the global and both counts). returns -1 with a KeyError for a name no global has.
   */
  public static int P4JFunctionSetGlobalDoc(long name, long doc, long param_names, int num_param_names) {
    try {
      return (int) P4JFunctionSetGlobalDoc.HANDLE.invokeExact(name, doc, param_names, num_param_names);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionGetGlobalDoc {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionGetGlobalDoc");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionGetGlobalDoc(const P4JByteArray* name, P4JByteArray* out_doc, const P4JByteArray** out_param_names, int32_t* out_num_param_names)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JFunctionGetGlobalDoc$descriptor() {
    return P4JFunctionGetGlobalDoc.DESC;
  }

  /** Address of {@code P4JFunctionGetGlobalDoc} in libpacked4j.so. */
  public static MemorySegment P4JFunctionGetGlobalDoc$address() {
    return P4JFunctionGetGlobalDoc.ADDR;
  }

  /**
   * {@code int P4JFunctionGetGlobalDoc(const P4JByteArray* name, P4JByteArray* out_doc, const P4JByteArray** out_param_names, int32_t* out_num_param_names)}
   *
   * The doc string and parameter names of a registered global; spans and the array stay valid for the life of the
   * process (a later P4JFunctionSetGlobalDoc makes new ones and keeps these). Empty doc and 0 names when none were
   * set; KeyError for a name no global has.
   */
  public static int P4JFunctionGetGlobalDoc(long name, long out_doc, long out_param_names, long out_num_param_names) {
    try {
      return (int) P4JFunctionGetGlobalDoc.HANDLE.invokeExact(name, out_doc, out_param_names, out_num_param_names);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JStringFromByteArray {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JStringFromByteArray");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JStringFromByteArray(const P4JByteArray* input, P4JAny* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JStringFromByteArray$descriptor() {
    return P4JStringFromByteArray.DESC;
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
  public static int P4JStringFromByteArray(long input, long out) {
    try {
      return (int) P4JStringFromByteArray.HANDLE.invokeExact(input, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JBytesFromByteArray {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JBytesFromByteArray");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JBytesFromByteArray(const P4JByteArray* input, P4JAny* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JBytesFromByteArray$descriptor() {
    return P4JBytesFromByteArray.DESC;
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
  public static int P4JBytesFromByteArray(long input, long out) {
    try {
      return (int) P4JBytesFromByteArray.HANDLE.invokeExact(input, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionGetGlobal {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionGetGlobal");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionGetGlobal(const P4JByteArray* name, P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JFunctionGetGlobal$descriptor() {
    return P4JFunctionGetGlobal.DESC;
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
  public static int P4JFunctionGetGlobal(long name, long out) {
    try {
      return (int) P4JFunctionGetGlobal.HANDLE.invokeExact(name, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionSetGlobal {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionSetGlobal");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionSetGlobal(const P4JByteArray* name, P4JObjectHandle func, int32_t allow_override)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JFunctionSetGlobal$descriptor() {
    return P4JFunctionSetGlobal.DESC;
  }

  /** Address of {@code P4JFunctionSetGlobal} in libpacked4j.so. */
  public static MemorySegment P4JFunctionSetGlobal$address() {
    return P4JFunctionSetGlobal.ADDR;
  }

  /**
   * {@code int P4JFunctionSetGlobal(const P4JByteArray* name, P4JObjectHandle func, int32_t allow_override)}
   *
   * Registers func (borrowed; the registry takes a reference) under name. A name registered already is a ValueError
   * unless allow_override is non-zero.
   */
  public static int P4JFunctionSetGlobal(long name, long func, int allow_override) {
    try {
      return (int) P4JFunctionSetGlobal.HANDLE.invokeExact(name, func, allow_override);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionListGlobalNames {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionListGlobalNames");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionListGlobalNames(P4JAny* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JFunctionListGlobalNames$descriptor() {
    return P4JFunctionListGlobalNames.DESC;
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
  public static int P4JFunctionListGlobalNames(long out) {
    try {
      return (int) P4JFunctionListGlobalNames.HANDLE.invokeExact(out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionGetSignature {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionGetSignature");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionGetSignature(P4JObjectHandle func, P4JByteArray* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JFunctionGetSignature$descriptor() {
    return P4JFunctionGetSignature.DESC;
  }

  /** Address of {@code P4JFunctionGetSignature} in libpacked4j.so. */
  public static MemorySegment P4JFunctionGetSignature$address() {
    return P4JFunctionGetSignature.ADDR;
  }

  /**
   * {@code int P4JFunctionGetSignature(P4JObjectHandle func, P4JByteArray* out)}
   *
   * The signature recorded by set_body_typed, such as "(int64, int64) -> int64", as a borrowed span valid while
   * func lives; size 0 for an untyped function (set_body). Type names: bool int8 int16 int32 int64 uint8 uint16
   * uint32 uint64 float32 float64 string bytes any void function list<T> map<K, V> optional<T>, and an object type
   * key for an ObjectRef type.
   */
  public static int P4JFunctionGetSignature(long func, long out) {
    try {
      return (int) P4JFunctionGetSignature.HANDLE.invokeExact(func, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionCreateFromCell {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionCreateFromCell");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionCreateFromCell(const P4JFunctionCell* cell, int64_t cell_size, void (*deleter)(void* self), const P4JByteArray* signature, P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JFunctionCreateFromCell$descriptor() {
    return P4JFunctionCreateFromCell.DESC;
  }

  /** Address of {@code P4JFunctionCreateFromCell} in libpacked4j.so. */
  public static MemorySegment P4JFunctionCreateFromCell$address() {
    return P4JFunctionCreateFromCell.ADDR;
  }

  /**
   * {@code int P4JFunctionCreateFromCell(const P4JFunctionCell* cell, int64_t cell_size, void (*deleter)(void* self), const P4JByteArray* signature, P4JObjectHandle* out)}
   *
   * Creates a function object from a cell (copied): self, safe_call (required), typed_entry (NULL for none) and
   * scalars_entry (NULL for P4JFunctionCallScalars), with deleter(self) run when it is deleted (may be NULL). param
   * cell_size sizeof(P4JFunctionCell) as the caller was compiled: fields past it take their defaults (NULL,
   * P4JFunctionCallScalars for the scalars entry, 0 for typed_forms), fields the caller has and this library does
   * not know are ignored; at least self and safe_call (16 bytes). param signature copied; NULL or size 0 for none;
   * the grammar of P4JFunctionGetSignature. param out owned.
   */
  public static int P4JFunctionCreateFromCell(long cell, long cell_size, long deleter, long signature, long out) {
    try {
      return (int) P4JFunctionCreateFromCell.HANDLE.invokeExact(cell, cell_size, deleter, signature, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JHostSetEntries {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG);
    static final MemorySegment ADDR = findOrThrow("P4JHostSetEntries");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JHostSetEntries(P4JSafeCallType safe_call, void (*release)(void* self), int64_t stack_reserve)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JHostSetEntries$descriptor() {
    return P4JHostSetEntries.DESC;
  }

  /** Address of {@code P4JHostSetEntries} in libpacked4j.so. */
  public static MemorySegment P4JHostSetEntries$address() {
    return P4JHostSetEntries.ADDR;
  }

  /**
   * {@code int P4JHostSetEntries(P4JSafeCallType safe_call, void (*release)(void* self), int64_t stack_reserve)}
   *
   * Guarded entries into a host language's VM, for function objects whose body is host code (packed4j's Java
   * runtime). A VM cannot enter its own code with the native stack nearly exhausted (the JVM throws
   * StackOverflowError in the entry frames, before any code that could catch it, and ends the process), so every
   * call into the host goes through an entry of the core that first checks the thread's remaining stack: with less
   * than the reserve left, the call is refused with a RecursionError (raised on the thread, -1 or the typed
   * sentinel returned) and the host is not entered. Recursion host -> C++ -> host -> ... thus ends with an error in
   * the outermost host caller, whatever the depth and the thread's stack size. The host registers its entries once
   * with P4JHostSetEntries, then creates its functions with P4JFunctionCreateFromCell, a cell whose safe_call is
   * P4JHostSafeCall, deleter P4JHostRelease and typed_entry (if any) P4JHostTypedEntry(result kind). The headroom
   * check costs a thread-local read and a compare. param safe_call the host's packed entry, called by
   * P4JHostSafeCall with the same arguments. param release the host's deleter, called by P4JHostRelease with the
   * same argument. With the stack below the reserve the release is deferred instead: P4JHostTakeDeferredReleases
   * hands it to the host later. param stack_reserve the bytes of stack the host needs to enter and run, at least
   * 128 KiB (below that the JVM's entry frames were seen to overflow); 0 for the default,
   * P4J_HOST_DEFAULT_STACK_RESERVE.
   */
  public static int P4JHostSetEntries(long safe_call, long release, long stack_reserve) {
    try {
      return (int) P4JHostSetEntries.HANDLE.invokeExact(safe_call, release, stack_reserve);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JHostSetTypedEntry {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JHostSetTypedEntry");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JHostSetTypedEntry(int32_t index, void* entry)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JHostSetTypedEntry$descriptor() {
    return P4JHostSetTypedEntry.DESC;
  }

  /** Address of {@code P4JHostSetTypedEntry} in libpacked4j.so. */
  public static MemorySegment P4JHostSetTypedEntry$address() {
    return P4JHostSetTypedEntry.ADDR;
  }

  /**
   * {@code int P4JHostSetTypedEntry(int32_t index, void* entry)}
   *
   * Registers the host's typed entry number index: a function `R entry(P4JObjectHandle self, A1 a1, ...)` of one
   * machine shape (the typed entry contract of P4JFunctionCell.typed_entry, at most 4 parameters). A function
   * object whose typed_entry is P4JHostTypedEntry(kind) keeps that index in the high 32 bits of its cell's self
   * (the low 32 bits are the host's); the core's entry checks the stack and jumps to the registered one with the
   * argument registers untouched (System V x86-64 and AArch64 pass integer and floating-point arguments in separate
   * registers, so one forwarding entry per result type serves every shape of at most 4 parameters).
   */
  public static int P4JHostSetTypedEntry(int index, long entry) {
    try {
      return (int) P4JHostSetTypedEntry.HANDLE.invokeExact(index, entry);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JHostTypedEntry {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JHostTypedEntry");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code void* P4JHostTypedEntry(int32_t kind)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JHostTypedEntry$descriptor() {
    return P4JHostTypedEntry.DESC;
  }

  /** Address of {@code P4JHostTypedEntry} in libpacked4j.so. */
  public static MemorySegment P4JHostTypedEntry$address() {
    return P4JHostTypedEntry.ADDR;
  }

  /**
   * {@code void* P4JHostTypedEntry(int32_t kind)}
   *
   * The core's guarded typed entry for a result of type index kind: kP4JInt (int64_t), kP4JFloat (double), kP4JBool
   * or kP4JNone (int32_t); NULL for any other kind.
   */
  public static long P4JHostTypedEntry(int kind) {
    try {
      return (long) P4JHostTypedEntry.HANDLE.invokeExact(kind);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JHostSafeCall {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JHostSafeCall");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JHostSafeCall(void* self, const P4JAny* args, int32_t num_args, P4JAny* result)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JHostSafeCall$descriptor() {
    return P4JHostSafeCall.DESC;
  }

  /** Address of {@code P4JHostSafeCall} in libpacked4j.so. */
  public static MemorySegment P4JHostSafeCall$address() {
    return P4JHostSafeCall.ADDR;
  }

  /**
   * {@code int P4JHostSafeCall(void* self, const P4JAny* args, int32_t num_args, P4JAny* result)}
   *
   * The guarded packed entry: checks the stack and, on a thread's first call (every call once the host shuts down),
   * that the host's JVM still exists and has the thread attached, attaching it as the upcall stub would; then calls
   * the host's safe_call with the same arguments. A JVM that is gone or refuses the thread is a RuntimeError.
   */
  public static int P4JHostSafeCall(long self, long args, int num_args, long result) {
    try {
      return (int) P4JHostSafeCall.HANDLE.invokeExact(self, args, num_args, result);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JHostRelease {
    static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JHostRelease");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code void P4JHostRelease(void* self)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JHostRelease$descriptor() {
    return P4JHostRelease.DESC;
  }

  /** Address of {@code P4JHostRelease} in libpacked4j.so. */
  public static MemorySegment P4JHostRelease$address() {
    return P4JHostRelease.ADDR;
  }

  /**
   * {@code void P4JHostRelease(void* self)}
   *
   * The guarded deleter: calls the host's release (after the same check of the JVM as P4JHostSafeCall), defers it
   * when the stack is below the reserve, and drops it once the JVM has ended.
   */
  public static void P4JHostRelease(long self) {
    try {
      P4JHostRelease.HANDLE.invokeExact(self);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JHostArmExitGuard {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JHostArmExitGuard");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JHostArmExitGuard(void)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JHostArmExitGuard$descriptor() {
    return P4JHostArmExitGuard.DESC;
  }

  /** Address of {@code P4JHostArmExitGuard} in libpacked4j.so. */
  public static MemorySegment P4JHostArmExitGuard$address() {
    return P4JHostArmExitGuard.ADDR;
  }

  /**
   * {@code int P4JHostArmExitGuard(void)}
   *
   * Arms the exit guard (since 2.8): registers with atexit a handler from which on P4JHostSafeCall and the host's
   * typed entries raise a RuntimeError instead of entering the host, and P4JHostRelease drops the release. A host
   * VM runs no code once the process exits, yet static destructors and atexit handlers of plugins may still call or
   * release a host function they kept (a PackedFunc in a global). Handlers run in the reverse order of their
   * registration, so the host arms the guard again after each plugin library loads: it then runs before the static
   * destructors of every library loaded so far. Returns 0, or -1 with the error raised when atexit refuses.
   */
  public static int P4JHostArmExitGuard() {
    try {
      return (int) P4JHostArmExitGuard.HANDLE.invokeExact();
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JHostShutdownBegins {
    static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid();
    static final MemorySegment ADDR = findOrThrow("P4JHostShutdownBegins");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code void P4JHostShutdownBegins(void)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JHostShutdownBegins$descriptor() {
    return P4JHostShutdownBegins.DESC;
  }

  /** Address of {@code P4JHostShutdownBegins} in libpacked4j.so. */
  public static MemorySegment P4JHostShutdownBegins$address() {
    return P4JHostShutdownBegins.ADDR;
  }

  /**
   * {@code void P4JHostShutdownBegins(void)}
   *
   * Tells the core that the host starts to shut down (since 2.12; the JVM's runtime calls it from a shutdown hook).
   * Calls into the host go on as before while the host lives; but each first asks the JVM whether it still exists
   * and whether the calling thread is attached, attaching a thread it has not seen, so that a call the JVM can no
   * longer take (it was destroyed, or it refuses a new thread while it exits) is a RuntimeError, a release is
   * dropped, instead of the JVM's fatal error. Before, only threads the core had not seen yet asked.
   */
  public static void P4JHostShutdownBegins() {
    try {
      P4JHostShutdownBegins.HANDLE.invokeExact();
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JHostTakeDeferredReleases {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JHostTakeDeferredReleases");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int32_t P4JHostTakeDeferredReleases(void** out, int32_t capacity)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JHostTakeDeferredReleases$descriptor() {
    return P4JHostTakeDeferredReleases.DESC;
  }

  /** Address of {@code P4JHostTakeDeferredReleases} in libpacked4j.so. */
  public static MemorySegment P4JHostTakeDeferredReleases$address() {
    return P4JHostTakeDeferredReleases.ADDR;
  }

  /**
   * {@code int32_t P4JHostTakeDeferredReleases(void** out, int32_t capacity)}
   *
   * Moves up to capacity deferred releases (their self values) to out; returns how many. The host calls its release
   * for each, on a thread with stack to spare.
   */
  public static int P4JHostTakeDeferredReleases(long out, int capacity) {
    try {
      return (int) P4JHostTakeDeferredReleases.HANDLE.invokeExact(out, capacity);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JFunctionCallScalarsTakeResult {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JFunctionCallScalarsTakeResult");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JFunctionCallScalarsTakeResult(P4JAny* result, int32_t* found)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JFunctionCallScalarsTakeResult$descriptor() {
    return P4JFunctionCallScalarsTakeResult.DESC;
  }

  /** Address of {@code P4JFunctionCallScalarsTakeResult} in libpacked4j.so. */
  public static MemorySegment P4JFunctionCallScalarsTakeResult$address() {
    return P4JFunctionCallScalarsTakeResult.ADDR;
  }

  /**
   * {@code int P4JFunctionCallScalarsTakeResult(P4JAny* result, int32_t* found)}
   *
   * Moves the result this thread's last scalars call (P4JFunctionCallScalars or a scalars entry) kept because it
   * was not of the kind asked for into *result (owned) and sets *found to 1; *found 0 and *result kP4JNone when
   * none is kept. A thread keeps one such result at most: the next one releases it. Never fails.
   */
  public static int P4JFunctionCallScalarsTakeResult(long result, long found) {
    try {
      return (int) P4JFunctionCallScalarsTakeResult.HANDLE.invokeExact(result, found);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListCreateWithCapacity {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListCreateWithCapacity");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListCreateWithCapacity(int64_t capacity, P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JListCreateWithCapacity$descriptor() {
    return P4JListCreateWithCapacity.DESC;
  }

  /** Address of {@code P4JListCreateWithCapacity} in libpacked4j.so. */
  public static MemorySegment P4JListCreateWithCapacity$address() {
    return P4JListCreateWithCapacity.ADDR;
  }

  /**
   * {@code int P4JListCreateWithCapacity(int64_t capacity, P4JObjectHandle* out)}
   *
   * A new empty list (size 0) with room for capacity values, for a caller that writes values straight into the
   * list's storage instead of passing them in an array of its own: the storage is the cell's data (at handle +
   * sizeof(P4JObject)), uninitialised past size; P4JListAppendWritten then makes the written values elements. The
   * list owns its storage (freed with the list). param out owned
   */
  public static int P4JListCreateWithCapacity(long capacity, long out) {
    try {
      return (int) P4JListCreateWithCapacity.HANDLE.invokeExact(capacity, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListAppendWritten {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_INT);
    static final MemorySegment ADDR = findOrThrow("P4JListAppendWritten");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListAppendWritten(P4JObjectHandle list, int64_t count, int32_t all_pods)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JListAppendWritten$descriptor() {
    return P4JListAppendWritten.DESC;
  }

  /** Address of {@code P4JListAppendWritten} in libpacked4j.so. */
  public static MemorySegment P4JListAppendWritten$address() {
    return P4JListAppendWritten.ADDR;
  }

  /**
   * {@code int P4JListAppendWritten(P4JObjectHandle list, int64_t count, int32_t all_pods)}
   *
   * Makes the count values the caller wrote at data[size .. size + count) of the list's cell elements: size grows
   * by count (count <= capacity - size, else a ValueError). The written values are borrowed, as P4JListCreate's
   * items are: the list takes its own reference to each object and copies string and bytes views into objects,
   * replacing them in place. all_pods non-zero is the caller's promise that every value is kP4JNone, kP4JInt,
   * kP4JBool, kP4JFloat, kP4JOpaquePtr, kP4JDataType or kP4JDevice, which need no owning, so the values are not
   * read at all (a bulk write of numbers costs one pass over the memory, the caller's). On failure (a value that
   * cannot be owned, such as a kP4JDLTensorPtr) the size is unchanged and the list holds no reference it took.
   * Writing the values and this call must not be interleaved with other changes to the list.
   */
  public static int P4JListAppendWritten(long list, long count, int all_pods) {
    try {
      return (int) P4JListAppendWritten.HANDLE.invokeExact(list, count, all_pods);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListAppend {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListAppend");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListAppend(P4JObjectHandle list, const P4JAny* item)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JListAppend$descriptor() {
    return P4JListAppend.DESC;
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
  public static int P4JListAppend(long list, long item) {
    try {
      return (int) P4JListAppend.HANDLE.invokeExact(list, item);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListSetItem {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListSetItem");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListSetItem(P4JObjectHandle list, int64_t index, const P4JAny* item)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JListSetItem$descriptor() {
    return P4JListSetItem.DESC;
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
  public static int P4JListSetItem(long list, long index, long item) {
    try {
      return (int) P4JListSetItem.HANDLE.invokeExact(list, index, item);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListInsert {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListInsert");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListInsert(P4JObjectHandle list, int64_t index, const P4JAny* item)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JListInsert$descriptor() {
    return P4JListInsert.DESC;
  }

  /** Address of {@code P4JListInsert} in libpacked4j.so. */
  public static MemorySegment P4JListInsert$address() {
    return P4JListInsert.ADDR;
  }

  /**
   * {@code int P4JListInsert(P4JObjectHandle list, int64_t index, const P4JAny* item)}
   *
   * Inserts item before index (0 <= index <= size).
   */
  public static int P4JListInsert(long list, long index, long item) {
    try {
      return (int) P4JListInsert.HANDLE.invokeExact(list, index, item);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListErase {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListErase");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListErase(P4JObjectHandle list, int64_t index, P4JAny* removed)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JListErase$descriptor() {
    return P4JListErase.DESC;
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
  public static int P4JListErase(long list, long index, long removed) {
    try {
      return (int) P4JListErase.HANDLE.invokeExact(list, index, removed);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JListClear {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JListClear");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JListClear(P4JObjectHandle list)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JListClear$descriptor() {
    return P4JListClear.DESC;
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
  public static int P4JListClear(long list) {
    try {
      return (int) P4JListClear.HANDLE.invokeExact(list);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapCreate {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapCreate");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapCreate(const P4JAny* keys_and_values, int64_t num_pairs, P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JMapCreate$descriptor() {
    return P4JMapCreate.DESC;
  }

  /** Address of {@code P4JMapCreate} in libpacked4j.so. */
  public static MemorySegment P4JMapCreate$address() {
    return P4JMapCreate.ADDR;
  }

  /**
   * {@code int P4JMapCreate(const P4JAny* keys_and_values, int64_t num_pairs, P4JObjectHandle* out)}
   *
   * A new map from num_pairs key/value pairs at keys_and_values (key, value, key, value, ...; borrowed). Keys:
   * kP4JInt, a kP4JStrView / kP4JString (stored as kP4JString), or an object (by identity). A duplicate key keeps
   * the last value at the position of its first occurrence. param out owned
   */
  public static int P4JMapCreate(long keys_and_values, long num_pairs, long out) {
    try {
      return (int) P4JMapCreate.HANDLE.invokeExact(keys_and_values, num_pairs, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapGetItem {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapGetItem");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapGetItem(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* value)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JMapGetItem$descriptor() {
    return P4JMapGetItem.DESC;
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
  public static int P4JMapGetItem(long map, long key, long found, long value) {
    try {
      return (int) P4JMapGetItem.HANDLE.invokeExact(map, key, found, value);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapSetItem {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapSetItem");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapSetItem(P4JObjectHandle map, const P4JAny* key, const P4JAny* value)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JMapSetItem$descriptor() {
    return P4JMapSetItem.DESC;
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
  public static int P4JMapSetItem(long map, long key, long value) {
    try {
      return (int) P4JMapSetItem.HANDLE.invokeExact(map, key, value);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapErase {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapErase");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapErase(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* removed)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JMapErase$descriptor() {
    return P4JMapErase.DESC;
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
  public static int P4JMapErase(long map, long key, long found, long removed) {
    try {
      return (int) P4JMapErase.HANDLE.invokeExact(map, key, found, removed);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JMapClear {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JMapClear");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JMapClear(P4JObjectHandle map)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JMapClear$descriptor() {
    return P4JMapClear.DESC;
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
  public static int P4JMapClear(long map) {
    try {
      return (int) P4JMapClear.HANDLE.invokeExact(map);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JNDArrayCreateEmpty {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JNDArrayCreateEmpty");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JNDArrayCreateEmpty(const int64_t* shape, int32_t ndim, const DLDataType* dtype, const DLDevice* device, P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JNDArrayCreateEmpty$descriptor() {
    return P4JNDArrayCreateEmpty.DESC;
  }

  /** Address of {@code P4JNDArrayCreateEmpty} in libpacked4j.so. */
  public static MemorySegment P4JNDArrayCreateEmpty$address() {
    return P4JNDArrayCreateEmpty.ADDR;
  }

  /**
   * {@code int P4JNDArrayCreateEmpty(const int64_t* shape, int32_t ndim, const DLDataType* dtype, const DLDevice* device, P4JObjectHandle* out)}
   *
   * A new CPU tensor of the given shape and dtype, contiguous, its data allocated (64-byte aligned, zeroed) and
   * freed by the core. dtype and device are read during the call (by pointer: every language can pass that). A
   * non-CPU device is a ValueError (the core allocates host memory only); a negative dimension, ndim outside [0,
   * 64], a dtype of 0 bits or 0 lanes, or dimensions whose product (0 counted as 1, as contiguous strides multiply
   * them) exceeds INT64_MAX is a ValueError. param out owned.
   */
  public static int P4JNDArrayCreateEmpty(long shape, int ndim, long dtype, long device, long out) {
    try {
      return (int) P4JNDArrayCreateEmpty.HANDLE.invokeExact(shape, ndim, dtype, device, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JNDArrayCreateView {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JNDArrayCreateView");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JNDArrayCreateView(const DLTensor* tensor, void* owner, void (*owner_deleter)(void* owner), P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JNDArrayCreateView$descriptor() {
    return P4JNDArrayCreateView.DESC;
  }

  /** Address of {@code P4JNDArrayCreateView} in libpacked4j.so. */
  public static MemorySegment P4JNDArrayCreateView$address() {
    return P4JNDArrayCreateView.ADDR;
  }

  /**
   * {@code int P4JNDArrayCreateView(const DLTensor* tensor, void* owner, void (*owner_deleter)(void* owner), P4JObjectHandle* out)}
   *
   * A new tensor over borrowed memory: data, device, dtype and byte_offset are taken from tensor, shape and strides
   * are copied (NULL strides: contiguous). owner_deleter(owner) runs when the tensor is deleted (both may be NULL:
   * the caller then keeps the memory alive as long as the tensor lives). On failure owner_deleter is not called.
   * Checks as P4JNDArrayCreateEmpty, and a NULL data pointer with elements is a ValueError. param out owned.
   */
  public static int P4JNDArrayCreateView(long tensor, long owner, long owner_deleter, long out) {
    try {
      return (int) P4JNDArrayCreateView.HANDLE.invokeExact(tensor, owner, owner_deleter, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JNDArrayCreateViewOf {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JNDArrayCreateViewOf");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JNDArrayCreateViewOf(P4JObjectHandle base, const DLTensor* layout, P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JNDArrayCreateViewOf$descriptor() {
    return P4JNDArrayCreateViewOf.DESC;
  }

  /** Address of {@code P4JNDArrayCreateViewOf} in libpacked4j.so. */
  public static MemorySegment P4JNDArrayCreateViewOf$address() {
    return P4JNDArrayCreateViewOf.ADDR;
  }

  /**
   * {@code int P4JNDArrayCreateViewOf(P4JObjectHandle base, const DLTensor* layout, P4JObjectHandle* out)}
   *
   * A new view of base's memory (a slice, a transpose): the data pointer, dtype and device are base's; ndim, shape,
   * strides (NULL: contiguous) and byte_offset come from layout (its other fields are ignored). The view holds a
   * reference to base, so the memory lives as long as either. Every element the layout reaches must lie within
   * base's elements (ValueError naming the element otherwise); a layout whose reach in bytes does not fit in int64
   * is a ValueError. param out owned.
   */
  public static int P4JNDArrayCreateViewOf(long base, long layout, long out) {
    try {
      return (int) P4JNDArrayCreateViewOf.HANDLE.invokeExact(base, layout, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JNDArrayFromDLPack {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JNDArrayFromDLPack");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JNDArrayFromDLPack(DLManagedTensor* managed, P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JNDArrayFromDLPack$descriptor() {
    return P4JNDArrayFromDLPack.DESC;
  }

  /** Address of {@code P4JNDArrayFromDLPack} in libpacked4j.so. */
  public static MemorySegment P4JNDArrayFromDLPack$address() {
    return P4JNDArrayFromDLPack.ADDR;
  }

  /**
   * {@code int P4JNDArrayFromDLPack(DLManagedTensor* managed, P4JObjectHandle* out)}
   *
   * A tensor over a DLPack producer's tensor, without copying: on success the tensor owns managed and calls its
   * deleter when deleted (on failure managed is untouched). A tensor that P4JNDArrayToDLPack exported comes back as
   * the same object (managed is released, a reference to the object returned). param out owned.
   */
  public static int P4JNDArrayFromDLPack(long managed, long out) {
    try {
      return (int) P4JNDArrayFromDLPack.HANDLE.invokeExact(managed, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JNDArrayFromDLPackVersioned {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JNDArrayFromDLPackVersioned");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JNDArrayFromDLPackVersioned(DLManagedTensorVersioned* managed, P4JObjectHandle* out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JNDArrayFromDLPackVersioned$descriptor() {
    return P4JNDArrayFromDLPackVersioned.DESC;
  }

  /** Address of {@code P4JNDArrayFromDLPackVersioned} in libpacked4j.so. */
  public static MemorySegment P4JNDArrayFromDLPackVersioned$address() {
    return P4JNDArrayFromDLPackVersioned.ADDR;
  }

  /**
   * {@code int P4JNDArrayFromDLPackVersioned(DLManagedTensorVersioned* managed, P4JObjectHandle* out)}
   *
   * As P4JNDArrayFromDLPack for DLPack 1.0's DLManagedTensorVersioned. A major version other than
   * P4J_DLPACK_MAJOR_VERSION is a ValueError (managed untouched). param out owned.
   */
  public static int P4JNDArrayFromDLPackVersioned(long managed, long out) {
    try {
      return (int) P4JNDArrayFromDLPackVersioned.HANDLE.invokeExact(managed, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JNDArrayToDLPack {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JNDArrayToDLPack");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JNDArrayToDLPack(P4JObjectHandle array, DLManagedTensor** out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JNDArrayToDLPack$descriptor() {
    return P4JNDArrayToDLPack.DESC;
  }

  /** Address of {@code P4JNDArrayToDLPack} in libpacked4j.so. */
  public static MemorySegment P4JNDArrayToDLPack$address() {
    return P4JNDArrayToDLPack.ADDR;
  }

  /**
   * {@code int P4JNDArrayToDLPack(P4JObjectHandle array, DLManagedTensor** out)}
   *
   * Exports a tensor (borrowed) as a new DLManagedTensor that holds one reference to it; the consumer calls its
   * deleter once, which drops that reference. Its dl_tensor is the tensor's (same data pointer, shape and strides,
   * valid while the managed tensor lives). param out owned by the consumer.
   */
  public static int P4JNDArrayToDLPack(long array, long out) {
    try {
      return (int) P4JNDArrayToDLPack.HANDLE.invokeExact(array, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }

  private static final class P4JNDArrayToDLPackVersioned {
    static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
    static final MemorySegment ADDR = findOrThrow("P4JNDArrayToDLPackVersioned");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }

  /** Function descriptor of {@code int P4JNDArrayToDLPackVersioned(P4JObjectHandle array, DLManagedTensorVersioned** out)}, pointers as {@code C_POINTER}. */
  public static FunctionDescriptor P4JNDArrayToDLPackVersioned$descriptor() {
    return P4JNDArrayToDLPackVersioned.DESC;
  }

  /** Address of {@code P4JNDArrayToDLPackVersioned} in libpacked4j.so. */
  public static MemorySegment P4JNDArrayToDLPackVersioned$address() {
    return P4JNDArrayToDLPackVersioned.ADDR;
  }

  /**
   * {@code int P4JNDArrayToDLPackVersioned(P4JObjectHandle array, DLManagedTensorVersioned** out)}
   *
   * As P4JNDArrayToDLPack, as DLPack 1.0's DLManagedTensorVersioned (version 1.0, flags 0).
   */
  public static int P4JNDArrayToDLPackVersioned(long array, long out) {
    try {
      return (int) P4JNDArrayToDLPackVersioned.HANDLE.invokeExact(array, out);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }
  }
}
