/*!
 * \file packed4j/container.h
 * \brief Containers: List<T>, Map<K, V> and Value (the element wrapper of DGL's List<Value>).
 *
 * The containers are objects implemented in libpacked4j.so; their cells (P4JListCell, P4JMapCell) hold dense
 * arrays of owned P4JAny values that the Java side reads straight from memory. The classes here are typed
 * views: reading an element converts it, checked, to T (an error names the index or the key); writing goes
 * through the C ABI so the cell is always up to date. Containers are shared by reference and mutable; they
 * are not synchronized (one writer at a time).
 */
#ifndef PACKED4J_CONTAINER_H_
#define PACKED4J_CONTAINER_H_

#include <packed4j/function.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace packed4j {

/*! \brief The object behind List<T>: the header, then the cell. Created only by libpacked4j.so. */
class ListObject : public Object {
 public:
  /*! \brief size owned values at data (which moves when the list grows). */
  P4JListCell cell;

  static constexpr const char* _type_key = "List";
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(ListObject, Object, kP4JList);

 protected:
  ListObject() noexcept : cell{nullptr, 0, 0} {}
};

/*! \brief The object behind Map<K, V>: the header, then the cell; the hash index follows, private. */
class MapObject : public Object {
 public:
  /*! \brief size key/value pairs at entries, in insertion order. */
  P4JMapCell cell;

  static constexpr const char* _type_key = "Map";
  P4J_DECLARE_STATIC_OBJECT_TYPE_INFO(MapObject, Object, kP4JMap);

 protected:
  MapObject() noexcept : cell{nullptr, 0, 0} {}
};

/*!
 * \brief A boxed value: what List<Value> hands out, so that DGL's `values[i]->data` reads the element.
 *  A ValueObject never crosses the C ABI: storing a Value stores its data.
 */
class ValueObject : public Object {
 public:
  /*! \brief The element value. */
  Any data;

  ValueObject() = default;
  explicit ValueObject(Any value) : data(std::move(value)) {}

  static constexpr const char* _type_key = "Value";
  P4J_DECLARE_OBJECT_TYPE_INFO(ValueObject, Object);
};

/*!
 * \brief A reference to a boxed value of any type.
 * \code
 *   List<Value> values = args[0];
 *   int sum = 0;
 *   for (int i = 0; i < values.size(); ++i) sum += static_cast<int>(values[i]->data);
 * \endcode
 */
class Value : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Value, ObjectRef, ValueObject);

  /*! \brief Boxes a value. \code Value v(42); \endcode */
  template <typename T, typename Decayed = std::decay_t<T>,
            typename = std::enable_if_t<!details::IsObjectPtr<Decayed>::value &&
                                        !std::is_base_of<Value, Decayed>::value &&
                                        std::is_constructible<Any, T&&>::value>>
  explicit Value(T&& data) : ObjectRef(make_object<ValueObject>(Any(std::forward<T>(data)))) {}
};

namespace details {

template <>
struct IsBoxedValue<Value> : std::true_type {};

/*! \brief Value: any element, boxed on reading; storing unboxes it. */
template <>
struct TypeTraits<Value> : ObjectRefTraits<Value> {
  static std::string TypeName() { return "any"; }
  static Value Convert(const P4JAny& value, const ConvertContext&) {
    if (IsObjectValue(value) && ObjectIsInstance(value.v_obj, ValueObject::RuntimeTypeIndex())) {
      return ObjectRefAccess::FromBorrowedHandle<Value>(value.v_obj);
    }
    return Value(Any::FromBorrowed(value));
  }
  static void Store(const Value& value, P4JAny* out) {
    if (value.defined()) {
      TypeTraits<Any>::Store(value->data, out);
    } else {
      *out = NoneValue();
    }
  }
};

/*! \brief Stores items (any range of T) into a vector of owned values and their raw form. */
template <typename T, typename Iterator>
void StoreRange(Iterator first, Iterator last, std::vector<Any>* owned, std::vector<P4JAny>* raw) {
  for (; first != last; ++first) {
    owned->emplace_back(Any(static_cast<T>(*first)));
    raw->push_back(owned->back().raw());
  }
}

/*!
 * \brief Reads a list element as T for numbers and bool, inline, with TypeTraits<T>::Convert's rules: an integer
 *  from an int (range-checked) or a bool (0/1); a floating-point value from a float (float32: range-checked) or an
 *  int; a bool from a bool or an int 0/1. False for every value Convert rejects, and only for those.
 *
 *  Why not call Convert: it takes a ConvertContext by reference for its error message, and inlined into a loop
 *  over values[i] the compiler stores that context to the stack on every iteration. And why every accepted value
 *  here rather than only the common one: then what is left always throws, so the out-of-line path never returns
 *  and a loop over values[i] can keep the list's data and size in registers (a call that may return may also have
 *  changed them). Both together made summing a List<int64_t> of a million ~1.7x faster.
 */
template <typename T>
inline bool ReadElement(const P4JAny& value, T* out) noexcept {
  if constexpr (std::is_same<T, bool>::value) {
    if (value.type_index != kP4JBool && !(value.type_index == kP4JInt && (value.v_int64 == 0 || value.v_int64 == 1))) {
      return false;
    }
    *out = value.v_int64 != 0;
    return true;
  } else if constexpr (std::is_integral<T>::value) {
    if (__builtin_expect(value.type_index == kP4JInt, 1)) {
      int64_t wire = value.v_int64;
      if constexpr (std::is_unsigned<T>::value && sizeof(T) == sizeof(int64_t)) {
        if (wire < 0) return false;
      } else if constexpr (sizeof(T) < sizeof(int64_t)) {
        if (wire < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
            wire > static_cast<int64_t>(std::numeric_limits<T>::max())) {
          return false;
        }
      }
      *out = static_cast<T>(wire);
      return true;
    }
    if (value.type_index != kP4JBool) return false;
    *out = static_cast<T>(value.v_int64 != 0 ? 1 : 0);
    return true;
  } else if constexpr (std::is_floating_point<T>::value) {
    if (__builtin_expect(value.type_index == kP4JFloat, 1)) {
      if constexpr (sizeof(T) < sizeof(double)) {
        if (std::isfinite(value.v_float64) &&
            std::fabs(value.v_float64) > static_cast<double>(std::numeric_limits<T>::max())) {
          return false;
        }
      }
      *out = static_cast<T>(value.v_float64);
      return true;
    }
    // An integer a double cannot hold exactly goes to the full conversion, which reports it.
    if (value.type_index != kP4JInt || !IsExactDouble(value.v_int64)) return false;
    *out = static_cast<T>(static_cast<double>(value.v_int64));
    return true;
  } else {
    (void)value;
    (void)out;
    return false;
  }
}

/*! \brief Whether ReadElement reads T (numbers and bool). */
template <typename T>
constexpr bool kHasInlineElementRead = std::is_arithmetic<T>::value;

/*!
 * \brief Throws the TypeError or ValueError of list element index for a value ReadElement rejected, the one
 *  TypeTraits<T>::Convert throws. Out of line and cold, so that it costs a loop nothing.
 */
template <typename T>
[[noreturn]] __attribute__((noinline, cold)) void ThrowListElementError(const P4JAny& value, int64_t index) {
  ConvertContext context = ConvertContext::Element(index);
  TypeTraits<T>::Convert(value, context);
  // Not reached: ReadElement accepts every value Convert accepts.
  ThrowTypeMismatch(context, TypeTraits<T>::TypeName(), value);
}

/*! \brief Element types a container can hold: readable and writable, and not a view into freed memory. */
template <typename T>
constexpr bool kIsContainerElement = TypeTraits<T>::kConvertible && TypeTraits<T>::kStorable &&
                                     !std::is_same<T, std::string_view>::value;

/*! \brief What a null List or Map reads: no elements. */
inline constexpr P4JListCell kEmptyListCell{nullptr, 0, 0};
inline constexpr P4JMapCell kEmptyMapCell{nullptr, 0, 0};

}  // namespace details

/*!
 * \brief A mutable list shared by reference, with elements read as T (checked).
 *
 * \code
 *   List<int64_t> numbers{1, 2, 3};
 *   numbers.push_back(4);
 *   int64_t first = numbers[0];
 *   for (int64_t n : numbers) { ... }
 *   List<Calculator> calcs = args[0];   // elements checked when read: calcs[i]->price
 * \endcode
 */
template <typename T>
class List : public ObjectRef {
  static_assert(details::kIsContainerElement<T>,
                "List<T>: T must be a type that converts both ways (bool, integers, float, double, std::string, "
                "String, Bytes, ObjectRef types, List, Map, std::optional, PackedFunc, Any, Value)");

 public:
  /*! \brief The object type a List refers to, and its element type. */
  using ContainerType = ListObject;
  using value_type = T;

  /*! \brief The object. */
  const ListObject* get() const noexcept { return static_cast<const ListObject*>(obj_.get()); }
  const ListObject* operator->() const noexcept { return get(); }

  /*! \brief Reads elements in order, by value. */
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;

    iterator(const List* list, int64_t index) noexcept : list_(list), index_(index) {}
    T operator*() const { return (*list_)[index_]; }
    iterator& operator++() noexcept {
      ++index_;
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator before = *this;
      ++index_;
      return before;
    }
    bool operator==(const iterator& other) const noexcept { return index_ == other.index_; }
    bool operator!=(const iterator& other) const noexcept { return index_ != other.index_; }

   private:
    const List* list_;
    int64_t index_;
  };

  /*! \brief A new empty list. */
  List() : List(static_cast<const T*>(nullptr), static_cast<const T*>(nullptr)) {}
  /*! \brief A reference to an existing list object (elements are checked when read). */
  explicit List(ObjectPtr<Object> ptr) noexcept : ObjectRef(std::move(ptr)) {}
  /*! \brief A new list of items. */
  List(std::initializer_list<T> items) : List(items.begin(), items.end()) {}
  /*! \brief A new list holding a copy of items (int64 and double vectors take a bulk path). */
  explicit List(const std::vector<T>& items) {
    if constexpr (std::is_same<T, int64_t>::value) {
      P4JObject* handle = nullptr;
      details::CheckCall(P4JListFromInt64s(items.data(), static_cast<int64_t>(items.size()), &handle));
      obj_ = ObjectPtr<Object>::FromOwnedHandle(handle);
    } else if constexpr (std::is_same<T, double>::value) {
      P4JObject* handle = nullptr;
      details::CheckCall(P4JListFromFloat64s(items.data(), static_cast<int64_t>(items.size()), &handle));
      obj_ = ObjectPtr<Object>::FromOwnedHandle(handle);
    } else {
      *this = List(items.begin(), items.end());
    }
  }
  /*! \brief A new list of the values in [first, last). */
  template <typename Iterator, typename = decltype(*std::declval<Iterator&>()),
            typename = decltype(++std::declval<Iterator&>())>
  List(Iterator first, Iterator last) {
    std::vector<Any> owned;
    std::vector<P4JAny> raw;
    details::StoreRange<T>(first, last, &owned, &raw);
    P4JObject* handle = nullptr;
    details::CheckCall(P4JListCreate(raw.data(), static_cast<int64_t>(raw.size()), &handle));
    obj_ = ObjectPtr<Object>::FromOwnedHandle(handle);
  }

  /*! \brief Number of elements. */
  int64_t size() const noexcept { return cell()->size; }
  bool empty() const noexcept { return cell()->size == 0; }

  /*!
   * \brief The element at index as T; IndexError naming index and size, TypeError or ValueError naming the index.
   *  Numbers and bool are read inline (details::ReadElement), with only the errors out of line.
   */
  T operator[](int64_t index) const {
    const P4JListCell* list = cell();
    if (index < 0 || index >= list->size) ThrowIndexError(index, list->size);
    const P4JAny& value = list->data[index];
    if constexpr (details::kHasInlineElementRead<T>) {
      T out;
      if (__builtin_expect(!details::ReadElement(value, &out), 0)) details::ThrowListElementError<T>(value, index);
      return out;
    } else {
      return details::TypeTraits<T>::Convert(value, details::ConvertContext::Element(index));
    }
  }
  /*! \brief Same as operator[]. */
  T at(int64_t index) const { return (*this)[index]; }
  /*! \brief The first element. */
  T front() const { return (*this)[0]; }
  /*! \brief The last element. */
  T back() const { return (*this)[size() - 1]; }

  /*! \brief Appends item. */
  void push_back(const T& item) {
    P4JAny slot;
    Any keep;
    details::PackArgument(item, &slot, &keep);
    details::CheckCall(P4JListAppend(handle(), &slot));
  }
  /*! \brief Replaces the element at index. */
  void Set(int64_t index, const T& item) {
    P4JAny slot;
    Any keep;
    details::PackArgument(item, &slot, &keep);
    details::CheckCall(P4JListSetItem(handle(), index, &slot));
  }
  /*! \brief Inserts item before index (0 <= index <= size). */
  void insert(int64_t index, const T& item) {
    P4JAny slot;
    Any keep;
    details::PackArgument(item, &slot, &keep);
    details::CheckCall(P4JListInsert(handle(), index, &slot));
  }
  /*! \brief Removes the element at index. */
  void erase(int64_t index) {
    P4JAny removed;
    details::CheckCall(P4JListErase(handle(), index, &removed));
    Any::FromOwned(removed);
  }
  /*! \brief Removes every element. */
  void clear() { details::CheckCall(P4JListClear(handle())); }

  iterator begin() const noexcept { return iterator(this, 0); }
  iterator end() const noexcept { return iterator(this, size()); }

  /*! \brief A copy of the elements, each converted to T. */
  std::vector<T> ToVector() const {
    std::vector<T> out;
    out.reserve(static_cast<size_t>(size()));
    for (int64_t i = 0; i < size(); ++i) out.push_back((*this)[i]);
    return out;
  }

 private:
  // A null List (a field loaded from JSON null, or emptied from Java) reads as empty, as TVM's Array does: size 0,
  // no elements, an IndexError for any index. Changing one is the ValueError of its C call.
  const P4JListCell* cell() const noexcept {
    P4JObject* list = handle();
    return list != nullptr ? details::CellOf<P4JListCell>(list) : &details::kEmptyListCell;
  }
  [[noreturn]] __attribute__((noinline, cold)) static void ThrowIndexError(int64_t index, int64_t size) {
    throw IndexError("list index " + std::to_string(index) + " is out of range for a list of size " +
                     std::to_string(size));
  }
};

namespace details {

/*! \brief Key types of a map: strings and integers hash by value, objects by identity. */
template <typename K>
constexpr bool kIsMapKey = std::is_same<K, std::string>::value || std::is_same<K, String>::value ||
                           (std::is_integral<K>::value && !std::is_same<K, bool>::value) ||
                           std::is_base_of<ObjectRef, K>::value || std::is_same<K, Any>::value;

}  // namespace details

/*!
 * \brief A mutable, insertion-ordered map shared by reference, with keys read as K and values as V (checked).
 *
 * \code
 *   Map<std::string, double> prices{{"casio", 9.5}, {"hp", 30.0}};
 *   double p = prices.at("casio");     // KeyError "key string \"sharp\" is not in the map" for a missing key
 *   prices.Set("sharp", 12.0);
 *   for (const auto& [brand, price] : prices) { ... }
 * \endcode
 */
template <typename K, typename V>
class Map : public ObjectRef {
  static_assert(details::kIsMapKey<K>,
                "Map<K, V>: keys must be std::string, String, an integer type, an ObjectRef type or Any");
  static_assert(details::kIsContainerElement<V>, "Map<K, V>: V must be a type that converts both ways");

 public:
  /*! \brief The object type a Map refers to, and its key, value and entry types. */
  using ContainerType = MapObject;
  using key_type = K;
  using mapped_type = V;
  using value_type = std::pair<K, V>;

  /*! \brief The object. */
  const MapObject* get() const noexcept { return static_cast<const MapObject*>(obj_.get()); }
  const MapObject* operator->() const noexcept { return get(); }

  /*! \brief Reads entries in insertion order, by value. */
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = std::pair<K, V>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::pair<K, V>;

    iterator(const Map* map, int64_t index) noexcept : map_(map), index_(index) {}
    std::pair<K, V> operator*() const { return map_->EntryAt(index_); }
    iterator& operator++() noexcept {
      ++index_;
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator before = *this;
      ++index_;
      return before;
    }
    bool operator==(const iterator& other) const noexcept { return index_ == other.index_; }
    bool operator!=(const iterator& other) const noexcept { return index_ != other.index_; }

   private:
    const Map* map_;
    int64_t index_;
  };

  /*! \brief A new empty map. */
  Map() {
    P4JObject* handle = nullptr;
    details::CheckCall(P4JMapCreate(nullptr, 0, &handle));
    obj_ = ObjectPtr<Object>::FromOwnedHandle(handle);
  }
  /*! \brief A reference to an existing map object (entries are checked when read). */
  explicit Map(ObjectPtr<Object> ptr) noexcept : ObjectRef(std::move(ptr)) {}
  /*! \brief A new map of pairs; a repeated key keeps its first position and its last value. */
  Map(std::initializer_list<std::pair<K, V>> items) : Map(items.begin(), items.end()) {}
  /*! \brief A new map holding a copy of a std::map. */
  explicit Map(const std::map<K, V>& items) : Map(items.begin(), items.end()) {}
  /*! \brief A new map holding a copy of a std::unordered_map (in its iteration order). */
  explicit Map(const std::unordered_map<K, V>& items) : Map(items.begin(), items.end()) {}
  /*! \brief A new map of the pairs in [first, last). */
  template <typename Iterator, typename = decltype(std::declval<Iterator&>()->first),
            typename = decltype(std::declval<Iterator&>()->second)>
  Map(Iterator first, Iterator last) {
    std::vector<Any> owned;
    std::vector<P4JAny> raw;
    for (; first != last; ++first) {
      owned.emplace_back(Any(static_cast<K>(first->first)));
      raw.push_back(owned.back().raw());
      owned.emplace_back(Any(static_cast<V>(first->second)));
      raw.push_back(owned.back().raw());
    }
    P4JObject* handle = nullptr;
    details::CheckCall(P4JMapCreate(raw.data(), static_cast<int64_t>(raw.size() / 2), &handle));
    obj_ = ObjectPtr<Object>::FromOwnedHandle(handle);
  }

  /*! \brief Number of entries. */
  int64_t size() const noexcept { return cell()->size; }
  bool empty() const noexcept { return cell()->size == 0; }

  /*! \brief The value of key as V; KeyError naming the key when it is absent (a null map reads as empty). */
  V at(const K& key) const {
    P4JAny key_slot;
    Any key_keep;
    details::PackArgument(key, &key_slot, &key_keep);
    int32_t found = 0;
    P4JAny raw;
    if (handle() != nullptr) details::CheckCall(P4JMapGetItem(handle(), &key_slot, &found, &raw));
    if (found == 0) throw KeyError("key " + details::DescribeValue(key_slot) + " is not in the map");
    Any value = Any::FromOwned(raw);
    return details::TypeTraits<V>::Convert(value.raw(), details::ConvertContext::MapValue(&key_slot));
  }
  /*! \brief Same as at (read-only: use Set to write). */
  V operator[](const K& key) const { return at(key); }
  /*! \brief 1 when key is present, else 0 (0 in a null map, which reads as empty). */
  int64_t count(const K& key) const {
    if (handle() == nullptr) return 0;
    P4JAny key_slot;
    Any key_keep;
    details::PackArgument(key, &key_slot, &key_keep);
    int32_t found = 0;
    P4JAny raw;
    details::CheckCall(P4JMapGetItem(handle(), &key_slot, &found, &raw));
    Any::FromOwned(raw);
    return found != 0 ? 1 : 0;
  }
  /*! \brief Whether key is present. */
  bool contains(const K& key) const { return count(key) != 0; }

  /*! \brief Inserts or replaces; a new key goes last. */
  void Set(const K& key, const V& value) {
    P4JAny key_slot;
    Any key_keep;
    details::PackArgument(key, &key_slot, &key_keep);
    P4JAny value_slot;
    Any value_keep;
    details::PackArgument(value, &value_slot, &value_keep);
    details::CheckCall(P4JMapSetItem(handle(), &key_slot, &value_slot));
  }
  /*! \brief Removes key; returns whether it was present. The order of the others is kept. */
  bool erase(const K& key) {
    P4JAny key_slot;
    Any key_keep;
    details::PackArgument(key, &key_slot, &key_keep);
    int32_t found = 0;
    P4JAny removed;
    details::CheckCall(P4JMapErase(handle(), &key_slot, &found, &removed));
    Any::FromOwned(removed);
    return found != 0;
  }
  /*! \brief Removes every entry. */
  void clear() { details::CheckCall(P4JMapClear(handle())); }

  iterator begin() const noexcept { return iterator(this, 0); }
  iterator end() const noexcept { return iterator(this, size()); }

  /*! \brief The keys, in insertion order. */
  std::vector<K> keys() const {
    std::vector<K> out;
    for (int64_t i = 0; i < size(); ++i) out.push_back(EntryAt(i).first);
    return out;
  }

 private:
  // A null Map reads as empty (see List::cell): a lookup finds nothing; a change is the ValueError of its C call.
  const P4JMapCell* cell() const noexcept {
    P4JObject* map = handle();
    return map != nullptr ? details::CellOf<P4JMapCell>(map) : &details::kEmptyMapCell;
  }
  std::pair<K, V> EntryAt(int64_t index) const {
    const P4JAny* entry = cell()->entries + 2 * index;
    return std::pair<K, V>(details::TypeTraits<K>::Convert(entry[0], details::ConvertContext::MapKey()),
                           details::TypeTraits<V>::Convert(entry[1], details::ConvertContext::MapValue(&entry[0])));
  }
};

namespace details {

/*! \brief IndexError: index out of [0, size) of a list or list view. */
[[noreturn, gnu::noinline, gnu::cold]] inline void ThrowListIndexError(int64_t index, int64_t size) {
  throw IndexError("list index " + std::to_string(index) + " is out of range for a list of size " +
                   std::to_string(size));
}

/*! \brief value, element index of a list, as T: List's element read (checked, errors out of line). */
template <typename T>
T ReadElementAt(const P4JAny& value, int64_t index) {
  if constexpr (kHasInlineElementRead<T>) {
    T out;
    if (__builtin_expect(!ReadElement(value, &out), 0)) ThrowListElementError<T>(value, index);
    return out;
  } else {
    return TypeTraits<T>::Convert(value, ConvertContext::Element(index));
  }
}

/*! \brief The element at index of size values at data, as T: List's element read (checked, errors out of line). */
template <typename T>
T ReadListElement(const P4JAny* data, int64_t index) {
  return ReadElementAt<T>(data[index], index);
}

/*!
 * \brief The packed value of a dense list's element (P4J_LIST_WORD_DENSE_I64, _F64): a kP4JInt of its bits, or a
 *  kP4JFloat when floats.
 */
inline P4JAny DenseElementValue(int64_t bits, bool floats) noexcept {
  P4JAny value;
  value.type_index = floats ? kP4JFloat : kP4JInt;
  value.zero_padding = 0;
  value.v_int64 = bits;
  return value;
}

/*!
 * \brief Element index of a dense list's values, as T, converted as the same element of a borrowed list cell is (see
 *  DenseElementValue): an int64_t from int64 values and a double from float64 values are read as they are.
 */
template <typename T>
T ReadDenseElement(const int64_t* values, int64_t index, bool floats) {
  if constexpr (std::is_same<T, int64_t>::value) {
    if (__builtin_expect(!floats, 1)) return values[index];
  } else if constexpr (std::is_same<T, double>::value) {
    if (__builtin_expect(floats, 1)) {
      double out;
      std::memcpy(&out, &values[index], sizeof(out));
      return out;
    }
  }
  return ReadElementAt<T>(DenseElementValue(values[index], floats), index);
}

/*! \brief The list cell of a packed list value (kP4JList), or the TypeError of context. */
inline const P4JListCell* ListCellOf(const P4JAny& value, const ConvertContext& context, const std::string& expected) {
  if (value.type_index != kP4JList) ThrowTypeMismatch(context, expected, value);
  return CellOf<P4JListCell>(value.v_obj);
}

}  // namespace details

/*!
 * \brief A list argument read during the call, as TensorView is a tensor's: no list object is made for it. A body
 *  that only reads its list takes one; a typed entry's caller that lends a borrowed list cell or a dense list (the
 *  Java runtime, P4J_LIST_WORD_BORROWED, P4J_LIST_WORD_DENSE_I64) reaches it without any native allocation, and a
 *  ListView<int64_t> (or ListView<double>) over a dense list reads its values in place. Valid only during the call;
 *  not storable.
 *
 * \code
 *   P4J_REGISTER_GLOBAL("demo.Sum").set_body_typed([](ListView<int64_t> values) {
 *     int64_t sum = 0;
 *     for (int64_t v : values) sum += v;
 *     return sum;
 *   });
 * \endcode
 */
template <typename T>
class ListView {
  static_assert(details::kIsContainerElement<T>, "ListView<T>: T must be a list element type (see List<T>)");

 public:
  /*! \brief Reads elements in order, by value. */
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;

    /*! \brief The element at index of view. */
    iterator(const ListView* view, int64_t index) noexcept : view_(view), index_(index) {}
    /*! \brief The element, checked as operator[] checks it. */
    T operator*() const { return view_->Read(index_); }
    /*! \brief The next element. */
    iterator& operator++() noexcept {
      ++index_;
      return *this;
    }
    /*! \brief Same position. */
    bool operator==(const iterator& other) const noexcept { return index_ == other.index_; }
    /*! \brief Other position. */
    bool operator!=(const iterator& other) const noexcept { return index_ != other.index_; }

   private:
    const ListView* view_;
    int64_t index_;
  };

  /*! \brief A view of the values of cell, which must outlive it (a list's cell, or a borrowed one). */
  explicit ListView(const P4JListCell* cell) noexcept : cell_(cell), dense_(nullptr), dense_size_(0), floats_(false) {}
  /*!
   * \brief A view of size dense values (P4J_LIST_WORD_DENSE_I64, or P4J_LIST_WORD_DENSE_F64 when floats), which must
   *  outlive it.
   */
  ListView(const int64_t* values, int64_t size, bool floats) noexcept
      : cell_(nullptr), dense_(values), dense_size_(size), floats_(floats) {}

  /*! \brief Number of elements. */
  int64_t size() const noexcept { return cell_ == nullptr ? dense_size_ : cell_->size; }
  /*! \brief Whether there is none. */
  bool empty() const noexcept { return size() == 0; }
  /*! \brief The element at index as T, checked as List<T>'s (IndexError, TypeError, ValueError). */
  T operator[](int64_t index) const {
    const int64_t count = size();
    if (index < 0 || index >= count) details::ThrowListIndexError(index, count);
    return Read(index);
  }
  /*! \brief The first element. */
  iterator begin() const noexcept { return iterator(this, 0); }
  /*! \brief Past the last element. */
  iterator end() const noexcept { return iterator(this, size()); }
  /*! \brief A copy of the elements, each converted to T. */
  std::vector<T> ToVector() const {
    std::vector<T> out;
    const int64_t count = size();
    out.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) out.push_back(Read(i));
    return out;
  }

 private:
  /*! \brief The element at index, in range, converted and checked. */
  T Read(int64_t index) const {
    if (cell_ == nullptr) return details::ReadDenseElement<T>(dense_, index, floats_);
    return details::ReadListElement<T>(cell_->data, index);
  }

  const P4JListCell* cell_;
  const int64_t* dense_;
  int64_t dense_size_;
  bool floats_;
};

namespace details {

/*!
 * \brief List<T>: a list object; elements are checked when read. A typed entry's borrowed list cell becomes a new
 *  list of its values (string views copied).
 */
template <typename T>
struct TypeTraits<List<T>> : ObjectRefTraits<List<T>> {
  static constexpr bool kTypedAllowed = TypeTraits<T>::kTypedAllowed;
  static constexpr bool kWireList = true;
  static std::string TypeName() { return "list<" + TypeTraits<T>::TypeName() + ">"; }
  /*! \brief A new list holding the values of a borrowed cell. */
  static List<T> FromListCell(const P4JListCell* cell, const ConvertContext&) {
    P4JObject* handle = nullptr;
    CheckCall(P4JListCreate(cell->data, cell->size, &handle));
    return List<T>(ObjectPtr<Object>::FromOwnedHandle(handle));
  }
  /*!
   * \brief A new list holding size dense values (P4J_LIST_WORD_DENSE_I64, P4J_LIST_WORD_DENSE_F64 when floats) as
   *  kP4JInt or kP4JFloat values (P4JListFromInt64s, P4JListFromFloat64s: one pass, no array of P4JAny between),
   *  checked when read as a borrowed cell's would be.
   */
  static List<T> FromDenseList(const int64_t* values, int64_t size, bool floats, const ConvertContext&) {
    P4JObject* handle = nullptr;
    if (floats) {
      CheckCall(P4JListFromFloat64s(reinterpret_cast<const double*>(values), size, &handle));
    } else {
      CheckCall(P4JListFromInt64s(values, size, &handle));
    }
    return List<T>(ObjectPtr<Object>::FromOwnedHandle(handle));
  }
};

/*!
 * \brief std::vector<T>: a list's elements copied, each converted to T when the argument is (the first bad one
 *  reported as List<T>'s element read reports it); stored as a new List<T>.
 */
template <typename T>
struct TypeTraits<std::vector<T>> {
  static constexpr bool kConvertible = kIsContainerElement<T>;
  static constexpr bool kStorable = kIsContainerElement<T>;
  static constexpr bool kTypedAllowed = TypeTraits<T>::kTypedAllowed;
  static constexpr bool kTypedScalar = false;
  static constexpr bool kWireList = true;
  static std::string TypeName() { return "list<" + TypeTraits<T>::TypeName() + ">"; }
  static std::vector<T> Convert(const P4JAny& value, const ConvertContext& context) {
    return FromListCell(ListCellOf(value, context, TypeName()), context);
  }
  /*!
   * \brief The values of a list cell, converted; an element's error is placed by context ("demo.Sum: argument 0, list
   *  element at index 3 expected int64, ..."), a nested vector's by each level.
   */
  static std::vector<T> FromListCell(const P4JListCell* cell, const ConvertContext& context) {
    std::vector<T> out;
    out.reserve(static_cast<size_t>(cell->size));
    try {
      for (int64_t i = 0; i < cell->size; ++i) out.push_back(ReadListElement<T>(cell->data, i));
    } catch (const Error& error) {
      ThrowWithin(Within(context), error);
    }
    return out;
  }
  /*! \brief What goes before an element's error: the context's words with a comma, or nothing. */
  static std::string Within(const ConvertContext& context) {
    std::string where = DescribeContext(context);
    if (!where.empty() && where.back() == ' ') where.back() = ',';
    return where.empty() ? where : where + " ";
  }
  /*!
   * \brief size dense values (P4J_LIST_WORD_DENSE_I64, P4J_LIST_WORD_DENSE_F64 when floats), converted as a borrowed
   *  cell's; int64 values into std::vector<int64_t> and float64 ones into std::vector<double> are copied whole.
   */
  static std::vector<T> FromDenseList(const int64_t* values, int64_t size, bool floats,
                                      const ConvertContext& context) {
    if constexpr (std::is_same<T, int64_t>::value) {
      if (!floats) return std::vector<T>(values, values + size);
    } else if constexpr (std::is_same<T, double>::value) {
      if (floats) {
        std::vector<T> out(static_cast<size_t>(size));
        if (size > 0) std::memcpy(out.data(), values, sizeof(double) * static_cast<size_t>(size));
        return out;
      }
    }
    std::vector<T> out;
    out.reserve(static_cast<size_t>(size));
    try {
      for (int64_t i = 0; i < size; ++i) out.push_back(ReadDenseElement<T>(values, i, floats));
    } catch (const Error& error) {
      ThrowWithin(Within(context), error);
    }
    return out;
  }
  static void Store(const std::vector<T>& value, P4JAny* out) { TypeTraits<List<T>>::Store(List<T>(value), out); }
};

/*! \brief ListView<T>: a list argument read in place, made by no one (see ListView); never a result. */
template <typename T>
struct TypeTraits<ListView<T>> {
  static constexpr bool kConvertible = kIsContainerElement<T>;
  static constexpr bool kStorable = false;
  static constexpr bool kTypedAllowed = TypeTraits<T>::kTypedAllowed;
  static constexpr bool kTypedScalar = false;
  static constexpr bool kWireList = true;
  static std::string TypeName() { return "list<" + TypeTraits<T>::TypeName() + ">"; }
  static ListView<T> Convert(const P4JAny& value, const ConvertContext& context) {
    return ListView<T>(ListCellOf(value, context, TypeName()));
  }
  /*! \brief A view of a borrowed cell. */
  static ListView<T> FromListCell(const P4JListCell* cell, const ConvertContext&) { return ListView<T>(cell); }
  /*! \brief A view of size dense values (P4J_LIST_WORD_DENSE_I64, P4J_LIST_WORD_DENSE_F64 when floats). */
  static ListView<T> FromDenseList(const int64_t* values, int64_t size, bool floats, const ConvertContext&) {
    return ListView<T>(values, size, floats);
  }
};

/*! \brief Map<K, V>: a map object; entries are checked when read. */
template <typename K, typename V>
struct TypeTraits<Map<K, V>> : ObjectRefTraits<Map<K, V>> {
  static constexpr bool kTypedAllowed = TypeTraits<K>::kTypedAllowed && TypeTraits<V>::kTypedAllowed;
  static std::string TypeName() { return "map<" + TypeTraits<K>::TypeName() + ", " + TypeTraits<V>::TypeName() + ">"; }
};

}  // namespace details
}  // namespace packed4j

#endif  // PACKED4J_CONTAINER_H_
