// Plain C twins of the benchmark functions, for raw FFM (dev.packed4j.benchmarks.RawFfm) and JNA: the baseline
// a user would write without packed4j.
#ifndef PACKED4J_BENCHMARKS_C_TWINS_H_
#define PACKED4J_BENCHMARKS_C_TWINS_H_

#include <stdint.h>

#define P4JBENCH_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

P4JBENCH_EXPORT int64_t bench_add(int64_t a, int64_t b);

P4JBENCH_EXPORT void bench_nop(void);

/*! \brief Code points of size bytes of UTF-8 at utf8 (borrowed). */
P4JBENCH_EXPORT int64_t bench_count_code_points(const char* utf8, int64_t size);

/*!
 * \brief Echoes size bytes at utf8 into out (at most capacity bytes, no NUL) and returns the echo's full size,
 *  which may exceed capacity: the caller then retries with a larger buffer.
 */
P4JBENCH_EXPORT int64_t bench_echo_string(const char* utf8, int64_t size, char* out, int64_t capacity);

/*! \brief The field value of the bench.Counter object at counter_handle (a packed4j object handle, borrowed). */
P4JBENCH_EXPORT int64_t bench_counter_value(const void* counter_handle);

/*! \brief Byte offset of bench.Counter's field value from the object handle. */
P4JBENCH_EXPORT int64_t bench_counter_value_offset(void);

/*! \brief A plain C counter, the twin of a bench.Counter object made by bench.CreateCounter. */
typedef struct bench_counter {
  int64_t value; /*!< the value it was created with */
} bench_counter;

/*!
 * \brief Creates a counter of value, named by size bytes of UTF-8 at name (borrowed, checked non-empty as
 *  bench.CreateCounter checks it); NULL for an empty name. Free it with bench_counter_free.
 */
P4JBENCH_EXPORT bench_counter* bench_counter_create(const char* name, int64_t size, int64_t value);

/*! \brief Frees a counter from bench_counter_create or bench_counter_new. */
P4JBENCH_EXPORT void bench_counter_free(bench_counter* counter);

/*! \brief Creates a counter of value: the twin of bench.Counter's constructor. Free it with bench_counter_free. */
P4JBENCH_EXPORT bench_counter* bench_counter_new(int64_t value);

/*! \brief The twin of bench.Counter's method add: the value of the object at counter_handle plus a and b. */
P4JBENCH_EXPORT int64_t bench_counter_add(const void* counter_handle, int64_t a, int64_t b);

/*! \brief Writes the value of the bench.Counter at counter_handle: the twin of a numeric setter. */
P4JBENCH_EXPORT void bench_counter_set_value(void* counter_handle, int64_t value);

/*! \brief Writes the label of the bench.Counter at counter_handle from size bytes of UTF-8: a String setter's twin. */
P4JBENCH_EXPORT void bench_counter_set_label(void* counter_handle, const char* utf8, int64_t size);

/*!
 * \brief Echoes size bytes at data into out (at most capacity bytes) and returns size, which may exceed capacity:
 *  the twin of bench.EchoBytes with a caller buffer.
 */
P4JBENCH_EXPORT int64_t bench_echo_bytes(const void* data, int64_t size, void* out, int64_t capacity);

P4JBENCH_EXPORT int64_t bench_sum(const int64_t* values, int64_t count);

/*! \brief The first byte at data (size bytes, borrowed): the twin of bench.TensorFirstByte. */
P4JBENCH_EXPORT int64_t bench_first_byte(const void* data, int64_t size);

/*!
 * \brief Calls function(sum, i) for i in [0, n), feeding each result back as sum: C calling a function pointer, the
 *  baseline of C++ calling Java (an FFM upcall stub of the same shape).
 */
P4JBENCH_EXPORT int64_t bench_call_upcall(int64_t (*function)(int64_t, int64_t), int64_t n);

/*! \brief function(a, b), once: the raw twin of a Java callback passed to a C++ function that calls it once. */
P4JBENCH_EXPORT int64_t bench_apply_upcall(int64_t (*function)(int64_t, int64_t), int64_t a, int64_t b);

/*!
 * \brief The typed entry (P4JFunctionCell.typed_entry) of the method named method of bench.Counter, NULL when it has
 *  none or no such method; its function handle (borrowed, alive until exit) in *out_function. For the diagnostic
 *  rows that call the entry through raw FFM with the object's handle, without the Java route.
 */
P4JBENCH_EXPORT void* bench_counter_method_entry(const char* method, void** out_function);

/*!
 * \brief The typed entry of the global function named name, NULL when it has none or is not registered; its function
 *  handle (borrowed: globals live until exit) in *out_function. For the same diagnostic rows.
 */
P4JBENCH_EXPORT void* bench_global_entry(const char* name, void** out_function);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // PACKED4J_BENCHMARKS_C_TWINS_H_
