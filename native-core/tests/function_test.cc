// Functions and the registry: set_body, set_body_typed (signatures, checks, typed entries and the sentinel
// collision), globals (set, get, list, override, duplicate) and the built-in packed4j.* globals.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "test_util.h"

namespace {

using namespace packed4j;
using namespace packed4j::testing;

class ThingObject : public Object {
 public:
  static constexpr const char* _type_key = "test.Thing";
  P4J_DECLARE_OBJECT_TYPE_INFO(ThingObject, Object);
};

class Thing : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Thing, ObjectRef, ThingObject);
};

int64_t Scale(int64_t value, int32_t factor) { return value * factor; }

P4J_REGISTER_GLOBAL("test.Mul").set_body_typed([](int64_t a, int64_t b) { return a * b; });
P4J_REGISTER_GLOBAL("test.Scale").set_body_typed(Scale);
P4J_REGISTER_GLOBAL("test.Echo").set_body_typed([](int64_t value) { return value; });
P4J_REGISTER_GLOBAL("test.EchoDouble").set_body_typed([](double value) { return value; });
P4J_REGISTER_GLOBAL("test.Narrow").set_body_typed([](int8_t a, uint16_t b, bool c, float d) {
  return static_cast<double>(a) + b + (c ? 1000 : 0) + d;
});
P4J_REGISTER_GLOBAL("test.IsPositive").set_body_typed([](int64_t value) { return value > 0; });
P4J_REGISTER_GLOBAL("test.Nothing").set_body_typed([](int32_t) {});
P4J_REGISTER_GLOBAL("test.Concat").set_body_typed([](const std::string& a, std::string_view b) {
  return a + std::string(b);
});
P4J_REGISTER_GLOBAL("test.Untyped").set_body([](Args args, RetValue* rv) { *rv = args.size(); });
P4J_REGISTER_GLOBAL("test.Weigh").set_body_typed([](std::string_view text, const std::string& suffix, int64_t n) {
  return static_cast<int64_t>(text.size()) * n + static_cast<int64_t>(suffix.size());
});
P4J_REGISTER_GLOBAL("test.WeighObject").set_body_typed([](String text) { return static_cast<int64_t>(text.size()); });
// Untyped, DGL style: what P4JFunctionCallScalars serves.
P4J_REGISTER_GLOBAL("test.UntypedAdd").set_body([](Args args, RetValue* rv) {
  if (args[0].type_index() == kP4JFloat) {
    *rv = args[0].cast<double>() + args[1].cast<double>();
  } else {
    *rv = args[0].cast<int64_t>() + args[1].cast<int64_t>();
  }
});
P4J_REGISTER_GLOBAL("test.UntypedKinds").set_body([](Args args, RetValue* rv) {
  std::string kinds;
  for (int i = 0; i < args.size(); ++i) kinds += std::to_string(args[i].type_index()) + " ";
  *rv = kinds;
});
P4J_REGISTER_GLOBAL("test.UntypedNot").set_body([](Args args, RetValue* rv) { *rv = !args[0].cast<bool>(); });
P4J_REGISTER_GLOBAL("test.UntypedEcho").set_body([](Args args, RetValue* rv) { *rv = args[0].cast<int64_t>(); });

/*! \brief P4JFunctionCallScalars' shape: count, result kind, then one byte per argument kind. */
int64_t ScalarsShape(int32_t result_kind, std::initializer_list<int32_t> kinds) {
  int64_t shape = static_cast<int64_t>(kinds.size()) | (static_cast<int64_t>(result_kind) << 8);
  int shift = 16;
  for (int32_t kind : kinds) {
    shape |= static_cast<int64_t>(kind) << shift;
    shift += 8;
  }
  return shape;
}

int64_t BitsOf(double value) {
  int64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

TEST(FunctionTest, SignaturesFollowTheGrammar) {
  EXPECT_EQ(PackedFunc::GetGlobal("test.Mul").signature(), "(int64, int64) -> int64");
  EXPECT_EQ(PackedFunc::GetGlobal("test.Scale").signature(), "(int64, int32) -> int64");
  EXPECT_EQ(PackedFunc::GetGlobal("test.Narrow").signature(), "(int8, uint16, bool, float32) -> float64");
  EXPECT_EQ(PackedFunc::GetGlobal("test.Nothing").signature(), "(int32) -> void");
  EXPECT_EQ(PackedFunc::GetGlobal("test.Concat").signature(), "(string, string) -> string");
  EXPECT_EQ(PackedFunc::GetGlobal("test.Untyped").signature(), "");
  auto complex = PackedFunc::FromTyped(
      [](List<int64_t>, Map<std::string, double>, std::optional<Thing>, PackedFunc, Bytes, Any, ObjectRef,
         List<Map<int64_t, String>>) { return List<std::string>(); },
      "test.Complex");
  EXPECT_EQ(complex.signature(),
            "(list<int64>, map<string, float64>, optional<test.Thing>, function, bytes, any, Object, "
            "list<map<int64, string>>) -> list<string>");
  EXPECT_EQ(PackedFunc::FromTyped([]() { return uint64_t{1}; }).signature(), "() -> uint64");
  EXPECT_EQ(PackedFunc::FromTyped([](uint8_t, int16_t, uint32_t) { return true; }).signature(),
            "(uint8, int16, uint32) -> bool");
}

TEST(FunctionTest, TypedBodiesCheckCountAndTypes) {
  PackedFunc mul = PackedFunc::GetGlobal("test.Mul");
  EXPECT_EQ(mul(6, 7).cast<int64_t>(), 42);
  EXPECT_EQ(ErrorOf([&] { mul(1, 2, 3); }),
            "TypeError: test.Mul: expected 2 arguments (int64, int64) -> int64, got 3");
  EXPECT_EQ(ErrorOf([&] { mul(1, "two"); }), "TypeError: test.Mul: argument 1 expected int64, got string \"two\"");
  EXPECT_EQ(ErrorOf([] { PackedFunc::GetGlobal("test.Scale")(1, int64_t{1} << 33); }),
            "ValueError: test.Scale: argument 1 value 8589934592 is out of range for int32");
  EXPECT_EQ(PackedFunc::GetGlobal("test.Concat")("ab", std::string("c\0d", 3)).cast<std::string>(),
            std::string("abc\0d", 5));
  EXPECT_TRUE(PackedFunc::GetGlobal("test.Nothing")(5).is_none());
  EXPECT_EQ(PackedFunc::GetGlobal("test.Untyped")(1, 2, 3).cast<int>(), 3);
}

TEST(FunctionTest, TypedEntryCallsWithoutPacking) {
  PackedFunc mul = PackedFunc::GetGlobal("test.Mul");
  void* entry = details::CellOf<P4JFunctionCell>(mul.handle())->typed_entry;
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry, mul.typed_entry());
  auto mul_entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t, int64_t)>(entry);
  EXPECT_EQ(mul_entry(mul.handle(), 6, 7), 42);

  PackedFunc narrow = PackedFunc::GetGlobal("test.Narrow");
  auto narrow_entry =
      reinterpret_cast<double (*)(P4JObjectHandle, int64_t, int64_t, int64_t, double)>(narrow.typed_entry());
  EXPECT_DOUBLE_EQ(narrow_entry(narrow.handle(), -1, 2, 1, 0.5), 1001.5);

  PackedFunc is_positive = PackedFunc::GetGlobal("test.IsPositive");
  auto bool_entry = reinterpret_cast<int32_t (*)(P4JObjectHandle, int64_t)>(is_positive.typed_entry());
  EXPECT_EQ(bool_entry(is_positive.handle(), 5), 1);
  EXPECT_EQ(bool_entry(is_positive.handle(), -5), 0);

  PackedFunc nothing = PackedFunc::GetGlobal("test.Nothing");
  auto void_entry = reinterpret_cast<int32_t (*)(P4JObjectHandle, int64_t)>(nothing.typed_entry());
  EXPECT_EQ(void_entry(nothing.handle(), 5), 0);
  EXPECT_EQ(TakeRaised(), "");
}

TEST(FunctionTest, TypedEntryRaisesAndReturnsTheSentinel) {
  PackedFunc narrow = PackedFunc::GetGlobal("test.Narrow");
  auto narrow_entry =
      reinterpret_cast<double (*)(P4JObjectHandle, int64_t, int64_t, int64_t, double)>(narrow.typed_entry());
  double result = narrow_entry(narrow.handle(), 300, 2, 1, 0.5);
  int64_t bits;
  std::memcpy(&bits, &result, sizeof(bits));
  EXPECT_EQ(bits, P4J_TYPED_ERROR_F64_BITS);
  EXPECT_EQ(TakeRaised(), "ValueError: test.Narrow: argument 0 value 300 is out of range for int8");
  narrow_entry(narrow.handle(), 1, 70000, 1, 0.5);
  EXPECT_EQ(TakeRaised(), "ValueError: test.Narrow: argument 1 value 70000 is out of range for uint16");
  narrow_entry(narrow.handle(), 1, 2, 7, 0.5);
  EXPECT_EQ(TakeRaised(), "ValueError: test.Narrow: argument 2 value 7 is out of range for bool");

  PackedFunc scale = PackedFunc::GetGlobal("test.Scale");
  auto scale_entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t, int64_t)>(scale.typed_entry());
  EXPECT_EQ(scale_entry(scale.handle(), 1, int64_t{1} << 40), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "ValueError: test.Scale: argument 1 value 1099511627776 is out of range for int32");

  PackedFunc failing = PackedFunc::FromTyped([](int64_t) -> bool { throw RuntimeError("no"); }, "test.Failing");
  auto failing_entry = reinterpret_cast<int32_t (*)(P4JObjectHandle, int64_t)>(failing.typed_entry());
  EXPECT_EQ(failing_entry(failing.handle(), 1), P4J_TYPED_ERROR_I32);
  EXPECT_EQ(TakeRaised(), "RuntimeError: no");
}

TEST(FunctionTest, TypedEntrySentinelCollisionClearsAStaleError) {
  PackedFunc echo = PackedFunc::GetGlobal("test.Echo");
  auto echo_entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t)>(echo.typed_entry());
  P4JErrorSetRaisedFromCStr("ValueError", "stale");
  EXPECT_EQ(echo_entry(echo.handle(), P4J_TYPED_ERROR_I64), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "");  // a real result: no error may be left for the caller's check

  PackedFunc echo_double = PackedFunc::GetGlobal("test.EchoDouble");
  auto echo_double_entry = reinterpret_cast<double (*)(P4JObjectHandle, double)>(echo_double.typed_entry());
  double sentinel;
  int64_t bits = P4J_TYPED_ERROR_F64_BITS;
  std::memcpy(&sentinel, &bits, sizeof(sentinel));
  P4JErrorSetRaisedFromCStr("ValueError", "stale");
  double result = echo_double_entry(echo_double.handle(), sentinel);
  int64_t result_bits;
  std::memcpy(&result_bits, &result, sizeof(result_bits));
  EXPECT_EQ(result_bits, P4J_TYPED_ERROR_F64_BITS);
  EXPECT_EQ(TakeRaised(), "");
}

TEST(FunctionTest, EveryTypedFunctionHasATypedEntryAndNoUntypedOneHas) {
  EXPECT_NE(PackedFunc::GetGlobal("test.Concat").typed_entry(), nullptr);  // a string result (since ABI 2.4)
  EXPECT_EQ(PackedFunc::GetGlobal("test.Untyped").typed_entry(), nullptr);
  EXPECT_NE(PackedFunc::GetGlobal("test.WeighObject").typed_entry(), nullptr);  // a String object parameter
  EXPECT_NE(PackedFunc::GetGlobal("test.Nothing").typed_entry(), nullptr);
  EXPECT_NE(PackedFunc::GetGlobal("test.Weigh").typed_entry(), nullptr);
}

TEST(FunctionTest, TypedEntryTakesStringsAsSpans) {
  PackedFunc weigh = PackedFunc::GetGlobal("test.Weigh");
  EXPECT_EQ(weigh.signature(), "(string, string, int64) -> int64");
  auto entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, const P4JByteArray*, const P4JByteArray*, int64_t)>(
      weigh.typed_entry());
  std::string with_nul("a\0b\xc3\xa9", 5);
  P4JByteArray text = details::ByteArrayOf(with_nul);
  P4JByteArray suffix = details::ByteArrayOf("xy");
  EXPECT_EQ(entry(weigh.handle(), &text, &suffix, 10), 52);
  P4JByteArray empty{nullptr, 0};
  EXPECT_EQ(entry(weigh.handle(), &empty, &empty, 3), 0);
  EXPECT_EQ(TakeRaised(), "");
  EXPECT_EQ(entry(weigh.handle(), &text, nullptr, 1), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "TypeError: test.Weigh: argument 1 expected string, got a NULL span");
  // The packed path of the same function is unchanged.
  EXPECT_EQ(weigh("abc", "d", 2).cast<int64_t>(), 7);
}

TEST(FunctionTest, CallScalarsPassesRegistersAndReturnsThePayload) {
  PackedFunc add = PackedFunc::GetGlobal("test.UntypedAdd");
  EXPECT_EQ(P4JFunctionCallScalars(add.handle(), ScalarsShape(kP4JInt, {kP4JInt, kP4JInt}), 40, 2, 0, 0), 42);
  int64_t sum_bits =
      P4JFunctionCallScalars(add.handle(), ScalarsShape(kP4JFloat, {kP4JFloat, kP4JFloat}), BitsOf(0.25), BitsOf(2.0), 0, 0);
  EXPECT_EQ(sum_bits, BitsOf(2.25));
  PackedFunc negate = PackedFunc::GetGlobal("test.UntypedNot");
  EXPECT_EQ(P4JFunctionCallScalars(negate.handle(), ScalarsShape(kP4JBool, {kP4JBool}), 0, 0, 0, 0), 1);
  // A typed function through its packed safe_call: the same checks as any packed call.
  PackedFunc narrow = PackedFunc::GetGlobal("test.Narrow");
  int64_t narrow_bits = P4JFunctionCallScalars(
      narrow.handle(), ScalarsShape(kP4JFloat, {kP4JInt, kP4JInt, kP4JBool, kP4JFloat}), -1, 2, 1, BitsOf(0.5));
  EXPECT_EQ(narrow_bits, BitsOf(1001.5));
  EXPECT_EQ(P4JFunctionCallScalars(narrow.handle(), ScalarsShape(kP4JFloat, {kP4JInt, kP4JInt, kP4JBool, kP4JFloat}), 300,
                                   2, 1, BitsOf(0.5)),
            P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "ValueError: test.Narrow: argument 0 value 300 is out of range for int8");
  // Unused payload registers are ignored, None arguments carry no payload.
  PackedFunc kinds = PackedFunc::GetGlobal("test.UntypedKinds");
  EXPECT_EQ(P4JFunctionCallScalars(kinds.handle(), ScalarsShape(kP4JNone, {kP4JNone, kP4JFloat, kP4JBool}), 7, 0, 1, 99), 0);
  EXPECT_EQ(TakeRaised(), "");
}

TEST(FunctionTest, CallScalarsKeepsAResultOfAnotherKindForTheCaller) {
  int64_t baseline = P4JObjectLiveCount();
  PackedFunc kinds = PackedFunc::GetGlobal("test.UntypedKinds");
  EXPECT_EQ(P4JFunctionCallScalars(kinds.handle(), ScalarsShape(kP4JInt, {kP4JInt, kP4JBool}), 1, 1, 0, 0),
            P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "");
  P4JAny kept;
  int32_t found = 0;
  ASSERT_EQ(P4JFunctionCallScalarsTakeResult(&kept, &found), 0);
  ASSERT_EQ(found, 1);
  Any result = Any::FromOwned(kept);
  EXPECT_EQ(result.cast<std::string>(), "1 2 ");
  result = Any();
  ASSERT_EQ(P4JFunctionCallScalarsTakeResult(&kept, &found), 0);
  EXPECT_EQ(found, 0);
  EXPECT_EQ(kept.type_index, kP4JNone);

  // A void call releases an object result; a result nobody took is released by the next one kept.
  EXPECT_EQ(P4JFunctionCallScalars(kinds.handle(), ScalarsShape(kP4JNone, {kP4JInt}), 1, 0, 0, 0), 0);
  P4JFunctionCallScalars(kinds.handle(), ScalarsShape(kP4JFloat, {}), 0, 0, 0, 0);
  P4JFunctionCallScalars(kinds.handle(), ScalarsShape(kP4JFloat, {}), 0, 0, 0, 0);
  ASSERT_EQ(P4JFunctionCallScalarsTakeResult(&kept, &found), 0);
  Any taken = Any::FromOwned(kept);
  taken = Any();
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(FunctionTest, CallScalarsSentinelCollisionAndBadInput) {
  PackedFunc echo = PackedFunc::GetGlobal("test.UntypedEcho");
  P4JErrorSetRaisedFromCStr("ValueError", "stale");
  EXPECT_EQ(P4JFunctionCallScalars(echo.handle(), ScalarsShape(kP4JInt, {kP4JInt}), P4J_TYPED_ERROR_I64, 0, 0, 0),
            P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "");  // a real result: nothing raised, nothing kept
  P4JAny kept;
  int32_t found = 1;
  P4JFunctionCallScalarsTakeResult(&kept, &found);
  EXPECT_EQ(found, 0);

  EXPECT_EQ(P4JFunctionCallScalars(echo.handle(), ScalarsShape(kP4JInt, {kP4JInt}) | (int64_t{1} << 40), 1, 0, 0, 0),
            P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised().rfind("ValueError: P4JFunctionCallScalars: shape ", 0), 0u);
  EXPECT_EQ(P4JFunctionCallScalars(echo.handle(), ScalarsShape(kP4JInt, {kP4JString}), 1, 0, 0, 0), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JFunctionCallScalars: argument 0 has type index 66, which is not a scalar");
  EXPECT_EQ(P4JFunctionCallScalars(echo.handle(), ScalarsShape(kP4JString, {kP4JInt}), 1, 0, 0, 0), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised().rfind("ValueError: P4JFunctionCallScalars: shape ", 0), 0u);
  EXPECT_EQ(P4JFunctionCallScalars(echo.handle(), 5, 1, 2, 3, 4), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised().rfind("ValueError: P4JFunctionCallScalars: shape ", 0), 0u);
  EXPECT_EQ(P4JFunctionCallScalars(nullptr, ScalarsShape(kP4JInt, {}), 0, 0, 0, 0), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "ValueError: func is NULL, expected a Function object");
  List<int64_t> not_a_function;
  EXPECT_EQ(P4JFunctionCallScalars(not_a_function.handle(), ScalarsShape(kP4JInt, {}), 0, 0, 0, 0), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "TypeError: func is a List object, expected a Function object");
  EXPECT_EQ(P4JFunctionCallScalars(echo.handle(), ScalarsShape(kP4JInt, {}), 0, 0, 0, 0), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "TypeError: test.UntypedEcho: argument 0 was requested, but 0 arguments were given");
}

/*! \brief What a scalars call left: its return value, the error it raised and the result it kept, described. */
struct ScalarsOutcome {
  int64_t value;
  std::string raised;
  std::string kept;

  bool operator==(const ScalarsOutcome& other) const {
    return value == other.value && raised == other.raised && kept == other.kept;
  }
};

std::ostream& operator<<(std::ostream& out, const ScalarsOutcome& outcome) {
  return out << "{" << outcome.value << ", \"" << outcome.raised << "\", kept " << outcome.kept << "}";
}

ScalarsOutcome OutcomeOf(int64_t value) {
  ScalarsOutcome outcome{value, TakeRaised(), "nothing"};
  P4JAny kept;
  int32_t found = 0;
  P4JFunctionCallScalarsTakeResult(&kept, &found);
  if (found != 0) {
    Any taken = Any::FromOwned(kept);
    outcome.kept = details::DescribeValue(taken.raw());
  }
  return outcome;
}

/*! \brief The function's own scalars entry, from its cell. */
P4JScalarsEntryType ScalarsEntryOf(const PackedFunc& func) {
  return details::CellOf<P4JFunctionCell>(func.handle())->scalars_entry;
}

/*! \brief [[noreturn]] in a packed body, with an exception that is not a packed4j::Error. */
P4J_REGISTER_GLOBAL("test.UntypedThrows").set_body([](Args, RetValue*) { throw std::runtime_error("boom"); });
P4J_REGISTER_GLOBAL("test.UntypedVoidObject").set_body([](Args, RetValue* rv) { *rv = std::string("dropped"); });

TEST(FunctionTest, EveryClosureHasAScalarsEntryThatActsAsCallScalars) {
  struct Case {
    const char* function;
    int64_t shape;
    int64_t a0, a1, a2, a3;
  };
  const Case cases[] = {
      {"test.UntypedAdd", ScalarsShape(kP4JInt, {kP4JInt, kP4JInt}), 40, 2, 0, 0},
      {"test.UntypedAdd", ScalarsShape(kP4JFloat, {kP4JFloat, kP4JFloat}), BitsOf(0.25), BitsOf(2.0), 0, 0},
      {"test.UntypedAdd", ScalarsShape(kP4JInt, {kP4JFloat, kP4JInt}), BitsOf(0.5), 2, 0, 0},  // result of another kind
      {"test.UntypedAdd", ScalarsShape(kP4JInt, {kP4JInt}), 1, 0, 0, 0},                      // too few: TypeError
      {"test.UntypedNot", ScalarsShape(kP4JBool, {kP4JBool}), 0, 0, 0, 0},
      {"test.UntypedNot", ScalarsShape(kP4JBool, {kP4JInt}), 1, 0, 0, 0},  // an int read as bool
      {"test.UntypedNot", ScalarsShape(kP4JBool, {kP4JFloat}), BitsOf(1.0), 0, 0, 0},  // TypeError
      {"test.UntypedKinds", ScalarsShape(kP4JNone, {kP4JNone, kP4JFloat, kP4JBool}), 7, 0, 1, 99},
      {"test.UntypedKinds", ScalarsShape(kP4JInt, {kP4JInt, kP4JBool, kP4JFloat, kP4JNone}), 1, 1, 0, 5},  // kept
      {"test.UntypedEcho", ScalarsShape(kP4JInt, {kP4JInt}), P4J_TYPED_ERROR_I64, 0, 0, 0},  // the sentinel, for real
      {"test.UntypedEcho", ScalarsShape(kP4JInt, {}), 0, 0, 0, 0},
      {"test.UntypedEcho", ScalarsShape(kP4JInt, {kP4JInt}) | (int64_t{1} << 40), 1, 0, 0, 0},  // malformed shapes
      {"test.UntypedEcho", ScalarsShape(kP4JInt, {kP4JString}), 1, 0, 0, 0},
      {"test.UntypedEcho", ScalarsShape(kP4JString, {kP4JInt}), 1, 0, 0, 0},
      {"test.UntypedEcho", 5, 1, 2, 3, 4},
      {"test.UntypedThrows", ScalarsShape(kP4JInt, {}), 0, 0, 0, 0},
      {"test.UntypedVoidObject", ScalarsShape(kP4JNone, {kP4JInt}), 3, 0, 0, 0},
      // The shapes a closure's entry runs on its fast path (one or two int64 arguments, an int64 result).
      {"test.UntypedThrows", ScalarsShape(kP4JInt, {kP4JInt, kP4JInt}), 1, 2, 0, 0},
      {"test.UntypedThrows", ScalarsShape(kP4JInt, {kP4JInt}), 1, 0, 0, 0},
      {"test.UntypedVoidObject", ScalarsShape(kP4JInt, {kP4JInt}), 3, 0, 0, 0},
      {"test.UntypedVoidObject", ScalarsShape(kP4JInt, {kP4JInt, kP4JInt}), 3, 4, 0, 0},
      {"test.UntypedEcho", ScalarsShape(kP4JInt, {kP4JInt, kP4JInt}), P4J_TYPED_ERROR_I64, 5, 0, 0},
      // Typed closures have one too: their packed body's count and type checks.
      {"test.Narrow", ScalarsShape(kP4JFloat, {kP4JInt, kP4JInt, kP4JBool, kP4JFloat}), -1, 2, 1, BitsOf(0.5)},
      {"test.Narrow", ScalarsShape(kP4JFloat, {kP4JInt, kP4JInt, kP4JBool, kP4JFloat}), 300, 2, 1, BitsOf(0.5)},
      {"test.Narrow", ScalarsShape(kP4JFloat, {kP4JInt, kP4JInt, kP4JBool, kP4JFloat}), 1, -2, 1, BitsOf(0.5)},
      {"test.Narrow", ScalarsShape(kP4JFloat, {kP4JInt, kP4JInt, kP4JInt, kP4JFloat}), 1, 2, 2, BitsOf(0.5)},
      {"test.Narrow", ScalarsShape(kP4JFloat, {kP4JInt, kP4JInt, kP4JBool, kP4JFloat}), 1, 2, 1, BitsOf(1e300)},
      {"test.Narrow", ScalarsShape(kP4JFloat, {kP4JInt}), 1, 0, 0, 0},
      {"test.Mul", ScalarsShape(kP4JInt, {kP4JInt, kP4JBool}), 6, 1, 0, 0},
      {"test.Concat", ScalarsShape(kP4JInt, {kP4JInt, kP4JInt}), 1, 2, 0, 0},
  };
  int64_t baseline = P4JObjectLiveCount();
  for (const Case& c : cases) {
    PackedFunc func = PackedFunc::GetGlobal(c.function);
    ASSERT_TRUE(func.defined()) << c.function;
    P4JScalarsEntryType entry = ScalarsEntryOf(func);
    ASSERT_NE(entry, nullptr) << c.function;
    P4JErrorSetRaisedFromCStr("ValueError", "stale");  // neither path may report an older error
    ScalarsOutcome through_core = OutcomeOf(P4JFunctionCallScalars(func.handle(), c.shape, c.a0, c.a1, c.a2, c.a3));
    P4JErrorSetRaisedFromCStr("ValueError", "stale");
    ScalarsOutcome own = OutcomeOf(entry(func.handle(), c.shape, c.a0, c.a1, c.a2, c.a3));
    EXPECT_EQ(own, through_core) << c.function << " shape " << c.shape;
  }
  EXPECT_EQ(OutcomeOf(ScalarsEntryOf(PackedFunc::GetGlobal("test.UntypedAdd"))(
                PackedFunc::GetGlobal("test.UntypedAdd").handle(), ScalarsShape(kP4JInt, {kP4JFloat, kP4JInt}), BitsOf(0.5), 2,
                0, 0)),
            (ScalarsOutcome{P4J_TYPED_ERROR_I64, "", "float 2.5"}));
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(FunctionTest, CreateFromCellCopiesTheCellAndChecksIt) {
  PackedFunc add = PackedFunc::GetGlobal("test.UntypedAdd");
  P4JFunctionCell cell = *details::CellOf<P4JFunctionCell>(add.handle());
  P4JByteArray signature = details::ByteArrayOf("(int64, int64) -> int64");
  P4JObjectHandle copy = nullptr;
  ASSERT_EQ(P4JFunctionCreateFromCell(&cell, sizeof(cell), nullptr, &signature, &copy), 0);
  PackedFunc again(ObjectPtr<Object>::FromOwnedHandle(copy));
  cell = P4JFunctionCell{};
  const P4JFunctionCell* copied = details::CellOf<P4JFunctionCell>(again.handle());
  EXPECT_EQ(copied->scalars_entry, ScalarsEntryOf(add));
  EXPECT_EQ(copied->typed_entry, nullptr);
  EXPECT_EQ(again.signature(), "(int64, int64) -> int64");
  EXPECT_EQ(again(40, 2).cast<int64_t>(), 42);
  EXPECT_EQ(copied->scalars_entry(again.handle(), ScalarsShape(kP4JInt, {kP4JInt, kP4JInt}), 1, 2, 0, 0), 3);

  P4JObjectHandle out = reinterpret_cast<P4JObjectHandle>(&cell);
  EXPECT_EQ(P4JFunctionCreateFromCell(nullptr, sizeof(cell), nullptr, nullptr, &out), -1);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(ErrorOf([] { details::ThrowLastError(); }), "ValueError: P4JFunctionCreate: cell is NULL");
  EXPECT_EQ(P4JFunctionCreateFromCell(&cell, sizeof(cell), nullptr, nullptr, &out), -1);
  EXPECT_EQ(ErrorOf([] { details::ThrowLastError(); }), "ValueError: P4JFunctionCreate: safe_call is NULL");
  EXPECT_EQ(P4JFunctionCreateFromCell(&cell, 8, nullptr, nullptr, &out), -1);
  EXPECT_EQ(ErrorOf([] { details::ThrowLastError(); }),
            "ValueError: P4JFunctionCreate: cell_size 8 is less than the 16 bytes of self and safe_call");

  // A caller compiled against a three-field cell: the scalars entry it does not have is the generic one, not read.
  struct {
    P4JFunctionCell cell;
    void* beyond;
  } older_caller{*details::CellOf<P4JFunctionCell>(add.handle()), nullptr};
  older_caller.cell.scalars_entry = reinterpret_cast<P4JScalarsEntryType>(&older_caller);  // not part of its cell
  P4JObjectHandle shorter = nullptr;
  ASSERT_EQ(P4JFunctionCreateFromCell(&older_caller.cell, 3 * sizeof(void*), nullptr, nullptr, &shorter), 0);
  PackedFunc from_shorter(ObjectPtr<Object>::FromOwnedHandle(shorter));
  EXPECT_EQ(ScalarsEntryOf(from_shorter), &P4JFunctionCallScalars);

  // A caller of ABI 2.5 (four fields): its typed entry takes no borrowed list cell, whatever lies past its cell.
  P4JFunctionCell newer = *details::CellOf<P4JFunctionCell>(add.handle());
  newer.typed_forms = P4J_TYPED_FORM_BORROWED_LIST;
  P4JObjectHandle four_fields = nullptr;
  ASSERT_EQ(P4JFunctionCreateFromCell(&newer, 4 * sizeof(void*), nullptr, nullptr, &four_fields), 0);
  PackedFunc from_four_fields(ObjectPtr<Object>::FromOwnedHandle(four_fields));
  EXPECT_EQ(details::CellOf<P4JFunctionCell>(from_four_fields.handle())->typed_forms, 0);
  EXPECT_EQ(from_shorter(1, 2).cast<int64_t>(), 3);
  // A caller with a longer cell: the fields this library does not know are ignored.
  P4JObjectHandle longer = nullptr;
  ASSERT_EQ(P4JFunctionCreateFromCell(&older_caller.cell, sizeof(older_caller), nullptr, nullptr, &longer), 0);
  PackedFunc from_longer(ObjectPtr<Object>::FromOwnedHandle(longer));
  EXPECT_EQ(from_longer(2, 2).cast<int64_t>(), 4);

  // The simple form, and a cell without a scalars entry: the scalars entry is P4JFunctionCallScalars itself.
  const P4JFunctionCell* add_cell = details::CellOf<P4JFunctionCell>(add.handle());
  P4JObjectHandle plain = nullptr;
  ASSERT_EQ(P4JFunctionCreate(add_cell->self, add_cell->safe_call, nullptr, &plain), 0);
  PackedFunc simple(ObjectPtr<Object>::FromOwnedHandle(plain));
  EXPECT_EQ(ScalarsEntryOf(simple), &P4JFunctionCallScalars);
  EXPECT_EQ(ScalarsEntryOf(simple)(simple.handle(), ScalarsShape(kP4JInt, {kP4JInt, kP4JInt}), 20, 22, 0, 0), 42);
  const P4JFunctionCell without_entries{add_cell->self, add_cell->safe_call, nullptr, nullptr, 0};
  P4JObjectHandle from_cell = nullptr;
  ASSERT_EQ(P4JFunctionCreateFromCell(&without_entries, sizeof(without_entries), nullptr, nullptr, &from_cell), 0);
  PackedFunc generic(ObjectPtr<Object>::FromOwnedHandle(from_cell));
  EXPECT_EQ(ScalarsEntryOf(generic), &P4JFunctionCallScalars);
  EXPECT_EQ(generic.typed_entry(), nullptr);
}

TEST(FunctionTest, ScalarsResultEndsAnEntrysUnusualCall) {
  int64_t baseline = P4JObjectLiveCount();
  P4JAny value = Any(std::string("kept")).release();
  EXPECT_EQ(P4JFunctionScalarsResult(&value, ScalarsShape(kP4JInt, {})), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(value.type_index, kP4JNone) << "taken";
  EXPECT_EQ(OutcomeOf(0).kept, "string \"kept\"");
  value = Any(std::string("released")).release();
  EXPECT_EQ(P4JFunctionScalarsResult(&value, ScalarsShape(kP4JNone, {})), 0);
  EXPECT_EQ(OutcomeOf(0), (ScalarsOutcome{0, "", "nothing"}));
  P4JErrorSetRaisedFromCStr("ValueError", "stale");
  value = Any(P4J_TYPED_ERROR_I64).release();
  EXPECT_EQ(P4JFunctionScalarsResult(&value, ScalarsShape(kP4JInt, {})), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(OutcomeOf(0), (ScalarsOutcome{0, "", "nothing"})) << "a real result equal to the sentinel";
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(FunctionTest, ArgumentsReadFastOrConvertWithTheSameChecks) {
  auto read = [](std::initializer_list<Any> values, auto as) {
    using T = decltype(as);
    std::vector<P4JAny> raw;
    for (const Any& value : values) raw.push_back(value.raw());
    Args args(raw.data(), static_cast<int32_t>(raw.size()), "test.Read");
    return ErrorOf([&] { (void)static_cast<T>(args[static_cast<int>(raw.size()) - 1]); });
  };
  EXPECT_EQ(read({Any(int64_t{127})}, int8_t{}), "");
  EXPECT_EQ(read({Any(int64_t{128})}, int8_t{}), "ValueError: test.Read: argument 0 value 128 is out of range for int8");
  EXPECT_EQ(read({Any(int64_t{-1})}, uint64_t{}),
            "ValueError: test.Read: argument 0 value -1 is out of range for uint64");
  EXPECT_EQ(read({Any(int64_t{1}), Any(int64_t{65536})}, uint16_t{}),
            "ValueError: test.Read: argument 1 value 65536 is out of range for uint16");
  EXPECT_EQ(read({Any(true)}, int32_t{}), "");  // a bool reads as 0 or 1
  EXPECT_EQ(read({Any(1e300)}, float{}), "ValueError: test.Read: argument 0 value 1.0000000000000001e+300 is out of range for float32");
  EXPECT_EQ(read({Any(int64_t{3})}, double{}), "");  // an integer reads as a float
  Any seven(int64_t{7});
  Args constant(&seven.raw(), 1, "test.Read");
  EXPECT_EQ(constant[0].cast<const int32_t>(), 7);  // a const scalar type reads as the plain one
  EXPECT_EQ(read({Any(int64_t{2})}, bool{}), "ValueError: test.Read: argument 0 value 2 is out of range for bool");
  EXPECT_EQ(read({Any(std::string("x"))}, int64_t{}),
            "TypeError: test.Read: argument 0 expected int64, got string \"x\"");
  Args none(nullptr, 0, "test.Read");
  EXPECT_EQ(ErrorOf([&] { (void)none[0].cast<int64_t>(); }),
            "TypeError: test.Read: argument 0 was requested, but 0 arguments were given");
}

TEST(FunctionTest, GlobalsSetGetListOverrideAndDuplicate) {
  PackedFunc first([](Args, RetValue* rv) { *rv = 1; }, "test.Registered");
  PackedFunc second([](Args, RetValue* rv) { *rv = 2; }, "test.Registered");
  P4JByteArray name = details::ByteArrayOf("test.Registered");
  ASSERT_EQ(P4JFunctionSetGlobal(&name, first.handle(), 0), 0);
  EXPECT_EQ(P4JFunctionSetGlobal(&name, second.handle(), 0), -1);
  std::string refused = TakeRaised();
  EXPECT_EQ(refused.rfind("ValueError: global function \"test.Registered\" is already registered by ", 0), 0u)
      << refused;
  EXPECT_NE(refused.find(", which registers it twice (the first one is kept): give one of them another name"),
            std::string::npos)
      << refused;
  EXPECT_EQ(PackedFunc::GetGlobal("test.Registered")().cast<int>(), 1);
  ASSERT_EQ(P4JFunctionSetGlobal(&name, second.handle(), 1), 0);
  EXPECT_EQ(PackedFunc::GetGlobal("test.Registered")().cast<int>(), 2);

  P4JByteArray missing = details::ByteArrayOf("test.NoSuchFunction");
  P4JObjectHandle handle = reinterpret_cast<P4JObjectHandle>(1);
  ASSERT_EQ(P4JFunctionGetGlobal(&missing, &handle), 0);
  EXPECT_EQ(handle, nullptr);

  std::vector<std::string> names = Registry::ListNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const char* expected : {"test.Mul", "test.Registered", "packed4j.ListSize", "packed4j.MapItems",
                               "packed4j.GetTypeKey", "packed4j.ObjectLiveCount", "packed4j.ListFromInt64Bytes"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
}

TEST(FunctionTest, AGlobalNameThatIsNotUtf8IsRefused) {
  // Java and the describe tool read names as UTF-8: such a name would be listed and then not found by that name.
  PackedFunc function([](Args, RetValue* rv) { *rv = 1; }, "test.Latin1");
  const std::string latin1 = "test.Caf\xe9";
  P4JByteArray name = details::ByteArrayOf(latin1);
  EXPECT_EQ(P4JFunctionSetGlobal(&name, function.handle(), 0), -1);
  EXPECT_EQ(TakeRaised(),
            "ValueError: global function name is not UTF-8 (byte 0xe9 at offset 8 of \"test.Caf...\"): a name must "
            "be UTF-8 text");
  std::vector<std::string> names = Registry::ListNames();
  EXPECT_EQ(std::find(names.begin(), names.end(), latin1), names.end());
  const std::string utf8 = "test.Caf\xc3\xa9";
  P4JByteArray valid = details::ByteArrayOf(utf8);
  EXPECT_EQ(P4JFunctionSetGlobal(&valid, function.handle(), 0), 0) << TakeRaised();
}

TEST(FunctionTest, AnEmptyGlobalNameIsRefusedAndRecordedForTheLoader) {
  // The loader (Packed4j.loadLibrary, describe) reports the refusals recorded while a plugin registered: an empty
  // name was refused on stderr only, so a plugin with two refusals was reported with one.
  PackedFunc take = PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors");
  take();
  PackedFunc function([](Args, RetValue* rv) { *rv = 1; }, "test.Empty");
  P4JByteArray empty = details::ByteArrayOf("");
  EXPECT_EQ(P4JFunctionSetGlobal(&empty, function.handle(), 0), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: global function name is empty: a name must be non-empty UTF-8 text");
  const std::string latin1 = "test.Caf\xe9";
  P4JByteArray invalid = details::ByteArrayOf(latin1);
  EXPECT_EQ(P4JFunctionSetGlobal(&invalid, function.handle(), 0), -1);
  TakeRaised();
  List<std::string> refused = take().cast<List<std::string>>();
  ASSERT_EQ(refused.size(), 2u);
  EXPECT_EQ(refused[0], "ValueError: global function name is empty: a name must be non-empty UTF-8 text");
  EXPECT_EQ(refused[1].rfind("ValueError: global function name is not UTF-8", 0), 0u) << refused[1];
}

TEST(FunctionTest, RegisteringFromSeveralThreadsAtOnceGivesEachItsOwnEntry) {
  // Registry::Register appended to a list without a lock and returned its last entry: threads registering at run
  // time corrupted the heap ("double free or corruption") or attached a body to another thread's name.
  constexpr int kThreads = 4;
  constexpr int kEach = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kEach; ++i) {
        int64_t id = t * kEach + i;
        Registry::Register(("test.Concurrent." + std::to_string(id)).c_str(), true)
            .set_body_typed([id]() { return id; });
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int64_t id : {int64_t{0}, int64_t{kEach - 1}, int64_t{kEach}, int64_t{kThreads * kEach - 1}}) {
    PackedFunc function = PackedFunc::GetGlobal("test.Concurrent." + std::to_string(id));
    ASSERT_TRUE(function.defined()) << id;
    EXPECT_EQ(function().cast<int64_t>(), id);
  }
  for (int64_t id = 0; id < kThreads * kEach; id += 97) {
    EXPECT_EQ(PackedFunc::GetGlobal("test.Concurrent." + std::to_string(id))().cast<int64_t>(), id) << id;
  }
}

TEST(FunctionTest, ADuplicateGlobalNamesTheLibraryThatRegisteredItFirstAndTheOneRefused) {
  // libpacked4j.so registers its packed4j.* globals; this test binary registers one of them again (userK K4).
  PackedFunc mine([](Args, RetValue* rv) { *rv = 1; }, "packed4j.TakeRegistrationErrors");
  P4JByteArray name = details::ByteArrayOf("packed4j.TakeRegistrationErrors");
  EXPECT_EQ(P4JFunctionSetGlobal(&name, mine.handle(), 0), -1);
  std::string refused = TakeRaised();
  size_t core = refused.find("libpacked4j.so, and ");
  size_t again = refused.find("packed4j_tests registers it again (the first one is kept)");
  EXPECT_EQ(refused.rfind("ValueError: global function \"packed4j.TakeRegistrationErrors\" is already registered by ",
                          0),
            0u)
      << refused;
  EXPECT_NE(core, std::string::npos) << refused;
  EXPECT_NE(again, std::string::npos) << refused;
  EXPECT_LT(core, again) << refused;
  PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors")();  // the refusal recorded for a loader
}

TEST(FunctionTest, RegistryMacroReportsADuplicateAndKeepsTheFirst) {
  Registry::Register("test.MacroDuplicate").set_body_typed([]() { return 1; });
  ::testing::internal::CaptureStderr();
  Registry::Register("test.MacroDuplicate").set_body_typed([]() { return 2; });
  std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed.rfind("packed4j: cannot register global function \"test.MacroDuplicate\": ValueError: global "
                          "function \"test.MacroDuplicate\" is already registered by ",
                          0),
            0u)
      << printed;
  EXPECT_EQ(Registry::Get("test.MacroDuplicate")().cast<int>(), 1);
  Registry::Register("test.MacroDuplicate", /*allow_override=*/true).set_body_typed([]() { return 3; });
  EXPECT_EQ(Registry::Get("test.MacroDuplicate")().cast<int>(), 3);
}

TEST(FunctionTest, CallbacksAndClosures) {
  int64_t baseline = P4JObjectLiveCount();
  {
    auto apply = PackedFunc::FromTyped([](PackedFunc f, int64_t x) { return f(x).cast<int64_t>() + 1; }, "test.Apply");
    PackedFunc square([](Args args, RetValue* rv) { *rv = args[0].cast<int64_t>() * args[0].cast<int64_t>(); });
    EXPECT_EQ(apply(square, 5).cast<int64_t>(), 26);
    auto make_adder = PackedFunc::FromTyped([](int64_t n) {
      return PackedFunc::FromTyped([n](int64_t x) { return x + n; }, "test.Adder");
    });
    EXPECT_EQ(make_adder.signature(), "(int64) -> function");
    PackedFunc add_ten = make_adder(10).cast<PackedFunc>();
    EXPECT_EQ(add_ten(5).cast<int64_t>(), 15);
    EXPECT_EQ(ErrorOf([&] { add_ten("x"); }), "TypeError: test.Adder: argument 0 expected int64, got string \"x\"");
    EXPECT_EQ(ErrorOf([] { PackedFunc()(); }), "ValueError: calling an undefined PackedFunc");
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(FunctionTest, BuiltinGlobals) {
  int64_t live = PackedFunc::GetGlobal("packed4j.ObjectLiveCount")().cast<int64_t>();
  EXPECT_EQ(live, P4JObjectLiveCount());
  EXPECT_EQ(PackedFunc::GetGlobal("packed4j.ObjectLiveCount").signature(), "() -> int64");
  EXPECT_EQ(PackedFunc::GetGlobal("packed4j.GetTypeKey")(List<int64_t>()).cast<std::string>(), "List");
  EXPECT_EQ(ErrorOf([] { PackedFunc::GetGlobal("packed4j.GetTypeKey")(nullptr); }),
            "TypeError: packed4j.GetTypeKey: argument 0 expected Object, got None");
  int64_t buffer[] = {5, 6, 7};
  List<int64_t> list = PackedFunc::GetGlobal("packed4j.ListFromInt64Bytes")(Bytes(buffer, sizeof(buffer)))
                           .cast<List<int64_t>>();
  EXPECT_EQ(list.ToVector(), (std::vector<int64_t>{5, 6, 7}));
  EXPECT_EQ(ErrorOf([] { PackedFunc::GetGlobal("packed4j.ListFromInt64Bytes")(Bytes("abc", 3)); }),
            "ValueError: packed4j.ListFromInt64Bytes: argument 0 has 3 bytes, which is not a whole number of int64 "
            "values (8 bytes each)");
  // A raw pointer is refused: the built-ins never read memory the caller does not prove it owns.
  EXPECT_NE(ErrorOf([&] { PackedFunc::GetGlobal("packed4j.ListFromInt64Bytes")(static_cast<void*>(buffer)); }),
            "");
}

TEST(FunctionTest, ConcurrentCallsShareFunctionsAndCountObjects) {
  int64_t baseline = P4JObjectLiveCount();
  PackedFunc concat = PackedFunc::GetGlobal("test.Concat");
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        std::string expected = std::to_string(t) + "-" + std::to_string(i);
        std::string got = concat(std::to_string(t), "-" + std::to_string(i));
        if (got != expected) ++failures;
        if (!PackedFunc::GetGlobal("test.Mul").defined()) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(FunctionTest, AbiVersion) {
  EXPECT_EQ(P4JAbiVersion(), P4J_ABI_VERSION);
  EXPECT_EQ(P4JAbiVersion() >> 16, P4J_ABI_VERSION_MAJOR);
  EXPECT_EQ(P4JAbiVersion() & 0xffff, P4J_ABI_VERSION_MINOR);
}

TEST(TypedPackedFuncTest, TakesTheTypedEntryWhenTheSignatureMatches) {
  PackedFunc add = PackedFunc::FromTyped([](int64_t a, int64_t b) { return a + b; }, "add");
  TypedPackedFunc<int64_t(int64_t, int64_t)> typed(add);
  EXPECT_TRUE(typed.uses_typed_entry());
  EXPECT_EQ(typed(40, 2), 42);
  // Another signature: packed, with the packed call's checks.
  TypedPackedFunc<int64_t(int32_t, int32_t)> narrower(add);
  EXPECT_FALSE(narrower.uses_typed_entry());
  EXPECT_EQ(narrower(40, 2), 42);
  TypedPackedFunc<int64_t(int64_t, int64_t)> untyped(PackedFunc([](Args args, RetValue* rv) {
    *rv = static_cast<int64_t>(args[0]) - static_cast<int64_t>(args[1]);
  }));
  EXPECT_FALSE(untyped.uses_typed_entry());
  EXPECT_EQ(untyped(40, 2), 38);
}

TEST(FunctionTest, AnElementOfAVectorParameterIsNamedWithItsArgument) {
  // std::vector<T> converts every element when the call starts; an element's error named the element only.
  PackedFunc sum = PackedFunc::FromTyped([](int64_t scale, std::vector<int64_t> values) {
    int64_t total = 0;
    for (int64_t value : values) total += value * scale;
    return total;
  }, "test.VecSum");
  EXPECT_EQ(sum(2, List<Any>{Any(1), Any(2)}).cast<int64_t>(), 6);
  EXPECT_EQ(ErrorOf([&] { sum(1, List<Any>{Any(1), Any("x")}); }),
            "TypeError: test.VecSum: argument 1, list element at index 1 expected int64, got string \"x\"");
  PackedFunc nested = PackedFunc::FromTyped([](std::vector<std::vector<int32_t>> rows) {
    return static_cast<int64_t>(rows.size());
  }, "test.Rows");
  EXPECT_EQ(ErrorOf([&] { nested(List<Any>{Any(List<Any>{Any(1)}), Any(List<Any>{Any(int64_t{1} << 40)})}); }),
            "ValueError: test.Rows: argument 0, list element at index 1, list element at index 0 value 1099511627776 "
            "is out of range for int32");
}

TEST(TypedPackedFuncTest, IsAParameterTypeAndAConversionAsTheReadmeSays) {
  // README, Type mapping: a functional interface is a `PackedFunc` or `TypedPackedFunc<R(A...)>` parameter. The
  // second did not compile as a set_body_typed parameter, nor as an ArgValue conversion.
  PackedFunc apply = PackedFunc::FromTyped([](TypedPackedFunc<int64_t(int64_t)> f, int64_t x) {
    EXPECT_TRUE(f.uses_typed_entry());
    return f(f(x));
  }, "apply");
  EXPECT_EQ(apply.signature(), "(function, int64) -> int64");
  PackedFunc add_one = PackedFunc::FromTyped([](int64_t v) { return v + 1; }, "add_one");
  EXPECT_EQ(apply(add_one, 5).cast<int64_t>(), 7);
  EXPECT_EQ(ErrorOf([&] { apply(3, 5); }), "TypeError: apply: argument 0 expected function, got int 3");
  PackedFunc packed([](Args args, RetValue* rv) {
    TypedPackedFunc<int64_t(int64_t)> f = args[0].cast<TypedPackedFunc<int64_t(int64_t)>>();
    *rv = f(args[1].cast<int64_t>());
  }, "packed");
  EXPECT_EQ(packed(add_one, 1).cast<int64_t>(), 2);
  TypedPackedFunc<int64_t(int64_t)> stored = Any(add_one).cast<TypedPackedFunc<int64_t(int64_t)>>();
  EXPECT_EQ(stored(9), 10);
}

TEST(FunctionTest, AConvertedCallResultSaysItIsTheResultOfACall) {
  // `bool keep = callback(x);` of a callback that returned None read "expected bool, got None", which the caller's
  // entry then reported as its own error, as if an argument of the caller were wrong.
  PackedFunc none([](Args, RetValue* rv) { *rv = Any(); }, "test.None");
  EXPECT_EQ(ErrorOf([&] {
              bool keep = none();
              (void)keep;
            }),
            "TypeError: the result of a called function expected bool, got None");
  EXPECT_EQ(ErrorOf([&] { none().cast<int64_t>(); }),
            "TypeError: the result of a called function expected int64, got None");
  EXPECT_EQ(ErrorOf([&] { static_cast<std::string>(none()); }),
            "TypeError: the result of a called function expected string, got None");
  Any kept = none();  // an Any like any other
  EXPECT_TRUE(kept.is_none());
  EXPECT_EQ(ErrorOf([&] { kept.cast<bool>(); }), "TypeError: expected bool, got None");
  PackedFunc seven([](Args, RetValue* rv) { *rv = 7; }, "test.Seven");
  int64_t value = seven();
  EXPECT_EQ(value, 7);
  EXPECT_EQ(seven().cast<int32_t>(), 7);
  // What compiled while a call returned an Any still does: replacing the value, and a typed body that returns a
  // call's result (an `any` result, as before).
  auto result = seven();
  result = 5;
  EXPECT_EQ(result.cast<int64_t>(), 5);
  PackedFunc forward = PackedFunc::FromTyped([](PackedFunc f, int64_t x) { return f(x); }, "test.Forward");
  EXPECT_EQ(forward.signature(), "(function, int64) -> any");
  PackedFunc twice = PackedFunc::FromTyped([](int64_t x) { return 2 * x; }, "twice");
  EXPECT_EQ(forward(twice, 21).cast<int64_t>(), 42);
}

TEST(FunctionTest, AResultOutOfTheWireRangeNamesTheFunctionAndTheResult) {
  // A uint64 result above INT64_MAX does not fit the int64 wire type; the error named neither function nor result.
  PackedFunc big = PackedFunc::FromTyped([] { return std::numeric_limits<uint64_t>::max(); }, "test.U64Max");
  const char* expected =
      "ValueError: test.U64Max: result value 18446744073709551615 is out of range for int64, the wire type of "
      "integers";
  EXPECT_EQ(ErrorOf([&] { big(); }), expected);                                    // packed
  TypedPackedFunc<int64_t()> typed_big(big);
  EXPECT_EQ(ErrorOf([&] { typed_big(); }), expected);  // the typed entry
  PackedFunc big_out = PackedFunc::FromTyped([](int64_t) { return std::numeric_limits<uint64_t>::max(); },
                                             "test.U64MaxOf");
  EXPECT_EQ(ErrorOf([&] { big_out(List<Any>{Any(1)}); }),
            "TypeError: test.U64MaxOf: argument 0 expected int64, got list of size 1");
  EXPECT_EQ(ErrorOf([&] { big_out(1); }),
            "ValueError: test.U64MaxOf: result value 18446744073709551615 is out of range for int64, the wire type of "
            "integers");
}

TEST(TypedPackedFuncTest, AResultOrArgumentThatDoesNotConvertNamesTheGlobalAndWhere) {
  Registry::Register("test.typed.FourBillion").set_body_typed([](int64_t x) { return x * 4000000000LL; });
  Registry::Register("test.typed.Nothing").set_body_typed([](int64_t) {});
  // Another signature than the global's: packed, and the result converted to R, naming the global.
  auto narrow = TypedPackedFunc<int32_t(int64_t)>::GetGlobal("test.typed.FourBillion");
  EXPECT_FALSE(narrow.uses_typed_entry());
  EXPECT_EQ(ErrorOf([&] { narrow(1); }),
            "ValueError: test.typed.FourBillion: result value 4000000000 is out of range for int32");
  auto nothing = TypedPackedFunc<int64_t(int64_t)>::GetGlobal("test.typed.Nothing");
  EXPECT_EQ(ErrorOf([&] { nothing(1); }), "TypeError: test.typed.Nothing: result expected int64, got None");
  // A function passed in has no name of its own here.
  TypedPackedFunc<int32_t(int64_t)> passed(PackedFunc::GetGlobal("test.typed.FourBillion"));
  EXPECT_EQ(ErrorOf([&] { passed(1); }),
            "ValueError: TypedPackedFunc: result value 4000000000 is out of range for int32");
  // A global nobody registered: named when called.
  auto missing = TypedPackedFunc<int64_t(int64_t)>::GetGlobal("test.typed.Missing");
  EXPECT_FALSE(missing.defined());
  EXPECT_EQ(ErrorOf([&] { missing(1); }),
            "ValueError: test.typed.Missing: no global function of this name is registered");
  // A uint64 argument above INT64_MAX on the typed entry: named by its place.
  auto same = TypedPackedFunc<int64_t(uint64_t)>::GetGlobal("test.typed.FourBillion");
  EXPECT_EQ(ErrorOf([&] { same(std::numeric_limits<uint64_t>::max()); }),
            "ValueError: test.typed.FourBillion: argument 0 value 18446744073709551615 is out of range for int64, the "
            "wire type of integers");
}

TEST(TypedPackedFuncTest, StringsAndErrorsThroughTheTypedEntry) {
  PackedFunc length = PackedFunc::FromTyped([](std::string_view text) {
    if (text.empty()) throw ValueError("empty text");
    return static_cast<int64_t>(text.size());
  }, "length");
  TypedPackedFunc<int64_t(std::string)> typed(length);
  ASSERT_TRUE(typed.uses_typed_entry());
  EXPECT_EQ(typed("h\u00e9llo"), 6);
  try {
    typed("");
    FAIL() << "no error";
  } catch (const ValueError& error) {
    EXPECT_EQ(error.message(), "empty text");
  }
}

}  // namespace
