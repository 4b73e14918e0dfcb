// NDArray: allocation, views over borrowed memory, DLPack import and export with balanced reference counts,
// typed access and its errors, NDArray in set_body and set_body_typed, and the reflection metadata.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "test_util.h"

namespace {

using namespace packed4j;
using namespace packed4j::testing;

const DLDataType kFloat32 = DataTypeOf<float>();
const DLDataType kInt16 = DataTypeOf<int16_t>();

// The sum of a contiguous float32 tensor: a typed body with the checks a real kernel makes.
P4J_REGISTER_GLOBAL("test.ndarray.SumFloat32").set_body_typed([](NDArray a) {
  a.CheckDType(kFloat32, "a");
  a.CheckContiguous("a");
  const float* values = a.data<float>();
  double total = 0;
  for (int64_t i = 0; i < a.NumElements(); ++i) total += values[i];
  return total;
});

// Returns a new tensor (a result hands its reference over) filled with 0, 1, 2, ...
P4J_REGISTER_GLOBAL("test.ndarray.Iota").set_body_typed([](int64_t rows, int64_t columns) {
  NDArray out = NDArray::Empty({rows, columns}, DataTypeOf<int32_t>());
  int32_t* values = out.data<int32_t>();
  for (int64_t i = 0; i < rows * columns; ++i) values[i] = static_cast<int32_t>(i);
  return out;
});

// The DGL style: args[0] read as an NDArray inside set_body.
P4J_REGISTER_GLOBAL("test.ndarray.DataAddress").set_body([](Args args, RetValue* rv) {
  NDArray a = args[0];
  *rv = static_cast<int64_t>(reinterpret_cast<intptr_t>(a->data));
});

TEST(NDArrayTest, EmptyIsContiguousZeroedAndCounted) {
  int64_t live = P4JObjectLiveCount();
  {
    NDArray a = NDArray::Empty({10, 8, 4, 2}, kInt16);
    EXPECT_EQ(a.get()->type_index(), kP4JNDArray);
    EXPECT_EQ(a.get()->GetTypeKey(), "NDArray");
    EXPECT_EQ(a.ndim(), 4);
    EXPECT_EQ(a.Shape(), (std::vector<int64_t>{10, 8, 4, 2}));
    EXPECT_EQ(a.Strides(), (std::vector<int64_t>{64, 8, 2, 1}));
    EXPECT_TRUE(SameDataType(a.dtype(), kInt16));
    EXPECT_EQ(a.device().device_type, kDLCPU);
    EXPECT_EQ(a.byte_offset(), 0u);
    EXPECT_TRUE(a.IsContiguous());
    EXPECT_EQ(a.NumElements(), 640);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a->data) % 64, 0u);
    const int16_t* values = a.data<int16_t>();
    for (int64_t i = 0; i < 640; ++i) ASSERT_EQ(values[i], 0);
    // The cell Java reads is the DLTensor itself, right after the header.
    EXPECT_EQ(details::CellOf<DLTensor>(a.handle()), a.ToDLTensor());
    EXPECT_EQ(P4JObjectLiveCount(), live + 1);
  }
  EXPECT_EQ(P4JObjectLiveCount(), live);
}

TEST(NDArrayTest, EmptyShapesAndScalars) {
  NDArray empty = NDArray::Empty({4, 0, 4}, kFloat32);
  EXPECT_EQ(empty.NumElements(), 0);
  EXPECT_TRUE(empty.IsContiguous());
  EXPECT_NE(empty->data, nullptr);
  NDArray scalar = NDArray::Empty({}, kFloat32);
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_EQ(scalar.NumElements(), 1);
  EXPECT_TRUE(scalar.IsContiguous());
  // The ABI promises shape and strides are never NULL, for a 0-d tensor too (DLPack consumers may read them).
  EXPECT_NE(scalar->shape, nullptr);
  EXPECT_NE(scalar->strides, nullptr);
}

TEST(NDArrayTest, TheChecksOfAnUndefinedTensorAreTypeErrorsNotCrashes) {
  NDArray none;  // as an unset NDArray field reads, or one Java set to null
  EXPECT_EQ(ErrorOf([&] { none.data<float>(); }), "TypeError: tensor: expected a tensor, got None");
  EXPECT_EQ(ErrorOf([&] { none.CheckDType(kFloat32, "weights"); }), "TypeError: weights: expected a tensor, got None");
  EXPECT_EQ(ErrorOf([&] { none.CheckNDim(2, "weights"); }), "TypeError: weights: expected a tensor, got None");
  EXPECT_EQ(ErrorOf([&] { none.CheckContiguous("weights"); }), "TypeError: weights: expected a tensor, got None");
  EXPECT_EQ(ErrorOf([&] { none.CheckHostAccessible("weights"); }), "TypeError: weights: expected a tensor, got None");
  EXPECT_EQ(ErrorOf([&] { none.Shape(); }), "TypeError: tensor: expected a tensor, got None");
  TensorView view(none);
  EXPECT_EQ(view.get(), nullptr);
  EXPECT_EQ(ErrorOf([&] { view.Strides(); }), "TypeError: tensor: expected a tensor, got None");
  EXPECT_EQ(ErrorOf([&] { view.data<float>(); }), "TypeError: tensor: expected a tensor, got None");
}

TEST(NDArrayTest, BadShapesAndDevicesAreClearErrors) {
  EXPECT_EQ(ErrorOf([] { NDArray::Empty({2, -1}, kFloat32); }),
            "ValueError: NDArray::Empty: dimension 1 of shape (2, -1) is negative");
  EXPECT_EQ(ErrorOf([] { NDArray::Empty({2}, kFloat32, DLDevice{kDLCUDA, 0}); }),
            "ValueError: NDArray::Empty: cannot allocate on cuda:0: packed4j allocates host (cpu) memory "
            "only; wrap device memory with P4JNDArrayCreateView");
  EXPECT_EQ(ErrorOf([] { NDArray::Empty({1LL << 40, 1LL << 40}, kFloat32); }),
            "ValueError: NDArray::Empty: shape (1099511627776, 1099511627776) has too many elements");
  EXPECT_EQ(ErrorOf([] { NDArray::Empty({2}, DLDataType{kDLFloat, 0, 1}); }),
            "ValueError: NDArray::Empty: dtype float0 has no bits or no lanes");
  EXPECT_EQ(ErrorOf([] { NDArray::FromBorrowed(nullptr, {3}, kFloat32); }),
            "ValueError: NDArray::FromBorrowed: data is NULL but the tensor has 3 elements");
  // The C function names itself; its C++ wrapper (above) names the method a C++ caller called.
  int64_t shape[] = {-1};
  P4JObjectHandle handle = nullptr;
  DLDevice cpu{kDLCPU, 0};
  ASSERT_EQ(P4JNDArrayCreateEmpty(shape, 1, &kFloat32, &cpu, &handle), -1);
  EXPECT_EQ(ErrorOf([] { details::ThrowLastError(); }),
            "ValueError: P4JNDArrayCreateEmpty: dimension 0 of shape (-1,) is negative");
  EXPECT_EQ(handle, nullptr);
}

int deleted_owners = 0;
void CountOwnerDeleted(void* owner) {
  ++deleted_owners;
  *static_cast<int*>(owner) = -1;
}

TEST(NDArrayTest, BorrowedViewSharesMemoryAndRunsItsDeleterOnce) {
  std::vector<int16_t> memory(10 * 8 * 4 * 2);
  int owner_state = 0;
  deleted_owners = 0;
  {
    NDArray view = NDArray::FromBorrowed(memory.data(), {10, 8, 4, 2}, kInt16, {}, DLDevice{kDLCPU, 0}, 0,
                                         &owner_state, &CountOwnerDeleted);
    EXPECT_EQ(view->data, memory.data());
    EXPECT_EQ(view.Strides(), (std::vector<int64_t>{64, 8, 2, 1}));
    view.data<int16_t>()[5] = 42;
    EXPECT_EQ(memory[5], 42);
    NDArray copy = view;  // a second reference: the deleter waits for both
  }
  EXPECT_EQ(deleted_owners, 1);
  EXPECT_EQ(owner_state, -1);
}

TEST(NDArrayTest, StridedViewIsNotContiguousAndChecksSayWhy) {
  std::vector<int16_t> memory(10 * 8 * 4 * 2);
  // [1:3, :, 1:3] of a (10, 8, 4, 2) tensor: same strides, a byte offset, a smaller shape.
  NDArray slice = NDArray::FromBorrowed(memory.data(), {2, 8, 2, 2}, kInt16, {64, 8, 2, 1}, DLDevice{kDLCPU, 0},
                                        (64 + 2) * sizeof(int16_t));
  EXPECT_FALSE(slice.IsContiguous());
  EXPECT_EQ(slice.Strides(), (std::vector<int64_t>{64, 8, 2, 1}));
  EXPECT_EQ(slice.data<int16_t>(), memory.data() + 66);
  EXPECT_EQ(ErrorOf([&] { slice.CheckContiguous("a"); }),
            "ValueError: a: expected a contiguous tensor, got strides (64, 8, 2, 1) for shape (2, 8, 2, 2)");
  EXPECT_EQ(ErrorOf([&] { slice.CheckDType(kFloat32, "a"); }), "TypeError: a: expected float32, got int16");
  EXPECT_EQ(ErrorOf([&] { slice.CheckNDim(2, "a"); }),
            "ValueError: a: expected 2 dimensions, got 4 (shape (2, 8, 2, 2))");
  EXPECT_EQ(ErrorOf([&] { slice.data<float>(); }), "TypeError: tensor: expected float32, got int16");
  // Size-1 dimensions do not break contiguity, whatever their stride.
  NDArray row = NDArray::FromBorrowed(memory.data(), {1, 4}, kInt16, {99, 1});
  EXPECT_TRUE(row.IsContiguous());
}

TEST(NDArrayTest, ViewsShareMemoryKeepTheirBaseAndStayInside) {
  int64_t live = P4JObjectLiveCount();
  NDArray slice;
  float* base_data;
  {
    NDArray base = NDArray::Empty({10, 8, 4, 2}, kFloat32);
    base_data = base.data<float>();
    slice = base.View({2, 8, 2, 2}, {64, 8, 2, 1}, (64 + 2) * sizeof(float));
    EXPECT_EQ(base.use_count(), 2u);
    EXPECT_EQ(slice->data, base->data);
  }
  EXPECT_EQ(P4JObjectLiveCount(), live + 2);  // the base lives on in the view
  slice.data<float>()[0] = 7.0f;
  EXPECT_EQ(base_data[66], 7.0f);
  EXPECT_FALSE(slice.IsContiguous());
  EXPECT_EQ(ErrorOf([&] { slice.View({3}, {64}, 0); }),
            "ValueError: NDArray::View: the view of shape (3,), strides (64,) and byte offset 0 reaches "
            "bytes [0, 516) outside its base's [264, 760)");
  slice = NDArray();
  EXPECT_EQ(P4JObjectLiveCount(), live);
}

// Strides and byte offsets come from callers: the reach of such a layout, or the contiguous strides of a shape
// without elements, overflowed int64 (undefined behaviour, which UBSan reports in the fuzzer's tensor programs)
// before anything checked it.
TEST(NDArrayTest, LayoutsBeyondInt64AreClearErrors) {
  int64_t live = P4JObjectLiveCount();
  NDArray base = NDArray::Empty({4}, kFloat32);
  EXPECT_EQ(ErrorOf([&] { base.View({3}, {int64_t{1} << 62}, 0); }),
            "ValueError: NDArray::View: the layout of shape (3,), strides (4611686018427387904,) and byte "
            "offset 0 reaches beyond the addressable bytes");
  EXPECT_EQ(ErrorOf([&] { base.View({2}, {-1}, ~uint64_t{0}); }),
            "ValueError: NDArray::View: the layout of shape (2,), strides (-1,) and byte offset "
            "18446744073709551615 reaches beyond the addressable bytes");
  // A huge stride over a dimension of one element reaches nothing beyond it, and stays a valid view.
  EXPECT_EQ(base.View({1}, {int64_t{1} << 62}, 0).NumElements(), 1);
  EXPECT_EQ(ErrorOf([] { NDArray::Empty({0, int64_t{1} << 40, int64_t{1} << 40}, kFloat32); }),
            "ValueError: NDArray::Empty: shape (0, 1099511627776, 1099511627776) has too many elements");
  base = NDArray();
  EXPECT_EQ(P4JObjectLiveCount(), live);
}

TEST(NDArrayTest, DeviceMemoryIsNeverDereferenced) {
  int fake_device_memory = 0;
  NDArray on_gpu = NDArray::FromBorrowed(&fake_device_memory, {1}, DataTypeOf<int32_t>(), {},
                                         DLDevice{kDLCUDA, 1});
  EXPECT_EQ(DeviceToString(on_gpu.device()), "cuda:1");
  EXPECT_EQ(ErrorOf([&] { on_gpu.data<int32_t>(); }),
            "ValueError: tensor: expected a tensor in host memory, got device cuda:1");
}

TEST(NDArrayTest, NamesOfDataTypesAndDevices) {
  EXPECT_EQ(DataTypeToString(DataTypeOf<float>()), "float32");
  EXPECT_EQ(DataTypeToString(DataTypeOf<uint64_t>()), "uint64");
  EXPECT_EQ(DataTypeToString(DataTypeOf<bool>()), "bool");
  EXPECT_EQ(DataTypeToString(DLDataType{kDLBfloat, 16, 1}), "bfloat16");
  EXPECT_EQ(DataTypeToString(DLDataType{kDLFloat, 32, 4}), "float32x4");
  EXPECT_EQ(DeviceToString(DLDevice{kDLCPU, 0}), "cpu");
  EXPECT_EQ(DeviceToString(DLDevice{kDLCUDAHost, 0}), "cuda_host:0");
}

// A foreign DLPack producer: owns its shape and data, counts its deleter's calls.
struct Producer {
  std::vector<float> data = std::vector<float>(6, 1.5f);
  int64_t shape[2] = {2, 3};
  int deleted = 0;
};

TEST(NDArrayTest, ImportsAForeignManagedTensorAndReleasesItOnce) {
  Producer producer;
  DLManagedTensor managed{};
  managed.dl_tensor.data = producer.data.data();
  managed.dl_tensor.device = DLDevice{kDLCPU, 0};
  managed.dl_tensor.ndim = 2;
  managed.dl_tensor.dtype = kFloat32;
  managed.dl_tensor.shape = producer.shape;
  managed.dl_tensor.strides = nullptr;  // DLPack: NULL means contiguous
  managed.manager_ctx = &producer;
  managed.deleter = [](DLManagedTensor* self) { ++static_cast<Producer*>(self->manager_ctx)->deleted; };
  int64_t live = P4JObjectLiveCount();
  {
    NDArray a = NDArray::FromDLPack(&managed);
    EXPECT_EQ(a->data, producer.data.data());
    EXPECT_EQ(a.Strides(), (std::vector<int64_t>{3, 1}));
    EXPECT_EQ(PackedFunc::GetGlobal("test.ndarray.SumFloat32")(a).cast<double>(), 9.0);
    EXPECT_EQ(producer.deleted, 0);
  }
  EXPECT_EQ(producer.deleted, 1);
  EXPECT_EQ(P4JObjectLiveCount(), live);

  DLManagedTensorVersioned versioned{};
  versioned.version = DLPackVersion{1, 0};
  versioned.dl_tensor = managed.dl_tensor;
  versioned.manager_ctx = &producer;
  versioned.deleter = [](DLManagedTensorVersioned* self) { ++static_cast<Producer*>(self->manager_ctx)->deleted; };
  NDArray::FromDLPackVersioned(&versioned);
  EXPECT_EQ(producer.deleted, 2);
  versioned.version.major = 2;
  EXPECT_EQ(ErrorOf([&] { NDArray::FromDLPackVersioned(&versioned); }),
            "ValueError: NDArray::FromDLPackVersioned: DLPack version 2.0 is not supported (expected major "
            "version 1)");
  EXPECT_EQ(producer.deleted, 2);  // refused: still the producer's
}

TEST(NDArrayTest, ExportThenImportIsTheSameObjectWithCountsAtBaseline) {
  int64_t live = P4JObjectLiveCount();
  NDArray a = NDArray::Empty({3, 4}, kFloat32);
  uint64_t baseline = a.use_count();
  DLManagedTensor* managed = a.ToDLPack();
  EXPECT_EQ(a.use_count(), baseline + 1);
  EXPECT_EQ(managed->dl_tensor.data, a->data);
  EXPECT_EQ(managed->dl_tensor.shape[1], 4);
  {
    NDArray back = NDArray::FromDLPack(managed);
    EXPECT_TRUE(back.same_as(a));
    EXPECT_EQ(back->data, a->data);
  }
  EXPECT_EQ(a.use_count(), baseline);

  DLManagedTensorVersioned* versioned = a.ToDLPackVersioned();
  EXPECT_EQ(versioned->version.major, 1u);
  EXPECT_EQ(versioned->flags, 0u);
  EXPECT_EQ(a.use_count(), baseline + 1);
  versioned->deleter(versioned);  // a consumer that is done with it
  EXPECT_EQ(a.use_count(), baseline);

  // An export outlives every other reference: the data stays valid until the consumer lets go.
  DLManagedTensor* kept = a.ToDLPack();
  float* data = static_cast<float*>(kept->dl_tensor.data);
  a = NDArray();
  data[11] = 3.0f;
  EXPECT_EQ(P4JObjectLiveCount(), live + 1);
  kept->deleter(kept);
  EXPECT_EQ(P4JObjectLiveCount(), live);
}

TEST(NDArrayTest, TypedBodiesTakeAndReturnTensors) {
  PackedFunc sum = PackedFunc::GetGlobal("test.ndarray.SumFloat32");
  EXPECT_EQ(sum.signature(), "(NDArray) -> float64");
  NDArray a = NDArray::Empty({2, 2}, kFloat32);
  float* values = a.data<float>();
  for (int i = 0; i < 4; ++i) values[i] = static_cast<float>(i);
  EXPECT_EQ(sum(a).cast<double>(), 6.0);
  EXPECT_EQ(ErrorOf([&] { sum(NDArray::Empty({2}, kInt16)); }), "TypeError: a: expected float32, got int16");
  EXPECT_EQ(ErrorOf([&] { sum(5); }), "TypeError: test.ndarray.SumFloat32: argument 0 expected NDArray, got int 5");

  int64_t live = P4JObjectLiveCount();
  {
    NDArray iota = PackedFunc::GetGlobal("test.ndarray.Iota")(2, 3).cast<NDArray>();
    EXPECT_EQ(iota.Shape(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(iota.data<int32_t>()[5], 5);
    EXPECT_EQ(iota.use_count(), 1u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), live);
  EXPECT_EQ(PackedFunc::GetGlobal("test.ndarray.DataAddress")(a).cast<int64_t>(),
            static_cast<int64_t>(reinterpret_cast<intptr_t>(a->data)));
}

// A TensorView body: reads the tensor for the call, makes no object.
P4J_REGISTER_GLOBAL("test.ndarray.ViewSum").set_body_typed([](TensorView a, int64_t scale) {
  a.CheckDType(kFloat32, "a");
  a.CheckContiguous("a");
  const float* values = a.data<float>();
  double total = 0;
  for (int64_t i = 0; i < a.NumElements(); ++i) total += values[i];
  return total * static_cast<double>(scale);
});

// Keeps its argument (an NDArray parameter may outlive the call), so a borrowed DLTensor must become an object.
NDArray kept_tensor;
P4J_REGISTER_GLOBAL("test.ndarray.Keep").set_body_typed([](NDArray a) {
  kept_tensor = a;
  return static_cast<int64_t>(a.use_count());
});

/*! A borrowed DLTensor over data, as Java writes one for a call: contiguous strides are NULL. */
DLTensor BorrowedTensor(void* data, std::vector<int64_t>& shape, DLDataType dtype) {
  DLTensor tensor{};
  tensor.data = data;
  tensor.device = DLDevice{kDLCPU, 0};
  tensor.ndim = static_cast<int32_t>(shape.size());
  tensor.dtype = dtype;
  tensor.shape = shape.data();
  tensor.strides = nullptr;
  tensor.byte_offset = 0;
  return tensor;
}

/*!
 * A borrowed tensor word as the Java runtime passes one to a typed entry: a DLTensor of which only data, ndim and
 * dtype are written, its dimensions right after it; the rest is garbage until the entry completes it.
 */
struct BorrowedTensorWord {
  DLTensor tensor;
  int64_t dims[4];

  BorrowedTensorWord(void* data, const std::vector<int64_t>& shape, DLDataType dtype) {
    std::memset(static_cast<void*>(this), 0xab, sizeof(*this));
    tensor.data = data;
    tensor.ndim = static_cast<int32_t>(shape.size());
    tensor.dtype = dtype;
    std::copy(shape.begin(), shape.end(), dims);
  }

  int64_t word() const {
    return static_cast<int64_t>(reinterpret_cast<intptr_t>(&tensor)) | P4J_TENSOR_WORD_BORROWED;
  }
};

int64_t HandleWord(const ObjectRef& object) {
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(object.handle()));
}

P4JAny TensorPointerValue(const DLTensor* tensor) {
  P4JAny value;
  value.type_index = kP4JDLTensorPtr;
  value.zero_padding = 0;
  value.v_ptr = const_cast<DLTensor*>(tensor);
  return value;
}

TEST(NDArrayTest, TensorViewReadsABorrowedDLTensorOrAnNDArrayWithoutAnObject) {
  std::vector<float> memory{1, 2, 3, 4, 5, 6};
  std::vector<int64_t> shape{2, 3};
  DLTensor borrowed = BorrowedTensor(memory.data(), shape, kFloat32);
  PackedFunc view_sum = PackedFunc::GetGlobal("test.ndarray.ViewSum");
  EXPECT_EQ(view_sum.signature(), "(NDArray, int64) -> float64");
  ASSERT_NE(view_sum.typed_entry(), nullptr);

  int64_t live = P4JObjectLiveCount();
  // The typed entry takes a tensor as one word: here a borrowed DLTensor the entry completes.
  auto entry = reinterpret_cast<double (*)(P4JObjectHandle, int64_t, int64_t)>(view_sum.typed_entry());
  BorrowedTensorWord word(memory.data(), shape, kFloat32);
  EXPECT_EQ(entry(view_sum.handle(), word.word(), 2), 42.0);
  EXPECT_EQ(word.tensor.device.device_type, kDLCPU);
  EXPECT_EQ(word.tensor.device.device_id, 0);
  EXPECT_EQ(word.tensor.shape, word.dims);
  EXPECT_EQ(word.tensor.strides, nullptr);
  EXPECT_EQ(word.tensor.byte_offset, 0u);
  EXPECT_EQ(P4JObjectLiveCount(), live);
  // A packed call, from C++: a TensorView argument is lent as kP4JDLTensorPtr.
  TensorView view(&borrowed);
  EXPECT_EQ(view.Strides(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(view_sum(view, 1).cast<double>(), 21.0);
  EXPECT_EQ(P4JObjectLiveCount(), live);
  // An NDArray object reaches the same body.
  NDArray a = NDArray::FromBorrowed(memory.data(), {6}, kFloat32);
  // Its handle, borrowed, as Java passes an NDArray that has a native object.
  EXPECT_EQ(entry(view_sum.handle(), HandleWord(a), 1), 21.0);

  // Errors name the function and the argument, as a packed call's do.
  EXPECT_TRUE(std::isnan(entry(view_sum.handle(), HandleWord(view_sum), 1)));
  EXPECT_EQ(TakeRaised(), "TypeError: test.ndarray.ViewSum: argument 0 expected NDArray, got function");
  EXPECT_TRUE(std::isnan(entry(view_sum.handle(), 0, 1)));
  EXPECT_EQ(TakeRaised(), "TypeError: test.ndarray.ViewSum: argument 0 expected NDArray, got a NULL tensor word");
  std::vector<int16_t> shorts(6);
  BorrowedTensorWord wrong(shorts.data(), shape, kInt16);
  EXPECT_TRUE(std::isnan(entry(view_sum.handle(), wrong.word(), 1)));
  EXPECT_EQ(TakeRaised(), "TypeError: a: expected float32, got int16");
  EXPECT_EQ(P4JObjectLiveCount(), live + 1);  // a, still held
}

TEST(NDArrayTest, ABorrowedDLTensorBecomesAnNDArrayOverTheSameMemory) {
  std::vector<int16_t> memory(10 * 8 * 4 * 2);
  std::vector<int64_t> shape{10, 8, 4, 2};
  DLTensor borrowed = BorrowedTensor(memory.data(), shape, kInt16);
  int64_t live = P4JObjectLiveCount();
  {
    // A typed NDArray parameter: the entry makes an object, which the body may keep.
    PackedFunc keep = PackedFunc::GetGlobal("test.ndarray.Keep");
    auto entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t)>(keep.typed_entry());
    BorrowedTensorWord word(memory.data(), shape, kInt16);
    EXPECT_EQ(entry(keep.handle(), word.word()), 2);  // the parameter and kept_tensor
    EXPECT_EQ(kept_tensor->data, memory.data());
    EXPECT_EQ(kept_tensor.Strides(), (std::vector<int64_t>{64, 8, 2, 1}));
    EXPECT_EQ(kept_tensor.use_count(), 1u);
    // args[0] in set_body, and an Any made from the borrowed value.
    EXPECT_EQ(PackedFunc::GetGlobal("test.ndarray.DataAddress")(TensorView(&borrowed)).cast<int64_t>(),
              static_cast<int64_t>(reinterpret_cast<intptr_t>(memory.data())));
    Any owned = Any::FromBorrowed(TensorPointerValue(&borrowed));
    EXPECT_EQ(owned.type_index(), kP4JNDArray);
    EXPECT_EQ(owned.cast<NDArray>()->data, memory.data());
    List<Any> list;
    list.push_back(owned);
    EXPECT_EQ(list.size(), 1);
  }
  kept_tensor = NDArray();
  EXPECT_EQ(P4JObjectLiveCount(), live);
}

TEST(NDArrayTest, ReflectionShowsNdimShapeStridesDtypeDeviceAndOffset) {
  int64_t live = P4JObjectLiveCount();
  const P4JTypeInfo* info = nullptr;
  ASSERT_EQ(P4JTypeGetInfo(kP4JNDArray, &info), 0);
  ASSERT_EQ(info->num_fields, 6);
  std::vector<std::string> names;
  for (int32_t i = 0; i < info->num_fields; ++i) names.emplace_back(details::ViewOf(info->fields[i].name));
  EXPECT_EQ(names, (std::vector<std::string>{"ndim", "shape", "strides", "dtype", "device", "byte_offset"}));
  EXPECT_EQ(info->fields[1].kind, kP4JFieldObject);
  EXPECT_EQ(info->fields[1].object_type_index, kP4JList);
  {
    NDArray a = NDArray::Empty({2, 3}, DLDataType{kDLBfloat, 16, 1});
    EXPECT_EQ(*reinterpret_cast<const int32_t*>(reinterpret_cast<const char*>(a.handle()) + info->fields[0].offset),
              2);
    P4JAny value;
    // shape and strides are new lists, made at each read from the DLTensor's own arrays.
    ASSERT_EQ(P4JObjectGetField(a.handle(), 1, &value), 0);
    List<int64_t> shape = Any::FromOwned(value).cast<List<int64_t>>();
    EXPECT_EQ(std::vector<int64_t>(shape.begin(), shape.end()), (std::vector<int64_t>{2, 3}));
    NDArray column = a.View({2}, {3}, 2 * 2);
    P4JByteArray strides_name = details::ByteArrayOf("strides");
    ASSERT_EQ(P4JObjectGetAttr(column.handle(), &strides_name, &value), 0);
    List<int64_t> strides = Any::FromOwned(value).cast<List<int64_t>>();
    EXPECT_EQ(std::vector<int64_t>(strides.begin(), strides.end()), (std::vector<int64_t>{3}));
    ASSERT_EQ(P4JObjectGetField(a.handle(), 3, &value), 0);
    EXPECT_EQ(Any::FromOwned(value).cast<std::string>(), "bfloat16");
    ASSERT_EQ(P4JObjectGetField(a.handle(), 4, &value), 0);
    EXPECT_EQ(Any::FromOwned(value).cast<std::string>(), "cpu");
    // A 0-d tensor's shape is an empty list.
    NDArray scalar = NDArray::Empty({}, kFloat32);
    ASSERT_EQ(P4JObjectGetField(scalar.handle(), 1, &value), 0);
    EXPECT_EQ(Any::FromOwned(value).cast<List<int64_t>>().size(), 0);
  }
  EXPECT_EQ(P4JObjectLiveCount(), live);
}

// Shape and strides are stored inline up to four dimensions and on the heap beyond: both kinds read the same.
TEST(NDArrayTest, ShapesBeyondTheInlineStorageKeepTheirStrides) {
  int64_t live = P4JObjectLiveCount();
  {
    NDArray four = NDArray::Empty({5, 4, 3, 2}, kFloat32);
    EXPECT_EQ(std::vector<int64_t>(four->strides, four->strides + 4), (std::vector<int64_t>{24, 6, 2, 1}));
    NDArray six = NDArray::Empty({2, 1, 3, 1, 2, 2}, kFloat32);
    EXPECT_EQ(six.ndim(), 6);
    EXPECT_EQ(std::vector<int64_t>(six->shape, six->shape + 6), (std::vector<int64_t>{2, 1, 3, 1, 2, 2}));
    EXPECT_EQ(std::vector<int64_t>(six->strides, six->strides + 6), (std::vector<int64_t>{12, 12, 4, 4, 2, 1}));
    EXPECT_EQ(six.NumElements(), 24);
    P4JAny value;
    ASSERT_EQ(P4JObjectGetField(six.handle(), 2, &value), 0);
    List<int64_t> strides = Any::FromOwned(value).cast<List<int64_t>>();
    EXPECT_EQ(std::vector<int64_t>(strides.begin(), strides.end()), (std::vector<int64_t>{12, 12, 4, 4, 2, 1}));
    // A view of a 6-D tensor with 5 dimensions: heap storage of its own, sharing the data.
    NDArray view = six.View({2, 3, 1, 2, 2}, {12, 4, 4, 2, 1}, 0);
    EXPECT_EQ(view->data, six->data);
    EXPECT_EQ(std::vector<int64_t>(view->shape, view->shape + 5), (std::vector<int64_t>{2, 3, 1, 2, 2}));
    // Round trip through DLPack keeps the shape of a heap-stored tensor.
    NDArray back = NDArray::FromDLPack(six.ToDLPack());
    EXPECT_EQ(std::vector<int64_t>(back->shape, back->shape + 6), (std::vector<int64_t>{2, 1, 3, 1, 2, 2}));
  }
  EXPECT_EQ(P4JObjectLiveCount(), live);
}

// A plugin's subtype of NDArray: it inherits the computed shape and strides fields, and its own object field is
// read as the ObjectRef it is. Before the computed fields were found by offset on every NDArray, reading a
// subtype's shape took the DLTensor's int64_t pointer for an object and "retained" it: memory corruption.
class LabelledTensorObject : public NDArrayObject {
 public:
  int64_t dims[2] = {3, 1};  // shape (3,), strides (1,)
  float values[3] = {1, 2, 3};
  ObjectRef label;

  LabelledTensorObject() {
    tensor.data = values;
    tensor.device = DLDevice{kDLCPU, 0};
    tensor.ndim = 1;
    tensor.dtype = DataTypeOf<float>();
    tensor.shape = &dims[0];
    tensor.strides = &dims[1];
  }

  void VisitAttrs(AttrVisitor* v) final { v->Visit("label", &label); }

  static constexpr const char* _type_key = "test.LabelledTensor";
  P4J_DECLARE_OBJECT_TYPE_INFO(LabelledTensorObject, NDArrayObject);
};
P4J_REGISTER_OBJECT_TYPE(LabelledTensorObject);

TEST(NDArrayTest, ASubtypeInheritsTheComputedFields) {
  int64_t live = P4JObjectLiveCount();
  {
    ObjectPtr<LabelledTensorObject> tensor = make_object<LabelledTensorObject>();
    tensor->label = NDArray::Empty({2}, kFloat32);
    P4JAny value;
    P4JByteArray shape_name = details::ByteArrayOf("shape");
    ASSERT_EQ(P4JObjectGetAttr(tensor.handle(), &shape_name, &value), 0);
    List<int64_t> shape = Any::FromOwned(value).cast<List<int64_t>>();
    EXPECT_EQ(std::vector<int64_t>(shape.begin(), shape.end()), (std::vector<int64_t>{3}));
    P4JByteArray label_name = details::ByteArrayOf("label");
    ASSERT_EQ(P4JObjectGetAttr(tensor.handle(), &label_name, &value), 0);
    NDArray label = Any::FromOwned(value).cast<NDArray>();
    EXPECT_EQ(label.handle(), tensor->label.get());
    EXPECT_EQ(label.NumElements(), 2);
  }
  EXPECT_EQ(P4JObjectLiveCount(), live);
}

TEST(NDArrayTest, AMillionLifecyclesLeaveTheLiveCountAtBaseline) {
  int64_t live = P4JObjectLiveCount();
  float memory[4] = {};
  for (int i = 0; i < 1000000; ++i) {
    NDArray view = NDArray::FromBorrowed(memory, {2, 2}, kFloat32);
    DLManagedTensor* managed = view.ToDLPack();
    NDArray back = NDArray::FromDLPack(managed);
  }
  EXPECT_EQ(P4JObjectLiveCount(), live);
}

}  // namespace
