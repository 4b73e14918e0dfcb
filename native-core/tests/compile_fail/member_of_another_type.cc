// Must not compile: a member function of a type that is neither T nor a base of T (a long template error in the
// method adapter before the static_assert).
// expected-error: ObjectDef<T>::def: the member function is not of T or of a base of T
#include <packed4j/packed4j.h>

class WheelObject : public packed4j::Object {
 public:
  int64_t Spin(int64_t times) { return times; }
  static constexpr const char* _type_key = "test.Wheel";
  P4J_DECLARE_OBJECT_TYPE_INFO(WheelObject, packed4j::Object);
};

class GearObject : public packed4j::Object {
 public:
  static constexpr const char* _type_key = "test.Gear";
  P4J_DECLARE_OBJECT_TYPE_INFO(GearObject, packed4j::Object);
};

P4J_REGISTER_OBJECT_DEF(GearObject, "gears").def("spin", &WheelObject::Spin);
