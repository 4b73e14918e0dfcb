// Errors: kinds, messages, backtraces, the per-thread raised error and the C++ <-> C bridge.
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace {

using namespace packed4j;
using namespace packed4j::testing;

TEST(ErrorTest, KindMessageAndBacktrace) {
  Error error("ValueError", "price must be positive");
  EXPECT_EQ(error.kind(), "ValueError");
  EXPECT_EQ(error.message(), "price must be positive");
  EXPECT_STREQ(error.what(), "ValueError: price must be positive");
  EXPECT_FALSE(error.backtrace().empty());
  EXPECT_EQ(error.backtrace().rfind("#0 ", 0), 0u) << error.backtrace();
}

TEST(ErrorTest, KindClassesCarryTheirNames) {
  EXPECT_EQ(TypeError("m").kind(), "TypeError");
  EXPECT_EQ(ValueError("m").kind(), "ValueError");
  EXPECT_EQ(IndexError("m").kind(), "IndexError");
  EXPECT_EQ(KeyError("m").kind(), "KeyError");
  EXPECT_EQ(AttributeError("m").kind(), "AttributeError");
  EXPECT_EQ(RuntimeError("m").kind(), "RuntimeError");
  EXPECT_EQ(NotImplementedError("m").kind(), "NotImplementedError");
}

TEST(ErrorTest, CapturingABacktraceIsCheap) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; ++i) {
    Error error("RuntimeError", "x");
    EXPECT_EQ(error.kind().size(), 12u);
  }
  auto elapsed = std::chrono::steady_clock::now() - start;
  // Generous bound (tens of microseconds each, on a loaded machine); symbolizing is deferred.
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 500);
}

TEST(ErrorTest, RaisedErrorIsPerThreadAndMovedOut) {
  EXPECT_EQ(TakeRaised(), "");
  P4JErrorSetRaisedFromCStr("KeyError", "k");
  std::string other_thread;
  std::thread([&] { other_thread = TakeRaised(); }).join();
  EXPECT_EQ(other_thread, "");
  EXPECT_EQ(TakeRaised(), "KeyError: k");
  EXPECT_EQ(TakeRaised(), "");
}

TEST(ErrorTest, AKindThatIsNotANameIsReportedAsARuntimeErrorThatNamesIt) {
  // Java's Packed4jException refuses such a kind, so no Java code could catch or raise it as it arrived.
  PackedFunc out_of_stock([](Args, RetValue*) { throw Error("Out Of Stock!", "bin 3 is empty"); }, "test.Stock");
  EXPECT_EQ(ErrorOf([&] { out_of_stock(); }),
            "RuntimeError: bin 3 is empty (raised with the kind \"Out Of Stock!\", which is not a name of letters, "
            "digits and _: reported as RuntimeError)");
  PackedFunc nameless([](Args, RetValue*) { throw Error("", "no kind"); }, "test.Nameless");
  EXPECT_EQ(ErrorOf([&] { nameless(); }).rfind("RuntimeError: no kind (raised with the kind \"\"", 0), 0u);
  PackedFunc own([](Args, RetValue*) { throw Error("PaperJam_2", "jammed"); }, "test.Own");
  EXPECT_EQ(ErrorOf([&] { own(); }), "PaperJam_2: jammed");
}

TEST(ErrorTest, ErrorObjectCellHoldsKindMessageBacktrace) {
  int64_t baseline = P4JObjectLiveCount();
  P4JByteArray kind = details::ByteArrayOf("IndexError");
  P4JByteArray message = details::ByteArrayOf(std::string_view("at\0 5", 5));
  P4JByteArray backtrace = details::ByteArrayOf("#0 f\n");
  P4JObjectHandle error = nullptr;
  ASSERT_EQ(P4JErrorCreate(&kind, &message, &backtrace, &error), 0);
  EXPECT_EQ(error->type_index, kP4JError);
  EXPECT_EQ(error->ref_counter, 1u);
  const P4JErrorCell* cell = details::CellOf<P4JErrorCell>(error);
  EXPECT_EQ(details::ViewOf(cell->kind), "IndexError");
  EXPECT_EQ(details::ViewOf(cell->message), std::string_view("at\0 5", 5));
  EXPECT_EQ(details::ViewOf(cell->backtrace), "#0 f\n");
  P4JErrorSetRaised(error);
  P4JObjectDecRef(error);
  try {
    details::ThrowLastError();
  } catch (const IndexError& thrown) {
    EXPECT_EQ(thrown.backtrace(), "#0 f\n");
    EXPECT_EQ(thrown.message().size(), 5u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ErrorTest, SetRaisedRejectsObjectsThatAreNotErrors) {
  String text("not an error");
  P4JErrorSetRaised(text.handle());
  EXPECT_EQ(TakeRaised(), "TypeError: P4JErrorSetRaised was given a String object instead of an Error");
}

TEST(ErrorTest, ExceptionsBecomeErrorsAtTheBoundary) {
  PackedFunc std_error([](Args, RetValue*) { throw std::out_of_range("std says no"); }, "test.StdError");
  PackedFunc odd_throw([](Args, RetValue*) { throw 42; }, "test.OddThrow");
  PackedFunc p4j_error([](Args, RetValue*) { throw AttributeError("no such field"); }, "test.P4JError");
  P4JAny result;
  EXPECT_EQ(P4JFunctionCall(std_error.handle(), nullptr, 0, &result), -1);
  EXPECT_EQ(result.type_index, kP4JNone);
  EXPECT_EQ(TakeRaised(), "RuntimeError: std says no");
  EXPECT_EQ(P4JFunctionCall(odd_throw.handle(), nullptr, 0, &result), -1);
  EXPECT_EQ(TakeRaised(), "UnknownError: a C++ exception that is not a std::exception was thrown");
  EXPECT_EQ(P4JFunctionCall(p4j_error.handle(), nullptr, 0, &result), -1);
  P4JObjectHandle error = nullptr;
  P4JErrorMoveFromRaised(&error);
  ASSERT_NE(error, nullptr);
  const P4JErrorCell* cell = details::CellOf<P4JErrorCell>(error);
  EXPECT_EQ(details::ViewOf(cell->kind), "AttributeError");
  EXPECT_EQ(details::ViewOf(cell->message), "no such field");
  EXPECT_GT(cell->backtrace.size, 0);
  P4JObjectDecRef(error);
}

TEST(ErrorTest, NestedCallsKeepKindMessageAndInnermostBacktrace) {
  PackedFunc inner([](Args, RetValue*) { throw KeyError("key \"x\" is not in the map"); }, "test.Inner");
  PackedFunc outer([inner](Args, RetValue* rv) { *rv = inner(); }, "test.Outer");
  try {
    outer();
    FAIL() << "expected a KeyError";
  } catch (const KeyError& error) {
    EXPECT_EQ(error.message(), "key \"x\" is not in the map");
    EXPECT_FALSE(error.backtrace().empty());
  }
}

/*! \brief A function written in C that fails: raising a ValueError, or (a bug) raising nothing. */
int FailsRaising(void*, const P4JAny*, int32_t, P4JAny*) {
  P4JErrorSetRaisedFromCStr("ValueError", "c says no");
  return -1;
}
int FailsSilently(void*, const P4JAny*, int32_t, P4JAny*) { return -1; }

/*! \brief A C function object around safe_call, as another language would create one. */
PackedFunc CFunction(P4JSafeCallType safe_call) {
  P4JObjectHandle function = nullptr;
  EXPECT_EQ(P4JFunctionCreate(nullptr, safe_call, nullptr, &function), 0);
  return PackedFunc(ObjectPtr<Object>::FromOwnedHandle(function));
}

/*!
 * \brief What each native route reports for func called with the int64 argument 1: P4JFunctionCall, the C++ call
 *  operator, P4JFunctionCallScalars, the function's own scalars entry and, when it has one, its typed entry; each
 *  as "Kind: message".
 */
std::vector<std::string> ErrorsOnEveryRoute(const PackedFunc& func) {
  std::vector<std::string> errors;
  const int64_t int_of_int = 1 | (kP4JInt << 8) | (kP4JInt << 16);
  const P4JFunctionCell* cell = details::CellOf<P4JFunctionCell>(func.handle());
  P4JAny argument = IntValue(1);
  P4JAny result;
  EXPECT_EQ(P4JFunctionCall(func.handle(), &argument, 1, &result), -1);
  EXPECT_EQ(result.type_index, kP4JNone);
  errors.push_back(TakeRaised());
  try {
    func(1);
    errors.push_back("no exception");
  } catch (const Error& error) {
    errors.push_back(error.what());
  }
  EXPECT_EQ(P4JFunctionCallScalars(func.handle(), int_of_int, 1, 0, 0, 0), P4J_TYPED_ERROR_I64);
  errors.push_back(TakeRaised());
  EXPECT_EQ(cell->scalars_entry(func.handle(), int_of_int, 1, 0, 0, 0), P4J_TYPED_ERROR_I64);
  errors.push_back(TakeRaised());
  if (cell->typed_entry != nullptr) {
    auto entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t)>(cell->typed_entry);
    EXPECT_EQ(entry(func.handle(), 1), P4J_TYPED_ERROR_I64);
    errors.push_back(TakeRaised());
  }
  return errors;
}

TEST(ErrorTest, OneFailureIsOneErrorOnEveryRoute) {
  const std::string silent = "RuntimeError: a function returned -1 without raising an error";
  EXPECT_EQ(ErrorsOnEveryRoute(CFunction(&FailsSilently)), std::vector<std::string>(4, silent));
  EXPECT_EQ(ErrorsOnEveryRoute(CFunction(&FailsRaising)), std::vector<std::string>(4, "ValueError: c says no"));
  PackedFunc packed([](Args, RetValue*) { throw ValueError("c++ says no"); }, "test.PackedFails");
  EXPECT_EQ(ErrorsOnEveryRoute(packed), std::vector<std::string>(4, "ValueError: c++ says no"));
  PackedFunc typed = PackedFunc::FromTyped([](int64_t) -> int64_t { throw ValueError("typed says no"); },
                                            "test.TypedFails");
  EXPECT_EQ(ErrorsOnEveryRoute(typed), std::vector<std::string>(5, "ValueError: typed says no"));

  // A closure's scalars entry runs its body through the same contract, which reports a body that fails without
  // raising exactly as P4JFunctionCallScalars does; the C++ API's own bodies always raise, so call it directly.
  EXPECT_EQ(details::CallScalars(1 | (kP4JInt << 8) | (kP4JInt << 16), 1, 0, 0, 0,
                                 [](const P4JAny*, int32_t, P4JAny*) noexcept { return -1; }),
            P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), silent);
  EXPECT_EQ(details::CallScalars(1 | (kP4JInt << 8) | (kP4JInt << 16), 1, 0, 0, 0,
                                 [](const P4JAny*, int32_t, P4JAny*) noexcept {
                                   P4JErrorSetRaisedFromCStr("KeyError", "raised");
                                   return -1;
                                 }),
            P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "KeyError: raised");
}

TEST(ErrorTest, CFunctionsRejectBadHandles) {
  P4JAny item = IntValue(1);
  EXPECT_EQ(P4JListAppend(nullptr, &item), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: list is NULL, expected a List object");
  String text("x");
  EXPECT_EQ(P4JListAppend(text.handle(), &item), -1);
  EXPECT_EQ(TakeRaised(), "TypeError: list is a String object, expected a List object");
  EXPECT_EQ(P4JObjectIncRef(nullptr), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JObjectIncRef: obj is NULL");
}

}  // namespace
