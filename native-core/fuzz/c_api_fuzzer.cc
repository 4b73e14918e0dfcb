// libFuzzer target over the C ABI entry points that take data: values, strings and bytes, lists and maps, calls
// with converted arguments (packed, typed and register calls), field reads and errors.
//
// Each input is a small program: a stream of operations, each building a value from the input's bytes, applying
// an entry point to values built earlier, or releasing one. The pool holds only values a real caller could hold
// (scalars of any bit pattern, views of memory the fuzzer owns, objects the API returned), so any crash, any
// sanitizer report, any -1 without a raised error and any object left alive is a bug of the library.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include <packed4j/packed4j.h>

using namespace packed4j;

namespace {

// ---- functions the programs call, besides the core's own packed4j.* globals: each converts its arguments ----

P4J_REGISTER_GLOBAL("fuzz.Scalars").set_body_typed([](int32_t a, double b, bool c, int8_t d) {
  return static_cast<int64_t>(a) + static_cast<int64_t>(b > 0 && b < 1e9 ? b : 0) + c + d;
});
P4J_REGISTER_GLOBAL("fuzz.Strings").set_body_typed([](std::string a, std::string_view b) {
  return a + std::string(b);
});
P4J_REGISTER_GLOBAL("fuzz.Bytes").set_body_typed([](Bytes bytes) { return static_cast<int64_t>(bytes.size()); });
P4J_REGISTER_GLOBAL("fuzz.Containers").set_body_typed([](List<int64_t> list, Map<std::string, double> map) {
  return list.size() + map.size();
});
P4J_REGISTER_GLOBAL("fuzz.Nested").set_body_typed([](List<List<std::string>> lists) {
  int64_t total = 0;
  for (int64_t i = 0; i < lists.size(); ++i) total += lists[i].size();
  return total;
});
P4J_REGISTER_GLOBAL("fuzz.ObjectKeys").set_body_typed([](Map<ObjectRef, int64_t> map) { return map.size(); });
P4J_REGISTER_GLOBAL("fuzz.Echo").set_body([](Args args, RetValue* rv) {
  if (args.size() > 0) *rv = args[args.size() - 1];
});
P4J_REGISTER_GLOBAL("fuzz.Raise").set_body_typed([](std::string message) -> int64_t {
  throw ValueError(message);
});

/*! \brief Names a call may target: the core's globals, the functions above and one that does not exist. */
const char* const kFunctions[] = {
    "packed4j.ListSize",   "packed4j.ListGetItem", "packed4j.ListSetItem", "packed4j.ListAppend",
    "packed4j.MapSize",    "packed4j.MapGetItem",  "packed4j.MapSetItem",  "packed4j.MapKeys",
    "packed4j.MapItems",   "packed4j.ListFromInt64Bytes", "packed4j.GetTypeKey", "packed4j.ObjectLiveCount",
    "fuzz.Scalars",        "fuzz.Strings",         "fuzz.Bytes",           "fuzz.Containers",
    "fuzz.Nested",         "fuzz.ObjectKeys",      "fuzz.Echo",            "fuzz.Raise",
    "fuzz.NoSuchFunction"};
constexpr size_t kNumFunctions = sizeof(kFunctions) / sizeof(kFunctions[0]);

constexpr size_t kMaxPool = 24;
constexpr size_t kMaxArgs = 6;
constexpr size_t kMaxText = 64;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "c_api_fuzzer: %s\n", what);
  std::abort();
}

/*! \brief After an entry point returned -1: an error must be raised; it is taken, checked and released. */
void TakeError() {
  P4JObjectHandle error = nullptr;
  if (P4JErrorMoveFromRaised(&error) != 0 || error == nullptr) Fail("an entry point returned -1 without an error");
  if (error->type_index != kP4JError) Fail("the raised error is not an Error object");
  const P4JErrorCell* cell = details::CellOf<P4JErrorCell>(error);
  if (cell->kind.size <= 0) Fail("the raised error has no kind");
  P4JObjectDecRef(error);
}

/*! \brief After an entry point returned 0: nothing may be left raised. */
void ExpectNoError() {
  P4JObjectHandle error = nullptr;
  if (P4JErrorMoveFromRaised(&error) != 0) Fail("P4JErrorMoveFromRaised failed");
  if (error != nullptr) Fail("an entry point succeeded and left an error raised");
}

void Check(int status) {
  if (status == 0) {
    ExpectNoError();
  } else if (status == -1) {
    TakeError();
  } else {
    Fail("an entry point returned neither 0 nor -1");
  }
}

bool IsObject(const P4JAny& value) { return value.type_index >= kP4JStaticObjectBegin && value.v_obj != nullptr; }

/*! \brief Whether target is from or is held, at any depth, by the lists and maps reachable from it. */
bool Reaches(P4JObjectHandle from, P4JObjectHandle target) {
  std::vector<P4JObjectHandle> pending{from};
  std::vector<P4JObjectHandle> seen;
  while (!pending.empty()) {
    P4JObjectHandle object = pending.back();
    pending.pop_back();
    if (object == target) return true;
    if (std::find(seen.begin(), seen.end(), object) != seen.end()) continue;
    seen.push_back(object);
    const P4JAny* values = nullptr;
    int64_t count = 0;
    if (object->type_index == kP4JList) {
      values = details::CellOf<P4JListCell>(object)->data;
      count = details::CellOf<P4JListCell>(object)->size;
    } else if (object->type_index == kP4JMap) {
      values = details::CellOf<P4JMapCell>(object)->entries;
      count = 2 * details::CellOf<P4JMapCell>(object)->size;
    }
    for (int64_t i = 0; i < count; ++i) {
      if (IsObject(values[i])) pending.push_back(values[i].v_obj);
    }
  }
  return false;
}

/*!
 * \brief Whether storing value into container would close a reference cycle. Reference counting cannot free a
 *  cycle (a list holding itself lives forever, by design), so programs do not make them: a leak left at the end
 *  is then always the library's.
 */
bool WouldCycle(P4JObjectHandle container, const P4JAny& value) {
  return container != nullptr && IsObject(value) && Reaches(value.v_obj, container);
}

/*! \brief The values of one program; views point into texts, which outlive every use. */
class Program {
 public:
  explicit Program(FuzzedDataProvider* input) : input_(input) {}

  ~Program() {
    for (P4JAny& value : pool_) Release(&value);
  }

  void Run() {
    while (input_->remaining_bytes() > 0) Step();
  }

 private:
  void Step() {
    switch (input_->ConsumeIntegralInRange<int>(0, 21)) {
      case 0: Add(Scalar(kP4JInt, input_->ConsumeIntegral<int64_t>())); break;
      case 1: Add(Scalar(kP4JFloat, input_->ConsumeIntegral<int64_t>())); break;  // any bit pattern: NaN, inf
      case 2: Add(Scalar(kP4JBool, input_->ConsumeIntegralInRange<int64_t>(0, 1))); break;
      case 3: Add(Scalar(kP4JNone, 0)); break;
      case 4: Add(Scalar(input_->PickValueInArray({kP4JOpaquePtr, kP4JDataType, kP4JDevice}),
                         input_->ConsumeIntegral<int64_t>())); break;
      case 5: AddView(kP4JStrView); break;
      case 6: AddView(kP4JBytesView); break;
      case 7: MakeByteArrayObject(); break;
      case 8: MakeList(); break;
      case 9: MakeListOfNumbers(); break;
      case 10: MakeWrittenList(); break;
      case 11: MakeMap(); break;
      case 12: ChangeList(); break;
      case 13: ChangeMap(); break;
      case 14: LookUpMap(); break;
      case 15: CallPacked(); break;
      case 16: CallScalars(); break;
      case 17: ReadField(); break;
      case 18: MakeError(); break;
      case 19: LookUpType(); break;
      case 20: CallTyped(); break;
      default: ReleaseOne(); break;
    }
  }

  static P4JAny Scalar(int32_t type_index, int64_t payload) {
    P4JAny value{};
    value.type_index = type_index;
    value.v_int64 = payload;
    return value;
  }

  /*! \brief Keeps an owned value (or releases it when the pool is full). */
  void Add(P4JAny value) {
    if (pool_.size() >= kMaxPool) {
      Release(&value);
      return;
    }
    pool_.push_back(value);
  }

  static void Release(P4JAny* value) {
    if (IsObject(*value)) P4JObjectDecRef(value->v_obj);
    *value = P4JAny{};
  }

  P4JAny Pick() {
    if (pool_.empty()) return Scalar(kP4JNone, 0);
    return pool_[input_->ConsumeIntegralInRange<size_t>(0, pool_.size() - 1)];
  }

  P4JObjectHandle PickObject() {
    P4JAny value = Pick();
    return IsObject(value) ? value.v_obj : nullptr;
  }

  const std::string& Text() {
    texts_.push_back(input_->ConsumeRandomLengthString(kMaxText));
    return texts_.back();
  }

  P4JByteArray TextSpan() {
    const std::string& text = Text();
    return P4JByteArray{text.data(), static_cast<int64_t>(text.size())};
  }

  void AddView(int32_t type_index) {
    const std::string& text = Text();
    P4JAny view{};
    view.type_index = type_index;
    view.small_len = static_cast<uint32_t>(text.size());
    view.v_ptr = const_cast<char*>(text.data());
    Add(view);
  }

  void MakeByteArrayObject() {
    P4JByteArray span = TextSpan();
    P4JAny out{};
    bool bytes = input_->ConsumeBool();
    int status = bytes ? P4JBytesFromByteArray(&span, &out) : P4JStringFromByteArray(&span, &out);
    Check(status);
    if (status == 0) Add(out);
  }

  std::vector<P4JAny> Items(size_t max) {
    std::vector<P4JAny> items(input_->ConsumeIntegralInRange<size_t>(0, max));
    for (P4JAny& item : items) item = Pick();
    return items;
  }

  void AddObject(int status, P4JObjectHandle handle) {
    Check(status);
    if (status == 0) {
      if (handle == nullptr) Fail("an entry point succeeded without its object");
      P4JAny value{};
      value.type_index = handle->type_index;
      value.v_obj = handle;
      Add(value);
    }
  }

  void MakeList() {
    std::vector<P4JAny> items = Items(kMaxArgs);
    P4JObjectHandle list = nullptr;
    AddObject(P4JListCreate(items.data(), static_cast<int64_t>(items.size()), &list), list);
  }

  void MakeListOfNumbers() {
    std::vector<int64_t> numbers(input_->ConsumeIntegralInRange<size_t>(0, 16));
    for (int64_t& number : numbers) number = input_->ConsumeIntegral<int64_t>();
    P4JObjectHandle list = nullptr;
    int status = input_->ConsumeBool()
                     ? P4JListFromInt64s(numbers.data(), static_cast<int64_t>(numbers.size()), &list)
                     : P4JListFromFloat64s(reinterpret_cast<const double*>(numbers.data()),
                                           static_cast<int64_t>(numbers.size()), &list);
    AddObject(status, list);
  }

  /*! \brief The Java side's path: storage reserved, values written in place, then appended as owned. */
  void MakeWrittenList() {
    int64_t capacity = input_->ConsumeIntegralInRange<int64_t>(-2, 8);
    P4JObjectHandle list = nullptr;
    int status = P4JListCreateWithCapacity(capacity, &list);
    Check(status);
    if (status != 0) return;
    const P4JListCell* cell = details::CellOf<P4JListCell>(list);
    int64_t written = input_->ConsumeIntegralInRange<int64_t>(0, cell->capacity - cell->size);
    bool pods = true;
    for (int64_t i = 0; i < written; ++i) {
      P4JAny value = Pick();
      pods &= value.type_index < kP4JDLTensorPtr;
      cell->data[cell->size + i] = value;
    }
    // Telling the list "all PODs" is the caller's promise; a caller that wrote objects says so.
    Check(P4JListAppendWritten(list, written, pods ? input_->ConsumeBool() : 0));
    P4JAny value{};
    value.type_index = kP4JList;
    value.v_obj = list;
    Add(value);
  }

  void MakeMap() {
    std::vector<P4JAny> pairs = Items(kMaxArgs);
    if (pairs.size() % 2 != 0) pairs.pop_back();
    P4JObjectHandle map = nullptr;
    AddObject(P4JMapCreate(pairs.data(), static_cast<int64_t>(pairs.size() / 2), &map), map);
  }

  void ChangeList() {
    P4JObjectHandle list = PickObject();
    P4JAny item = Pick();
    if (WouldCycle(list, item)) return;
    int64_t index = input_->ConsumeIntegralInRange<int64_t>(-2, 10);
    switch (input_->ConsumeIntegralInRange<int>(0, 4)) {
      case 0: Check(P4JListAppend(list, &item)); break;
      case 1: Check(P4JListSetItem(list, index, &item)); break;
      case 2: Check(P4JListInsert(list, index, &item)); break;
      case 3: {
        P4JAny removed{};
        int status = P4JListErase(list, index, &removed);
        Check(status);
        if (status == 0) Add(removed);
        break;
      }
      default: Check(P4JListClear(list)); break;
    }
  }

  void ChangeMap() {
    P4JObjectHandle map = PickObject();
    P4JAny key = Pick();
    switch (input_->ConsumeIntegralInRange<int>(0, 2)) {
      case 0: {
        P4JAny value = Pick();
        if (WouldCycle(map, key) || WouldCycle(map, value)) return;
        Check(P4JMapSetItem(map, &key, &value));
        break;
      }
      case 1: {
        int32_t found = 0;
        P4JAny removed{};
        int status = P4JMapErase(map, &key, &found, &removed);
        Check(status);
        if (status == 0 && found) Add(removed);
        break;
      }
      default: Check(P4JMapClear(map)); break;
    }
  }

  void LookUpMap() {
    P4JObjectHandle map = PickObject();
    P4JAny key = Pick();
    int32_t found = 0;
    P4JAny value{};
    int status = P4JMapGetItem(map, &key, &found, &value);
    Check(status);
    if (status == 0 && found) Add(value);
  }

  /*! \brief Whether function stores its later arguments into its first (however the program got hold of it). */
  static bool IsMutator(P4JObjectHandle function) {
    for (const char* name : {"packed4j.ListSetItem", "packed4j.ListAppend", "packed4j.MapSetItem"}) {
      P4JByteArray span = details::ByteArrayOf(name);
      P4JObjectHandle mutator = nullptr;
      if (P4JFunctionGetGlobal(&span, &mutator) == 0 && mutator == function && function != nullptr) return true;
    }
    return false;
  }

  /*! \brief A global by name (borrowed: globals live until exit), or NULL for the unknown name. */
  P4JObjectHandle Function() {
    const char* name = kFunctions[input_->ConsumeIntegralInRange<size_t>(0, kNumFunctions - 1)];
    P4JByteArray span = details::ByteArrayOf(name);
    P4JObjectHandle function = nullptr;
    int status = P4JFunctionGetGlobal(&span, &function);
    Check(status);
    return status == 0 ? function : nullptr;
  }

  void CallPacked() {
    // Mostly a registered function; sometimes any pooled value, which must be a TypeError unless it is a function.
    // Both are borrowed.
    P4JObjectHandle function = input_->ConsumeIntegralInRange<int>(0, 9) == 0 ? PickObject() : Function();
    std::vector<P4JAny> args = Items(kMaxArgs);
    if (IsMutator(function) && !args.empty() && IsObject(args[0])) {
      for (size_t i = 1; i < args.size(); ++i) {
        if (WouldCycle(args[0].v_obj, args[i])) return;
      }
    }
    P4JAny result{};
    int status = P4JFunctionCall(function, args.data(), static_cast<int32_t>(args.size()), &result);
    Check(status);
    if (status == 0) Add(result);
  }

  void CallScalars() {
    P4JObjectHandle function = Function();
    int64_t shape = input_->ConsumeIntegral<int64_t>();
    if (input_->ConsumeBool()) shape &= 0xffffffffff;  // mostly well-formed: count, result kind, 3 type bytes
    int64_t a[4];
    for (int64_t& payload : a) payload = input_->ConsumeIntegral<int64_t>();
    int64_t returned = P4JFunctionCallScalars(function, shape, a[0], a[1], a[2], a[3]);
    if (returned != P4J_TYPED_ERROR_I64) {
      ExpectNoError();
      return;
    }
    P4JObjectHandle error = nullptr;
    if (P4JErrorMoveFromRaised(&error) != 0) Fail("P4JErrorMoveFromRaised failed");
    if (error != nullptr) P4JObjectDecRef(error);
    P4JAny kept{};
    int32_t found = 0;
    if (P4JFunctionCallScalarsTakeResult(&kept, &found) != 0) Fail("P4JFunctionCallScalarsTakeResult failed");
    if (found) Add(kept);
  }

  /*! \brief A typed entry called as a Java direct entry would, when the signature is all integers. */
  void CallTyped() {
    P4JObjectHandle function = Function();
    if (function == nullptr) return;
    P4JByteArray signature{};
    Check(P4JFunctionGetSignature(function, &signature));
    // The typed entry is read from the function's cell, as c_api.h's fast-path section says callers do.
    void* entry = reinterpret_cast<const P4JFunctionCell*>(reinterpret_cast<const char*>(function) +
                                                           sizeof(P4JObject))->typed_entry;
    std::string_view text(signature.data == nullptr ? "" : signature.data, static_cast<size_t>(signature.size));
    if (entry != nullptr && text == "(int32, float64, bool, int8) -> int64") {
      using Entry = int64_t (*)(P4JObjectHandle, int64_t, double, int64_t, int64_t);
      int64_t a = input_->ConsumeIntegral<int64_t>();
      double b = input_->ConsumeFloatingPoint<double>();
      int64_t c = input_->ConsumeIntegral<int64_t>();
      int64_t d = input_->ConsumeIntegral<int64_t>();
      int64_t result = reinterpret_cast<Entry>(entry)(function, a, b, c, d);
      if (result == P4J_TYPED_ERROR_I64) {
        P4JObjectHandle error = nullptr;
        if (P4JErrorMoveFromRaised(&error) != 0) Fail("P4JErrorMoveFromRaised failed");
        if (error != nullptr) P4JObjectDecRef(error);
      } else {
        ExpectNoError();
      }
    }
  }

  void ReadField() {
    P4JObjectHandle object = PickObject();
    P4JAny result{};
    int status = input_->ConsumeBool()
                     ? P4JObjectGetField(object, input_->ConsumeIntegralInRange<int32_t>(-2, 8), &result)
                     : [&] {
                         P4JByteArray name = TextSpan();
                         return P4JObjectGetAttr(object, &name, &result);
                       }();
    Check(status);
    if (status == 0) Add(result);
  }

  void MakeError() {
    P4JByteArray kind = TextSpan();
    P4JByteArray message = TextSpan();
    P4JByteArray backtrace = TextSpan();
    P4JObjectHandle error = nullptr;
    AddObject(P4JErrorCreate(&kind, &message, input_->ConsumeBool() ? &backtrace : nullptr, &error), error);
  }

  void LookUpType() {
    P4JByteArray key = TextSpan();
    int32_t index = -1;
    int status = P4JTypeKeyToIndex(&key, &index);
    Check(status);
    if (status == 0) {
      const P4JTypeInfo* info = nullptr;
      Check(P4JTypeGetInfo(index, &info));
    }
  }

  void ReleaseOne() {
    if (pool_.empty()) return;
    size_t index = input_->ConsumeIntegralInRange<size_t>(0, pool_.size() - 1);
    Release(&pool_[index]);
    pool_.erase(pool_.begin() + static_cast<std::ptrdiff_t>(index));
  }

  FuzzedDataProvider* input_;
  std::vector<P4JAny> pool_;
  std::deque<std::string> texts_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int64_t before = P4JObjectLiveCount();
  {
    FuzzedDataProvider input(data, size);
    Program program(&input);
    program.Run();
  }
  // Every object a program made is released with it: a higher count is a leak.
  if (P4JObjectLiveCount() != before) {
    std::fprintf(stderr, "c_api_fuzzer: %lld objects leaked\n", static_cast<long long>(P4JObjectLiveCount() - before));
    std::abort();
  }
  return 0;
}
