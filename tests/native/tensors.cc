// Tensors for the end-to-end tests (TensorsTest): what C++ sees of a Java NDArray (shape, strides, data pointer,
// contiguity), functions that check dtype and contiguity, tensor results, and a DLPack producer written in C++.
#include <packed4j/packed4j.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace packed4j;

namespace {

List<int64_t> ToList(const int64_t* values, int32_t count) {
  List<int64_t> list;
  for (int32_t i = 0; i < count; ++i) list.push_back(values[i]);
  return list;
}

std::atomic<int64_t> foreign_deleted{0};

// A tensor as a C library would produce one: its own shape storage and data, freed by its deleter.
struct ForeignTensor {
  std::vector<float> data;
  int64_t shape[1];
  DLManagedTensor managed;
};

}  // namespace

P4J_REGISTER_GLOBAL("test.tensor.Shape").set_body_typed([](NDArray a) { return ToList(a->shape, a->ndim); });

P4J_REGISTER_GLOBAL("test.tensor.Strides").set_body_typed([](NDArray a) { return ToList(a->strides, a->ndim); });

// The data pointer as C++ sees it (before byte_offset, as DLPack defines data).
P4J_REGISTER_GLOBAL("test.tensor.DataAddress").set_body_typed([](NDArray a) {
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(a->data));
});

P4J_REGISTER_GLOBAL("test.tensor.ByteOffset").set_body_typed([](NDArray a) {
  return static_cast<int64_t>(a.byte_offset());
});

P4J_REGISTER_GLOBAL("test.tensor.IsContiguous").set_body_typed([](NDArray a) { return a.IsContiguous(); });

P4J_REGISTER_GLOBAL("test.tensor.DType").set_body_typed([](NDArray a) { return DataTypeToString(a.dtype()); });

// References to the tensor besides the one this call holds for its argument.
P4J_REGISTER_GLOBAL("test.tensor.OtherReferences").set_body_typed([](NDArray a) {
  return static_cast<int64_t>(a.use_count()) - 1;
});

// A kernel that requires a contiguous float32 tensor.
P4J_REGISTER_GLOBAL("test.tensor.SumFloat32").set_body_typed([](NDArray a) {
  a.CheckDType(DataTypeOf<float>(), "a");
  a.CheckContiguous("a");
  const float* values = a.data<float>();
  double sum = 0;
  for (int64_t i = 0; i < a.NumElements(); ++i) sum += values[i];
  return sum;
});

// Sums 1-D tensors of each element type that a Java array parameter becomes.
P4J_REGISTER_GLOBAL("test.tensor.SumFloat64").set_body_typed([](NDArray a) {
  a.CheckNDim(1, "values");
  const double* values = a.data<double>();
  double sum = 0;
  for (int64_t i = 0; i < a->shape[0]; ++i) sum += values[i];
  return sum;
});

P4J_REGISTER_GLOBAL("test.tensor.SumInt32AndInt64").set_body_typed([](NDArray a, NDArray b) {
  a.CheckNDim(1, "a");
  b.CheckNDim(1, "b");
  int64_t sum = 0;
  for (int64_t i = 0; i < a->shape[0]; ++i) sum += a.data<int32_t>()[i];
  for (int64_t i = 0; i < b->shape[0]; ++i) sum += b.data<int64_t>()[i];
  return sum;
});

// Writes through the tensor: element i of a contiguous int16 tensor becomes i.
P4J_REGISTER_GLOBAL("test.tensor.FillIota16").set_body_typed([](NDArray a) {
  a.CheckContiguous("a");
  int16_t* values = a.data<int16_t>();
  for (int64_t i = 0; i < a.NumElements(); ++i) values[i] = static_cast<int16_t>(i);
});

// A new tensor: a * factor, float32.
P4J_REGISTER_GLOBAL("test.tensor.Scale").set_body_typed([](NDArray a, double factor) {
  a.CheckDType(DataTypeOf<float>(), "a");
  a.CheckContiguous("a");
  NDArray out = NDArray::Empty(a.Shape(), a.dtype());
  const float* in = a.data<float>();
  float* values = out.data<float>();
  for (int64_t i = 0; i < a.NumElements(); ++i) values[i] = in[i] * static_cast<float>(factor);
  return out;
});

P4J_REGISTER_GLOBAL("test.tensor.Echo").set_body_typed([](NDArray a) { return a; });

// count copies of the argument's first element, as a view with stride 0: a tensor of any length over one element.
P4J_REGISTER_GLOBAL("test.tensor.Broadcast").set_body_typed([](NDArray a, int64_t count) {
  return a.View({count}, {0});
});

// A view of the argument's memory, flattened, as a reshape returns it: an object with a handle of its own.
P4J_REGISTER_GLOBAL("test.tensor.Flatten").set_body_typed([](NDArray a) {
  int64_t count = 1;
  for (int32_t i = 0; i < a->ndim; ++i) count *= a->shape[i];
  return a.View({count});
});

// An optional tensor result: None when asked, else the argument (Java receives null for None).
P4J_REGISTER_GLOBAL("test.tensor.SameOrNone").set_body_typed([](NDArray a, bool none) -> std::optional<NDArray> {
  if (none) return std::nullopt;
  return a;
});

// A DLPack producer in C++: a 1-D float32 tensor 0, 1, 2, ... handed over as a DLManagedTensor*.
P4J_REGISTER_GLOBAL("test.tensor.ProduceForeign").set_body_typed([](int64_t count) {
  auto* tensor = new ForeignTensor();
  tensor->data.resize(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) tensor->data[i] = static_cast<float>(i);
  tensor->shape[0] = count;
  tensor->managed.dl_tensor = DLTensor{tensor->data.data(), DLDevice{kDLCPU, 0}, 1, DataTypeOf<float>(),
                                       tensor->shape, nullptr, 0};
  tensor->managed.manager_ctx = tensor;
  tensor->managed.deleter = [](DLManagedTensor* self) {
    delete static_cast<ForeignTensor*>(self->manager_ctx);
    foreign_deleted.fetch_add(1);
  };
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(&tensor->managed));
});

P4J_REGISTER_GLOBAL("test.tensor.ForeignDeleted").set_body_typed([]() { return foreign_deleted.load(); });

// A DLPack consumer in C++: takes an exported DLManagedTensor*, reads its first float, and releases it.
P4J_REGISTER_GLOBAL("test.tensor.ConsumeFirstFloat").set_body_typed([](int64_t address) {
  auto* managed = reinterpret_cast<DLManagedTensor*>(static_cast<intptr_t>(address));
  float first = *reinterpret_cast<const float*>(static_cast<const char*>(managed->dl_tensor.data) +
                                                managed->dl_tensor.byte_offset);
  managed->deleter(managed);
  return static_cast<double>(first);
});

// TensorView parameters: what a wrapped Java tensor passed for the first time reaches without a native object.
P4J_REGISTER_GLOBAL("test.tensor.ViewDataAddress").set_body_typed([](TensorView a) {
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(a->data));
});

P4J_REGISTER_GLOBAL("test.tensor.ViewSumFloat32").set_body_typed([](TensorView a) {
  a.CheckDType(DataTypeOf<float>(), "a");
  a.CheckContiguous("a");
  const float* values = a.data<float>();
  double total = 0;
  for (int64_t i = 0; i < a.NumElements(); ++i) total += values[i];
  return total;
});

// Writes through a TensorView (docs/cpp-api.md): element i of a contiguous float32 tensor becomes i. Returns the
// element count.
P4J_REGISTER_GLOBAL("test.tensor.ViewFillIota32").set_body_typed([](TensorView a) {
  a.CheckContiguous("a");
  float* values = a.data<float>();
  for (int64_t i = 0; i < a.NumElements(); ++i) values[i] = static_cast<float>(i);
  return a.NumElements();
});

// The live object count seen from inside a call: a TensorView argument adds nothing to it.
P4J_REGISTER_GLOBAL("test.tensor.ViewLiveObjects").set_body_typed([](TensorView a) {
  return a.NumElements() >= 0 ? P4JObjectLiveCount() : -1;
});

// Hands a tensor it borrowed on to a function (a Java one in the tests): the borrowed DLTensor is passed as is.
P4J_REGISTER_GLOBAL("test.tensor.ForwardView").set_body_typed([](PackedFunc f, TensorView a) {
  return f(a).cast<int64_t>();
});

// Registered with set_body, so it has no typed entry: a Java method calling it takes its call-frame route, which
// passes a wrapped tensor's first call as a kP4JDLTensorPtr to the DLTensor the frame completed. Checks what the
// frame wrote (a contiguous CPU tensor, no byte offset, the given dimensions) and returns the data address.
P4J_REGISTER_GLOBAL("test.tensor.PackedViewDataAddress").set_body([](Args args, RetValue* rv) {
  TensorView a = args[0];
  if (a->device.device_type != kDLCPU || a->device.device_id != 0 || a->byte_offset != 0 || !a.IsContiguous() ||
      a->ndim != args.size() - 1) {
    throw std::invalid_argument("not the contiguous CPU tensor Java wrapped: " + std::to_string(a->ndim) + " dims");
  }
  for (int i = 0; i < a->ndim; ++i) {
    if (a->shape[i] != args[i + 1].cast<int64_t>()) {
      throw std::invalid_argument("dimension " + std::to_string(i) + " is " + std::to_string(a->shape[i]));
    }
  }
  *rv = static_cast<int64_t>(reinterpret_cast<intptr_t>(a->data));
});

// As ViewLiveObjects, on the call-frame route.
P4J_REGISTER_GLOBAL("test.tensor.PackedViewLiveObjects").set_body([](Args args, RetValue* rv) {
  TensorView a = args[0];
  *rv = a.NumElements() >= 0 ? P4JObjectLiveCount() : -1;
});

// A layer of a model (TensorFieldsTest): tensor fields, read in Java as NDArray. weights may be written (def_rw),
// bias only read (def_ro); both start unset (a null NDArray), and test.layers.Make sets bias when asked.
class LayerObject : public Object {
 public:
  NDArray weights;
  NDArray bias;
  std::string name;
  List<NDArray> history;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("weights", &weights);
    v->Visit("bias", &bias);
    v->Visit("name", &name);
    v->Visit("history", &history);
  }

  static constexpr const char* _type_key = "test.Layer";
  P4J_DECLARE_OBJECT_TYPE_INFO(LayerObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(LayerObject);

P4J_REGISTER_OBJECT_DEF(LayerObject, "A layer with tensor fields")
    .def_rw("weights", &LayerObject::weights, "what it multiplies by")
    .def_ro("bias", &LayerObject::bias, "what it adds, set in C++ only")
    .def_rw("name", &LayerObject::name, "what it is called")
    .def_rw("history", &LayerObject::history, "earlier weights")
    .def("weights_sum", [](ObjectPtr<LayerObject> self) {
      // What C++ reads through the field: the elements Java stored, or -1 when the field is unset. Copied under
      // the fields lock, since a Java setter may swap the field meanwhile.
      NDArray weights = LockedRead(self, &LayerObject::weights);
      if (!weights.defined()) return -1.0;
      weights.CheckDType(DataTypeOf<float>(), "weights");
      weights.CheckContiguous("weights");
      const float* values = weights.data<float>();
      double sum = 0;
      for (int64_t i = 0; i < weights.NumElements(); ++i) sum += values[i];
      return sum;
    }, "the sum of the float32 weights as C++ reads them, -1 when unset");

P4J_REGISTER_GLOBAL("test.layers.Make").set_body_typed([](bool with_bias) {
  auto layer = make_object<LayerObject>();
  layer->name = "dense";
  if (with_bias) {
    layer->bias = NDArray::Empty({3}, DataTypeOf<float>());
    float* values = layer->bias.data<float>();
    for (int i = 0; i < 3; ++i) values[i] = static_cast<float>(i + 1);
  }
  return layer;
});
