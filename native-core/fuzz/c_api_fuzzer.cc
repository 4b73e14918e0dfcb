// libFuzzer target over the C ABI entry points that take data: values, strings and bytes, lists and maps, calls
// with converted arguments (packed, typed and register calls), field reads and errors, and tensors (created,
// viewed, imported and exported through DLPack, read element by element, released).
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
#include <cstring>
#include <deque>
#include <functional>
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

/*! \brief The most elements fuzz.TensorRead visits: it bounds the work of one call, not what it checks. */
constexpr int64_t kMaxReadElements = 4096;

/*!
 * \brief Reads every element a tensor reaches, through its strides and byte offset, as a strided kernel would: a
 *  view the core let reach outside its memory is an AddressSanitizer report here. Elements are copied out with
 *  memcpy, since a view's byte offset need not keep them aligned.
 */
P4J_REGISTER_GLOBAL("fuzz.TensorRead").set_body_typed([](NDArray a) -> int64_t {
  if (a->device.device_type != kDLCPU) throw ValueError("fuzz.TensorRead: the tensor is not in host memory");
  int64_t element = (static_cast<int64_t>(a->dtype.bits) * a->dtype.lanes + 7) / 8;
  int64_t count = a.NumElements();
  if (count > kMaxReadElements || element > 64) return -1;
  std::vector<int64_t> index(static_cast<size_t>(a->ndim), 0);
  unsigned char bytes[64];
  uint64_t checksum = 0;
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = static_cast<int64_t>(a->byte_offset);
    for (int32_t d = 0; d < a->ndim; ++d) offset += index[d] * a->strides[d] * element;
    std::memcpy(bytes, static_cast<const char*>(a->data) + offset, static_cast<size_t>(element));
    for (int64_t b = 0; b < element; ++b) checksum = checksum * 31 + bytes[b];
    for (int32_t d = a->ndim - 1; d >= 0; --d) {
      if (++index[d] < a->shape[d]) break;
      index[d] = 0;
    }
  }
  return static_cast<int64_t>(checksum >> 1);
});

/*! \brief Names a call may target: the core's globals, the functions above and one that does not exist. */
const char* const kFunctions[] = {
    "packed4j.ListSize",   "packed4j.ListGetItem", "packed4j.ListSetItem", "packed4j.ListAppend",
    "packed4j.MapSize",    "packed4j.MapGetItem",  "packed4j.MapSetItem",  "packed4j.MapKeys",
    "packed4j.MapItems",   "packed4j.ListFromInt64Bytes", "packed4j.GetTypeKey", "packed4j.ObjectLiveCount",
    "fuzz.Scalars",        "fuzz.Strings",         "fuzz.Bytes",           "fuzz.Containers",
    "fuzz.Nested",         "fuzz.ObjectKeys",      "fuzz.Echo",            "fuzz.Raise",
    "fuzz.TensorRead",     "fuzz.NoSuchFunction"};
constexpr size_t kNumFunctions = sizeof(kFunctions) / sizeof(kFunctions[0]);

constexpr size_t kMaxPool = 24;
constexpr size_t kMaxArgs = 6;
constexpr size_t kMaxText = 64;
/*! \brief Dimensions a fuzzed tensor layout has room for (ndim beyond it is only made out of the valid range). */
constexpr int32_t kMaxTensorDims = 6;
/*! \brief The memory the program's borrowed and imported tensors lie in. */
constexpr int64_t kTensorMemoryBytes = 4096;
/*! \brief The largest tensor the core is asked to allocate: a bound on the run's memory and time. */
constexpr int64_t kMaxAllocatedBytes = 1 << 20;

/*! \brief Managed tensors a program produced and the deleters the core (or the program, on a refusal) ran. */
int64_t managed_created = 0;
int64_t managed_deleted = 0;
/*! \brief Borrowed views made and their owners' deleters run. */
int64_t owners_given = 0;
int64_t owners_deleted = 0;

void CountOwnerDeleted(void*) { ++owners_deleted; }

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
    for (Exported& exported : exports_) exported.Release();
    for (P4JAny& value : pool_) Release(&value);
    for (auto& release : unmanaged_) release();
  }

  void Run() {
    while (input_->remaining_bytes() > 0) Step();
  }

 private:
  void Step() {
    switch (input_->ConsumeIntegralInRange<int>(0, 27)) {
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
      case 21: MakeTensor(); break;
      case 22: MakeBorrowedTensor(); break;
      case 23: MakeViewOf(); break;
      case 24: ImportManaged(); break;
      case 25: Export(); break;
      case 26: UseExport(); break;
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

  // ---- tensors ----

  /*! \brief A tensor layout as a caller passes one: dimensions, strides (or none), byte offset, dtype, device. */
  struct Layout {
    int32_t ndim = 0;
    int64_t shape[kMaxTensorDims] = {};
    int64_t strides[kMaxTensorDims] = {};
    bool has_strides = false;
    uint64_t byte_offset = 0;
    DLDataType dtype{kDLFloat, 32, 1};
    DLDevice device{kDLCPU, 0};

    DLTensor Tensor(void* data) {
      DLTensor tensor{};
      tensor.data = data;
      tensor.device = device;
      tensor.ndim = ndim;
      tensor.dtype = dtype;
      tensor.shape = shape;
      tensor.strides = has_strides ? strides : nullptr;
      tensor.byte_offset = byte_offset;
      return tensor;
    }
  };

  /*! \brief Mostly small values, sometimes any: the core must refuse what does not fit, never misread it. */
  int64_t SmallOrAny(int64_t low, int64_t high) {
    if (input_->ConsumeIntegralInRange<int>(0, 7) == 0) return input_->ConsumeIntegral<int64_t>();
    return input_->ConsumeIntegralInRange<int64_t>(low, high);
  }

  Layout MakeLayout() {
    Layout layout;
    // ndim past the storage only where the core refuses it before reading the shape: negative, or beyond 64.
    layout.ndim = input_->ConsumeIntegralInRange<int>(0, 15) == 0
                      ? input_->PickValueInArray({-1, 65, INT32_MIN, INT32_MAX})
                      : input_->ConsumeIntegralInRange<int32_t>(0, kMaxTensorDims);
    for (int32_t i = 0; i < kMaxTensorDims; ++i) {
      layout.shape[i] = SmallOrAny(-1, 5);
      layout.strides[i] = SmallOrAny(-6, 6);
    }
    layout.has_strides = input_->ConsumeBool();
    layout.byte_offset = static_cast<uint64_t>(SmallOrAny(0, 64));
    if (input_->ConsumeIntegralInRange<int>(0, 7) == 0) {
      layout.dtype = DLDataType{input_->ConsumeIntegral<uint8_t>(), input_->ConsumeIntegral<uint8_t>(),
                                input_->ConsumeIntegral<uint16_t>()};
    } else {
      layout.dtype = input_->PickValueInArray(
          {DLDataType{kDLFloat, 32, 1}, DLDataType{kDLFloat, 64, 1}, DLDataType{kDLFloat, 16, 1},
           DLDataType{kDLBfloat, 16, 1}, DLDataType{kDLInt, 8, 1}, DLDataType{kDLInt, 32, 1},
           DLDataType{kDLInt, 64, 1}, DLDataType{kDLUInt, 8, 1}, DLDataType{P4J_DL_BOOL_CODE, 8, 1},
           DLDataType{kDLFloat, 32, 4}, DLDataType{kDLInt, 1, 1}});
    }
    // Device types stay within the range of the included dlpack.h's DLDeviceType (0..15 for Debian's 0.6): C++
    // code may not load another value from that enum (UBSan reports it).
    if (input_->ConsumeIntegralInRange<int>(0, 7) == 0) {
      layout.device = DLDevice{static_cast<DLDeviceType>(input_->ConsumeIntegralInRange<int>(0, 15)),
                               input_->ConsumeIntegral<int32_t>()};
    }
    return layout;
  }

  /*! \brief What the fuzzer knows of a layout, computed without overflow, independently of the core. */
  struct Facts {
    bool valid = false;    // every check of the Tensors section passes
    bool empty = false;    // no elements
    int64_t bytes = 0;     // count * element size
    __int128 low = 0;      // the bytes the layout reaches from data, as ByteExtent counts them
    __int128 high = 0;
  };

  static Facts FactsOf(const Layout& layout) {
    Facts facts;
    if (layout.ndim < 0 || layout.ndim > 64 || layout.dtype.bits == 0 || layout.dtype.lanes == 0) return facts;
    const __int128 kMax = INT64_MAX;
    __int128 element = (static_cast<__int128>(layout.dtype.bits) * layout.dtype.lanes + 7) / 8;
    __int128 count = 1;
    __int128 span = 1;
    for (int32_t i = 0; i < layout.ndim; ++i) {
      if (layout.shape[i] < 0) return facts;
      count *= layout.shape[i];
      if (layout.shape[i] != 0) span *= layout.shape[i];
      if (span > kMax) return facts;
    }
    if (count * element > kMax) return facts;
    facts.valid = true;
    facts.empty = count == 0;
    facts.bytes = static_cast<int64_t>(count * element);
    if (facts.empty) return facts;
    __int128 stride = 1;
    facts.low = facts.high = layout.byte_offset;
    for (int32_t i = layout.ndim - 1; i >= 0; --i) {
      __int128 step = layout.has_strides ? layout.strides[i] : stride;
      __int128 reach = (layout.shape[i] - 1) * step * element;  // < 2^126: count * element fits in int64
      if (reach < -kMax || reach > kMax) {
        facts.low = -1;  // reaches beyond any memory: never truthful
        return facts;
      }
      if (reach < 0) facts.low += reach; else facts.high += reach;
      stride *= layout.shape[i];
    }
    facts.high += element;
    return facts;
  }

  /*! \brief A tensor the core allocates: refused exactly when the layout is invalid or not on the CPU. */
  void MakeTensor() {
    Layout layout = MakeLayout();
    Facts facts = FactsOf(layout);
    if (facts.valid && facts.bytes > kMaxAllocatedBytes) return;
    P4JObjectHandle tensor = nullptr;
    int status = P4JNDArrayCreateEmpty(layout.shape, layout.ndim, &layout.dtype, &layout.device, &tensor);
    if ((status == 0) != (facts.valid && layout.device.device_type == kDLCPU)) {
      Fail(status == 0 ? "P4JNDArrayCreateEmpty accepted an invalid layout"
                       : "P4JNDArrayCreateEmpty refused a valid one");
    }
    AddObject(status, tensor);
  }

  /*!
   * \brief Whether a tensor over the program's memory with this layout tells the truth about the memory: a caller
   *  promises that (the core cannot check borrowed memory), so the fuzzer never breaks the promise. Invalid
   *  layouts and NULL data are passed on, for the core to refuse.
   */
  bool Truthful(const Facts& facts) const {
    return !facts.valid || facts.empty || (facts.low >= 0 && facts.high <= kTensorMemoryBytes);
  }

  void* Memory() { return tensor_memory_; }

  void MakeBorrowedTensor() {
    Layout layout = MakeLayout();
    Facts facts = FactsOf(layout);
    bool null_data = input_->ConsumeIntegralInRange<int>(0, 7) == 0;
    if (!null_data && !Truthful(facts)) return;
    DLTensor borrowed = layout.Tensor(null_data ? nullptr : Memory());
    bool with_owner = input_->ConsumeBool();
    P4JObjectHandle tensor = nullptr;
    int status = P4JNDArrayCreateView(&borrowed, with_owner ? &owners_given : nullptr,
                                      with_owner ? &CountOwnerDeleted : nullptr, &tensor);
    if ((status == 0) != (facts.valid && (!null_data || facts.empty))) {
      Fail(status == 0 ? "P4JNDArrayCreateView accepted an invalid tensor"
                       : "P4JNDArrayCreateView refused a valid one");
    }
    if (status == 0 && with_owner) ++owners_given;
    AddObject(status, tensor);
  }

  /*! \brief A view of any pooled value: the core alone decides whether it stays inside its base. */
  void MakeViewOf() {
    P4JObjectHandle base = PickObject();
    Layout layout = MakeLayout();
    DLTensor tensor = layout.Tensor(nullptr);
    P4JObjectHandle view = nullptr;
    AddObject(P4JNDArrayCreateViewOf(base, input_->ConsumeIntegralInRange<int>(0, 31) == 0 ? nullptr : &tensor,
                                     &view),
              view);
  }

  /*! \brief A DLPack producer's tensor over the program's memory, with its own shape storage and deleter. */
  template <typename Managed>
  struct Produced {
    Managed managed{};
    Layout layout;

    static void Delete(Managed* self) {
      delete static_cast<Produced*>(self->manager_ctx);
      ++managed_deleted;
    }
  };

  template <typename Managed>
  Managed* Produce(const Layout& layout, void* data) {
    auto* produced = new Produced<Managed>();
    produced->layout = layout;
    produced->managed.dl_tensor = produced->layout.Tensor(data);
    produced->managed.manager_ctx = produced;
    produced->managed.deleter = &Produced<Managed>::Delete;
    if (input_->ConsumeIntegralInRange<int>(0, 15) == 0) {
      // A producer without a deleter (DLPack allows it) keeps its tensor alive itself: here, to the program's end.
      produced->managed.deleter = nullptr;
      unmanaged_.push_back([produced] { Produced<Managed>::Delete(&produced->managed); });
    }
    ++managed_created;
    return &produced->managed;
  }

  /*! \brief On success the tensor owns managed; a refused one is still the producer's to release. */
  template <typename Managed>
  void Adopt(int status, P4JObjectHandle tensor, Managed* managed, bool valid, const char* function) {
    if ((status == 0) != valid) Fail(function);
    if (status != 0 && managed->deleter != nullptr) managed->deleter(managed);
    AddObject(status, tensor);
  }

  void ImportManaged() {
    Layout layout = MakeLayout();
    Facts facts = FactsOf(layout);
    bool null_data = input_->ConsumeIntegralInRange<int>(0, 7) == 0;
    if (!null_data && !Truthful(facts)) return;
    bool valid = facts.valid && (!null_data || facts.empty);
    void* data = null_data ? nullptr : Memory();
    P4JObjectHandle tensor = nullptr;
    if (input_->ConsumeBool()) {
      DLManagedTensor* managed = Produce<DLManagedTensor>(layout, data);
      int status = P4JNDArrayFromDLPack(managed, &tensor);
      Adopt(status, tensor, managed, valid, "P4JNDArrayFromDLPack decided against the layout's validity");
    } else {
      DLManagedTensorVersioned* managed = Produce<DLManagedTensorVersioned>(layout, data);
      uint32_t major = input_->ConsumeIntegralInRange<int>(0, 7) == 0 ? input_->ConsumeIntegral<uint32_t>()
                                                                       : P4J_DLPACK_MAJOR_VERSION;
      managed->version = DLPackVersion{major, input_->ConsumeIntegral<uint32_t>()};
      managed->flags = input_->ConsumeIntegral<uint64_t>();
      int status = P4JNDArrayFromDLPackVersioned(managed, &tensor);
      Adopt(status, tensor, managed, valid && managed->version.major == P4J_DLPACK_MAJOR_VERSION,
            "P4JNDArrayFromDLPackVersioned decided against the layout's validity");
    }
  }

  /*! \brief A tensor exported through DLPack, and the object it must come back as. */
  struct Exported {
    DLManagedTensor* managed = nullptr;
    DLManagedTensorVersioned* versioned = nullptr;
    P4JObjectHandle array = nullptr;

    /*! \brief The consumer's one release. */
    void Release() {
      if (managed != nullptr) managed->deleter(managed);
      if (versioned != nullptr) versioned->deleter(versioned);
      managed = nullptr;
      versioned = nullptr;
    }
  };

  /*! \brief The export describes the tensor's own memory and layout, as DLPack consumers read it. */
  static void CheckExport(P4JObjectHandle array, const DLTensor& exported) {
    const DLTensor* cell = details::CellOf<P4JNDArrayCell>(array);
    if (cell->shape == nullptr || cell->strides == nullptr) Fail("a tensor's shape or strides are NULL");
    if (exported.data != cell->data || exported.ndim != cell->ndim || exported.byte_offset != cell->byte_offset ||
        exported.shape == nullptr || exported.strides == nullptr ||
        std::memcmp(exported.shape, cell->shape, sizeof(int64_t) * cell->ndim) != 0 ||
        std::memcmp(exported.strides, cell->strides, sizeof(int64_t) * cell->ndim) != 0) {
      Fail("a DLPack export does not describe its tensor");
    }
  }

  void Export() {
    P4JObjectHandle array = PickObject();
    bool is_tensor = array != nullptr && array->type_index == kP4JNDArray;
    Exported exported;
    exported.array = array;
    int status = input_->ConsumeBool() ? P4JNDArrayToDLPack(array, &exported.managed)
                                       : P4JNDArrayToDLPackVersioned(array, &exported.versioned);
    Check(status);
    if ((status == 0) != is_tensor) Fail("a DLPack export decided against the handle's type");
    if (status != 0) return;
    CheckExport(array, exported.managed != nullptr ? exported.managed->dl_tensor : exported.versioned->dl_tensor);
    if (exports_.size() >= kMaxPool) {
      exported.Release();
      return;
    }
    exports_.push_back(exported);
  }

  /*! \brief An export imported back (the same object, the export consumed) or released by its consumer. */
  void UseExport() {
    if (exports_.empty()) return;
    size_t index = input_->ConsumeIntegralInRange<size_t>(0, exports_.size() - 1);
    Exported exported = exports_[index];
    exports_.erase(exports_.begin() + static_cast<std::ptrdiff_t>(index));
    if (input_->ConsumeBool()) {
      exported.Release();
      return;
    }
    P4JObjectHandle tensor = nullptr;
    int status = exported.managed != nullptr ? P4JNDArrayFromDLPack(exported.managed, &tensor)
                                             : P4JNDArrayFromDLPackVersioned(exported.versioned, &tensor);
    if (status != 0 || tensor != exported.array) Fail("an export imported back is not its own tensor");
    AddObject(status, tensor);
  }

  FuzzedDataProvider* input_;
  std::vector<P4JAny> pool_;
  std::deque<std::string> texts_;
  std::vector<Exported> exports_;
  std::vector<std::function<void()>> unmanaged_;
  alignas(64) unsigned char tensor_memory_[kTensorMemoryBytes] = {};
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int64_t before = P4JObjectLiveCount();
  managed_created = managed_deleted = owners_given = owners_deleted = 0;
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
  // Every producer's tensor and every borrowed owner is released exactly once.
  if (managed_created != managed_deleted || owners_given != owners_deleted) {
    std::fprintf(stderr, "c_api_fuzzer: %lld of %lld managed tensors and %lld of %lld owners released\n",
                 static_cast<long long>(managed_deleted), static_cast<long long>(managed_created),
                 static_cast<long long>(owners_deleted), static_cast<long long>(owners_given));
    std::abort();
  }
  return 0;
}
