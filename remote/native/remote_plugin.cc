// The plugin packed4j-remote's tests call through sessions (RemoteSessionTest, IsolatedSessionTest) and its
// benchmarks host: every kind of value, an object type, tensors, an error with a kind, a function that takes
// its time, and remote.Crash, which dereferences null and so ends the process that loaded it.
#include <packed4j/packed4j.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <iterator>
#include <memory>
#include <string>
#include <thread>

using namespace packed4j;

P4J_REGISTER_GLOBAL("remote.Add").set_body_typed([](int64_t a, int64_t b) { return a + b; });

P4J_REGISTER_GLOBAL("remote.Divide").set_body_typed([](double a, double b) {
  if (b == 0.0) throw ValueError("remote.Divide: division by zero");
  return a / b;
});

P4J_REGISTER_GLOBAL("remote.IsEven").set_body_typed([](int64_t value) { return value % 2 == 0; });

P4J_REGISTER_GLOBAL("remote.Greet").set_body_typed([](std::string name) { return "hello, " + name; });

P4J_REGISTER_GLOBAL("remote.Reverse").set_body_typed([](Bytes data) {
  const char* begin = reinterpret_cast<const char*>(data.data());
  std::string reversed(std::make_reverse_iterator(begin + data.size()), std::make_reverse_iterator(begin));
  return Bytes(reversed.data(), reversed.size());
});

P4J_REGISTER_GLOBAL("remote.Sum").set_body_typed([](List<int64_t> values) {
  int64_t sum = 0;
  for (int64_t i = 0; i < values.size(); ++i) sum += values[i];
  return sum;
});

P4J_REGISTER_GLOBAL("remote.Range").set_body_typed([](int64_t count) {
  List<int64_t> values;
  for (int64_t i = 0; i < count; ++i) values.push_back(i);
  return values;
});

P4J_REGISTER_GLOBAL("remote.Lengths").set_body_typed([](List<std::string> words) {
  Map<std::string, int64_t> lengths;
  for (int64_t i = 0; i < words.size(); ++i) lengths.Set(words[i], static_cast<int64_t>(words[i].size()));
  return lengths;
});

// None in, "nobody" out; a string in, the string out. None out for the empty string.
P4J_REGISTER_GLOBAL("remote.MaybeName").set_body([](Args args, RetValue* rv) {
  if (args[0].type_index() == kP4JNone) {
    *rv = std::string("nobody");
    return;
  }
  std::string name = args[0];
  if (!name.empty()) *rv = name;
});

// The id of the process the plugin runs in, registered with set_body (no signature): where a session runs a call.
P4J_REGISTER_GLOBAL("remote.ProcessId").set_body([](Args, RetValue* rv) {
  *rv = static_cast<int64_t>(getpid());
});

P4J_REGISTER_GLOBAL("remote.Fail").set_body_typed([](std::string what) -> int64_t {
  throw ValueError("remote.Fail: " + what);
});

P4J_REGISTER_GLOBAL("remote.Sleep").set_body_typed([](int64_t millis) {
  std::this_thread::sleep_for(std::chrono::milliseconds(millis));
  return millis;
});

// Ends the process: a write through a null pointer, as a broken plugin does; with 6, std::terminate, as an exception
// nothing catches does (libstdc++ prints "terminate called without an active exception", then aborts). Never call it
// in your own JVM.
P4J_REGISTER_GLOBAL("remote.Crash").set_body_typed([](int64_t value) {
  if (value == 6) std::terminate();
  volatile int64_t* nowhere = nullptr;
  *nowhere = value;
  return value;
});

P4J_REGISTER_GLOBAL("remote.Apply").set_body_typed([](PackedFunc function, int64_t value) -> int64_t {
  return function(value);
});

// A function object out: each call adds its step to a count the closure keeps, and returns the new count.
P4J_REGISTER_GLOBAL("remote.Counter").set_body_typed([](int64_t start) {
  auto count = std::make_shared<std::atomic<int64_t>>(start);
  return PackedFunc::FromTyped([count](int64_t step) { return count->fetch_add(step) + step; });
});

// ---- Tensors: copied across a session.
P4J_REGISTER_GLOBAL("remote.EchoTensor").set_body_typed([](NDArray tensor) { return tensor; });

// The element count of a tensor, after holding it a while: a call whose streamed argument stays allocated.
P4J_REGISTER_GLOBAL("remote.HoldTensor").set_body_typed([](NDArray tensor, int64_t millis) {
  std::this_thread::sleep_for(std::chrono::milliseconds(millis));
  return tensor.NumElements();
});

// An int8 tensor of n bytes, byte i being i * 7 mod 251: a result larger than its request.
P4J_REGISTER_GLOBAL("remote.Ramp").set_body_typed([](int64_t n) {
  NDArray ramp = NDArray::Empty({n}, DataTypeOf<int8_t>());
  int8_t* bytes = ramp.data<int8_t>();
  for (int64_t i = 0; i < n; ++i) bytes[i] = static_cast<int8_t>(i * 7 % 251);
  return ramp;
});

// A tensor that claims to live on cuda:0 (over a static host buffer no one reads): Java never reads it, and a
// session refuses to copy it.
P4J_REGISTER_GLOBAL("remote.DeviceTensor").set_body_typed([]() {
  static float buffer[4] = {0, 0, 0, 0};
  return NDArray::FromBorrowed(buffer, {4}, DataTypeOf<float>(), {}, DLDevice{kDLCUDA, 0});
});

// A 2-D tensor's transpose as a view of its memory: strided, not contiguous.
P4J_REGISTER_GLOBAL("remote.Transpose").set_body_typed([](NDArray a) {
  a.CheckNDim(2, "a");
  return a.View({a->shape[1], a->shape[0]}, {a->strides[1], a->strides[0]});
});

P4J_REGISTER_GLOBAL("remote.SumFloat32").set_body_typed([](NDArray a) {
  a.CheckDType(DataTypeOf<float>(), "a");
  a.CheckContiguous("a");
  const float* values = a.data<float>();
  double sum = 0;
  for (int64_t i = 0; i < a.NumElements(); ++i) sum += values[i];
  return sum;
});

// ---- Objects: stay on the server, read by field.
class PointObject : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  std::string label;

  PointObject() = default;
  PointObject(int64_t x_in, int64_t y_in, std::string label_in) : x(x_in), y(y_in), label(std::move(label_in)) {}

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("x", &x);
    v->Visit("y", &y);
    v->Visit("label", &label);
  }

  static constexpr const char* _type_key = "remote.Point";
  P4J_DECLARE_OBJECT_TYPE_INFO(PointObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(PointObject);

class Point : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Point, ObjectRef, PointObject);
};

// Objects as classes: a writable field, methods, a static method and a constructor, called through a session.
P4J_REGISTER_OBJECT_DEF(PointObject, "A labelled point")
    .def_rw("x", &PointObject::x, "the x coordinate")
    .def_ro("y", &PointObject::y, "the y coordinate")
    .def_ro("label", &PointObject::label, "its name")
    .def("norm2", [](Point point) { return point->x * point->x + point->y * point->y; }, "x squared plus y squared")
    .def("distance2To", [](Point point, Point other) {
      return (point->x - other->x) * (point->x - other->x) + (point->y - other->y) * (point->y - other->y);
    }, "the squared distance to another point", {"other"})
    .def("moved", [](Point point, int64_t dx) {
      return Point(make_object<PointObject>(point->x + dx, point->y, point->label + "'"));
    }, "a copy moved along x", {"dx"})
    .def_static("origin", []() { return Point(make_object<PointObject>(0, 0, "origin")); }, "the point (0, 0)")
    .def(init<int64_t, int64_t, std::string>(), "a point", {"x", "y", "label"});

// A child type: a session returns it where a Point is declared as its own view, as a local call does.
class TaggedPointObject : public PointObject {
 public:
  std::string tag;

  void VisitAttrs(AttrVisitor* v) override {
    PointObject::VisitAttrs(v);
    v->Visit("tag", &tag);
  }

  static constexpr const char* _type_key = "remote.TaggedPoint";
  P4J_DECLARE_OBJECT_TYPE_INFO(TaggedPointObject, PointObject);
};
P4J_REGISTER_OBJECT_TYPE(TaggedPointObject);

P4J_REGISTER_GLOBAL("remote.MakeTagged").set_body_typed([](int64_t x, std::string tag) {
  auto point = make_object<TaggedPointObject>();
  point->x = x;
  point->label = "tagged";
  point->tag = std::move(tag);
  return Point(ObjectPtr<Object>(std::move(point)));
});

P4J_REGISTER_GLOBAL("remote.MakePoint").set_body_typed([](int64_t x, int64_t y, std::string label) {
  auto point = make_object<PointObject>();
  point->x = x;
  point->y = y;
  point->label = std::move(label);
  return Point(point);
});

P4J_REGISTER_GLOBAL("remote.Distance2").set_body_typed([](Point a, Point b) {
  int64_t dx = a->x - b->x;
  int64_t dy = a->y - b->y;
  return dx * dx + dy * dy;
});

P4J_REGISTER_GLOBAL("remote.Pair").set_body_typed([](int64_t x) {
  List<Point> points;
  for (int64_t i = 0; i < 2; ++i) {
    auto point = make_object<PointObject>();
    point->x = x + i;
    point->label = "p" + std::to_string(i);
    points.push_back(Point(point));
  }
  return points;
});

// ---- Nulls in containers: refused by the client with the message of a local call (RemoteSessionTest's parity).
P4J_REGISTER_GLOBAL("remote.TotalX").set_body_typed([](List<Point> points) {
  int64_t total = 0;
  for (int64_t i = 0; i < points.size(); ++i) total += points[i]->x;
  return total;
});

P4J_REGISTER_GLOBAL("remote.Merge").set_body_typed([](Map<std::string, int64_t> a, Map<std::string, int64_t> b) {
  Map<std::string, int64_t> merged;
  for (auto entry : a) merged.Set(entry.first, entry.second);
  for (auto entry : b) merged.Set(entry.first, entry.second);
  return merged;
});

// Container fields with typed setters.
class ShelfObject : public Object {
 public:
  List<std::string> tags;
  Map<std::string, int64_t> stock;
  std::string label;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("tags", &tags);
    v->Visit("stock", &stock);
    v->Visit("label", &label);
  }

  static constexpr const char* _type_key = "remote.Shelf";
  P4J_DECLARE_OBJECT_TYPE_INFO(ShelfObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ShelfObject);

P4J_REGISTER_OBJECT_DEF(ShelfObject, "A shelf")
    .def_rw("tags", &ShelfObject::tags, "labels")
    .def_rw("stock", &ShelfObject::stock, "counts by name")
    .def_rw("label", &ShelfObject::label, "what the shelf holds");

P4J_REGISTER_GLOBAL("remote.MakeShelf").set_body_typed([]() { return ObjectRef(make_object<ShelfObject>()); });
