// Object definitions (object_def.h, ABI 2.5): methods, static methods and constructors through PackedFunc and the
// C API, lookup through parents with overrides, field mutability and thread-safe writes, doc strings and parameter
// names of types, fields, members and globals.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

using namespace packed4j;
using packed4j::testing::ErrorOf;
using packed4j::testing::IntValue;
using packed4j::testing::FloatValue;
using packed4j::testing::BoolValue;
using packed4j::testing::ObjectValue;
using packed4j::testing::StrView;
using packed4j::testing::TakeRaised;

namespace {

class ShapeObject : public Object {
 public:
  std::string name;
  int64_t sides = 0;
  double scale = 1.0;
  String tag;
  bool visible = true;
  int32_t color = 0;
  uint64_t serial = 0;
  std::string label;

  ShapeObject() = default;
  ShapeObject(std::string name_in, int64_t sides_in) : name(std::move(name_in)), sides(sides_in) {}

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("name", &name);
    v->Visit("sides", &sides);
  }

  int64_t Corners(int64_t extra) const { return sides + extra; }
  std::string Describe() const { return name + "/" + std::to_string(sides); }
  void Grow(int64_t by) { sides += by; }
  std::string Kind() const { return "shape"; }

  static constexpr const char* _type_key = "objdef.Shape";
  P4J_DECLARE_OBJECT_TYPE_INFO(ShapeObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ShapeObject);

class Shape : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Shape, ObjectRef, ShapeObject);
};

ObjectPtr<ShapeObject> ParseShape(std::string text) {
  size_t colon = text.find(':');
  if (colon == std::string::npos) throw ValueError("objdef.Shape.parse: expected \"name:sides\", got \"" + text + "\"");
  return make_object<ShapeObject>(text.substr(0, colon), std::stoll(text.substr(colon + 1)));
}

P4J_REGISTER_OBJECT_DEF(ShapeObject, "A polygon")
    .def_ro("name", &ShapeObject::name, "what it is called")
    .def_rw("sides", &ShapeObject::sides, "how many sides")
    .def_rw("scale", &ShapeObject::scale)
    .def_rw("tag", &ShapeObject::tag, "a label")
    .def_rw("visible", &ShapeObject::visible)
    .def_rw("color", &ShapeObject::color)
    .def_rw("serial", &ShapeObject::serial)
    .def_rw("label", &ShapeObject::label, "a writable std::string")
    .def("corners", &ShapeObject::Corners, "sides plus extra", {"extra"})
    .def("describe", &ShapeObject::Describe, "name/sides")
    .def("grow", &ShapeObject::Grow, "adds sides", {"by"})
    .def("kind", &ShapeObject::Kind)
    .def("twice", [](Shape self, int64_t factor) { return self->sides * factor * 2; }, "a lambda method")
    .def_static("parse", &ParseShape, "reads \"name:sides\"", {"text"})
    .def(init<std::string, int64_t>(), "a shape of a name and sides", {"name", "sides"});

class SquareObject : public ShapeObject {
 public:
  SquareObject() = default;
  explicit SquareObject(std::string name_in) : ShapeObject(std::move(name_in), 4) {}
  std::string Kind() const { return "square"; }

  static constexpr const char* _type_key = "objdef.Square";
  P4J_DECLARE_OBJECT_TYPE_INFO(SquareObject, ShapeObject);
};
P4J_REGISTER_OBJECT_TYPE(SquareObject);

P4J_REGISTER_OBJECT_DEF(SquareObject, "A shape of four sides")
    .def("kind", &SquareObject::Kind, "overrides Shape.kind")
    .def(init<std::string>(), "a square", {"name"});

P4J_REGISTER_GLOBAL("objdef.Area")
    .set_body_typed([](double width, double height) { return width * height; })
    .describe("The area of a rectangle")
    .params({"width", "height"});

P4J_REGISTER_GLOBAL("objdef.Undocumented").set_body_typed([](int64_t a) { return a; });

int32_t ShapeIndex() { return ShapeObject::RuntimeTypeIndex(); }
int32_t SquareIndex() { return SquareObject::RuntimeTypeIndex(); }

const P4JTypeInfo* InfoOf(int32_t type_index) {
  const P4JTypeInfo* info = nullptr;
  EXPECT_EQ(P4JTypeGetInfo(type_index, &info), 0);
  return info;
}

int32_t FieldIndex(int32_t type_index, std::string_view name) {
  const P4JTypeInfo* info = InfoOf(type_index);
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (details::ViewOf(info->fields[i].name) == name) return i;
  }
  ADD_FAILURE() << "no field " << name;
  return -1;
}

const P4JMethodInfo* Find(int32_t type_index, std::string_view name) {
  P4JByteArray span = details::ByteArrayOf(name);
  const P4JMethodInfo* info = nullptr;
  EXPECT_EQ(P4JTypeFindMethod(type_index, &span, &info), 0) << TakeRaised();
  return info;
}

std::string SetAttr(const ObjectRef& obj, std::string_view name, P4JAny value) {
  P4JByteArray span = details::ByteArrayOf(name);
  if (P4JObjectSetAttr(obj.handle(), &span, &value) == 0) return "";
  return TakeRaised();
}

TEST(ObjectDefTest, MethodsCarryTypedSignaturesAndEntries) {
  Shape shape = GetMethod(ShapeIndex(), "__init__")("hex", 6).cast<Shape>();
  EXPECT_EQ(shape->name, "hex");
  EXPECT_EQ(shape->sides, 6);

  PackedFunc corners = GetMethod(ShapeIndex(), "corners");
  EXPECT_EQ(corners.signature(), "(objdef.Shape, int64) -> int64");
  EXPECT_NE(corners.typed_entry(), nullptr);
  EXPECT_EQ(corners(shape, 2).cast<int64_t>(), 8);
  EXPECT_EQ(GetMethod(ShapeIndex(), "describe")(shape).cast<std::string>(), "hex/6");
  GetMethod(ShapeIndex(), "grow")(shape, 1);
  EXPECT_EQ(shape->sides, 7);
  EXPECT_EQ(GetMethod(ShapeIndex(), "twice")(shape, 3).cast<int64_t>(), 42);
  EXPECT_EQ(GetMethod(ShapeIndex(), "twice").signature(), "(objdef.Shape, int64) -> int64");

  // The typed entry is the one set_body_typed makes: an object word for the object, int64 for the number.
  using Entry = int64_t (*)(P4JObjectHandle, int64_t, int64_t);
  auto entry = reinterpret_cast<Entry>(corners.typed_entry());
  EXPECT_EQ(entry(corners.handle(), reinterpret_cast<int64_t>(shape.handle()), 10), 17);

  PackedFunc parse = GetMethod(ShapeIndex(), "parse");
  EXPECT_EQ(parse.signature(), "(string) -> objdef.Shape");
  Shape parsed = parse("tri:3").cast<Shape>();
  EXPECT_EQ(parsed->Describe(), "tri/3");
  EXPECT_EQ(GetMethod(ShapeIndex(), "__init__").signature(), "(string, int64) -> objdef.Shape");
}

TEST(ObjectDefTest, ErrorsNameTheMemberAndArgument) {
  Shape shape = GetMethod(ShapeIndex(), "__init__")("hex", 6).cast<Shape>();
  PackedFunc corners = GetMethod(ShapeIndex(), "corners");
  EXPECT_EQ(ErrorOf([&] { corners(nullptr, 1); }),
            "TypeError: objdef.Shape.corners: argument 0 expected objdef.Shape, got None");
  EXPECT_EQ(ErrorOf([&] { corners(shape, "x"); }),
            "TypeError: objdef.Shape.corners: argument 1 expected int64, got string \"x\"");
  EXPECT_EQ(ErrorOf([&] { corners(String("s"), 1); }),
            "TypeError: objdef.Shape.corners: argument 0 expected objdef.Shape, got string \"s\"");
  // A method's count is of the arguments after the object, as a Java method declares them (a user's "got 2" for a
  // one-parameter Java method read as wrong); a static method counts all of them.
  EXPECT_EQ(ErrorOf([&] { corners(shape); }),
            "TypeError: objdef.Shape.corners: expected 1 argument after the object (objdef.Shape, int64) -> int64, got 0");
  EXPECT_EQ(ErrorOf([&] { corners(shape, 1, 2); }),
            "TypeError: objdef.Shape.corners: expected 1 argument after the object (objdef.Shape, int64) -> int64, got 2");
  EXPECT_EQ(ErrorOf([&] { corners(); }),
            "TypeError: objdef.Shape.corners: expected 1 argument after the object (objdef.Shape, int64) -> int64, got "
            "no object");
  EXPECT_EQ(ErrorOf([&] { GetMethod(ShapeIndex(), "parse")(); }),
            "TypeError: objdef.Shape.parse: expected 1 argument (string) -> objdef.Shape, got 0");
  EXPECT_EQ(ErrorOf([&] { GetMethod(ShapeIndex(), "parse")("nocolon"); }),
            "ValueError: objdef.Shape.parse: expected \"name:sides\", got \"nocolon\"");
  EXPECT_EQ(ErrorOf([] { GetMethod(ShapeIndex(), "missing"); }),
            "AttributeError: objdef.Shape has no method \"missing\" (own or inherited); it has: corners, describe, "
            "grow, kind, twice, parse, __init__");
}

TEST(ObjectDefTest, LookupWalksParentsAndOverridesWin) {
  Shape square = GetMethod(SquareIndex(), "__init__")("box").cast<Shape>();
  EXPECT_EQ(square->GetTypeKey(), "objdef.Square");
  EXPECT_EQ(square->sides, 4);
  // Inherited from the parent's table.
  EXPECT_EQ(GetMethod(SquareIndex(), "corners")(square, 1).cast<int64_t>(), 5);
  EXPECT_EQ(Find(SquareIndex(), "corners")->type_index, ShapeIndex());
  EXPECT_EQ(GetMethod(SquareIndex(), "parse")("pent:5").cast<Shape>()->sides, 5);
  // The child's override wins on the child; the parent keeps its own.
  EXPECT_EQ(GetMethod(SquareIndex(), "kind")(square).cast<std::string>(), "square");
  EXPECT_EQ(Find(SquareIndex(), "kind")->type_index, SquareIndex());
  EXPECT_EQ(GetMethod(ShapeIndex(), "kind")(square).cast<std::string>(), "shape");
  // Constructors are not inherited: the child's is its own.
  EXPECT_EQ(GetMethod(SquareIndex(), "__init__").signature(), "(string) -> objdef.Square");
  EXPECT_EQ(Find(SquareIndex(), "__init__")->type_index, SquareIndex());
  // A type without a definition inherits nothing and says so.
  EXPECT_EQ(ErrorOf([] { GetMethod(kP4JList, "add"); }),
            "AttributeError: List has no method \"add\" (own or inherited); it has none (a packed4j::ObjectDef "
            "registers them)");
}

TEST(ObjectDefTest, CApiEnumeratesTheOwnTable) {
  int32_t count = 0;
  ASSERT_EQ(P4JTypeGetNumMethods(ShapeIndex(), &count), 0);
  ASSERT_EQ(count, 7);
  std::vector<std::string> names;
  for (int32_t i = 0; i < count; ++i) {
    const P4JMethodInfo* info = nullptr;
    ASSERT_EQ(P4JTypeGetMethod(ShapeIndex(), i, &info), 0);
    names.emplace_back(details::ViewOf(info->name));
    EXPECT_EQ(info->type_index, ShapeIndex());
    EXPECT_EQ(info->reserved, 0);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"corners", "describe", "grow", "kind", "twice", "parse", "__init__"}));

  const P4JMethodInfo* corners = Find(ShapeIndex(), "corners");
  EXPECT_EQ(corners->kind, kP4JMethodInstance);
  EXPECT_EQ(details::ViewOf(corners->signature), "(objdef.Shape, int64) -> int64");
  EXPECT_EQ(details::ViewOf(corners->doc), "sides plus extra");
  ASSERT_EQ(corners->num_param_names, 1);
  EXPECT_EQ(details::ViewOf(corners->param_names[0]), "extra");
  EXPECT_EQ(Find(ShapeIndex(), "parse")->kind, kP4JMethodStatic);
  const P4JMethodInfo* ctor = Find(ShapeIndex(), P4J_CONSTRUCTOR_NAME);
  EXPECT_EQ(ctor->kind, kP4JMethodConstructor);
  ASSERT_EQ(ctor->num_param_names, 2);
  EXPECT_EQ(details::ViewOf(ctor->param_names[1]), "sides");
  EXPECT_EQ(Find(ShapeIndex(), "describe")->num_param_names, 0);
  EXPECT_EQ(Find(ShapeIndex(), "describe")->param_names, nullptr);

  // Calls through the C API: P4JFunctionCall on the handle, the object first.
  Shape shape = GetMethod(ShapeIndex(), "__init__")("oct", 8).cast<Shape>();
  P4JAny args[2] = {ObjectValue(shape), IntValue(1)};
  P4JAny result;
  ASSERT_EQ(P4JFunctionCall(corners->function, args, 2, &result), 0);
  EXPECT_EQ(result.v_int64, 9);
  P4JAny ctor_args[2] = {StrView("dec"), IntValue(10)};
  ASSERT_EQ(P4JFunctionCall(ctor->function, ctor_args, 2, &result), 0);
  Shape made = Any::FromOwned(result).cast<Shape>();
  EXPECT_EQ(made->sides, 10);

  const P4JMethodInfo* out = nullptr;
  EXPECT_EQ(P4JTypeGetMethod(ShapeIndex(), 7, &out), -1);
  EXPECT_EQ(TakeRaised(), "IndexError: method index 7 is out of range: objdef.Shape has 7 methods");
  EXPECT_EQ(P4JTypeGetNumMethods(9000, &count), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: no type is registered with index 9000");
}

PackedFunc Constant(int64_t value) {
  return PackedFunc::FromTyped([value](Shape) { return value; }, "objdef.Shape.constant");
}

TEST(ObjectDefTest, RegisterMethodRefusesBadMembers) {
  auto add = [](std::string_view name, int32_t kind, const PackedFunc& function, std::vector<std::string> params) {
    P4JByteArray span = details::ByteArrayOf(name);
    std::vector<P4JByteArray> spans = details::SpansOf(params);
    P4JByteArray doc = details::ByteArrayOf(std::string_view("d"));
    if (P4JTypeRegisterMethod(ShapeIndex(), &span, kind, function.handle(), &doc, spans.data(),
                              static_cast<int32_t>(spans.size())) == 0) {
      return std::string();
    }
    return TakeRaised();
  };
  // The same library registering a member again, with another signature: refused, naming the library and both.
  Dl_info self{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&ShapeIndex), &self), 0);
  std::string again = "ValueError: method \"corners\" of type \"objdef.Shape\" is already registered by " +
                      std::string(self.dli_fname) +
                      " as (objdef.Shape, int64) -> int64, and the same library registers it again as "
                      "(objdef.Shape) -> int64 (the first one is kept)";
  EXPECT_EQ(add("corners", kP4JMethodInstance, Constant(1), {}), again);
  PackedFunc take_errors = PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors");
  std::vector<std::string> recorded = take_errors().cast<List<std::string>>().ToVector();
  ASSERT_FALSE(recorded.empty());
  EXPECT_EQ(recorded.back(), again);
  EXPECT_EQ(add("constant", kP4JMethodInstance, Constant(1), {"x"}),
            "ValueError: method \"constant\" of type \"objdef.Shape\" has 0 parameters after the object "
            "(objdef.Shape) -> int64, and 1 parameter names were given");
  PackedFunc takes_int = PackedFunc::FromTyped([](int64_t a) { return a; });
  EXPECT_EQ(add("wrong", kP4JMethodInstance, takes_int, {}),
            "ValueError: method \"wrong\" of type \"objdef.Shape\" takes int64 first (int64) -> int64, expected "
            "objdef.Shape (or an ancestor): a method takes the object first");
  EXPECT_EQ(add("make", kP4JMethodConstructor, takes_int, {}),
            "ValueError: constructor \"make\" of type \"objdef.Shape\": the constructor, and only it, is named "
            "\"__init__\"");
  EXPECT_EQ(add("x", 9, takes_int, {}), "ValueError: P4JTypeRegisterMethod: kind 9 is not a P4JMethodKind");
  // A method the child defines taking its parent first is fine (an inherited implementation).
  P4JByteArray name = details::ByteArrayOf(std::string_view("constant"));
  EXPECT_EQ(P4JTypeRegisterMethod(SquareIndex(), &name, kP4JMethodInstance, Constant(3).handle(), nullptr, nullptr,
                                  0),
            0)
      << TakeRaised();
  Shape square = GetMethod(SquareIndex(), "__init__")("box").cast<Shape>();
  EXPECT_EQ(GetMethod(SquareIndex(), "constant")(square).cast<int64_t>(), 3);
}

TEST(ObjectDefTest, FieldMutabilityAndDocs) {
  auto meta = [](int32_t type_index, std::string_view name) {
    int32_t flags = -1;
    P4JByteArray doc{nullptr, 0};
    EXPECT_EQ(P4JTypeGetFieldMeta(type_index, FieldIndex(type_index, name), &flags, &doc), 0);
    return std::make_pair(flags, std::string(details::ViewOf(doc)));
  };
  // VisitAttrs' fields keep their order; the definition's extra fields follow them.
  const P4JTypeInfo* info = InfoOf(ShapeIndex());
  ASSERT_EQ(info->num_fields, 8);
  EXPECT_EQ(details::ViewOf(info->fields[0].name), "name");
  EXPECT_EQ(details::ViewOf(info->fields[1].name), "sides");
  EXPECT_EQ(details::ViewOf(info->fields[2].name), "scale");
  EXPECT_EQ(meta(ShapeIndex(), "name"), std::make_pair(0, std::string("what it is called")));
  EXPECT_EQ(meta(ShapeIndex(), "sides"), std::make_pair(P4J_FIELD_MUTABLE, std::string("how many sides")));
  EXPECT_EQ(meta(ShapeIndex(), "scale"), std::make_pair(P4J_FIELD_MUTABLE, std::string()));
  // Inherited with their flags.
  EXPECT_EQ(meta(SquareIndex(), "sides"), std::make_pair(P4J_FIELD_MUTABLE, std::string("how many sides")));
  EXPECT_EQ(InfoOf(SquareIndex())->num_fields, 8);
  // A VisitAttrs-only type's fields are read-only.
  EXPECT_EQ(meta(kP4JNDArray, "ndim").first, 0);

  P4JByteArray doc{nullptr, 0};
  ASSERT_EQ(P4JTypeGetDoc(ShapeIndex(), &doc), 0);
  EXPECT_EQ(details::ViewOf(doc), "A polygon");
  ASSERT_EQ(P4JTypeGetDoc(kP4JList, &doc), 0);
  EXPECT_EQ(details::ViewOf(doc), "");
  int32_t flags = 0;
  EXPECT_EQ(P4JTypeGetFieldMeta(ShapeIndex(), 8, &flags, &doc), -1);
  EXPECT_EQ(TakeRaised(), "IndexError: field index 8 is out of range: objdef.Shape has 8 fields");

  // Another layout for a declared field is refused, naming both.
  P4JFieldInfo moved = info->fields[1];
  moved.offset += 8;
  EXPECT_EQ(P4JTypeRegisterField(ShapeIndex(), &moved, P4J_FIELD_MUTABLE, nullptr), -1);
  EXPECT_NE(TakeRaised().find("ValueError: field \"sides\" of type \"objdef.Shape\" is declared by VisitAttrs as "
                              "{sides: int64 at"),
            std::string::npos);
  EXPECT_EQ(P4JTypeRegisterField(ShapeIndex(), &info->fields[1], 2, nullptr), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JTypeRegisterField: flags 2 are unknown, expected 0 or P4J_FIELD_MUTABLE (1)");
}

TEST(ObjectDefTest, SetFieldWritesCheckedValues) {
  Shape shape = GetMethod(ShapeIndex(), "__init__")("hex", 6).cast<Shape>();
  EXPECT_EQ(SetAttr(shape, "sides", IntValue(9)), "");
  EXPECT_EQ(shape->sides, 9);
  EXPECT_EQ(SetAttr(shape, "scale", FloatValue(2.5)), "");
  EXPECT_EQ(shape->scale, 2.5);
  EXPECT_EQ(SetAttr(shape, "scale", IntValue(3)), "");
  EXPECT_EQ(shape->scale, 3.0);
  EXPECT_EQ(SetAttr(shape, "visible", BoolValue(false)), "");
  EXPECT_FALSE(shape->visible);
  EXPECT_EQ(SetAttr(shape, "color", IntValue(-7)), "");
  EXPECT_EQ(shape->color, -7);
  EXPECT_EQ(SetAttr(shape, "serial", IntValue(12)), "");
  EXPECT_EQ(shape->serial, 12u);
  EXPECT_EQ(SetAttr(shape, "label", StrView("a label")), "");
  EXPECT_EQ(shape->label, "a label");
  EXPECT_EQ(SetAttr(shape, "label", IntValue(1)),
            "TypeError: P4JObjectSetField: field \"label\" of objdef.Shape: expected string, got int 1");
  EXPECT_EQ(SetAttr(shape, "tag", StrView("red")), "");
  EXPECT_EQ(shape->tag, "red");
  EXPECT_EQ(SetAttr(shape, "tag", details::NoneValue()), "");
  EXPECT_FALSE(shape->tag.defined());
  String blue("blue");
  EXPECT_EQ(SetAttr(shape, "tag", ObjectValue(blue)), "");
  EXPECT_EQ(shape->tag.handle(), blue.handle());
  EXPECT_EQ(blue.use_count(), 2u);
  EXPECT_EQ(SetAttr(shape, "tag", StrView("green")), "");
  EXPECT_EQ(blue.use_count(), 1u);  // the old value released once

  // Read back through the C API.
  P4JAny read;
  ASSERT_EQ(P4JObjectGetField(shape.handle(), FieldIndex(ShapeIndex(), "tag"), &read), 0);
  EXPECT_EQ(Any::FromOwned(read).cast<std::string>(), "green");

  EXPECT_EQ(SetAttr(shape, "name", StrView("x")),
            "ValueError: P4JObjectSetField: field \"name\" of objdef.Shape is read-only (an object definition's "
            "def_rw declares a field writable)");
  EXPECT_EQ(SetAttr(shape, "sides", StrView("x")),
            "TypeError: P4JObjectSetField: field \"sides\" of objdef.Shape: expected int64, got string \"x\"");
  EXPECT_EQ(SetAttr(shape, "color", IntValue(3000000000)),
            "ValueError: P4JObjectSetField: field \"color\" of objdef.Shape: value 3000000000 is out of range for "
            "int32");
  EXPECT_EQ(SetAttr(shape, "serial", IntValue(-1)),
            "ValueError: P4JObjectSetField: field \"serial\" of objdef.Shape: value -1 is out of range for uint64");
  EXPECT_EQ(SetAttr(shape, "tag", IntValue(1)),
            "TypeError: P4JObjectSetField: field \"tag\" of objdef.Shape: expected String, got int 1");
  EXPECT_EQ(SetAttr(shape, "tag", ObjectValue(List<int64_t>{1})),
            "TypeError: P4JObjectSetField: field \"tag\" of objdef.Shape: expected String, got list of size 1");
  EXPECT_EQ(SetAttr(shape, "nope", IntValue(1)),
            "AttributeError: objdef.Shape object has no field \"nope\"; its fields are: name, sides, scale, tag, "
            "visible, color, serial, label");
  EXPECT_EQ(shape->sides, 9);
  P4JAny one = IntValue(1);
  EXPECT_EQ(P4JObjectSetField(shape.handle(), 8, &one), -1);
  EXPECT_EQ(TakeRaised(), "IndexError: field index 8 is out of range: objdef.Shape has 8 fields");
  EXPECT_EQ(P4JObjectSetField(nullptr, 0, &one), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JObjectSetField: obj is NULL");
  EXPECT_EQ(P4JObjectSetField(shape.handle(), 0, nullptr), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JObjectSetField: value is NULL");
}

// A std::string field is assigned in place from the argument's bytes (a view or a String object), under the
// object's field lock: what it held before is overwritten, growing or shrinking, and nothing else changes.
TEST(ObjectDefTest, SetFieldAssignsAStringFieldInPlace) {
  int64_t baseline = P4JObjectLiveCount();
  {
    Shape shape = GetMethod(ShapeIndex(), "__init__")("hex", 6).cast<Shape>();
    int32_t label = FieldIndex(ShapeIndex(), "label");
    std::string longer(200, 'x');
    for (const std::string& text : {std::string("short"), longer, std::string(), std::string("after empty")}) {
      P4JAny view = StrView(text);
      ASSERT_EQ(P4JObjectSetField(shape.handle(), label, &view), 0) << TakeRaised();
      EXPECT_EQ(shape->label, text);
    }
    String object("from a String object");
    P4JAny value = ObjectValue(object);
    ASSERT_EQ(P4JObjectSetField(shape.handle(), label, &value), 0) << TakeRaised();
    EXPECT_EQ(shape->label, "from a String object");
    EXPECT_EQ(object.use_count(), 1u) << "the field copies the bytes, it keeps no reference";
    P4JAny read;
    ASSERT_EQ(P4JObjectGetField(shape.handle(), label, &read), 0);
    EXPECT_EQ(Any::FromOwned(read).cast<std::string>(), "from a String object");
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ObjectDefTest, ConcurrentSettersOfStringAndObjectFields) {
  Shape shape = GetMethod(ShapeIndex(), "__init__")("start", 3).cast<Shape>();
  const int32_t tag_field = FieldIndex(ShapeIndex(), "tag");
  std::vector<String> values;
  for (int i = 0; i < 8; ++i) values.emplace_back(std::string(100 + i, static_cast<char>('a' + i)));
  P4JAny none = details::NoneValue();
  ASSERT_EQ(P4JObjectSetField(shape.handle(), tag_field, &none), 0);  // drops the default String the field held
  const int64_t live_before = P4JObjectLiveCount();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::string long_text(200 + t, static_cast<char>('A' + t));  // beyond the small-string buffer
      for (int i = 0; i < 2000; ++i) {
        P4JAny value = (i % 2 == 0) ? ObjectValue(values[t]) : StrView(long_text);
        if (P4JObjectSetField(shape.handle(), tag_field, &value) != 0) failures++;
        P4JAny read;
        if (P4JObjectGetField(shape.handle(), tag_field, &read) != 0) {
          failures++;
          continue;
        }
        std::string text = Any::FromOwned(read).cast<std::string>();
        // Whole values only: one writer's text, never a mix.
        if (text.empty() || text.find_first_not_of(text[0]) != std::string::npos) failures++;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  // Each of our values is referenced by us and at most once by the field.
  int held = 0;
  for (const String& value : values) {
    EXPECT_LE(value.use_count(), 2u);
    held += static_cast<int>(value.use_count()) - 1;
  }
  EXPECT_LE(held, 1);
  ASSERT_EQ(P4JObjectSetField(shape.handle(), tag_field, &none), 0);
  for (const String& value : values) EXPECT_EQ(value.use_count(), 1u);
  EXPECT_EQ(P4JObjectLiveCount(), live_before);

}

TEST(ObjectDefTest, ConcurrentSettersOfAStdStringField) {
  Shape shape = GetMethod(ShapeIndex(), "__init__")("start", 3).cast<Shape>();
  const int32_t label_field = FieldIndex(ShapeIndex(), "label");
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      // Short texts live in the string's own buffer, long ones on the heap: both are swapped whole.
      std::string short_text(3 + t, static_cast<char>('a' + t));
      std::string long_text(300 + t, static_cast<char>('A' + t));
      for (int i = 0; i < 2000; ++i) {
        P4JAny value = StrView(i % 2 == 0 ? short_text : long_text);
        if (P4JObjectSetField(shape.handle(), label_field, &value) != 0) failures++;
        P4JAny read;
        if (P4JObjectGetField(shape.handle(), label_field, &read) != 0) {
          failures++;
          continue;
        }
        std::string text = Any::FromOwned(read).cast<std::string>();
        char first = text.empty() ? '?' : text[0];
        size_t expected = first >= 'a' ? 3 + (first - 'a') : 300 + (first - 'A');
        if (text.find_first_not_of(first) != std::string::npos || text.size() != expected) failures++;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_FALSE(shape->label.empty());
}

TEST(ObjectDefTest, GlobalDocsAndParameterNames) {
  DocInfo area = GetGlobalDoc("objdef.Area");
  EXPECT_EQ(area.doc, "The area of a rectangle");
  EXPECT_EQ(area.param_names, (std::vector<std::string>{"width", "height"}));
  DocInfo none = GetGlobalDoc("objdef.Undocumented");
  EXPECT_EQ(none.doc, "");
  EXPECT_TRUE(none.param_names.empty());
  EXPECT_EQ(ErrorOf([] { GetGlobalDoc("objdef.Missing"); }),
            "KeyError: P4JFunctionGetGlobalDoc: no global function is registered as \"objdef.Missing\"");

  // Through the C API: a count that does not match the signature is refused; -1 keeps the names, NULL the doc.
  P4JByteArray name = details::ByteArrayOf(std::string_view("objdef.Undocumented"));
  std::vector<std::string> two = {"a", "b"};
  std::vector<P4JByteArray> spans = details::SpansOf(two);
  EXPECT_EQ(P4JFunctionSetGlobalDoc(&name, nullptr, spans.data(), 2), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: global function \"objdef.Undocumented\" has 1 parameter (int64) -> int64, "
                          "and 2 parameter names were given");
  P4JByteArray doc = details::ByteArrayOf(std::string_view("returns a"));
  ASSERT_EQ(P4JFunctionSetGlobalDoc(&name, &doc, spans.data(), 1), 0);
  ASSERT_EQ(P4JFunctionSetGlobalDoc(&name, nullptr, nullptr, -1), 0);
  DocInfo set = GetGlobalDoc("objdef.Undocumented");
  EXPECT_EQ(set.doc, "returns a");
  EXPECT_EQ(set.param_names, (std::vector<std::string>{"a"}));
  P4JByteArray missing = details::ByteArrayOf(std::string_view("objdef.Missing"));
  EXPECT_EQ(P4JFunctionSetGlobalDoc(&missing, &doc, nullptr, 0), -1);
  EXPECT_EQ(TakeRaised(), "KeyError: P4JFunctionSetGlobalDoc: no global function is registered as \"objdef.Missing\"");

  // Member docs, found as GetMethod finds members.
  DocInfo corners = GetMethodDoc(SquareIndex(), "corners");
  EXPECT_EQ(corners.doc, "sides plus extra");
  EXPECT_EQ(corners.param_names, (std::vector<std::string>{"extra"}));
  EXPECT_EQ(GetMethodDoc(SquareIndex(), "kind").doc, "overrides Shape.kind");
}

}  // namespace

namespace {

// Container and object fields, whose declared types reflection records beside their kind (ABI 2.10).
class ShelfObject : public Object {
 public:
  List<std::string> titles;
  int64_t size = 0;
  ObjectRef anything;
  Map<std::string, int64_t> counts;
  Shape favorite;
  List<Shape> shapes;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("titles", &titles);
    v->Visit("size", &size);
    v->Visit("anything", &anything);
  }

  static constexpr const char* _type_key = "objdef.Shelf";
  P4J_DECLARE_OBJECT_TYPE_INFO(ShelfObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ShelfObject);

P4J_REGISTER_OBJECT_DEF(ShelfObject, "A shelf of books")
    .def_rw("counts", &ShelfObject::counts, "how many of each")
    .def_ro("favorite", &ShelfObject::favorite)
    .def_rw("shapes", &ShelfObject::shapes);

class BookcaseObject : public ShelfObject {
 public:
  List<double> heights;

  void VisitAttrs(AttrVisitor* v) override {
    ShelfObject::VisitAttrs(v);
    v->Visit("heights", &heights);
  }

  static constexpr const char* _type_key = "objdef.Bookcase";
  P4J_DECLARE_OBJECT_TYPE_INFO(BookcaseObject, ShelfObject);
};
P4J_REGISTER_OBJECT_TYPE(BookcaseObject);

std::string FieldTypeOf(int32_t type_index, std::string_view name) {
  P4JByteArray type{nullptr, 0};
  EXPECT_EQ(P4JTypeGetFieldType(type_index, FieldIndex(type_index, name), &type), 0) << TakeRaised();
  return std::string(details::ViewOf(type));
}

}  // namespace

TEST(ObjectDefTest, FieldTypesNameWhatTheKindDoesNot) {
  int32_t shelf = ShelfObject::RuntimeTypeIndex();
  // VisitAttrs' object fields and the definition's, each as a typed signature names its C++ type.
  EXPECT_EQ(FieldTypeOf(shelf, "titles"), "list<string>");
  EXPECT_EQ(FieldTypeOf(shelf, "anything"), "Object");
  EXPECT_EQ(FieldTypeOf(shelf, "counts"), "map<string, int64>");
  EXPECT_EQ(FieldTypeOf(shelf, "favorite"), "objdef.Shape");
  EXPECT_EQ(FieldTypeOf(shelf, "shapes"), "list<objdef.Shape>");
  // A number's kind is its type: nothing recorded.
  EXPECT_EQ(FieldTypeOf(shelf, "size"), "");
  // A subtype inherits them, also for the fields its VisitAttrs visits again, and adds its own.
  int32_t bookcase = BookcaseObject::RuntimeTypeIndex();
  EXPECT_EQ(FieldTypeOf(bookcase, "titles"), "list<string>");
  EXPECT_EQ(FieldTypeOf(bookcase, "counts"), "map<string, int64>");
  EXPECT_EQ(FieldTypeOf(bookcase, "heights"), "list<float64>");
  // The core's NDArray declares its computed shape and strides as lists of int64; its other fields are numbers and
  // strings, whose kind is their type.
  EXPECT_EQ(FieldTypeOf(kP4JNDArray, "shape"), "list<int64>");
  EXPECT_EQ(FieldTypeOf(kP4JNDArray, "strides"), "list<int64>");
  EXPECT_EQ(FieldTypeOf(kP4JNDArray, "dtype"), "");

  P4JByteArray type{nullptr, 0};
  EXPECT_EQ(P4JTypeGetFieldType(shelf, 99, &type), -1);
  EXPECT_EQ(TakeRaised(), "IndexError: field index 99 is out of range: objdef.Shelf has 6 fields");
  EXPECT_EQ(P4JTypeGetFieldType(shelf, 0, nullptr), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JTypeGetFieldType: out_type is NULL");
  P4JByteArray missing = details::ByteArrayOf(std::string_view("spines"));
  P4JByteArray list = details::ByteArrayOf(std::string_view("list<string>"));
  EXPECT_EQ(P4JTypeSetFieldType(shelf, &missing, &list), -1);
  EXPECT_EQ(TakeRaised(), "AttributeError: P4JTypeSetFieldType: objdef.Shelf has registered no field \"spines\" "
                          "itself (register its fields first)");
  // A parent's field is the parent's to type.
  P4JByteArray titles = details::ByteArrayOf(std::string_view("titles"));
  P4JByteArray heights = details::ByteArrayOf(std::string_view("heights"));
  EXPECT_EQ(P4JTypeSetFieldType(shelf, &heights, &list), -1);
  EXPECT_NE(TakeRaised().find("has registered no field \"heights\""), std::string::npos);
  P4JByteArray empty = details::ByteArrayOf(std::string_view(""));
  EXPECT_EQ(P4JTypeSetFieldType(shelf, &titles, &empty), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JTypeSetFieldType: the type of field \"titles\" of type \"objdef.Shelf\" is "
                          "empty");
  EXPECT_EQ(P4JTypeSetFieldType(shelf, nullptr, &list), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JTypeSetFieldType: field_name and type_name must not be NULL");
  // Recording it again replaces it, for the subtype too.
  P4JByteArray any_list = details::ByteArrayOf(std::string_view("list<any>"));
  ASSERT_EQ(P4JTypeSetFieldType(shelf, &titles, &any_list), 0) << TakeRaised();
  EXPECT_EQ(FieldTypeOf(shelf, "titles"), "list<any>");
  ASSERT_EQ(P4JTypeSetFieldType(shelf, &titles, &list), 0) << TakeRaised();
  EXPECT_EQ(FieldTypeOf(shelf, "titles"), "list<string>");
  EXPECT_EQ(FieldTypeOf(bookcase, "titles"), "list<string>");
}

// C++ code reading and writing a string field while another thread sets it through the C API (as Java's setter does)
// or reads it (as Java's getter does): under the field lock (LockedRead, LockedWrite) every value is whole; without
// it the reader copied characters the setter's assignment was freeing (userL L1, an AddressSanitizer report).
TEST(ObjectDefTest, LockedReadsAndWritesSeeWholeStringsWhileTheCApiSetsThem) {
  ObjectPtr<ShapeObject> shape = make_object<ShapeObject>("locked", 3);
  int32_t label = FieldIndex(ShapeIndex(), "label");
  const std::string shorter(100, 'a');
  const std::string longer(200, 'b');
  auto whole = [&](const std::string& text) { return text.empty() || text == shorter || text == longer; };
  std::atomic<bool> stop{false};
  std::atomic<int64_t> torn{0};
  // The C API's writer and reader run until the C++ side has done its 20,000 rounds, so the three overlap however
  // the threads are scheduled.
  std::thread setter([&] {
    for (int i = 0; !stop.load(); ++i) {
      const std::string& text = i % 2 == 0 ? shorter : longer;
      P4JAny value = StrView(text);
      if (P4JObjectSetField(shape.handle(), label, &value) != 0) torn.fetch_add(1000000);
    }
  });
  std::thread getter([&] {
    while (!stop.load()) {
      P4JAny result = details::NoneValue();
      if (P4JObjectGetField(shape.handle(), label, &result) != 0) {
        torn.fetch_add(1000000);
        continue;
      }
      if (!whole(Any::FromOwned(result).cast<std::string>())) torn.fetch_add(1);
    }
  });
  for (int64_t round = 0; round < 20000; ++round) {
    if (!whole(LockedRead(shape, &ShapeObject::label))) torn.fetch_add(1);
    LockedWrite(shape, &ShapeObject::label, round % 2 == 0 ? longer : shorter);
  }
  stop.store(true);
  setter.join();
  getter.join();
  EXPECT_EQ(torn.load(), 0);
  // A reference class and a raw pointer take the same lock; NULL is refused.
  Shape ref(shape);
  EXPECT_TRUE(whole(LockedRead(ref, &ShapeObject::label)));
  EXPECT_TRUE(whole(LockedRead(shape.get(), &ShapeObject::label)));
  EXPECT_EQ(P4JObjectLockFields(nullptr), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: P4JObjectLockFields: obj is NULL");
}

namespace {

class Square : public Shape {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Square, Shape, SquareObject);
};

// Container fields whose declared element types a write through the C API checks (P4JObjectSetField, SetAttr).
class RackObject : public Object {
 public:
  List<std::string> tags;
  Map<std::string, int64_t> stock;
  List<List<int64_t>> grid;
  List<Shape> shapes;
  List<Square> squares;
  Map<int64_t, List<std::optional<std::string>>> notes;
  List<ObjectRef> anything;
  List<Any> mixed;
  List<int32_t> small;

  static constexpr const char* _type_key = "objdef.Rack";
  P4J_DECLARE_OBJECT_TYPE_INFO(RackObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(RackObject);

P4J_REGISTER_OBJECT_DEF(RackObject, "Container fields of declared element types")
    .def_rw("tags", &RackObject::tags)
    .def_rw("stock", &RackObject::stock)
    .def_rw("grid", &RackObject::grid)
    .def_rw("shapes", &RackObject::shapes)
    .def_rw("squares", &RackObject::squares)
    .def_rw("notes", &RackObject::notes)
    .def_rw("anything", &RackObject::anything)
    .def_rw("mixed", &RackObject::mixed)
    .def_rw("small", &RackObject::small);

// A subtype writes the fields it inherits under the same rule.
class TallRackObject : public RackObject {
 public:
  static constexpr const char* _type_key = "objdef.TallRack";
  P4J_DECLARE_OBJECT_TYPE_INFO(TallRackObject, RackObject);
};
P4J_REGISTER_OBJECT_TYPE(TallRackObject);

int32_t RackIndex() { return RackObject::RuntimeTypeIndex(); }

/*! \brief P4JObjectSetField by index (the generated Java setters' call): "" or the raised "Kind: message". */
std::string SetField(const ObjectRef& obj, std::string_view name, P4JAny value) {
  if (P4JObjectSetField(obj.handle(), FieldIndex(obj->type_index(), name), &value) == 0) return "";
  return TakeRaised();
}

}  // namespace

TEST(ObjectDefTest, SetFieldChecksTheElementsOfAListField) {
  ObjectPtr<RackObject> rack = make_object<RackObject>();
  List<std::string> kept{"a", "b"};
  ASSERT_EQ(SetAttr(ObjectRef(rack), "tags", ObjectValue(kept)), "");
  EXPECT_EQ(rack->tags.handle(), kept.handle());

  // A wrong element, by name and by index; the message names the field, the type, the declared type, the position
  // and what came, as a list<string> argument's check does.
  List<Any> numbers{Any(std::string("x")), Any(int64_t{2})};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "tags", ObjectValue(numbers)),
            "TypeError: P4JObjectSetField: field \"tags\" of objdef.Rack: declared list<string>, list element at "
            "index 1 expected string, got int 2");
  EXPECT_EQ(SetField(ObjectRef(rack), "tags", ObjectValue(numbers)),
            "TypeError: P4JObjectSetField: field \"tags\" of objdef.Rack: declared list<string>, list element at "
            "index 1 expected string, got int 2");
  // None is no string (a std::optional<std::string> element would take it).
  List<Any> with_none{Any(std::string("x")), Any()};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "tags", ObjectValue(with_none)),
            "TypeError: P4JObjectSetField: field \"tags\" of objdef.Rack: declared list<string>, list element at "
            "index 1 expected string, got None");
  // A number out of the element type's range is the argument check's ValueError.
  List<int64_t> big{1, 3000000000};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "small", ObjectValue(big)),
            "ValueError: P4JObjectSetField: field \"small\" of objdef.Rack: declared list<int32>, list element at "
            "index 1 value 3000000000 is out of range for int32");

  // Nothing was written, and nothing leaked: the field holds the old list, whose references are as they were, and
  // the refused list is held by this test alone.
  EXPECT_EQ(rack->tags.handle(), kept.handle());
  EXPECT_EQ(kept.use_count(), 2u);
  EXPECT_EQ(numbers.use_count(), 1u);
  EXPECT_EQ(with_none.use_count(), 1u);
  EXPECT_EQ(rack->tags[1], "b");
  P4JAny read;
  ASSERT_EQ(P4JObjectGetField(rack.handle(), FieldIndex(RackIndex(), "tags"), &read), 0) << TakeRaised();
  EXPECT_EQ(Any::FromOwned(read).cast<List<std::string>>().handle(), kept.handle());

  // Right elements are written: String objects, an empty list, None for the field itself.
  List<Any> strings{Any(std::string("c"))};
  EXPECT_EQ(SetField(ObjectRef(rack), "tags", ObjectValue(strings)), "");
  EXPECT_EQ(rack->tags.handle(), strings.handle());
  EXPECT_EQ(kept.use_count(), 1u);  // the old value released once
  EXPECT_EQ(SetAttr(ObjectRef(rack), "tags", ObjectValue(List<std::string>())), "");
  EXPECT_EQ(rack->tags.size(), 0);
  EXPECT_EQ(SetAttr(ObjectRef(rack), "tags", details::NoneValue()), "");
  EXPECT_FALSE(rack->tags.defined());
  EXPECT_EQ(SetAttr(ObjectRef(rack), "small", ObjectValue(List<int64_t>{1, -2})), "");
  EXPECT_EQ(rack->small[1], -2);
  // list<any> takes every element.
  List<Any> anything{Any(int64_t{1}), Any(std::string("two")), Any(), Any(Shape(make_object<ShapeObject>("s", 3)))};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "mixed", ObjectValue(anything)), "");
  EXPECT_EQ(rack->mixed.size(), 4);
}

TEST(ObjectDefTest, SetFieldChecksTheKeysAndValuesOfAMapField) {
  ObjectPtr<RackObject> rack = make_object<RackObject>();
  Map<std::string, int64_t> kept{{"a", 1}};
  ASSERT_EQ(SetAttr(ObjectRef(rack), "stock", ObjectValue(kept)), "");

  Map<Any, Any> bad_key{{Any(std::string("a")), Any(int64_t{1})}, {Any(int64_t{3}), Any(int64_t{4})}};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "stock", ObjectValue(bad_key)),
            "TypeError: P4JObjectSetField: field \"stock\" of objdef.Rack: declared map<string, int64>, map key "
            "expected string, got int 3");
  Map<Any, Any> bad_value{{Any(std::string("a")), Any(int64_t{1})}, {Any(std::string("b")), Any(std::string("x"))}};
  EXPECT_EQ(SetField(ObjectRef(rack), "stock", ObjectValue(bad_value)),
            "TypeError: P4JObjectSetField: field \"stock\" of objdef.Rack: declared map<string, int64>, map value for "
            "key string \"b\" expected int64, got string \"x\"");
  EXPECT_EQ(rack->stock.handle(), kept.handle());
  EXPECT_EQ(kept.use_count(), 2u);
  EXPECT_EQ(bad_key.use_count(), 1u);
  EXPECT_EQ(bad_value.use_count(), 1u);
  EXPECT_EQ(rack->stock.at("a"), 1);

  Map<Any, Any> good{{Any(std::string("b")), Any(int64_t{2})}, {Any(std::string("c")), Any(true)}};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "stock", ObjectValue(good)), "");
  EXPECT_EQ(rack->stock.at("c"), 1);  // a bool reads as an int64, as an int64 argument takes it
  EXPECT_EQ(kept.use_count(), 1u);
}

TEST(ObjectDefTest, SetFieldChecksNestedContainers) {
  ObjectPtr<RackObject> rack = make_object<RackObject>();
  const P4JObject* empty_grid = rack->grid.handle();  // what make_object left there
  List<Any> rows{Any(List<int64_t>{1, 2}), Any(List<Any>{Any(int64_t{3}), Any(std::string("x"))})};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "grid", ObjectValue(rows)),
            "TypeError: P4JObjectSetField: field \"grid\" of objdef.Rack: declared list<list<int64>>, list element at "
            "index 1, list element at index 1 expected int64, got string \"x\"");
  List<Any> flat{Any(int64_t{5})};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "grid", ObjectValue(flat)),
            "TypeError: P4JObjectSetField: field \"grid\" of objdef.Rack: declared list<list<int64>>, list element at "
            "index 0 expected list<int64>, got int 5");
  List<Any> missing_row{Any(List<int64_t>{1}), Any()};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "grid", ObjectValue(missing_row)),
            "TypeError: P4JObjectSetField: field \"grid\" of objdef.Rack: declared list<list<int64>>, list element at "
            "index 1 expected list<int64>, got None");
  EXPECT_EQ(rack->grid.handle(), empty_grid);
  List<Any> good_rows{Any(List<int64_t>{1, 2}), Any(List<int64_t>())};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "grid", ObjectValue(good_rows)), "");
  EXPECT_EQ(rack->grid[0][1], 2);

  // map<int64, list<optional<string>>>: None is an optional element; the key is named, then the index.
  Map<Any, Any> notes{{Any(int64_t{1}), Any(List<Any>{Any(), Any(std::string("ok"))})},
                      {Any(int64_t{2}), Any(List<Any>{Any(std::string("fine")), Any(int64_t{3})})}};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "notes", ObjectValue(notes)),
            "TypeError: P4JObjectSetField: field \"notes\" of objdef.Rack: declared map<int64, "
            "list<optional<string>>>, map value for key int 2, list element at index 1 expected string, got int 3");
  Map<Any, Any> good_notes{{Any(int64_t{1}), Any(List<Any>{Any(), Any(std::string("ok"))})}};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "notes", ObjectValue(good_notes)), "");
  EXPECT_FALSE(rack->notes.at(1)[0].has_value());
}

TEST(ObjectDefTest, SetFieldChecksObjectElementsByTypeKey) {
  ObjectPtr<RackObject> rack = make_object<RackObject>();
  const P4JObject* no_squares = rack->squares.handle();
  Shape hex(make_object<ShapeObject>("hex", 6));
  Square square(make_object<SquareObject>("sq"));
  // A subtype is an element of its parent's type, as for an argument of that type.
  List<Any> shapes{Any(hex), Any(square)};
  List<Any> parents{Any(square), Any(hex)};
  List<Any> strings{Any(hex), Any(std::string("hex"))};
  const auto references = hex.use_count();
  EXPECT_EQ(SetAttr(ObjectRef(rack), "shapes", ObjectValue(shapes)), "");
  EXPECT_EQ(rack->shapes.size(), 2);
  // A parent is not an element of its subtype's type, nor is another type's object, nor None.
  EXPECT_EQ(SetAttr(ObjectRef(rack), "squares", ObjectValue(parents)),
            "TypeError: P4JObjectSetField: field \"squares\" of objdef.Rack: declared list<objdef.Square>, list "
            "element at index 1 expected objdef.Square, got objdef.Shape object");
  EXPECT_EQ(SetAttr(ObjectRef(rack), "shapes", ObjectValue(strings)),
            "TypeError: P4JObjectSetField: field \"shapes\" of objdef.Rack: declared list<objdef.Shape>, list element "
            "at index 1 expected objdef.Shape, got string \"hex\"");
  List<Any> none{Any()};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "shapes", ObjectValue(none)),
            "TypeError: P4JObjectSetField: field \"shapes\" of objdef.Rack: declared list<objdef.Shape>, list element "
            "at index 0 expected objdef.Shape, got None");
  EXPECT_EQ(rack->shapes.handle(), shapes.handle());
  EXPECT_EQ(hex.use_count(), references);  // the refused writes took no reference of their own
  EXPECT_EQ(rack->squares.handle(), no_squares);
  // list<Object> (List<ObjectRef>) takes any object and None, and no number.
  List<Any> objects{Any(hex), Any(), Any(std::string("text"))};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "anything", ObjectValue(objects)), "");
  List<Any> numbers{Any(hex), Any(int64_t{1})};
  EXPECT_EQ(SetAttr(ObjectRef(rack), "anything", ObjectValue(numbers)),
            "TypeError: P4JObjectSetField: field \"anything\" of objdef.Rack: declared list<Object>, list element at "
            "index 1 expected Object, got int 1");
  EXPECT_EQ(rack->anything.handle(), objects.handle());

  // An inherited field is checked in the subtype too.
  ObjectPtr<TallRackObject> tall = make_object<TallRackObject>();
  EXPECT_EQ(SetField(ObjectRef(tall), "squares", ObjectValue(parents)),
            "TypeError: P4JObjectSetField: field \"squares\" of objdef.TallRack: declared list<objdef.Square>, list "
            "element at index 1 expected objdef.Square, got objdef.Shape object");
  List<Any> squares{Any(square)};
  EXPECT_EQ(SetField(ObjectRef(tall), "squares", ObjectValue(squares)), "");
}

// The elements are checked before the field lock is taken: a refused write does not wait for a holder of the lock
// (a reader or writer of another field of the object, or of another object on the same stripe).
TEST(ObjectDefTest, SetFieldChecksElementsOutsideTheFieldLock) {
  ObjectPtr<RackObject> rack = make_object<RackObject>();
  const P4JObject* no_tags = rack->tags.handle();
  List<Any> numbers{Any(int64_t{1})};
  ASSERT_EQ(P4JObjectLockFields(rack.handle()), 0) << TakeRaised();
  std::promise<std::string> outcome;
  std::future<std::string> result = outcome.get_future();
  std::thread writer([&] { outcome.set_value(SetAttr(ObjectRef(rack), "tags", ObjectValue(numbers))); });
  bool done = result.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  ASSERT_EQ(P4JObjectUnlockFields(rack.handle()), 0) << TakeRaised();
  writer.join();
  EXPECT_TRUE(done) << "the refused write waited for the field lock";
  EXPECT_EQ(result.get(), "TypeError: P4JObjectSetField: field \"tags\" of objdef.Rack: declared list<string>, list "
                          "element at index 0 expected string, got int 1");
  EXPECT_EQ(rack->tags.handle(), no_tags);
}
