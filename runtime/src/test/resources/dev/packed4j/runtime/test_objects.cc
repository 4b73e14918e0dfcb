// A plugin for the runtime's tests: object types with every field kind, a subtype, an unrelated type, and
// functions that make them, echo values and fail on request. TestPlugin compiles it against libpacked4j.so.
#include <packed4j/packed4j.h>

#include <cstring>
#include <optional>
#include <string>

using namespace packed4j;

class ShapeObject : public Object {
 public:
  int32_t sides = 0;
  int64_t id = 0;
  uint64_t serial = 0;
  double area = 0;
  bool filled = false;
  std::string name;
  ObjectRef child;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("sides", &sides);
    v->Visit("id", &id);
    v->Visit("serial", &serial);
    v->Visit("area", &area);
    v->Visit("filled", &filled);
    v->Visit("name", &name);
    v->Visit("child", &child);
  }

  static constexpr const char* _type_key = "test.Shape";
  P4J_DECLARE_OBJECT_TYPE_INFO(ShapeObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ShapeObject);

class SquareObject : public ShapeObject {
 public:
  double side = 0;

  void VisitAttrs(AttrVisitor* v) override {
    ShapeObject::VisitAttrs(v);
    v->Visit("side", &side);
  }

  static constexpr const char* _type_key = "test.Square";
  P4J_DECLARE_OBJECT_TYPE_INFO(SquareObject, ShapeObject);
};
P4J_REGISTER_OBJECT_TYPE(SquareObject);

// Its Java view (Circle) is found through the processor's index, never by prior use.
class CircleObject : public ShapeObject {
 public:
  double radius = 0;

  void VisitAttrs(AttrVisitor* v) override {
    ShapeObject::VisitAttrs(v);
    v->Visit("radius", &radius);
  }

  static constexpr const char* _type_key = "test.Circle";
  P4J_DECLARE_OBJECT_TYPE_INFO(CircleObject, ShapeObject);
};
P4J_REGISTER_OBJECT_TYPE(CircleObject);

class OtherObject : public Object {
 public:
  int64_t value = 7;

  void VisitAttrs(AttrVisitor* v) override { v->Visit("value", &value); }

  static constexpr const char* _type_key = "test.Other";
  P4J_DECLARE_OBJECT_TYPE_INFO(OtherObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(OtherObject);

P4J_REGISTER_GLOBAL("test.MakeShape").set_body_typed([](int64_t sides, std::string name) {
  auto shape = make_object<ShapeObject>();
  shape->sides = static_cast<int32_t>(sides);
  shape->id = sides * 1000000000000LL;
  shape->serial = 18446744073709551615ULL;
  shape->area = sides * 1.5;
  shape->filled = sides % 2 == 0;
  shape->name = name;
  return shape;
});

P4J_REGISTER_GLOBAL("test.MakeSquare").set_body_typed([](double side) {
  auto square = make_object<SquareObject>();
  square->sides = 4;
  square->side = side;
  square->area = side * side;
  square->name = "square";
  square->serial = 4;
  return square;
});

P4J_REGISTER_GLOBAL("test.MakeCircle").set_body_typed([](double radius) {
  auto circle = make_object<CircleObject>();
  circle->radius = radius;
  circle->name = "circle";
  return circle;
});

P4J_REGISTER_GLOBAL("test.MakeOther").set_body_typed([]() { return make_object<OtherObject>(); });

P4J_REGISTER_GLOBAL("test.SetChild").set_body([](Args args, RetValue* rv) {
  ObjectRef shape = args[0];
  ObjectRef child = args[1];
  static_cast<ShapeObject*>(const_cast<Object*>(shape.get()))->child = child;
  *rv = shape;
});

P4J_REGISTER_GLOBAL("test.Echo").set_body([](Args args, RetValue* rv) { *rv = args[0]; });

P4J_REGISTER_GLOBAL("test.Count").set_body([](Args args, RetValue* rv) { *rv = static_cast<int64_t>(args.size()); });

P4J_REGISTER_GLOBAL("test.Fail").set_body([](Args args, RetValue*) {
  std::string kind = args[0];
  std::string message = args[1];
  if (kind == "TypeError") throw TypeError(message);
  if (kind == "IndexError") throw IndexError(message);
  if (kind == "KeyError") throw KeyError(message);
  throw ValueError(message);
});

// Scalar functions with typed entries (TypedEntryTest): results of every wire type, one equal to the error
// sentinel, narrowing parameters and failures.
P4J_REGISTER_GLOBAL("test.TypedAdd").set_body_typed([](int64_t a, int64_t b) { return a + b; });

P4J_REGISTER_GLOBAL("test.TypedAddInt32").set_body_typed([](int32_t a, int32_t b) { return a + b; });

P4J_REGISTER_GLOBAL("test.TypedNarrowByte").set_body_typed([](int8_t value) { return static_cast<int64_t>(value); });

P4J_REGISTER_GLOBAL("test.TypedSentinel").set_body_typed([]() -> int64_t { return P4J_TYPED_ERROR_I64; });

P4J_REGISTER_GLOBAL("test.TypedSentinelDouble").set_body_typed([]() {
  int64_t bits = P4J_TYPED_ERROR_F64_BITS;
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
});

P4J_REGISTER_GLOBAL("test.TypedHalf").set_body_typed([](double value) { return value / 2; });

P4J_REGISTER_GLOBAL("test.TypedTwice").set_body_typed([](float value) { return value * 2; });

P4J_REGISTER_GLOBAL("test.TypedIsEven").set_body_typed([](int64_t value) { return value % 2 == 0; });

namespace {
bool typed_flag = false;
}

P4J_REGISTER_GLOBAL("test.TypedSetFlag").set_body_typed([](bool flag) { typed_flag = flag; });

P4J_REGISTER_GLOBAL("test.TypedFlag").set_body_typed([]() { return typed_flag; });

P4J_REGISTER_GLOBAL("test.TypedFail").set_body_typed([](int64_t value) -> int64_t {
  throw IndexError("no item " + std::to_string(value));
});

P4J_REGISTER_GLOBAL("test.TypedFailDouble").set_body_typed([](double) -> double { throw ValueError("no double"); });

P4J_REGISTER_GLOBAL("test.TypedFailBool").set_body_typed([](int64_t) -> bool { throw KeyError("no bool"); });

P4J_REGISTER_GLOBAL("test.TypedFailVoid").set_body_typed([]() { throw TypeError("no void"); });

// A typed entry with string parameters (TypedEntryTest): strings arrive as spans, read in place.
P4J_REGISTER_GLOBAL("test.TypedWeigh").set_body_typed([](std::string_view text, int64_t times, const std::string& tail) {
  return static_cast<int64_t>(text.size()) * times + static_cast<int64_t>(tail.size());
});

// Untyped scalar functions for P4JFunctionCallScalars (ScalarsCallTest): four arguments of mixed kinds, a result of
// the kind asked for by an argument, a failure.
P4J_REGISTER_GLOBAL("test.Describe4").set_body([](Args args, RetValue* rv) {
  std::string kinds;
  for (int i = 0; i < args.size(); ++i) kinds += std::to_string(args[i].type_index());
  // Digits: the four kinds, then a (0-9), b, c * 10, d * 10 (0-99 each).
  *rv = std::stoll(kinds) + args[0].cast<int64_t>() * 10000 + (args[1].cast<bool>() ? 100000 : 0) +
        static_cast<int64_t>(args[2].cast<double>() * 10) * 1000000 +
        static_cast<int64_t>(args[3].cast<double>() * 10) * 100000000;
});
P4J_REGISTER_GLOBAL("test.ResultOfKind").set_body([](Args args, RetValue* rv) {
  int64_t kind = args[0];
  if (kind == kP4JInt) *rv = int64_t{1} << 40;
  if (kind == kP4JFloat) *rv = 2.5;
  if (kind == kP4JBool) *rv = true;
  if (kind == kP4JString) *rv = std::string("text");
  if (kind == kP4JList) *rv = List<int64_t>({1, 2});
  if (kind == -1) throw IndexError("no result of kind -1");
});

// NDArrayTest: a typed function over a tensor, to pass an existing NDArray through a call frame.
P4J_REGISTER_GLOBAL("test.TensorElementCount").set_body_typed([](NDArray a) { return a.NumElements(); });

// C++ calling a Java (int64, int64) -> int64 function n times through its typed entry (JavaFunctionTest).
P4J_REGISTER_GLOBAL("test.CallTypedLoop").set_body_typed([](PackedFunc function, int64_t n) {
  TypedPackedFunc<int64_t(int64_t, int64_t)> add(function);
  if (!add.uses_typed_entry()) throw TypeError("test.CallTypedLoop: the function has no (int64, int64) -> int64 entry");
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum = add(sum, i);
  return sum;
});

// Reference shapes on the typed entry (ReferenceRouteTest), each driven through the typed entry and the call frame.
P4J_REGISTER_GLOBAL("test.TypedEchoText").set_body_typed([](std::string text) {
  if (text == "fail") throw ValueError("refused " + text);
  return text;
});

P4J_REGISTER_GLOBAL("test.TypedMaybeText").set_body_typed([](bool present) {
  return present ? String("here") : String(ObjectPtr<Object>());
});

P4J_REGISTER_GLOBAL("test.TypedMakeNamed").set_body_typed([](std::string name, int64_t sides) {
  if (sides < 0) throw ValueError("negative sides " + std::to_string(sides));
  if (sides == 0) return ObjectPtr<ShapeObject>();  // None
  auto shape = make_object<ShapeObject>();
  shape->sides = static_cast<int32_t>(sides);
  shape->name = name;
  return shape;
});

// Optional results of a String and of an object, read from the typed entry's out slot (issue 24, J3).
P4J_REGISTER_GLOBAL("test.TypedFindShape").set_body_typed([](std::string name, int64_t sides) {
  if (sides < 0) throw ValueError("negative sides " + std::to_string(sides));
  if (sides == 0) return std::optional<ObjectPtr<ShapeObject>>();
  auto shape = make_object<ShapeObject>();
  shape->sides = static_cast<int32_t>(sides);
  shape->name = name;
  return std::optional<ObjectPtr<ShapeObject>>(shape);
});
P4J_REGISTER_GLOBAL("test.TypedFindOther").set_body_typed([](bool found) {
  if (!found) return std::optional<ObjectPtr<OtherObject>>();
  return std::optional<ObjectPtr<OtherObject>>(make_object<OtherObject>());
});
P4J_REGISTER_GLOBAL("test.TypedFindName").set_body_typed([](int64_t length) -> std::optional<std::string> {
  if (length < 0) throw ValueError("negative length " + std::to_string(length));
  if (length == 0) return std::nullopt;
  return std::string(static_cast<size_t>(length), 'n');
});

P4J_REGISTER_GLOBAL("test.TypedSides").set_body_typed([](ObjectPtr<ShapeObject> shape) -> int64_t {
  if (shape->sides > 10) throw ValueError("too many sides " + std::to_string(shape->sides));
  return shape->sides;
});

P4J_REGISTER_GLOBAL("test.TypedSquareSide").set_body_typed([](ObjectPtr<SquareObject> square) {
  return square->side;
});

P4J_REGISTER_GLOBAL("test.TypedEchoBytes").set_body_typed([](Bytes data) {
  if (data.view() == "bad") throw ValueError("refused bytes of size " + std::to_string(data.view().size()));
  return data;
});

P4J_REGISTER_GLOBAL("test.TypedMaybeBytes").set_body_typed([](bool present) {
  return present ? Bytes(std::string_view("here")) : Bytes(ObjectPtr<Object>());
});

// An object, a string and a string result together: the route's own scratch mark nests in the String's.
P4J_REGISTER_GLOBAL("test.TypedGreet").set_body_typed([](std::string greeting, ObjectPtr<ShapeObject> shape) {
  return greeting + ", " + shape->name;
});
