// The typed entry forms ABI 2.4 added (c_api.h, P4JFunctionCell.typed_entry): object words, packed values, string
// and bytes spans as parameters, kept spans, owned object words and results through out. Each form is called as
// the Java runtime calls it, and each failure gives the packed call's error.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <packed4j/packed4j.h>

#include "test_util.h"

namespace packed4j {
namespace {

using testing::ObjectValue;
using testing::StrView;
using testing::TakeRaised;

P4J_REGISTER_GLOBAL("forms.StringObjectLength").set_body_typed([](String text) {
  return static_cast<int64_t>(text.size());
});
P4J_REGISTER_GLOBAL("forms.BytesSum").set_body_typed([](Bytes data) {
  int64_t sum = 0;
  for (size_t i = 0; i < data.size(); ++i) sum += data.data()[i];
  return sum;
});
P4J_REGISTER_GLOBAL("forms.ListSum").set_body_typed([](List<int64_t> values) {
  int64_t sum = 0;
  for (int64_t value : values) sum += value;
  return sum;
});
P4J_REGISTER_GLOBAL("forms.OrZero").set_body_typed([](std::optional<int64_t> value) { return value.value_or(0); });
P4J_REGISTER_GLOBAL("forms.KeyOf").set_body_typed([](ObjectRef object) {
  return object.defined() ? object->GetTypeKey() : std::string("None");
});
P4J_REGISTER_GLOBAL("forms.Repeat").set_body_typed([](std::string text, int64_t times) {
  if (times < 0) throw ValueError("times must not be negative");
  std::string repeated;
  for (int64_t i = 0; i < times; ++i) repeated += text;
  return repeated;
});
P4J_REGISTER_GLOBAL("forms.MaybeString").set_body_typed([](bool present) {
  return present ? String("here") : String(ObjectPtr<Object>());
});
P4J_REGISTER_GLOBAL("forms.Reversed").set_body_typed([](Bytes data) {
  std::string copy(data.view().rbegin(), data.view().rend());
  return Bytes(std::string_view(copy));
});
P4J_REGISTER_GLOBAL("forms.Range").set_body_typed([](int64_t n) {
  if (n < 0) throw ValueError("n must not be negative");
  List<int64_t> values;
  for (int64_t i = 0; i < n; ++i) values.push_back(i);
  return n == 0 ? List<int64_t>(ObjectPtr<Object>()) : values;
});
P4J_REGISTER_GLOBAL("forms.Half").set_body_typed([](int64_t value) -> std::optional<int64_t> {
  if (value < 0) throw ValueError("negative");
  if (value % 2 != 0) return std::nullopt;
  return value / 2;
});
P4J_REGISTER_GLOBAL("forms.EchoView").set_body_typed([](BytesView data) { return data; });
P4J_REGISTER_GLOBAL("forms.VectorSum").set_body_typed([](const std::vector<int64_t>& values) {
  int64_t sum = 0;
  for (int64_t value : values) sum += value;
  return sum;
});
P4J_REGISTER_GLOBAL("forms.ViewSum").set_body_typed([](ListView<int32_t> values) {
  int64_t sum = 0;
  for (int32_t value : values) sum += value;
  return sum;
});
P4J_REGISTER_GLOBAL("forms.ViewSum64").set_body_typed([](ListView<int64_t> values) {
  int64_t sum = 0;
  for (int64_t i = 0; i < values.size(); ++i) sum += values[i];
  for (int64_t value : values) sum -= value;  // both reads agree: 0
  return sum + (values.empty() ? 0 : values[values.size() - 1]) + values.size() * 1000;
});
P4J_REGISTER_GLOBAL("forms.ViewHalves").set_body_typed([](ListView<double> values) {
  double sum = 0;
  for (double value : values) sum += value;
  return sum / 2;
});
P4J_REGISTER_GLOBAL("forms.Joined").set_body_typed([](std::vector<std::string> parts) {
  std::string joined;
  for (const std::string& part : parts) joined += part;
  return joined;
});
P4J_REGISTER_GLOBAL("forms.Doubled").set_body_typed([](std::vector<double> values) {
  for (double& value : values) value *= 2;
  return values;
});

/*! \brief The entry of a global, as the given C function type. */
template <typename Entry>
Entry EntryOf(const PackedFunc& function) {
  void* entry = function.typed_entry();
  EXPECT_NE(entry, nullptr) << function.signature();
  return reinterpret_cast<Entry>(entry);
}

/*!
 * \brief Checks that the error the entry raised (taken first: a packed call would take it as its own) is the
 *  packed call's.
 */
#define EXPECT_RAISED_AS_PACKED(packed_error)          \
  do {                                              \
    std::string raised = TakeRaised();              \
    EXPECT_EQ(raised, packed_error);                \
  } while (false)

/*! \brief The error a packed call of function with args raises: "Kind: message". */
template <typename... Args>
std::string PackedError(const PackedFunc& function, Args&&... args) {
  return testing::ErrorOf([&] { function(std::forward<Args>(args)...); });
}

TEST(TypedEntryFormsTest, EverySignatureSetBodyTypedTakesHasAnEntry) {
  for (const char* name : {"forms.StringObjectLength", "forms.BytesSum", "forms.ListSum", "forms.OrZero",
                           "forms.KeyOf", "forms.Repeat", "forms.MaybeString", "forms.Reversed", "forms.Range",
                           "forms.Half"}) {
    EXPECT_NE(PackedFunc::GetGlobal(name).typed_entry(), nullptr) << name;
  }
  // set_body records no signature and has no typed entry.
  PackedFunc untyped([](Args, RetValue* rv) { *rv = int64_t{1}; });
  EXPECT_EQ(untyped.typed_entry(), nullptr);
}

TEST(TypedEntryFormsTest, StringAndBytesObjectsComeAsSpans) {
  PackedFunc length = PackedFunc::GetGlobal("forms.StringObjectLength");
  EXPECT_EQ(length.signature(), "(string) -> int64");
  auto length_entry = EntryOf<int64_t (*)(P4JObjectHandle, const P4JByteArray*)>(length);
  P4JByteArray text = details::ByteArrayOf("h\xc3\xa9llo");
  EXPECT_EQ(length_entry(length.handle(), &text), 6);
  EXPECT_EQ(length_entry(length.handle(), nullptr), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(), "TypeError: forms.StringObjectLength: argument 0 expected string, got a NULL span");

  PackedFunc sum = PackedFunc::GetGlobal("forms.BytesSum");
  EXPECT_EQ(sum.signature(), "(bytes) -> int64");
  auto sum_entry = EntryOf<int64_t (*)(P4JObjectHandle, const P4JByteArray*)>(sum);
  std::string data("\x01\x02\x00\xff", 4);
  P4JByteArray span = details::ByteArrayOf(data);
  EXPECT_EQ(sum_entry(sum.handle(), &span), 1 + 2 + 0 + 255);
  EXPECT_EQ(TakeRaised(), "");
}

TEST(TypedEntryFormsTest, ObjectsComeAsObjectWordsCheckedLikePackedArguments) {
  int64_t baseline = P4JObjectLiveCount();
  PackedFunc sum = PackedFunc::GetGlobal("forms.ListSum");
  EXPECT_EQ(sum.signature(), "(list<int64>) -> int64");
  auto entry = EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(sum);
  {
    List<int64_t> values{1, 2, 39};
    int64_t word = static_cast<int64_t>(reinterpret_cast<uintptr_t>(values.handle()));
    EXPECT_EQ(entry(sum.handle(), word), 42);
    EXPECT_EQ(values.handle()->ref_counter, 1u) << "borrowed: the entry keeps no reference";

    // None, and an object of another type, fail as the packed call does.
    EXPECT_EQ(entry(sum.handle(), 0), P4J_TYPED_ERROR_I64);
    EXPECT_RAISED_AS_PACKED(PackedError(sum, ObjectRef()));
    String other("not a list");
    EXPECT_EQ(entry(sum.handle(), static_cast<int64_t>(reinterpret_cast<uintptr_t>(other.handle()))),
              P4J_TYPED_ERROR_I64);
    std::string error = TakeRaised();
    EXPECT_EQ(error, PackedError(sum, other)) << "raised by the entry, then the packed call's own";
    EXPECT_NE(error.find("argument 0"), std::string::npos) << error;
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(TypedEntryFormsTest, AnyObjectAndOptionalComeAsPackedValues) {
  PackedFunc or_zero = PackedFunc::GetGlobal("forms.OrZero");
  EXPECT_EQ(or_zero.signature(), "(optional<int64>) -> int64");
  auto optional_entry = EntryOf<int64_t (*)(P4JObjectHandle, const P4JAny*)>(or_zero);
  P4JAny seven = testing::IntValue(7);
  P4JAny none = details::NoneValue();
  EXPECT_EQ(optional_entry(or_zero.handle(), &seven), 7);
  EXPECT_EQ(optional_entry(or_zero.handle(), &none), 0);
  P4JAny text = StrView("seven");
  EXPECT_EQ(optional_entry(or_zero.handle(), &text), P4J_TYPED_ERROR_I64);
  EXPECT_RAISED_AS_PACKED(PackedError(or_zero, "seven"));
  EXPECT_EQ(optional_entry(or_zero.handle(), nullptr), P4J_TYPED_ERROR_I64);
  EXPECT_EQ(TakeRaised(),
            "TypeError: forms.OrZero: argument 0 expected optional<int64>, got a NULL value pointer");

  // ObjectRef takes a string view too, which is why "Object" is a packed value and not an object word.
  PackedFunc key_of = PackedFunc::GetGlobal("forms.KeyOf");
  EXPECT_EQ(key_of.signature(), "(Object) -> string");
  auto key_entry = EntryOf<const P4JByteArray* (*)(P4JObjectHandle, const P4JAny*)>(key_of);
  P4JAny view = StrView("a string");
  const P4JByteArray* key = key_entry(key_of.handle(), &view);
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(details::ViewOf(*key), "String");
  EXPECT_EQ(details::ViewOf(*key_entry(key_of.handle(), &none)), "None");
}

TEST(TypedEntryFormsTest, StringResultsAreSpansTheThreadKeeps) {
  PackedFunc repeat = PackedFunc::GetGlobal("forms.Repeat");
  EXPECT_EQ(repeat.signature(), "(string, int64) -> string");
  auto entry = EntryOf<const P4JByteArray* (*)(P4JObjectHandle, const P4JByteArray*, int64_t)>(repeat);
  P4JByteArray ab = details::ByteArrayOf("ab");
  const P4JByteArray* short_result = entry(repeat.handle(), &ab, 3);
  ASSERT_NE(short_result, nullptr);
  EXPECT_EQ(details::ViewOf(*short_result), "ababab");
  // A long result (past any small-string buffer), then an empty one, in the same slot.
  const P4JByteArray* long_result = entry(repeat.handle(), &ab, 5000);
  ASSERT_NE(long_result, nullptr);
  EXPECT_EQ(details::ViewOf(*long_result).size(), 10000u);
  EXPECT_EQ(details::ViewOf(*long_result).substr(9996), "abab");
  const P4JByteArray* empty = entry(repeat.handle(), &ab, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_NE(empty->data, nullptr) << "an empty string is not None";
  EXPECT_EQ(empty->size, 0);
  // A failure is NULL with the error raised, the packed call's error.
  EXPECT_EQ(entry(repeat.handle(), &ab, -1), nullptr);
  EXPECT_RAISED_AS_PACKED(PackedError(repeat, "ab", -1));
  EXPECT_EQ(TakeRaised(), "");

  // A String result is held, not copied; a null String reference is a span whose data is NULL (None).
  int64_t baseline = P4JObjectLiveCount();
  PackedFunc maybe = PackedFunc::GetGlobal("forms.MaybeString");
  auto maybe_entry = EntryOf<const P4JByteArray* (*)(P4JObjectHandle, int64_t)>(maybe);
  const P4JByteArray* here = maybe_entry(maybe.handle(), 1);
  ASSERT_NE(here, nullptr);
  EXPECT_EQ(details::ViewOf(*here), "here");
  const P4JByteArray* absent = maybe_entry(maybe.handle(), 0);
  ASSERT_NE(absent, nullptr);
  EXPECT_EQ(absent->data, nullptr);
  EXPECT_EQ(TakeRaised(), "");
  EXPECT_EQ(P4JObjectLiveCount(), baseline) << "the slot let go of the String when the next result came";

  PackedFunc reversed = PackedFunc::GetGlobal("forms.Reversed");
  EXPECT_EQ(reversed.signature(), "(bytes) -> bytes");
  auto reversed_entry = EntryOf<const P4JByteArray* (*)(P4JObjectHandle, const P4JByteArray*)>(reversed);
  std::string data("\x01\x00\x02", 3);
  P4JByteArray span = details::ByteArrayOf(data);
  const P4JByteArray* bytes = reversed_entry(reversed.handle(), &span);
  ASSERT_NE(bytes, nullptr);
  EXPECT_EQ(details::ViewOf(*bytes), std::string_view("\x02\x00\x01", 3));
}

TEST(TypedEntryFormsTest, ObjectResultsAreOwnedObjectWords) {
  int64_t baseline = P4JObjectLiveCount();
  PackedFunc range = PackedFunc::GetGlobal("forms.Range");
  EXPECT_EQ(range.signature(), "(int64) -> list<int64>");
  auto entry = EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(range);
  int64_t word = entry(range.handle(), 4);
  ASSERT_NE(word, 0);
  ASSERT_NE(word, P4J_TYPED_ERROR_I64);
  {
    List<int64_t> values = details::ObjectRefAccess::FromOwnedHandle<List<int64_t>>(
        reinterpret_cast<P4JObjectHandle>(static_cast<uintptr_t>(word)));
    EXPECT_EQ(values.handle()->ref_counter, 1u) << "the caller took the only reference";
    ASSERT_EQ(values.size(), 4u);
    EXPECT_EQ(values[3], 3);
  }
  EXPECT_EQ(entry(range.handle(), 0), 0) << "a null reference is None";
  EXPECT_EQ(entry(range.handle(), -1), P4J_TYPED_ERROR_I64);
  EXPECT_RAISED_AS_PACKED(PackedError(range, -1));
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}
/*! \brief A borrowed list cell over values (P4J_LIST_WORD_BORROWED), as the Java runtime writes one. */
struct BorrowedList {
  std::vector<P4JAny> values;
  P4JListCell cell{};
  explicit BorrowedList(std::vector<P4JAny> items) : values(std::move(items)) {
    cell.data = values.data();
    cell.size = static_cast<int64_t>(values.size());
    cell.capacity = cell.size;
  }
  int64_t word() const { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(&cell)) | P4J_LIST_WORD_BORROWED; }
};

TEST(TypedEntryFormsTest, BytesViewsAreSpansBothWaysWithoutABytesObject) {
  details::SpanResultSlot::OfThisThread().object = ObjectRef();
  int64_t baseline = P4JObjectLiveCount();
  PackedFunc echo = PackedFunc::GetGlobal("forms.EchoView");
  EXPECT_EQ(echo.signature(), "(bytes) -> bytes");
  auto entry = EntryOf<const P4JByteArray* (*)(P4JObjectHandle, const P4JByteArray*)>(echo);
  std::string data("\x00\x01\xff", 3);
  P4JByteArray span = details::ByteArrayOf(data);
  const P4JByteArray* result = entry(echo.handle(), &span);
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(details::ViewOf(*result), data);
  EXPECT_NE(result->data, span.data) << "copied where the thread keeps span results";
  EXPECT_EQ(P4JObjectLiveCount(), baseline) << "no Bytes object made";
  // Packed: a Bytes object in, a Bytes object out; a string is refused as by Bytes.
  Bytes back = echo(Bytes(std::string_view(data)));
  EXPECT_EQ(back.view(), data);
  EXPECT_EQ(PackedError(echo, std::string("text")).rfind("TypeError: ", 0), 0u);
}

TEST(TypedEntryFormsTest, ListParametersTakeBorrowedListCells) {
  details::SpanResultSlot::OfThisThread().object = ObjectRef();  // a String an earlier test's result left there
  int64_t baseline = P4JObjectLiveCount();
  for (const char* name : {"forms.ListSum", "forms.VectorSum", "forms.ViewSum", "forms.Joined", "forms.Doubled"}) {
    const P4JFunctionCell* cell = details::CellOf<P4JFunctionCell>(PackedFunc::GetGlobal(name).handle());
    EXPECT_EQ(cell->typed_forms & P4J_TYPED_FORM_BORROWED_LIST, P4J_TYPED_FORM_BORROWED_LIST) << name;
  }
  {
    PackedFunc untyped([](Args, RetValue* rv) { *rv = int64_t{1}; });
    EXPECT_EQ(details::CellOf<P4JFunctionCell>(untyped.handle())->typed_forms, 0);

    BorrowedList numbers({testing::IntValue(1), testing::IntValue(2), testing::IntValue(39)});
    for (const char* name : {"forms.ListSum", "forms.VectorSum", "forms.ViewSum"}) {
      PackedFunc sum = PackedFunc::GetGlobal(name);
      EXPECT_EQ(sum.signature(), std::string(name) == "forms.ViewSum" ? "(list<int32>) -> int64"
                                                                      : "(list<int64>) -> int64");
      auto entry = EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(sum);
      EXPECT_EQ(entry(sum.handle(), numbers.word()), 42) << name;
      // The same list as an object word: the same result.
      List<int64_t> object{1, 2, 39};
      EXPECT_EQ(entry(sum.handle(), static_cast<int64_t>(reinterpret_cast<uintptr_t>(object.handle()))), 42);
    }
    // A bad element fails as the packed call of the same list does.
    BorrowedList wrong({testing::IntValue(1), StrView("two")});
    List<Any> packed_wrong{Any(int64_t{1}), Any(std::string("two"))};
    for (const char* name : {"forms.VectorSum", "forms.ViewSum", "forms.ListSum"}) {
      PackedFunc sum = PackedFunc::GetGlobal(name);
      auto entry = EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(sum);
      EXPECT_EQ(entry(sum.handle(), wrong.word()), P4J_TYPED_ERROR_I64) << name;
      EXPECT_RAISED_AS_PACKED(PackedError(sum, packed_wrong));
    }
    BorrowedList wide({testing::IntValue(int64_t{1} << 40)});
    PackedFunc view_sum = PackedFunc::GetGlobal("forms.ViewSum");
    EXPECT_EQ(EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(view_sum)(view_sum.handle(), wide.word()),
              P4J_TYPED_ERROR_I64);
    EXPECT_RAISED_AS_PACKED(PackedError(view_sum, List<int64_t>{int64_t{1} << 40}));

    PackedFunc joined = PackedFunc::GetGlobal("forms.Joined");
    EXPECT_EQ(joined.signature(), "(list<string>) -> string");
    BorrowedList parts({StrView("ab"), StrView(""), StrView("c\xc3\xa9")});
    const P4JByteArray* text =
        EntryOf<const P4JByteArray* (*)(P4JObjectHandle, int64_t)>(joined)(joined.handle(), parts.word());
    ASSERT_NE(text, nullptr);
    EXPECT_EQ(details::ViewOf(*text), "abc\xc3\xa9");

    PackedFunc doubled = PackedFunc::GetGlobal("forms.Doubled");
    EXPECT_EQ(doubled.signature(), "(list<float64>) -> list<float64>");
    P4JAny half;
    half.type_index = kP4JFloat;
    half.zero_padding = 0;
    half.v_float64 = 0.5;
    BorrowedList floats({half, half});
    int64_t word = EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(doubled)(doubled.handle(), floats.word());
    ASSERT_NE(word, P4J_TYPED_ERROR_I64);
    List<double> result(ObjectPtr<Object>::FromOwnedHandle(reinterpret_cast<P4JObject*>(static_cast<uintptr_t>(word))));
    EXPECT_EQ(result.ToVector(), (std::vector<double>{1.0, 1.0}));
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

/*!
 * \brief A dense list (P4J_LIST_WORD_DENSE_I64 or, of doubles, _F64) as the Java runtime writes one: the count, then
 *  the values.
 */
struct DenseList {
  std::vector<int64_t> block;
  int64_t tag;
  explicit DenseList(const std::vector<int64_t>& values) : tag(P4J_LIST_WORD_DENSE_I64) {
    block.push_back(static_cast<int64_t>(values.size()));
    block.insert(block.end(), values.begin(), values.end());
  }
  explicit DenseList(const std::vector<double>& values) : tag(P4J_LIST_WORD_DENSE_F64) {
    block.push_back(static_cast<int64_t>(values.size()));
    for (double value : values) {
      int64_t bits;
      std::memcpy(&bits, &value, sizeof(bits));
      block.push_back(bits);
    }
  }
  int64_t word() const { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(block.data())) | tag; }
};

TEST(TypedEntryFormsTest, ListParametersTakeDenseListsConvertedAsBorrowedCells) {
  details::SpanResultSlot::OfThisThread().object = ObjectRef();  // a String an earlier test's result left there
  int64_t baseline = P4JObjectLiveCount();
  for (const char* name : {"forms.ListSum", "forms.VectorSum", "forms.ViewSum", "forms.ViewSum64", "forms.Joined",
                           "forms.Doubled", "forms.ViewHalves"}) {
    const P4JFunctionCell* cell = details::CellOf<P4JFunctionCell>(PackedFunc::GetGlobal(name).handle());
    EXPECT_EQ(cell->typed_forms & P4J_TYPED_FORM_DENSE_LIST, P4J_TYPED_FORM_DENSE_LIST) << name;
  }
  {
    std::vector<int64_t> sixteen;
    for (int64_t i = 0; i < 16; ++i) sixteen.push_back(i);
    std::vector<int64_t> large;
    for (int64_t i = 0; i < 100000; ++i) large.push_back(i % 7 - 3);
    int64_t large_sum = 0;
    for (int64_t value : large) large_sum += value;
    for (const char* name : {"forms.ListSum", "forms.VectorSum", "forms.ViewSum"}) {
      PackedFunc sum = PackedFunc::GetGlobal(name);
      auto entry = EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(sum);
      EXPECT_EQ(entry(sum.handle(), DenseList(std::vector<int64_t>{}).word()), 0) << name;
      EXPECT_EQ(entry(sum.handle(), DenseList(sixteen).word()), 120) << name;
      EXPECT_EQ(entry(sum.handle(), DenseList(large).word()), large_sum) << name;
    }
    // ListView<int64_t> in place: operator[] and the iterator agree.
    PackedFunc view64 = PackedFunc::GetGlobal("forms.ViewSum64");
    auto entry64 = EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(view64);
    EXPECT_EQ(entry64(view64.handle(), DenseList(std::vector<int64_t>{}).word()), 0);
    EXPECT_EQ(entry64(view64.handle(), DenseList(sixteen).word()), 15 + 16 * 1000);
    EXPECT_EQ(entry64(view64.handle(), DenseList(std::vector<int64_t>{INT64_MIN, 7}).word()), 7 + 2000);

    // An int64 out of an int32 element's range, a float into an integer list: the packed call's errors.
    PackedFunc view_sum = PackedFunc::GetGlobal("forms.ViewSum");
    auto view_entry = EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(view_sum);
    std::string wide = PackedError(view_sum, List<int64_t>{1, int64_t{1} << 40});
    EXPECT_NE(wide.find("index 1"), std::string::npos) << wide;
    EXPECT_EQ(view_entry(view_sum.handle(), DenseList(std::vector<int64_t>{1, int64_t{1} << 40}).word()),
              P4J_TYPED_ERROR_I64);
    EXPECT_RAISED_AS_PACKED(wide);
    EXPECT_EQ(view_entry(view_sum.handle(), DenseList(std::vector<double>{0.5}).word()), P4J_TYPED_ERROR_I64);
    EXPECT_RAISED_AS_PACKED(PackedError(view_sum, List<double>{0.5}));
    PackedFunc vector_sum = PackedFunc::GetGlobal("forms.VectorSum");
    EXPECT_EQ(EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(vector_sum)(
                  vector_sum.handle(), DenseList(std::vector<double>{1.0, 2.5}).word()),
              P4J_TYPED_ERROR_I64);
    EXPECT_RAISED_AS_PACKED(PackedError(vector_sum, List<double>{1.0, 2.5}));
    // A List<int64_t> holds the values unchecked, as a borrowed cell's.
    PackedFunc list_sum = PackedFunc::GetGlobal("forms.ListSum");
    EXPECT_EQ(EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(list_sum)(
                  list_sum.handle(), DenseList(std::vector<int64_t>{int64_t{1} << 40, -1}).word()),
              (int64_t{1} << 40) - 1);

    // Strings are not numbers.
    PackedFunc joined = PackedFunc::GetGlobal("forms.Joined");
    EXPECT_EQ(EntryOf<const P4JByteArray* (*)(P4JObjectHandle, int64_t)>(joined)(
                  joined.handle(), DenseList(std::vector<int64_t>{1}).word()),
              nullptr);
    EXPECT_RAISED_AS_PACKED(PackedError(joined, List<int64_t>{1}));

    // Doubles: copied into std::vector<double>, read in place by ListView<double>; integers converted.
    PackedFunc doubled = PackedFunc::GetGlobal("forms.Doubled");
    auto doubled_entry = EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(doubled);
    for (const DenseList& dense : {DenseList(std::vector<double>{0.5, -1.25}), DenseList(std::vector<int64_t>{1, 2})}) {
      int64_t word = doubled_entry(doubled.handle(), dense.word());
      ASSERT_NE(word, P4J_TYPED_ERROR_I64);
      List<double> result(
          ObjectPtr<Object>::FromOwnedHandle(reinterpret_cast<P4JObject*>(static_cast<uintptr_t>(word))));
      EXPECT_EQ(result.ToVector(), dense.tag == P4J_LIST_WORD_DENSE_F64 ? (std::vector<double>{1.0, -2.5})
                                                                       : (std::vector<double>{2.0, 4.0}));
    }
    PackedFunc halves = PackedFunc::GetGlobal("forms.ViewHalves");
    auto halves_entry = EntryOf<double (*)(P4JObjectHandle, int64_t)>(halves);
    EXPECT_EQ(halves_entry(halves.handle(), DenseList(std::vector<double>{1.0, 2.0, 0.5}).word()), 1.75);
    EXPECT_EQ(halves_entry(halves.handle(), DenseList(std::vector<double>{}).word()), 0.0);

    // A word whose low bits are no form: a TypeError naming the function and argument, not a crash.
    int64_t unknown = DenseList(sixteen).word() | P4J_LIST_WORD_TAG_MASK;
    EXPECT_EQ(EntryOf<int64_t (*)(P4JObjectHandle, int64_t)>(vector_sum)(vector_sum.handle(), unknown),
              P4J_TYPED_ERROR_I64);
    EXPECT_EQ(TakeRaised(),
              "TypeError: forms.VectorSum: argument 0 expected list<int64>, got a list word with the unknown form 7");
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(TypedEntryFormsTest, OptionalAndAnyResultsGoThroughOut) {
  PackedFunc half = PackedFunc::GetGlobal("forms.Half");
  EXPECT_EQ(half.signature(), "(int64) -> optional<int64>");
  auto entry = EntryOf<int32_t (*)(P4JObjectHandle, int64_t, P4JAny*)>(half);
  P4JAny out = testing::IntValue(-99);
  EXPECT_EQ(entry(half.handle(), 10, &out), 0);
  EXPECT_EQ(out.type_index, kP4JInt);
  EXPECT_EQ(out.v_int64, 5);
  EXPECT_EQ(entry(half.handle(), 3, &out), 0);
  EXPECT_EQ(out.type_index, kP4JNone);
  P4JAny untouched = testing::IntValue(-99);
  EXPECT_EQ(entry(half.handle(), -2, &untouched), P4J_TYPED_ERROR_I32);
  EXPECT_EQ(untouched.type_index, kP4JInt);
  EXPECT_EQ(untouched.v_int64, -99);
  EXPECT_RAISED_AS_PACKED(PackedError(half, -2));
}

}  // namespace
}  // namespace packed4j
