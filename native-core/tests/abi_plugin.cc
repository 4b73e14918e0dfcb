// A plugin built to claim the headers of another ABI version (P4J_TEST_PLUGIN_ABI_VERSION, set by the build) so
// that abi_version_test.cc sees the core refuse it, or accept it, at load. ABI_PLUGIN_NAME prefixes its names.
#include <packed4j/packed4j.h>

using namespace packed4j;

namespace {

class ThingObject : public Object {
 public:
  int64_t serial = 0;

  void VisitAttrs(AttrVisitor* v) final { v->Visit("serial", &serial); }

  static constexpr const char* _type_key = ABI_PLUGIN_NAME ".Thing";
  P4J_DECLARE_OBJECT_TYPE_INFO(ThingObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ThingObject);

P4J_REGISTER_GLOBAL(ABI_PLUGIN_NAME ".Answer").set_body_typed([](int64_t x) { return x + 42; });

P4J_REGISTER_GLOBAL(ABI_PLUGIN_NAME ".Version").set_body_typed([]() { return int64_t{P4J_PLUGIN_ABI_VERSION}; });

}  // namespace
