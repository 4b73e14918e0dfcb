// A plugin library for plugin_test.cc: everything here registers itself when the library is loaded.
#include <packed4j/packed4j.h>

using namespace packed4j;

P4J_REGISTER_GLOBAL("test_plugin.Add")
    .set_body_typed([](int64_t a, int64_t b) { return a + b; })
    .describe("The sum of two numbers")
    .params({"a", "b"});

P4J_REGISTER_GLOBAL("test_plugin.Fail").set_body([](Args, RetValue*) { throw ValueError("plugin failure"); });

// The same name twice in one library: the first registration is kept, the second is reported.
P4J_REGISTER_GLOBAL("test_plugin.Duplicate").set_body_typed([]() { return int64_t{1}; });
P4J_REGISTER_GLOBAL("test_plugin.Duplicate").set_body_typed([]() { return int64_t{2}; });

class PointObject : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  std::string label;

  PointObject() = default;
  PointObject(int64_t x_in, int64_t y_in, std::string label_in) : x(x_in), y(y_in), label(std::move(label_in)) {}

  int64_t Dot(int64_t dx, int64_t dy) const { return x * dx + y * dy; }

  void VisitAttrs(AttrVisitor* v) final {
    v->Visit("x", &x);
    v->Visit("y", &y);
    v->Visit("label", &label);
  }

  static constexpr const char* _type_key = "test_plugin.Point";
  P4J_DECLARE_OBJECT_TYPE_INFO(PointObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(PointObject);

// The object definition beside VisitAttrs: x and label become writable (y stays read-only), with a method, a static
// method and a constructor, each documented.
P4J_REGISTER_OBJECT_DEF(PointObject, "A point of the plane")
    .def_rw("x", &PointObject::x, "the horizontal coordinate")
    .def_rw("label", &PointObject::label, "a name for the point")
    .def("Dot", &PointObject::Dot, "the dot product with (dx, dy)", {"dx", "dy"})
    .def_static("Origin", []() { return make_object<PointObject>(0, 0, "origin"); }, "the point (0, 0)")
    .def(init<int64_t, int64_t, std::string>(), "a point at (x, y)", {"x", "y", "label"});

P4J_REGISTER_GLOBAL("test_plugin.MakePoint").set_body_typed([](int64_t x, int64_t y, std::string label) {
  auto point = make_object<PointObject>();
  point->x = x;
  point->y = y;
  point->label = label;
  return point;
});

// Calls back into whatever function it is given: a C++ exception thrown by the callback's library comes back
// here as a raised error and is rethrown in this library.
P4J_REGISTER_GLOBAL("test_plugin.CallTwice").set_body_typed([](PackedFunc callback, int64_t value) {
  int64_t once = callback(value);
  int64_t twice = callback(once);
  return twice;
});
