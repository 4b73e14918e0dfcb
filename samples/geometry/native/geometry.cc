// The geometry sample: no Java interface is written by hand; packed4j generate writes Geometry, Shape, Circle and
// Square from these registrations (target/generated-sources/packed4j), with their doc strings as Javadoc and the
// parameter names given here.
#include <packed4j/packed4j.h>

#include <cmath>
#include <cstdint>
#include <string>

using namespace packed4j;

// ---- functions: geometry.Distance becomes Geometry.distance(double x1, double y1, double x2, double y2)
P4J_REGISTER_GLOBAL("geometry.Distance")
    .set_body_typed([](double x1, double y1, double x2, double y2) { return std::hypot(x2 - x1, y2 - y1); })
    .describe("The distance between the points (x1, y1) and (x2, y2)")
    .params({"x1", "y1", "x2", "y2"});

// ---- objects: a parent type and two children, each an @Object interface with a getter per field
class ShapeObject : public Object {
 public:
  std::string name;

  ShapeObject() = default;
  explicit ShapeObject(std::string name_in) : name(std::move(name_in)) {}

  void VisitAttrs(AttrVisitor* v) override { v->Visit("name", &name); }

  static constexpr const char* _type_key = "geometry.Shape";
  P4J_DECLARE_OBJECT_TYPE_INFO(ShapeObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ShapeObject);

class CircleObject : public ShapeObject {
 public:
  double radius = 0;

  CircleObject() = default;
  CircleObject(std::string name_in, double radius_in) : ShapeObject(std::move(name_in)), radius(radius_in) {}

  void VisitAttrs(AttrVisitor* v) override {
    ShapeObject::VisitAttrs(v);
    v->Visit("radius", &radius);
  }

  static constexpr const char* _type_key = "geometry.Circle";
  P4J_DECLARE_OBJECT_TYPE_INFO(CircleObject, ShapeObject);
};
P4J_REGISTER_OBJECT_TYPE(CircleObject);

class SquareObject : public ShapeObject {
 public:
  double side = 0;

  SquareObject() = default;
  SquareObject(std::string name_in, double side_in) : ShapeObject(std::move(name_in)), side(side_in) {}

  void VisitAttrs(AttrVisitor* v) override {
    ShapeObject::VisitAttrs(v);
    v->Visit("side", &side);
  }

  static constexpr const char* _type_key = "geometry.Square";
  P4J_DECLARE_OBJECT_TYPE_INFO(SquareObject, ShapeObject);
};
P4J_REGISTER_OBJECT_TYPE(SquareObject);

class Shape : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Shape, ObjectRef, ShapeObject);
};

class Circle : public Shape {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Circle, Shape, CircleObject);
};

class Square : public Shape {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Square, Shape, SquareObject);
};

static double Area(const Shape& shape);

// ---- object definitions: doc strings, a writable field, methods (inherited by the children), a static method and
// constructors; Java gets setters, methods and constructors beside the getters
P4J_REGISTER_OBJECT_DEF(ShapeObject, "A named plane figure")
    .def_rw("name", &ShapeObject::name, "what the shape is called")
    .def("Area", [](const Shape& shape) { return Area(shape); }, "the area the shape covers")
    .def("Summary", [](const Shape& shape, std::string unit) {
      // name is writable from Java: read it under the lock Java's setter takes, never a string it is freeing
      return LockedRead(shape, &ShapeObject::name) + " covers " + std::to_string(Area(shape)) + " " + unit;
    }, "the name and the area, followed by the unit given", {"unit"});

P4J_REGISTER_OBJECT_DEF(CircleObject, "A circle around the origin")
    .def_rw("radius", &CircleObject::radius, "the distance from the centre to the edge")
    .def_static("Unit", []() { return Circle(make_object<CircleObject>("unit", 1.0)); }, "the circle of radius 1")
    .def(init<std::string, double>(), "a circle of a name and a radius", {"name", "radius"});

P4J_REGISTER_OBJECT_DEF(SquareObject, "A square with its sides on the axes")
    .def_ro("side", &SquareObject::side, "the length of each side")
    .def(init<std::string, double>(), "a square of a name and a side", {"name", "side"});

P4J_REGISTER_GLOBAL("geometry.MakeCircle")
    .set_body_typed([](std::string name, double radius) {
      if (radius < 0) throw ValueError("geometry.MakeCircle: the radius " + std::to_string(radius) + " is negative");
      auto circle = make_object<CircleObject>();
      circle->name = name;
      circle->radius = radius;
      return Circle(circle);
    })
    .describe("A circle of a name and a radius; a negative radius is a ValueError")
    .params({"name", "radius"});

P4J_REGISTER_GLOBAL("geometry.MakeSquare")
    .set_body_typed([](std::string name, double side) {
      auto square = make_object<SquareObject>();
      square->name = name;
      square->side = side;
      return Square(square);
    })
    .params({"name", "side"});

double Area(const Shape& shape) {
  if (auto* circle = dynamic_cast<const CircleObject*>(shape.get())) return M_PI * circle->radius * circle->radius;
  if (auto* square = dynamic_cast<const SquareObject*>(shape.get())) return square->side * square->side;
  throw TypeError("cannot measure a " + std::string(shape->GetTypeKey()));
}

// ---- containers: a list of any shape in, a map out
P4J_REGISTER_GLOBAL("geometry.TotalArea")
    .set_body_typed([](List<Shape> shapes) {
      double total = 0;
      for (Shape shape : shapes) total += Area(shape);
      return total;
    })
    .describe("The sum of the shapes' areas")
    .params({"shapes"});

P4J_REGISTER_GLOBAL("geometry.AreasByName").set_body_typed([](List<Shape> shapes) {
  Map<std::string, double> areas;
  for (Shape shape : shapes) areas.Set(LockedRead(shape, &ShapeObject::name), Area(shape));
  return areas;
});

// ---- callbacks: a Java function in, called once per shape
P4J_REGISTER_GLOBAL("geometry.Describe")
    .set_body_typed([](PackedFunc describe, List<Shape> shapes) {
      TypedPackedFunc<std::string(Shape)> text(describe);
      List<std::string> lines;
      for (Shape shape : shapes) lines.push_back(text(shape));
      return lines;
    })
    .describe("Calls describe(shape) for each shape and returns the lines")
    .params({"describe", "shapes"});

// ---- a set_body function: no signature, so Java gets Object scale(Object... args)
P4J_REGISTER_GLOBAL("geometry.Scale").set_body([](Args args, RetValue* rv) {
  double factor = args[1];
  if (auto* circle = dynamic_cast<const CircleObject*>(args[0].operator Shape().get())) {
    auto scaled = make_object<CircleObject>();
    scaled->name = LockedRead(circle, &ShapeObject::name);
    scaled->radius = circle->radius * factor;
    *rv = Circle(scaled);
    return;
  }
  throw TypeError("geometry.Scale scales circles only");
});
