// One object definition compiled into two plugins (p4jpeta, p4jpetb: PET_LIBRARY "a" or "b"), as two libraries
// that share a header do: both register test.shared.Pet with the same fields and members at load, and the second
// registration is that same definition, not a conflict (SharedTypesTest). A third build (p4jpettags: PET_TAG
// int64_t) has the same layout but another element type for tags, which is a conflict.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <string>

using namespace packed4j;

#ifndef PET_TAG
#define PET_TAG std::string
#endif

class PetObject : public Object {
 public:
  std::string name;
  int64_t legs = 4;
  List<PET_TAG> tags;

  PetObject() = default;
  PetObject(std::string name_in, int64_t legs_in) : name(std::move(name_in)), legs(legs_in) {}

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("name", &name);
    v->Visit("legs", &legs);
    v->Visit("tags", &tags);
  }

  static constexpr const char* _type_key = "test.shared.Pet";
  P4J_DECLARE_OBJECT_TYPE_INFO(PetObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(PetObject);

P4J_REGISTER_OBJECT_DEF(PetObject, "A pet two libraries share")
    .def_ro("name", &PetObject::name, "what it is called")
    .def_rw("legs", &PetObject::legs, "how many legs")
    .def_rw("tags", &PetObject::tags, "what it is known for")
    .def("describe", [](ObjectPtr<PetObject> self) { return self->name + " on " + std::to_string(self->legs); },
         "name and legs")
    .def_static("parse", [](std::string text) { return make_object<PetObject>(text, 4); }, "a pet of a name",
                {"text"})
    .def(init<std::string, int64_t>(), "a pet of a name and legs", {"name", "legs"});

// Each library's own global, which makes the shared type with this library's code.
P4J_REGISTER_GLOBAL("test.shared." PET_LIBRARY ".Make").set_body_typed([](std::string name) {
  return make_object<PetObject>(name + " of " PET_LIBRARY, 2);
});

// A class of the same C++ name in both libraries, with a type key of each library's own: each library's objects carry
// its own key (a shared function-local static once gave the second library's objects the first one's type).
class ThingObject : public Object {
 public:
  int64_t size = 1;
  void VisitAttrs(AttrVisitor* v) override { v->Visit("size", &size); }
  static constexpr const char* _type_key = "test.shared." PET_LIBRARY ".Thing";
  P4J_DECLARE_OBJECT_TYPE_INFO(ThingObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ThingObject);

P4J_REGISTER_GLOBAL("test.shared." PET_LIBRARY ".MakeThing").set_body_typed([]() { return make_object<ThingObject>(); });
