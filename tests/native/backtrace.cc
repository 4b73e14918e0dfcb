// A plugin built as a user's Release plugin is (hidden visibility, optimized) with packed4j_plugin_debug_info:
// its error is thrown three calls deep, and BacktraceTest reads the native backtrace of the Java exception.
// BacktraceTest finds the lines below by their "// line:" markers.
#include <packed4j/packed4j.h>

#include <string>

namespace inventory {

// noinline keeps one frame per function, and "+ 1" after each call keeps it from being a tail call.
__attribute__((noinline)) int64_t CheckQuantity(int64_t quantity) {
  if (quantity < 0) {
    throw packed4j::ValueError("quantity must not be negative, got " + std::to_string(quantity));  // line: throw
  }
  return quantity;
}

__attribute__((noinline)) int64_t ReserveLine(int64_t quantity) {
  return CheckQuantity(quantity) + 1;  // line: ReserveLine calls CheckQuantity
}

__attribute__((noinline)) int64_t PlaceOrder(int64_t quantity) {
  return ReserveLine(quantity) + 1;  // line: PlaceOrder calls ReserveLine
}

}  // namespace inventory

P4J_REGISTER_GLOBAL("backtrace.PlaceOrder").set_body_typed([](int64_t quantity) {
  return inventory::PlaceOrder(quantity);
});
