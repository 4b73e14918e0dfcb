// Must not compile: reflection cannot describe a float field (the Java side reads fields from memory).
// expected-error: packed4j::AttrVisitor::Visit: unsupported field type
#include <packed4j/packed4j.h>

class GaugeObject : public packed4j::Object {
 public:
  float level = 0;
  void VisitAttrs(packed4j::AttrVisitor* v) final { v->Visit("level", &level); }
  static constexpr const char* _type_key = "test.Gauge";
  P4J_DECLARE_OBJECT_TYPE_INFO(GaugeObject, packed4j::Object);
};
P4J_REGISTER_OBJECT_TYPE(GaugeObject);
