// Helpers shared by the tests: raw P4JAny builders (as the Java side would pass them) and error capture.
#ifndef PACKED4J_TESTS_TEST_UTIL_H_
#define PACKED4J_TESTS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include <packed4j/packed4j.h>

namespace packed4j {
namespace testing {

inline P4JAny IntValue(int64_t value) {
  P4JAny any;
  details::StoreInt(value, &any);
  return any;
}

inline P4JAny FloatValue(double value) {
  P4JAny any;
  details::TypeTraits<double>::Store(value, &any);
  return any;
}

inline P4JAny BoolValue(bool value) {
  P4JAny any;
  details::TypeTraits<bool>::Store(value, &any);
  return any;
}

inline P4JAny StrView(std::string_view text) {
  P4JAny any;
  any.type_index = kP4JStrView;
  any.small_len = static_cast<uint32_t>(text.size());
  any.v_ptr = const_cast<char*>(text.data());
  return any;
}

inline P4JAny BytesViewValue(std::string_view data) {
  P4JAny any = StrView(data);
  any.type_index = kP4JBytesView;
  return any;
}

/*! \brief A borrowed object value. */
inline P4JAny ObjectValue(const ObjectRef& ref) {
  if (!ref.defined()) return details::NoneValue();
  P4JAny any;
  any.type_index = ref->type_index();
  any.zero_padding = 0;
  any.v_obj = ref.handle();
  return any;
}

/*! \brief Takes the raised error of this thread: "Kind: message", or "" when none is raised. */
inline std::string TakeRaised() {
  P4JObjectHandle error = nullptr;
  P4JErrorMoveFromRaised(&error);
  if (error == nullptr) return std::string();
  const P4JErrorCell* cell = details::CellOf<P4JErrorCell>(error);
  std::string text = std::string(details::ViewOf(cell->kind)) + ": " + std::string(details::ViewOf(cell->message));
  P4JObjectDecRef(error);
  return text;
}

/*! \brief Runs body and returns "Kind: message" of the packed4j::Error it throws ("" if none). */
template <typename Body>
std::string ErrorOf(Body body) {
  try {
    body();
  } catch (const Error& error) {
    return error.kind() + ": " + error.message();
  }
  return std::string();
}

}  // namespace testing
}  // namespace packed4j

#endif  // PACKED4J_TESTS_TEST_UTIL_H_
