// Containers: List and Map objects, their cells as the Java side reads them, typed views and their errors,
// ownership of held objects, and the packed4j.* container globals.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "test_util.h"

namespace {

using namespace packed4j;
using namespace packed4j::testing;

const P4JListCell* ListCell(const ObjectRef& list) { return details::CellOf<P4JListCell>(list.handle()); }
const P4JMapCell* MapCell(const ObjectRef& map) { return details::CellOf<P4JMapCell>(map.handle()); }

TEST(ListTest, EmptyList) {
  List<int64_t> list;
  EXPECT_EQ(list.size(), 0);
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(ListCell(list)->size, 0);
  EXPECT_EQ(list->type_index(), kP4JList);
  EXPECT_EQ(list.begin(), list.end());
  EXPECT_EQ(ErrorOf([&] { list[0]; }), "IndexError: list index 0 is out of range for a list of size 0");
}

// A null container (a field loaded from JSON null, or emptied from Java) reads as empty instead of dereferencing
// null, as TVM's Array does; changing it is a ValueError, not a crash.
TEST(ListTest, ANullListOrMapReadsAsEmpty) {
  List<int64_t> list{ObjectPtr<Object>(nullptr)};
  ASSERT_EQ(list.handle(), nullptr);
  EXPECT_EQ(list.size(), 0);
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.begin(), list.end());
  EXPECT_TRUE(list.ToVector().empty());
  EXPECT_EQ(ErrorOf([&] { list[0]; }), "IndexError: list index 0 is out of range for a list of size 0");
  EXPECT_EQ(ErrorOf([&] { list.push_back(1); }).rfind("ValueError: ", 0), 0u);

  Map<std::string, int64_t> map{ObjectPtr<Object>(nullptr)};
  ASSERT_EQ(map.handle(), nullptr);
  EXPECT_EQ(map.size(), 0);
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.begin(), map.end());
  // A lookup reads it as the empty map it is read as (it was the ValueError "map is NULL").
  EXPECT_EQ(ErrorOf([&] { map.at("k"); }), "KeyError: key string \"k\" is not in the map");
  EXPECT_EQ(ErrorOf([&] { map["k"]; }), "KeyError: key string \"k\" is not in the map");
  EXPECT_FALSE(map.contains("k"));
  EXPECT_EQ(map.count("k"), 0);
  EXPECT_EQ(ErrorOf([&] { map.Set("k", 1); }).rfind("ValueError: ", 0), 0u);
}

TEST(ListTest, CellIsDenseAndUpToDateAfterEveryMutation) {
  List<int64_t> list{1, 2, 3};
  const P4JListCell* cell = ListCell(list);
  ASSERT_EQ(cell->size, 3);
  EXPECT_GE(cell->capacity, 3);
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(cell->data[i].type_index, kP4JInt);
    EXPECT_EQ(cell->data[i].v_int64, i + 1);
  }
  list.push_back(4);
  list.Set(0, 10);
  list.insert(1, 15);
  EXPECT_EQ(list.ToVector(), (std::vector<int64_t>{10, 15, 2, 3, 4}));
  list.erase(2);
  EXPECT_EQ(list.ToVector(), (std::vector<int64_t>{10, 15, 3, 4}));
  EXPECT_EQ(cell->size, 4);
  EXPECT_EQ(cell->data[3].v_int64, 4);
  int64_t total = 0;
  for (int64_t value : list) total += value;
  EXPECT_EQ(total, 32);
  for (int i = 0; i < 1000; ++i) list.push_back(i);
  EXPECT_EQ(cell->size, 1004);
  EXPECT_EQ(cell->data[1003].v_int64, 999);
  list.clear();
  EXPECT_EQ(cell->size, 0);
  EXPECT_EQ(ErrorOf([&] { list.Set(3, 1); }), "IndexError: list index 3 is out of range for a list of size 0");
}

TEST(ListTest, StringsAreStoredAsStringObjects) {
  List<std::string> names{"casio", std::string("a\0b", 3)};
  names.push_back("hp");
  const P4JListCell* cell = ListCell(names);
  for (int64_t i = 0; i < cell->size; ++i) EXPECT_EQ(cell->data[i].type_index, kP4JString);
  EXPECT_EQ(names[1], std::string("a\0b", 3));
  P4JAny view = StrView("view");
  ASSERT_EQ(P4JListAppend(names.handle(), &view), 0);
  EXPECT_EQ(cell->data[3].type_index, kP4JString);
  EXPECT_EQ(names[3], "view");
}

TEST(ListTest, TypedViewNamesTheBadIndex) {
  List<Any> mixed{Any(1), Any(std::string("x")), Any(3)};
  List<int64_t> numbers(ObjectPtr<Object>::FromBorrowedHandle(mixed.handle()));
  EXPECT_EQ(numbers[0], 1);
  EXPECT_EQ(ErrorOf([&] { numbers[1]; }), "TypeError: list element at index 1 expected int64, got string \"x\"");
  List<int8_t> small{1};
  small.push_back(100);
  P4JAny big = IntValue(1000);
  ASSERT_EQ(P4JListAppend(small.handle(), &big), 0);
  EXPECT_EQ(ErrorOf([&] { small[2]; }), "ValueError: list element at index 2 value 1000 is out of range for int8");
}

/*! The outcome of reading a value as T: "value <v>" or the error, compared as text (NaN reads as "nan"). */
template <typename T, typename Read>
std::string OutcomeOf(Read read) {
  std::string outcome;
  std::string error = ErrorOf([&] {
    T value = read();
    if constexpr (std::is_floating_point<T>::value) {
      outcome = "value " + details::FormatDouble(static_cast<double>(value));
    } else {
      outcome = "value " + std::to_string(static_cast<int64_t>(value));
    }
  });
  return error.empty() ? outcome : error;
}

/*! Checks that List<T>::operator[] reads each value exactly as TypeTraits<T>::Convert does, errors included. */
template <typename T>
void ExpectElementsReadAsConvertReadsThem(const List<Any>& values) {
  List<T> typed(ObjectPtr<Object>::FromBorrowedHandle(values.handle()));
  const P4JListCell* cell = ListCell(values);
  for (int64_t i = 0; i < cell->size; ++i) {
    std::string expected = OutcomeOf<T>(
        [&] { return details::TypeTraits<T>::Convert(cell->data[i], details::ConvertContext::Element(i)); });
    EXPECT_EQ(OutcomeOf<T>([&] { return typed[i]; }), expected)
        << details::TypeTraits<T>::TypeName() << " from " << details::DescribeValue(cell->data[i]);
  }
}

TEST(ListTest, NumbersAndBoolsAreReadInlineWithTheRulesOfTheirConversion) {
  // operator[] reads numbers and bool inline (details::ReadElement) and must agree with TypeTraits<T>::Convert.
  List<Any> values;
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{2}, int64_t{127}, int64_t{128}, int64_t{-128},
                    int64_t{-129}, int64_t{255}, int64_t{256}, int64_t{32767}, int64_t{32768}, int64_t{-32769},
                    int64_t{2147483647}, int64_t{2147483648}, int64_t{-2147483649}, int64_t{4294967295},
                    int64_t{4294967296}, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                    int64_t{9007199254740993}}) {
    values.push_back(Any(v));
  }
  for (double v : {0.5, -0.0, 1e300, -1e300, 3.4028234663852886e38, 3.5e38, std::nan(""),
                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    values.push_back(Any(v));
  }
  values.push_back(Any(true));
  values.push_back(Any(false));
  values.push_back(Any(std::string("text")));
  values.push_back(Any());
  ExpectElementsReadAsConvertReadsThem<bool>(values);
  ExpectElementsReadAsConvertReadsThem<char>(values);
  ExpectElementsReadAsConvertReadsThem<int8_t>(values);
  ExpectElementsReadAsConvertReadsThem<uint8_t>(values);
  ExpectElementsReadAsConvertReadsThem<int16_t>(values);
  ExpectElementsReadAsConvertReadsThem<uint16_t>(values);
  ExpectElementsReadAsConvertReadsThem<int32_t>(values);
  ExpectElementsReadAsConvertReadsThem<uint32_t>(values);
  ExpectElementsReadAsConvertReadsThem<int64_t>(values);
  ExpectElementsReadAsConvertReadsThem<uint64_t>(values);
  ExpectElementsReadAsConvertReadsThem<float>(values);
  ExpectElementsReadAsConvertReadsThem<double>(values);
  // A few outcomes spelled out, so that agreeing on something wrong would show too.
  List<int8_t> bytes(ObjectPtr<Object>::FromBorrowedHandle(values.handle()));
  EXPECT_EQ(bytes[4], 127);
  EXPECT_EQ(ErrorOf([&] { bytes[5]; }), "ValueError: list element at index 5 value 128 is out of range for int8");
  List<int64_t> longs(ObjectPtr<Object>::FromBorrowedHandle(values.handle()));
  EXPECT_EQ(longs[30], 1);  // true
  EXPECT_EQ(ErrorOf([&] { longs[21]; }), "TypeError: list element at index 21 expected int64, got float 0.5");
  List<double> doubles(ObjectPtr<Object>::FromBorrowedHandle(values.handle()));
  // An int converts when a double holds it exactly (INT64_MIN is a power of two), and is never rounded silently.
  EXPECT_EQ(doubles[19], -9223372036854775808.0);
  EXPECT_EQ(ErrorOf([&] { doubles[20]; }),
            "ValueError: list element at index 20 value 9007199254740993 does not fit in float64 without rounding");
  List<bool> bools(ObjectPtr<Object>::FromBorrowedHandle(values.handle()));
  EXPECT_EQ(ErrorOf([&] { bools[3]; }), "ValueError: list element at index 3 value 2 is out of range for bool");
  EXPECT_EQ(ErrorOf([&] { bools[33]; }), "TypeError: list element at index 33 expected bool, got None");
}

TEST(ListTest, ImpossibleSizesAreErrorsNotOverflows) {
  // A count whose byte size overflows must fail before any allocation or write.
  int64_t one = 1;
  P4JObject* list = nullptr;
  EXPECT_EQ(P4JListFromInt64s(&one, int64_t{1} << 60, &list), -1);
  EXPECT_EQ(list, nullptr);
  EXPECT_EQ(TakeRaised(), "ValueError: a list of 1152921504606846976 entries is larger than memory can hold");
  // Maps grow one entry at a time through the same kind of guarded Reserve.
}

TEST(ListTest, BulkBuildersAndConstructionFromVectors) {
  std::vector<int64_t> longs(10000);
  std::iota(longs.begin(), longs.end(), 0);
  List<int64_t> from_longs(longs);
  EXPECT_EQ(from_longs.size(), 10000);
  EXPECT_EQ(from_longs[9999], 9999);
  List<double> from_doubles(std::vector<double>{0.5, 1.5});
  EXPECT_EQ(ListCell(from_doubles)->data[1].type_index, kP4JFloat);
  EXPECT_EQ(from_doubles[1], 1.5);
  List<std::string> from_strings(std::vector<std::string>{"a", "b"});
  EXPECT_EQ(from_strings.back(), "b");
}

TEST(ListTest, HeldObjectsAreReferencedAndReleased) {
  int64_t baseline = P4JObjectLiveCount();
  {
    String held("held");
    {
      List<String> list{held, held};
      EXPECT_EQ(held.use_count(), 3u);
      list.erase(0);
      EXPECT_EQ(held.use_count(), 2u);
      List<List<String>> nested{list};
      EXPECT_EQ(list.use_count(), 2u);
    }
    EXPECT_EQ(held.use_count(), 1u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ListTest, ObjectsStoredIntoAListOfNumbersAreReleased) {
  // A list built from numbers skips the release scan when it is cleared or deleted, until an object is stored.
  int64_t baseline = P4JObjectLiveCount();
  {
    String held("held");
    std::vector<int64_t> numbers{1, 2, 3};
    P4JObject* handle = nullptr;
    ASSERT_EQ(P4JListFromInt64s(numbers.data(), 3, &handle), 0);
    List<Any> from_numbers(ObjectPtr<Object>::FromOwnedHandle(handle));
    from_numbers.Set(1, Any(held));
    EXPECT_EQ(held.use_count(), 2u);
    from_numbers.insert(0, Any(held));
    from_numbers.push_back(Any(held));
    EXPECT_EQ(held.use_count(), 4u);
    from_numbers.clear();
    EXPECT_EQ(held.use_count(), 1u);
    // After a clear, objects stored again are released again.
    from_numbers.push_back(Any(1));
    from_numbers.push_back(Any(held));
    EXPECT_EQ(held.use_count(), 2u);
    List<Any> appended(std::vector<Any>{Any(held)});
    EXPECT_EQ(held.use_count(), 3u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ListTest, ValuesAreBoxedOnReadingAndUnboxedOnStoring) {
  List<Value> values{Value(1), Value(std::string("two"))};
  values.push_back(Value(3.5));
  const P4JListCell* cell = ListCell(values);
  EXPECT_EQ(cell->data[0].type_index, kP4JInt);
  EXPECT_EQ(cell->data[1].type_index, kP4JString);
  EXPECT_EQ(cell->data[2].type_index, kP4JFloat);
  EXPECT_EQ(static_cast<int>(values[0]->data), 1);
  EXPECT_EQ(values[1]->data.cast<std::string>(), "two");
  EXPECT_EQ(values[2]->data.cast<double>(), 3.5);
  values.Set(0, values[2]);
  EXPECT_EQ(cell->data[0].type_index, kP4JFloat);
}

TEST(ListTest, BorrowedTensorPointersCannotBeStored) {
  List<Any> list;
  P4JAny tensor;
  tensor.type_index = kP4JDLTensorPtr;
  tensor.zero_padding = 0;
  tensor.v_ptr = nullptr;
  EXPECT_EQ(P4JListAppend(list.handle(), &tensor), -1);
  EXPECT_EQ(TakeRaised(), "TypeError: a borrowed DLTensor pointer cannot be stored in a container");
}

/*! A new list with room for capacity values (owned by the returned reference). */
List<Any> ListWithCapacity(int64_t capacity) {
  P4JObject* handle = nullptr;
  EXPECT_EQ(P4JListCreateWithCapacity(capacity, &handle), 0);
  return List<Any>(ObjectPtr<Object>::FromOwnedHandle(handle));
}

TEST(ListWrittenInPlaceTest, NumbersWrittenIntoTheStorageBecomeElements) {
  List<Any> list = ListWithCapacity(1000);
  const P4JListCell* cell = ListCell(list);
  EXPECT_EQ(cell->size, 0);
  ASSERT_GE(cell->capacity, 1000);
  ASSERT_NE(cell->data, nullptr);
  for (int64_t i = 0; i < 1000; ++i) cell->data[i] = IntValue(i * 3);
  ASSERT_EQ(P4JListAppendWritten(list.handle(), 1000, 1), 0);
  EXPECT_EQ(cell->size, 1000);
  List<int64_t> numbers(ObjectPtr<Object>::FromBorrowedHandle(list.handle()));
  int64_t sum = 0;
  for (int64_t value : numbers) sum += value;
  EXPECT_EQ(sum, 3 * 999 * 1000 / 2);
  // The list is an ordinary list afterwards: it grows, and values written later follow the first ones.
  numbers.push_back(7);
  EXPECT_EQ(numbers.size(), 1001);
  EXPECT_EQ(numbers[1000], 7);
}

TEST(ListWrittenInPlaceTest, ValuesWrittenAfterExistingElementsAppend) {
  List<Any> list = ListWithCapacity(4);
  P4JListCell* cell = details::CellOf<P4JListCell>(list.handle());
  cell->data[0] = FloatValue(0.5);
  cell->data[1] = BoolValue(true);
  ASSERT_EQ(P4JListAppendWritten(list.handle(), 2, 1), 0);
  cell->data[2] = IntValue(3);
  ASSERT_EQ(P4JListAppendWritten(list.handle(), 1, 1), 0);
  ASSERT_EQ(list.size(), 3);
  EXPECT_EQ(list[0].cast<double>(), 0.5);
  EXPECT_EQ(list[1].cast<bool>(), true);
  EXPECT_EQ(list[2].cast<int64_t>(), 3);
}

TEST(ListWrittenInPlaceTest, BorrowedValuesAreOwnedInPlace) {
  int64_t baseline = P4JObjectLiveCount();
  {
    String held("held");
    {
      List<Any> list = ListWithCapacity(3);
      P4JListCell* cell = details::CellOf<P4JListCell>(list.handle());
      std::string text = "a view";
      cell->data[0] = StrView(text);
      cell->data[1] = ObjectValue(held);
      cell->data[2] = BytesViewValue("ab");
      ASSERT_EQ(P4JListAppendWritten(list.handle(), 3, 0), 0);
      // The view became a string object of its own: changing the viewed bytes changes nothing.
      text[0] = 'X';
      EXPECT_EQ(cell->data[0].type_index, kP4JString);
      EXPECT_EQ(list[0].cast<std::string>(), "a view");
      EXPECT_EQ(held.use_count(), 2u);
      EXPECT_EQ(cell->data[2].type_index, kP4JBytes);
    }
    EXPECT_EQ(held.use_count(), 1u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ListWrittenInPlaceTest, AValueThatCannotBeOwnedLeavesTheListAsItWas) {
  int64_t baseline = P4JObjectLiveCount();
  {
    String held("held");
    List<Any> list = ListWithCapacity(3);
    P4JListCell* cell = details::CellOf<P4JListCell>(list.handle());
    cell->data[0] = ObjectValue(held);
    cell->data[1] = StrView("text");
    cell->data[2].type_index = kP4JDLTensorPtr;
    cell->data[2].zero_padding = 0;
    cell->data[2].v_ptr = nullptr;
    EXPECT_EQ(P4JListAppendWritten(list.handle(), 3, 0), -1);
    EXPECT_EQ(TakeRaised(), "TypeError: a borrowed DLTensor pointer cannot be stored in a container");
    EXPECT_EQ(cell->size, 0);
    EXPECT_EQ(held.use_count(), 1u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ListWrittenInPlaceTest, CountsBeyondTheCapacityAndBadHandlesAreErrors) {
  List<Any> list = ListWithCapacity(4);
  int64_t capacity = ListCell(list)->capacity;
  EXPECT_EQ(P4JListAppendWritten(list.handle(), capacity + 1, 1), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JListAppendWritten: " + std::to_string(capacity + 1) +
                              " values written after 0 in a list with room for " + std::to_string(capacity));
  EXPECT_EQ(P4JListAppendWritten(list.handle(), -1, 1), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JListAppendWritten: -1 values written after 0 in a list with room for " +
                              std::to_string(capacity));
  EXPECT_EQ(ListCell(list)->size, 0);
  P4JObject* out = reinterpret_cast<P4JObject*>(0x1);
  EXPECT_EQ(P4JListCreateWithCapacity(-1, &out), -1);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JListCreateWithCapacity: negative capacity -1");
  EXPECT_EQ(P4JListCreateWithCapacity(int64_t{1} << 60, &out), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: a list of 1152921504606846976 entries is larger than memory can hold");
  String not_a_list("x");
  EXPECT_EQ(P4JListAppendWritten(not_a_list.handle(), 0, 1), -1);
  EXPECT_NE(TakeRaised().find("TypeError"), std::string::npos);
  List<Any> empty = ListWithCapacity(0);
  EXPECT_EQ(P4JListAppendWritten(empty.handle(), 0, 1), 0);
  EXPECT_EQ(empty.size(), 0);
}

TEST(ListWrittenInPlaceTest, TheStorageOfALargeListIsKeptForTheNextOne) {
  // 3M values are 48 MB, past the 32 MiB from which glibc maps every block afresh.
  constexpr int64_t kLarge = 3'000'000;
  const P4JAny* first_data = nullptr;
  {
    List<Any> first = ListWithCapacity(kLarge);
    first_data = ListCell(first)->data;
    ASSERT_NE(first_data, nullptr);
  }
  {
    // A list needing at least half of the kept block gets it, with the block's whole capacity.
    List<Any> second = ListWithCapacity(kLarge - 500'000);
    const P4JListCell* cell = ListCell(second);
    EXPECT_EQ(cell->data, first_data);
    EXPECT_EQ(cell->capacity, kLarge);
    EXPECT_EQ(cell->size, 0);
    for (int64_t i = 0; i < kLarge; ++i) cell->data[i] = IntValue(i);
    ASSERT_EQ(P4JListAppendWritten(second.handle(), kLarge, 1), 0);
    List<int64_t> numbers(ObjectPtr<Object>::FromBorrowedHandle(second.handle()));
    EXPECT_EQ(numbers[kLarge - 1], kLarge - 1);
    // It grows as any list does.
    numbers.push_back(-1);
    EXPECT_EQ(numbers.size(), kLarge + 1);
    EXPECT_EQ(numbers[kLarge], -1);
  }
  {
    // The block kept now is the grown one, room for 6M values. Small lists, and large ones needing less than half
    // of the block, allocate their own.
    List<Any> small = ListWithCapacity(1000);
    EXPECT_EQ(ListCell(small)->capacity, 1000);
    List<Any> under_half = ListWithCapacity(2'900'000);
    EXPECT_EQ(ListCell(under_half)->capacity, 2'900'000);
    List<Any> half = ListWithCapacity(kLarge);  // exactly half: takes the block
    EXPECT_EQ(ListCell(half)->capacity, 2 * kLarge);
  }
}

TEST(MapTest, EmptyMap) {
  Map<std::string, int64_t> map;
  EXPECT_EQ(map.size(), 0);
  EXPECT_EQ(MapCell(map)->size, 0);
  EXPECT_EQ(map->type_index(), kP4JMap);
  EXPECT_EQ(map.count("x"), 0);
  EXPECT_EQ(ErrorOf([&] { map.at("x"); }), "KeyError: key string \"x\" is not in the map");
}

TEST(MapTest, HundredIntKeysKeepInsertionOrder) {
  std::vector<int64_t> keys(100);
  std::iota(keys.begin(), keys.end(), -50);
  std::shuffle(keys.begin(), keys.end(), std::mt19937(7));
  Map<int64_t, int64_t> map;
  for (int64_t key : keys) map.Set(key, key * 10);
  ASSERT_EQ(map.size(), 100);
  EXPECT_EQ(map.keys(), keys);
  const P4JMapCell* cell = MapCell(map);
  for (int64_t i = 0; i < 100; ++i) {
    EXPECT_EQ(cell->entries[2 * i].v_int64, keys[i]);
    EXPECT_EQ(cell->entries[2 * i + 1].v_int64, keys[i] * 10);
    EXPECT_EQ(map.at(keys[i]), keys[i] * 10);
  }
  // Replacing keeps the position; erasing keeps the order of the rest.
  map.Set(keys[0], 1);
  EXPECT_EQ(map.keys()[0], keys[0]);
  EXPECT_TRUE(map.erase(keys[50]));
  EXPECT_FALSE(map.erase(keys[50]));
  std::vector<int64_t> expected = keys;
  expected.erase(expected.begin() + 50);
  EXPECT_EQ(map.keys(), expected);
  EXPECT_EQ(map.at(keys[99]), keys[99] * 10);
  EXPECT_EQ(map.count(keys[50]), 0);
}

TEST(MapTest, DuplicateKeysAtCreationKeepFirstPositionAndLastValue) {
  std::string a = "a";
  std::vector<P4JAny> pairs = {StrView(a), IntValue(1), StrView("b"), IntValue(2), StrView("a"), IntValue(3)};
  P4JObjectHandle handle = nullptr;
  ASSERT_EQ(P4JMapCreate(pairs.data(), 3, &handle), 0);
  Map<std::string, int64_t> map(ObjectPtr<Object>::FromOwnedHandle(handle));
  ASSERT_EQ(map.size(), 2);
  EXPECT_EQ(map.keys(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(map.at("a"), 3);
  EXPECT_EQ(MapCell(map)->entries[0].type_index, kP4JString);  // keys are stored as String objects
  Map<std::string, int64_t> typed{{"x", 1}, {"y", 2}, {"x", 9}};
  EXPECT_EQ(typed.keys(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(typed.at("x"), 9);
}

TEST(MapTest, StringKeysMatchByValueObjectKeysByIdentity) {
  Map<Any, int64_t> map;
  map.Set(Any(std::string("k")), 1);
  EXPECT_EQ(map.at(Any(String("k"))), 1);  // another String object with the same bytes
  P4JAny view = StrView("k");
  int32_t found = 0;
  P4JAny value;
  ASSERT_EQ(P4JMapGetItem(map.handle(), &view, &found, &value), 0);
  EXPECT_EQ(found, 1);
  EXPECT_EQ(value.v_int64, 1);

  List<int64_t> first;
  List<int64_t> second;
  map.Set(Any(first), 2);
  EXPECT_EQ(map.at(Any(first)), 2);
  EXPECT_EQ(map.count(Any(second)), 0);
  EXPECT_EQ(ErrorOf([&] { map.Set(Any(true), 3); }), "TypeError: map keys must be strings, integers or objects, got bool true");
  EXPECT_EQ(ErrorOf([&] { map.Set(Any(), 3); }), "TypeError: map keys must be strings, integers or objects, got None");
}

TEST(MapTest, NestedListInMapAndTypedErrorsNameTheKey) {
  Map<std::string, List<int64_t>> nested{{"primes", List<int64_t>{2, 3, 5}}, {"empty", List<int64_t>()}};
  EXPECT_EQ(nested.at("primes")[2], 5);
  EXPECT_EQ(nested.at("empty").size(), 0);
  for (const auto& [name, values] : nested) EXPECT_FALSE(name.empty() || values.size() < 0);

  Map<std::string, Any> loose{{"price", Any(std::string("cheap"))}};
  Map<std::string, double> prices(ObjectPtr<Object>::FromBorrowedHandle(loose.handle()));
  EXPECT_EQ(ErrorOf([&] { prices.at("price"); }),
            "TypeError: map value for key string \"price\" expected float64, got string \"cheap\"");
  EXPECT_EQ(ErrorOf([&] { prices.at("missing"); }), "KeyError: key string \"missing\" is not in the map");
  EXPECT_EQ(ErrorOf([&] { *prices.begin(); }),
            "TypeError: map value for key string \"price\" expected float64, got string \"cheap\"");
}

TEST(MapTest, HeldObjectsAreReferencedAndReleased) {
  int64_t baseline = P4JObjectLiveCount();
  {
    String value("v");
    List<int64_t> key;
    {
      Map<ObjectRef, String> map{{key, value}};
      EXPECT_EQ(value.use_count(), 2u);
      EXPECT_EQ(key.use_count(), 2u);
      map.Set(key, String("w"));
      EXPECT_EQ(value.use_count(), 1u);
      map.Set(String("other"), value);
      EXPECT_EQ(value.use_count(), 2u);
      EXPECT_TRUE(map.erase(key));
      EXPECT_EQ(key.use_count(), 1u);
      map.clear();
      EXPECT_EQ(value.use_count(), 1u);
      map.Set(key, value);
    }
    EXPECT_EQ(value.use_count(), 1u);
    EXPECT_EQ(key.use_count(), 1u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ContainerGlobalsTest, ListAndMapGlobals) {
  int64_t baseline = P4JObjectLiveCount();
  {
    List<int64_t> list{1, 2};
    Map<std::string, int64_t> map{{"a", 1}, {"b", 2}};
    EXPECT_EQ(Registry::Get("packed4j.ListSize")(list).cast<int64_t>(), 2);
    EXPECT_EQ(Registry::Get("packed4j.ListGetItem")(list, 1).cast<int64_t>(), 2);
    EXPECT_EQ(ErrorOf([&] { Registry::Get("packed4j.ListGetItem")(list, 5); }),
              "IndexError: list index 5 is out of range for a list of size 2");
    Registry::Get("packed4j.ListSetItem")(list, 0, 7);
    Registry::Get("packed4j.ListAppend")(list, "text");
    EXPECT_EQ(list[0], 7);
    EXPECT_EQ(ListCell(list)->data[2].type_index, kP4JString);
    EXPECT_EQ(Registry::Get("packed4j.ListSize").signature(), "(list<any>) -> int64");

    EXPECT_EQ(Registry::Get("packed4j.MapSize")(map).cast<int64_t>(), 2);
    EXPECT_EQ(Registry::Get("packed4j.MapGetItem")(map, "b").cast<int64_t>(), 2);
    EXPECT_EQ(ErrorOf([&] { Registry::Get("packed4j.MapGetItem")(map, "zzz"); }),
              "KeyError: key string \"zzz\" is not in the map");
    Registry::Get("packed4j.MapSetItem")(map, "c", 3);
    EXPECT_EQ(map.at("c"), 3);
    List<std::string> keys = Registry::Get("packed4j.MapKeys")(map).cast<List<std::string>>();
    EXPECT_EQ(keys.ToVector(), (std::vector<std::string>{"a", "b", "c"}));
    List<List<Any>> items = Registry::Get("packed4j.MapItems")(map).cast<List<List<Any>>>();
    ASSERT_EQ(items.size(), 3);
    EXPECT_EQ(items[1][0].cast<std::string>(), "b");
    EXPECT_EQ(items[1][1].cast<int64_t>(), 2);
    EXPECT_EQ(Registry::Get("packed4j.MapItems").signature(), "(map<any, any>) -> list<list<any>>");
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

}  // namespace
