package dev.packed4j.benchmarks;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * The baseline: hand-written FFM downcalls to the plugin's {@code extern "C"} twins (benchmarks/native/c_twins.cc),
 * the way a user without packed4j would call them. {@code static final} handles called with {@code invokeExact}, no
 * linker options (no {@code critical}), as jextract would generate them.
 */
@SuppressWarnings("restricted") // links the plugin's C functions: the run passes --enable-native-access
final class RawFfm {
  private static final Linker LINKER = Linker.nativeLinker();
  private static final SymbolLookup LIBRARY = SymbolLookup.libraryLookup(BenchLibrary.path(), Arena.global());

  /** {@code int64_t bench_add(int64_t a, int64_t b)}. */
  static final MethodHandle ADD = downcall("bench_add", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));

  /** {@code void bench_nop(void)}. */
  static final MethodHandle NOP = downcall("bench_nop", FunctionDescriptor.ofVoid());

  /** {@code int64_t bench_count_code_points(const char* utf8, int64_t size)}. */
  static final MethodHandle COUNT_CODE_POINTS =
      downcall("bench_count_code_points", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG));

  /** {@code int64_t bench_echo_string(const char* utf8, int64_t size, char* out, int64_t capacity)}. */
  static final MethodHandle ECHO_STRING =
      downcall("bench_echo_string", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));

  /** {@code int64_t bench_counter_value(const void* counter_handle)}. */
  static final MethodHandle COUNTER_VALUE = downcall("bench_counter_value", FunctionDescriptor.of(JAVA_LONG, ADDRESS));

  /** {@code int64_t bench_counter_value_offset(void)}: where the field sits, from the object handle. */
  static final MethodHandle COUNTER_VALUE_OFFSET =
      downcall("bench_counter_value_offset", FunctionDescriptor.of(JAVA_LONG));

  /** {@code bench_counter* bench_counter_create(const char* name, int64_t size, int64_t value)}. */
  static final MethodHandle COUNTER_CREATE =
      downcall("bench_counter_create", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG));

  /** {@code void bench_counter_free(bench_counter* counter)}. */
  static final MethodHandle COUNTER_FREE = downcall("bench_counter_free", FunctionDescriptor.ofVoid(ADDRESS));

  /** {@code bench_counter* bench_counter_new(int64_t value)}. */
  static final MethodHandle COUNTER_NEW = downcall("bench_counter_new", FunctionDescriptor.of(ADDRESS, JAVA_LONG));

  /** {@code int64_t bench_counter_add(const void* counter_handle, int64_t a, int64_t b)}. */
  static final MethodHandle COUNTER_ADD =
      downcall("bench_counter_add", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG));

  /** {@code void bench_counter_set_value(void* counter_handle, int64_t value)}. */
  static final MethodHandle COUNTER_SET_VALUE =
      downcall("bench_counter_set_value", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG));

  /** {@code void bench_counter_set_label(void* counter_handle, const char* utf8, int64_t size)}. */
  static final MethodHandle COUNTER_SET_LABEL =
      downcall("bench_counter_set_label", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG));

  /** {@code int64_t bench_echo_bytes(const void* data, int64_t size, void* out, int64_t capacity)}. */
  static final MethodHandle ECHO_BYTES =
      downcall("bench_echo_bytes", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));

  /** {@code int64_t bench_sum(const int64_t* values, int64_t count)}. */
  static final MethodHandle SUM = downcall("bench_sum", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG));

  /** {@code int64_t bench_first_byte(const void* data, int64_t size)}. */
  static final MethodHandle FIRST_BYTE =
      downcall("bench_first_byte", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG));

  /** {@code int64_t bench_call_upcall(int64_t (*function)(int64_t, int64_t), int64_t n)}. */
  static final MethodHandle CALL_UPCALL =
      downcall("bench_call_upcall", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG));

  /** {@code int64_t bench_apply_upcall(int64_t (*function)(int64_t, int64_t), int64_t a, int64_t b)}. */
  static final MethodHandle APPLY_UPCALL =
      downcall("bench_apply_upcall", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG));

  /**
   * {@code int P4JFunctionCall(P4JObjectHandle func, const P4JAny* args, int32_t num_args, P4JAny* result)} of
   * libpacked4j.so, found through the plugin, which links it: the packed call itself, without packed4j's runtime.
   */
  static final MethodHandle FUNCTION_CALL =
      downcall("P4JFunctionCall", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));

  /**
   * The typed entry of bench.Counter's method {@code method} (for {@code add}: {@code int64_t entry(P4JObjectHandle
   * function, int64_t self, int64_t a, int64_t b)}), bound to its function: the native part of a generated method
   * call alone, for the diagnostic row {@code ObjectMemberBenchmark.methodTypedEntryFfm}. Read once the plugin has
   * registered it.
   */
  static MethodHandle counterMethodEntry(String method, FunctionDescriptor descriptor) throws Throwable {
    return typedEntry((MemorySegment) COUNTER_METHOD_ENTRY.invokeExact(Arena.global().allocateFrom(method), out()),
        method, descriptor);
  }

  /** The typed entry of the global function {@code name}, bound to its function (as {@link #counterMethodEntry}). */
  static MethodHandle globalEntry(String name, FunctionDescriptor descriptor) throws Throwable {
    return typedEntry((MemorySegment) GLOBAL_ENTRY.invokeExact(Arena.global().allocateFrom(name), out()), name,
        descriptor);
  }

  private static final MethodHandle COUNTER_METHOD_ENTRY =
      downcall("bench_counter_method_entry", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
  private static final MethodHandle GLOBAL_ENTRY =
      downcall("bench_global_entry", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
  /** Where the entry functions write the function handle; read right after each call, on the setup thread. */
  private static MemorySegment functionOut;

  private static MemorySegment out() {
    functionOut = Arena.global().allocate(ADDRESS);
    return functionOut;
  }

  private static MethodHandle typedEntry(MemorySegment entry, String name, FunctionDescriptor descriptor) {
    if (entry.address() == 0) {
      throw new IllegalStateException(name + " has no typed entry");
    }
    long function = functionOut.get(ADDRESS, 0).address();
    return MethodHandles.insertArguments(LINKER.downcallHandle(entry, descriptor), 0, function);
  }

  private RawFfm() {}

  private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
    return LINKER.downcallHandle(
        LIBRARY.find(name).orElseThrow(() -> new IllegalStateException(name + " is not exported")), descriptor);
  }
}
