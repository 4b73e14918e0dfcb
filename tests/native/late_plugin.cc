// A second plugin, loaded by the concurrency test while other threads call into the first: its registrations
// (a function, an object type) land in the registry under load.
#include <packed4j/packed4j.h>

#include <string>

using namespace packed4j;

namespace {

class LateObject : public Object {
 public:
  int64_t serial = 0;
  std::string label;
  void VisitAttrs(AttrVisitor* v) final {
    v->Visit("serial", &serial);
    v->Visit("label", &label);
  }
  static constexpr const char* _type_key = "test.late.Thing";
  P4J_DECLARE_OBJECT_TYPE_INFO(LateObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(LateObject);

P4J_REGISTER_GLOBAL("test.late.Answer").set_body_typed([](int64_t x) { return x + 42; });

P4J_REGISTER_GLOBAL("test.late.Make").set_body([](Args args, RetValue* rv) {
  auto thing = make_object<LateObject>();
  thing->serial = args[0];
  thing->label = "late";
  *rv = thing;
});

}  // namespace
