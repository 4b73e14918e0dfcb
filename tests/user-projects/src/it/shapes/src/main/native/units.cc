// The second native library of the guide's example project (docs/guide.md, "Two native libraries"): a CMake
// target of its own, names of its own, and calls into the first library by name, through the registry.
#include <packed4j/packed4j.h>

#include <string>

using namespace packed4j;

P4J_REGISTER_GLOBAL("units.ToCentimetres").set_body_typed([](double metres) { return metres * 100.0; });

// The shape was made by libshapes.so and its area is computed there: any library's objects and functions are
// everyone's once registered, so this library needs neither shapes.cc's classes nor a link to libshapes.so.
P4J_REGISTER_GLOBAL("units.AreaIn").set_body_typed([](ObjectRef shape, std::string unit) {
  PackedFunc area = PackedFunc::GetGlobal("shapes.Area");
  if (!area.defined()) throw RuntimeError("units.AreaIn needs shapes.Area: load libshapes.so first");
  double square_metres = area(shape).cast<double>();
  if (unit == "m2") return square_metres;
  if (unit == "cm2") return square_metres * 10000.0;
  throw ValueError("unknown unit '" + unit + "': expected m2 or cm2");
});
