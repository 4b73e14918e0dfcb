// A plugin that defines test.shared.Pet with other fields than shared_pet.cc (p4jpetconflict): the registry keeps
// the first layout, and this library makes no object of its own Pet, nor of a type derived from it, since the Java
// side would read them at the first library's offsets (SharedTypesTest).
#include <packed4j/packed4j.h>

#include <cstdint>
#include <string>

using namespace packed4j;

class PetObject : public Object {
 public:
  int64_t weight = 0;
  double age = 0;
  std::string nickname;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("weight", &weight);
    v->Visit("age", &age);
    v->Visit("nickname", &nickname);
  }

  static constexpr const char* _type_key = "test.shared.Pet";
  P4J_DECLARE_OBJECT_TYPE_INFO(PetObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(PetObject);

class PuppyObject : public PetObject {
 public:
  int64_t toys = 0;

  void VisitAttrs(AttrVisitor* v) override {
    PetObject::VisitAttrs(v);
    v->Visit("toys", &toys);
  }

  static constexpr const char* _type_key = "test.conflict.Puppy";
  P4J_DECLARE_OBJECT_TYPE_INFO(PuppyObject, PetObject);
};
P4J_REGISTER_OBJECT_TYPE(PuppyObject);

P4J_REGISTER_GLOBAL("test.conflict.MakePet").set_body_typed([]() {
  auto pet = make_object<PetObject>();
  pet->nickname = "rex";
  return pet;
});

P4J_REGISTER_GLOBAL("test.conflict.MakePuppy").set_body_typed([]() { return make_object<PuppyObject>(); });

// A type of its own, with no conflict: unaffected.
class BoneObject : public Object {
 public:
  int64_t length = 7;
  void VisitAttrs(AttrVisitor* v) override { v->Visit("length", &length); }
  static constexpr const char* _type_key = "test.conflict.Bone";
  P4J_DECLARE_OBJECT_TYPE_INFO(BoneObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(BoneObject);

P4J_REGISTER_GLOBAL("test.conflict.MakeBone").set_body_typed([]() { return make_object<BoneObject>(); });
