// The native side of the guide's example project (docs/guide.md quotes this file).
#include <packed4j/packed4j.h>

#include <cmath>
#include <cstdint>
#include <string>

using namespace packed4j;

// ---- functions
P4J_REGISTER_GLOBAL("shapes.Hypot").set_body_typed([](double a, double b) { return std::sqrt(a * a + b * b); });

P4J_REGISTER_GLOBAL("shapes.Greet").set_body_typed([](std::string name) { return "Hello, " + name + "!"; });

P4J_REGISTER_GLOBAL("shapes.Repeat").set_body([](Args args, RetValue* rv) {
  std::string text = args[0];
  int times = args[1];
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  *rv = out;
});

// ---- errors: throw a kind, Java gets a Packed4jException with that kind() and message
P4J_REGISTER_GLOBAL("shapes.Check").set_body_typed([](std::string kind) {
  if (kind == "type") throw TypeError("expected a shape, got a string");
  if (kind == "value") throw ValueError("a radius must not be negative");
  if (kind == "index") throw IndexError("index 3 is out of range for 2 shapes");
  if (kind == "key") throw KeyError("no shape named 'hexagon'");
  if (kind == "attribute") throw AttributeError("a circle has no field 'width'");
  if (kind == "runtime") throw RuntimeError("the drawing surface is gone");
  if (kind == "custom") throw Error("GeometryError", "the triangle inequality does not hold");
  return kind;
});

// ---- objects: the object class holds the fields, VisitAttrs names them for Java
class ShapeObject : public Object {
 public:
  std::string name;

  void VisitAttrs(AttrVisitor* v) override { v->Visit("name", &name); }

  static constexpr const char* _type_key = "shapes.Shape";
  P4J_DECLARE_OBJECT_TYPE_INFO(ShapeObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ShapeObject);

class CircleObject : public ShapeObject {
 public:
  double radius = 0.0;

  CircleObject() = default;
  CircleObject(std::string name_in, double radius_in) : radius(radius_in) { name = std::move(name_in); }

  void VisitAttrs(AttrVisitor* v) override {
    ShapeObject::VisitAttrs(v);  // the parent's fields first
    v->Visit("radius", &radius);
  }

  static constexpr const char* _type_key = "shapes.Circle";
  P4J_DECLARE_OBJECT_TYPE_INFO(CircleObject, ShapeObject);
};
P4J_REGISTER_OBJECT_TYPE(CircleObject);

// ---- objects as classes: an object definition gives the type a constructor, a writable field and a method
P4J_REGISTER_OBJECT_DEF(CircleObject, "A circle of a radius")
    .def_rw("radius", &CircleObject::radius, "its radius; Java may change it")
    .def("area", [](const ObjectPtr<CircleObject>& circle) { return M_PI * circle->radius * circle->radius; },
         "its area")
    .def(init<std::string, double>(), "a circle of a name and a radius", {"name", "radius"});

class RectangleObject : public ShapeObject {
 public:
  double width = 0.0;
  double height = 0.0;

  void VisitAttrs(AttrVisitor* v) override {
    ShapeObject::VisitAttrs(v);
    v->Visit("width", &width);
    v->Visit("height", &height);
  }

  static constexpr const char* _type_key = "shapes.Rectangle";
  P4J_DECLARE_OBJECT_TYPE_INFO(RectangleObject, ShapeObject);
};
P4J_REGISTER_OBJECT_TYPE(RectangleObject);

// The reference classes: what C++ code passes around (a counted reference, like std::shared_ptr).
class Shape : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Shape, ObjectRef, ShapeObject);
};

class Circle : public Shape {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Circle, Shape, CircleObject);
};

P4J_REGISTER_GLOBAL("shapes.Circle").set_body_typed([](std::string name, double radius) {
  if (radius < 0) throw ValueError("shapes.Circle: radius " + std::to_string(radius) + " is negative");
  auto circle = make_object<CircleObject>();
  circle->name = name;
  circle->radius = radius;
  return Circle(circle);
});

P4J_REGISTER_GLOBAL("shapes.Rectangle").set_body([](Args args, RetValue* rv) {
  auto rectangle = make_object<RectangleObject>();
  rectangle->name = args[0].operator std::string();
  rectangle->width = args[1];
  rectangle->height = args[2];
  *rv = rectangle;
});

static double Area(const Shape& shape) {
  if (auto* circle = dynamic_cast<const CircleObject*>(shape.get())) {
    return M_PI * circle->radius * circle->radius;
  }
  if (auto* rectangle = dynamic_cast<const RectangleObject*>(shape.get())) {
    return rectangle->width * rectangle->height;
  }
  throw TypeError("cannot measure a " + std::string(shape->GetTypeKey()));
}

P4J_REGISTER_GLOBAL("shapes.Area").set_body_typed([](Shape shape) { return Area(shape); });

// ---- containers: List<T> and Map<K,V> cross to java.util.List and java.util.Map
P4J_REGISTER_GLOBAL("shapes.TotalArea").set_body_typed([](List<Shape> shapes) {
  double total = 0;
  for (Shape shape : shapes) total += Area(shape);
  return total;
});

P4J_REGISTER_GLOBAL("shapes.AreasByName").set_body_typed([](List<Shape> shapes) {
  Map<std::string, double> areas;
  for (int64_t i = 0; i < shapes.size(); ++i) areas.Set(shapes[i]->name, Area(shapes[i]));
  return areas;
});

P4J_REGISTER_GLOBAL("shapes.Scale").set_body_typed([](List<double> values, Map<std::string, double> factors,
                                                       std::string key) {
  double factor = factors.at(key);  // a missing key throws KeyError
  List<double> scaled;
  for (double value : values) scaled.push_back(value * factor);
  return scaled;
});
