// Conversions between P4JAny and C++ types: every integer narrowing, floats, bools, strings (byte-exact),
// objects, optionals, Any and RetValue.
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "test_util.h"

namespace {

using namespace packed4j;
using namespace packed4j::testing;

/*! \brief Converts value as argument index of a function named "test.F". */
template <typename T>
T Arg(const P4JAny& value, int index = 0) {
  P4JAny args[3] = {value, value, value};
  return Args(args, 3, "test.F")[index].cast<T>();
}

template <typename T>
std::string ArgError(const P4JAny& value, int index = 0) {
  return ErrorOf([&] { Arg<T>(value, index); });
}

TEST(ValueTest, IntegersWithinRangeConvert) {
  EXPECT_EQ(Arg<int8_t>(IntValue(-128)), -128);
  EXPECT_EQ(Arg<int8_t>(IntValue(127)), 127);
  EXPECT_EQ(Arg<uint8_t>(IntValue(255)), 255);
  EXPECT_EQ(Arg<int16_t>(IntValue(-32768)), -32768);
  EXPECT_EQ(Arg<uint16_t>(IntValue(65535)), 65535);
  EXPECT_EQ(Arg<int32_t>(IntValue(std::numeric_limits<int32_t>::min())), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(Arg<uint32_t>(IntValue(4294967295LL)), 4294967295u);
  EXPECT_EQ(Arg<int64_t>(IntValue(std::numeric_limits<int64_t>::max())), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(Arg<uint64_t>(IntValue(std::numeric_limits<int64_t>::max())),
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(Arg<int>(BoolValue(true)), 1);
}

TEST(ValueTest, EveryNarrowingOverflowIsAValueErrorNamingFunctionIndexValueAndType) {
  EXPECT_EQ(ArgError<int8_t>(IntValue(128), 2), "ValueError: test.F: argument 2 value 128 is out of range for int8");
  EXPECT_EQ(ArgError<int8_t>(IntValue(-129)), "ValueError: test.F: argument 0 value -129 is out of range for int8");
  EXPECT_EQ(ArgError<uint8_t>(IntValue(256)), "ValueError: test.F: argument 0 value 256 is out of range for uint8");
  EXPECT_EQ(ArgError<uint8_t>(IntValue(-1)), "ValueError: test.F: argument 0 value -1 is out of range for uint8");
  EXPECT_EQ(ArgError<int16_t>(IntValue(32768)),
            "ValueError: test.F: argument 0 value 32768 is out of range for int16");
  EXPECT_EQ(ArgError<int16_t>(IntValue(-32769)),
            "ValueError: test.F: argument 0 value -32769 is out of range for int16");
  EXPECT_EQ(ArgError<uint16_t>(IntValue(65536)),
            "ValueError: test.F: argument 0 value 65536 is out of range for uint16");
  EXPECT_EQ(ArgError<uint16_t>(IntValue(-1)), "ValueError: test.F: argument 0 value -1 is out of range for uint16");
  EXPECT_EQ(ArgError<int32_t>(IntValue(2147483648LL)),
            "ValueError: test.F: argument 0 value 2147483648 is out of range for int32");
  EXPECT_EQ(ArgError<int32_t>(IntValue(-2147483649LL)),
            "ValueError: test.F: argument 0 value -2147483649 is out of range for int32");
  EXPECT_EQ(ArgError<uint32_t>(IntValue(4294967296LL)),
            "ValueError: test.F: argument 0 value 4294967296 is out of range for uint32");
  EXPECT_EQ(ArgError<uint32_t>(IntValue(-1)), "ValueError: test.F: argument 0 value -1 is out of range for uint32");
  EXPECT_EQ(ArgError<uint64_t>(IntValue(-1)), "ValueError: test.F: argument 0 value -1 is out of range for uint64");
  EXPECT_EQ(ArgError<bool>(IntValue(2)), "ValueError: test.F: argument 0 value 2 is out of range for bool");
  EXPECT_EQ(ArgError<float>(FloatValue(1e300)),
            "ValueError: test.F: argument 0 value 1.0000000000000001e+300 is out of range for float32");
}

TEST(ValueTest, WideningToTheWireRejectsHugeUnsigned) {
  EXPECT_EQ(ErrorOf([] { Any value = std::numeric_limits<uint64_t>::max(); }),
            "ValueError: value 18446744073709551615 is out of range for int64, the wire type of integers");
  Any fits = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  EXPECT_EQ(fits.raw().v_int64, std::numeric_limits<int64_t>::max());
}

TEST(ValueTest, WrongTypesAreTypeErrorsNamingExpectedAndGot) {
  EXPECT_EQ(ArgError<int>(StrView("abc"), 1), "TypeError: test.F: argument 1 expected int32, got string \"abc\"");
  EXPECT_EQ(ArgError<int64_t>(FloatValue(1.5)), "TypeError: test.F: argument 0 expected int64, got float 1.5");
  EXPECT_EQ(ArgError<bool>(FloatValue(0)), "TypeError: test.F: argument 0 expected bool, got float 0");
  EXPECT_EQ(ArgError<double>(details::NoneValue()), "TypeError: test.F: argument 0 expected float64, got None");
  EXPECT_EQ(ArgError<std::string>(IntValue(7)), "TypeError: test.F: argument 0 expected string, got int 7");
  EXPECT_EQ(ArgError<Bytes>(StrView("x")), "TypeError: test.F: argument 0 expected bytes, got string \"x\"");
  EXPECT_EQ(ArgError<PackedFunc>(details::NoneValue()), "TypeError: test.F: argument 0 expected function, got None");
  EXPECT_EQ(ArgError<List<int64_t>>(IntValue(1)), "TypeError: test.F: argument 0 expected list<int64>, got int 1");
  EXPECT_EQ((ArgError<Map<std::string, double>>(BoolValue(true))),
            "TypeError: test.F: argument 0 expected map<string, float64>, got bool true");
  List<int64_t> list{1, 2};
  EXPECT_EQ(ArgError<String>(ObjectValue(list)), "TypeError: test.F: argument 0 expected string, got list of size 2");
}

TEST(ValueTest, ArgumentPastTheEndIsATypeError) {
  P4JAny args[1] = {IntValue(1)};
  EXPECT_EQ(ErrorOf([&] { Args(args, 1, "test.F")[1].cast<int>(); }),
            "TypeError: test.F: argument 1 was requested, but 1 argument was given");
}

TEST(ValueTest, FloatsAndBools) {
  EXPECT_DOUBLE_EQ(Arg<double>(FloatValue(2.5)), 2.5);
  EXPECT_DOUBLE_EQ(Arg<double>(IntValue(3)), 3.0);
  EXPECT_FLOAT_EQ(Arg<float>(FloatValue(0.25)), 0.25f);
  EXPECT_TRUE(std::isinf(Arg<float>(FloatValue(std::numeric_limits<double>::infinity()))));
  EXPECT_TRUE(Arg<bool>(BoolValue(true)));
  EXPECT_FALSE(Arg<bool>(IntValue(0)));
}

TEST(ValueTest, AnIntegerBecomesAFloatOnlyWhenADoubleHoldsItExactly) {
  // The rule the Java side applies to an int64 result read as double (packed4j-types' Narrowing.isExactDouble).
  EXPECT_DOUBLE_EQ(Arg<double>(IntValue(1LL << 53)), 9007199254740992.0);
  EXPECT_DOUBLE_EQ(Arg<double>(IntValue(-(1LL << 53))), -9007199254740992.0);
  EXPECT_DOUBLE_EQ(Arg<double>(IntValue(std::numeric_limits<int64_t>::min())), -9223372036854775808.0);
  EXPECT_DOUBLE_EQ(Arg<double>(IntValue(1LL << 62)), 4611686018427387904.0);
  EXPECT_EQ(ArgError<double>(IntValue((1LL << 53) + 1)),
            "ValueError: test.F: argument 0 value 9007199254740993 does not fit in float64 without rounding");
  EXPECT_EQ(ArgError<double>(IntValue(std::numeric_limits<int64_t>::max())),
            "ValueError: test.F: argument 0 value 9223372036854775807 does not fit in float64 without rounding");
  // To float32 through the exact double, then narrowed as a float64 is: the precision of a float may drop.
  EXPECT_FLOAT_EQ(Arg<float>(IntValue(16777217)), 16777216.0f);
  EXPECT_EQ(ArgError<float>(IntValue(-((1LL << 53) + 1)), 1),
            "ValueError: test.F: argument 1 value -9007199254740993 does not fit in float32 without rounding");
}

TEST(ValueTest, StringsKeepEmbeddedNulAndNonBmpBytes) {
  const std::string text("a\0b\xF0\x9F\x98\x80z", 8);  // 'a' NUL 'b' U+1F600 'z'
  EXPECT_EQ(Arg<std::string>(StrView(text)), text);
  EXPECT_EQ(Arg<std::string_view>(StrView(text)).size(), 8u);

  P4JByteArray bytes = details::ByteArrayOf(text);
  P4JAny owned;
  ASSERT_EQ(P4JStringFromByteArray(&bytes, &owned), 0);
  EXPECT_EQ(owned.type_index, kP4JString);
  const P4JByteArray* cell = details::CellOf<P4JByteArray>(owned.v_obj);
  EXPECT_EQ(cell->size, 8);
  EXPECT_EQ(std::memcmp(cell->data, text.data(), 8), 0);
  EXPECT_EQ(cell->data[8], '\0');
  EXPECT_EQ(Arg<std::string>(owned), text);
  String string = Arg<String>(owned);
  EXPECT_EQ(string.size(), 8u);
  EXPECT_EQ(string, text);
  Any::FromOwned(owned);
}

TEST(ValueTest, BytesFromViewsAndObjects) {
  const std::string data("\x00\xff\x01", 3);
  Bytes bytes = Arg<Bytes>(BytesViewValue(data));
  EXPECT_EQ(bytes.size(), 3u);
  EXPECT_EQ(bytes.view(), data);
  EXPECT_EQ(bytes->type_index(), kP4JBytes);
  Bytes again = Arg<Bytes>(ObjectValue(bytes));
  EXPECT_TRUE(again.same_as(bytes));
  EXPECT_EQ(again.ToVector(), (std::vector<uint8_t>{0, 255, 1}));
}

TEST(ValueTest, ObjectRefsOptionalsAndNone) {
  EXPECT_FALSE(Arg<ObjectRef>(details::NoneValue()).defined());
  EXPECT_FALSE(Arg<std::optional<String>>(details::NoneValue()).has_value());
  EXPECT_EQ(Arg<std::optional<int>>(IntValue(4)).value(), 4);
  EXPECT_EQ(ArgError<String>(details::NoneValue()), "TypeError: test.F: argument 0 expected string, got None");
  // A plain ObjectRef takes views as new String / Bytes objects.
  ObjectRef from_view = Arg<ObjectRef>(StrView("hi"));
  EXPECT_EQ(from_view->type_index(), kP4JString);
  EXPECT_EQ(ArgError<ObjectRef>(IntValue(1)), "TypeError: test.F: argument 0 expected Object, got int 1");
}

TEST(ValueTest, AnyHoldsAndConvertsValues) {
  int64_t baseline = P4JObjectLiveCount();
  {
    Any number = 42;
    EXPECT_EQ(number.type_index(), kP4JInt);
    int64_t as_int = number;
    EXPECT_EQ(as_int, 42);
    EXPECT_EQ(static_cast<int>(number), 42);
    EXPECT_EQ(ErrorOf([&] { std::string text = number; }), "TypeError: expected string, got int 42");
    Any text = std::string("casio");
    EXPECT_EQ(text.type_index(), kP4JString);
    Any copy = text;
    EXPECT_EQ(text.raw().v_obj->ref_counter, 2u);
    EXPECT_EQ(copy.cast<std::string>(), "casio");
    Any moved = std::move(copy);
    EXPECT_TRUE(copy.is_none());  // NOLINT(bugprone-use-after-move): moved-from Any is None by contract
    Any none;
    EXPECT_TRUE(none.is_none());
    EXPECT_EQ(Any(2.5).cast<double>(), 2.5);
    EXPECT_EQ(Any(true).type_index(), kP4JBool);
    EXPECT_EQ(Any("literal").cast<std::string>(), "literal");
    EXPECT_EQ(Any(nullptr).type_index(), kP4JNone);
    EXPECT_EQ(Any(std::optional<int>()).type_index(), kP4JNone);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ValueTest, RetValueTakesEveryStorableType) {
  RetValue rv;
  rv = 1 + 2;
  EXPECT_EQ(rv.cast<int64_t>(), 3);
  rv = 2.5f;
  EXPECT_EQ(rv.type_index(), kP4JFloat);
  rv = std::string("s");
  EXPECT_EQ(rv.type_index(), kP4JString);
  rv = "t";
  EXPECT_EQ(rv.cast<std::string>(), "t");
  rv = false;
  EXPECT_EQ(rv.type_index(), kP4JBool);
  rv = List<int64_t>{1};
  EXPECT_EQ(rv.type_index(), kP4JList);
  rv = nullptr;
  EXPECT_TRUE(rv.is_none());
}

TEST(ValueTest, DescriptionsQuoteAndCut) {
  EXPECT_EQ(details::DescribeValue(StrView("a\"b\n")), "string \"a\\\"b\\n\"");
  EXPECT_EQ(details::DescribeValue(StrView(std::string(50, 'x'))), "string \"" + std::string(40, 'x') + "...\"");
  EXPECT_EQ(details::DescribeValue(BytesViewValue("abc")), "bytes of size 3");
}

}  // namespace
