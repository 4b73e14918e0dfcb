// Must not compile: a method given as a lambda whose first parameter is not the object. The core refused it only
// when the library loaded ("takes int64 first ..., expected test.Lap (or an ancestor)").
// expected-error: ObjectDef<T>::def: a method given as a callable takes the object first
#include <packed4j/packed4j.h>

class LapObject : public packed4j::Object {
 public:
  int64_t count = 0;
  static constexpr const char* _type_key = "test.Lap";
  P4J_DECLARE_OBJECT_TYPE_INFO(LapObject, packed4j::Object);
};

P4J_REGISTER_OBJECT_DEF(LapObject, "laps").def("twice", [](int64_t step) { return 2 * step; });
