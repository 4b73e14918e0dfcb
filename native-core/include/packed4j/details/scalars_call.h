/*!
 * \file packed4j/details/scalars_call.h
 * \brief The scalars contract (P4JFunctionCallScalars, P4JFunctionCell.scalars_entry) written once.
 *
 * Two callers implement the contract: libpacked4j.so's P4JFunctionCallScalars, which runs any function through
 * its cell's safe_call, and the scalars entry compiled beside each closure of the C++ API (function_entries.h),
 * which runs the closure's body inline. Both are CallScalars below with a different way to run the body, so a
 * shape, an argument, a result or a failure is handled the same on either route, with the same error text.
 *
 * Not part of the public API: included by function_entries.h and by the core.
 */
#ifndef PACKED4J_DETAILS_SCALARS_CALL_H_
#define PACKED4J_DETAILS_SCALARS_CALL_H_

#include <packed4j/error.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace packed4j {
namespace details {

/*! \brief The error of a function whose safe_call returned -1 without raising one, on every call route. */
constexpr const char* kFailedWithoutErrorKind = "RuntimeError";
constexpr const char* kFailedWithoutErrorMessage = "a function returned -1 without raising an error";

/*!
 * \brief Called after a function's safe_call returned -1: keeps the error it raised, or raises the RuntimeError
 *  that says it raised none. The C ABI has no way to look at a raised error without taking it, so it is taken
 *  and raised again (a failure path only).
 */
[[gnu::cold, gnu::noinline]] inline void EnsureErrorRaised() noexcept {
  P4JObjectHandle error = nullptr;
  P4JErrorMoveFromRaised(&error);
  if (error == nullptr) {
    P4JErrorSetRaisedFromCStr(kFailedWithoutErrorKind, kFailedWithoutErrorMessage);
    return;
  }
  P4JErrorSetRaised(error);
  P4JObjectDecRef(error);
}

/*!
 * \brief Whether a scalars shape is well formed: 0 to 4 arguments, and each kind (the result's and the
 *  arguments') 0..3 (None, Int, Bool, Float), so no bit above the low two of any kind byte and no byte past the
 *  arguments given.
 */
inline bool IsWellFormedScalarsShape(uint64_t bits) noexcept {
  const uint32_t num_args = static_cast<uint32_t>(bits & 0xff);
  const uint64_t kinds = bits >> 16;
  return num_args <= 4 && (bits & 0xfc00) == 0 && (kinds & 0xfcfcfcfcull) == 0 && (kinds >> (8 * num_args)) == 0;
}

/*!
 * \brief Raises the ValueError of a malformed shape and returns the sentinel. It names the first argument whose
 *  kind is not a scalar, when there is one, and otherwise the whole shape.
 */
[[gnu::cold, gnu::noinline]] inline int64_t FailMalformedScalarsShape(int64_t shape) noexcept {
  try {
    const int32_t num_args = static_cast<int32_t>(shape & 0xff);
    for (int32_t i = 0; i < num_args && i < 4; ++i) {
      const int32_t kind = static_cast<int32_t>((shape >> (16 + 8 * i)) & 0xff);
      if (kind != kP4JNone && kind != kP4JInt && kind != kP4JBool && kind != kP4JFloat) {
        throw ValueError("P4JFunctionCallScalars: argument " + std::to_string(i) + " has type index " +
                         std::to_string(kind) + ", which is not a scalar");
      }
    }
    throw ValueError("P4JFunctionCallScalars: shape " + std::to_string(shape) +
                     " is not a count of 0 to 4 arguments, a scalar result kind and the arguments' kinds");
  } catch (...) {
    RaiseCurrentException();
  }
  return P4J_TYPED_ERROR_I64;
}

/*! \brief The end of a scalars call whose body failed: the error stays raised (see EnsureErrorRaised). */
[[gnu::cold, gnu::noinline]] inline int64_t FailedScalarsCall() noexcept {
  EnsureErrorRaised();
  return P4J_TYPED_ERROR_I64;
}

/*! \brief Writes a (kind, payload) argument; kP4JNone carries payload 0 whatever the caller passed. */
inline void WriteScalarArgument(P4JAny* slot, uint64_t kind, int64_t payload) noexcept {
  const uint64_t type_word = kind & 0xff;  // type_index, then zero_padding 0 (little-endian): one 8-byte store
  std::memcpy(slot, &type_word, sizeof(type_word));
  slot->v_int64 = type_word == kP4JNone ? 0 : payload;
}

/*!
 * \brief A call under the scalars contract (see P4JFunctionCallScalars in c_api.h).
 * \param run_body `int(const P4JAny* args, int32_t num_args, P4JAny* result) noexcept` with the P4JSafeCallType
 *  contract: 0 with *result set (owned), or -1 with the error raised. The core passes the cell's safe_call, a
 *  closure's scalars entry its own SafeCall, which the compiler inlines here.
 *
 * The hot path is straight-line: one test of the whole shape, the arguments given written as two 8-byte stores
 * each, the body, one comparison of the result. Everything else is out of line.
 */
template <typename RunBody>
inline int64_t CallScalars(int64_t shape, int64_t a0, int64_t a1, int64_t a2, int64_t a3,
                           RunBody&& run_body) noexcept {
  const uint64_t bits = static_cast<uint64_t>(shape);
  if (!IsWellFormedScalarsShape(bits)) return FailMalformedScalarsShape(shape);
  const uint32_t num_args = static_cast<uint32_t>(bits & 0xff);
  const uint64_t kinds = bits >> 16;
  P4JAny args[4];
  switch (num_args) {
    case 4: WriteScalarArgument(&args[3], kinds >> 24, a3); [[fallthrough]];
    case 3: WriteScalarArgument(&args[2], kinds >> 16, a2); [[fallthrough]];
    case 2: WriteScalarArgument(&args[1], kinds >> 8, a1); [[fallthrough]];
    case 1: WriteScalarArgument(&args[0], kinds, a0); [[fallthrough]];
    default: break;
  }
  P4JAny result = NoneValue();  // set by run_body on success; initialised so that no path reads it unset
  if (run_body(static_cast<const P4JAny*>(args), static_cast<int32_t>(num_args), &result) != 0) {
    return FailedScalarsCall();
  }
  if (result.type_index == static_cast<int32_t>((bits >> 8) & 0xff) && result.v_int64 != P4J_TYPED_ERROR_I64) {
    return result.v_int64;
  }
  P4JAny unusual = result;  // a copy takes the address, so result itself can stay in registers
  return P4JFunctionScalarsResult(&unusual, shape);
}

/*! \brief The shape of a scalars call of num_args int64 arguments and an int64 result (kP4JInt everywhere). */
constexpr int64_t IntScalarsShape(int num_args) noexcept {
  int64_t shape = num_args | (static_cast<int64_t>(kP4JInt) << 8);
  for (int i = 0; i < num_args; ++i) shape |= static_cast<int64_t>(kP4JInt) << (16 + 8 * i);
  return shape;
}

/*!
 * \brief CallScalars for the shape IntScalarsShape(kNumArgs), known at compile time: the caller has compared the
 *  shape already, so nothing is validated, and a body inlined here sees constant argument kinds, which folds its
 *  conversions' type checks away. The same contract and results as CallScalars for that shape.
 */
template <int kNumArgs, typename RunBody>
inline int64_t CallIntScalars(int64_t a0, int64_t a1, RunBody&& run_body) noexcept {
  static_assert(kNumArgs >= 1 && kNumArgs <= 2, "CallIntScalars takes one or two arguments");
  P4JAny args[kNumArgs];
  WriteScalarArgument(&args[0], kP4JInt, a0);
  if constexpr (kNumArgs == 2) WriteScalarArgument(&args[1], kP4JInt, a1);
  P4JAny result = NoneValue();
  if (run_body(static_cast<const P4JAny*>(args), kNumArgs, &result) != 0) {
    return FailedScalarsCall();
  }
  if (result.type_index == kP4JInt && result.v_int64 != P4J_TYPED_ERROR_I64) {
    return result.v_int64;
  }
  P4JAny unusual = result;
  return P4JFunctionScalarsResult(&unusual, IntScalarsShape(kNumArgs));
}

}  // namespace details
}  // namespace packed4j

#endif  // PACKED4J_DETAILS_SCALARS_CALL_H_
