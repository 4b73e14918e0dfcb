// The native plugin: functions and an object type registered by name; Greeter.java and Counter.java bind them.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <string>

using namespace packed4j;

P4J_REGISTER_GLOBAL("greeter.Greet").set_body_typed([](std::string name) {
  if (name.empty()) throw ValueError("greeter.Greet: the name is empty");
  return "Hello, " + name + "!";
});

P4J_REGISTER_GLOBAL("greeter.Sum").set_body_typed([](List<int64_t> values) {
  int64_t sum = 0;
  for (int64_t value : values) sum += value;
  return sum;
});

class CounterObject : public Object {
 public:
  std::string label;
  int64_t count = 0;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("label", &label);
    v->Visit("count", &count);
  }

  static constexpr const char* _type_key = "greeter.Counter";
  P4J_DECLARE_OBJECT_TYPE_INFO(CounterObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(CounterObject);

class Counter : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Counter, ObjectRef, CounterObject);
};

P4J_REGISTER_GLOBAL("greeter.NewCounter").set_body_typed([](std::string label) {
  auto counter = make_object<CounterObject>();
  counter->label = label;
  return Counter(counter);
});

P4J_REGISTER_GLOBAL("greeter.Increment").set_body_typed([](Counter counter, int64_t by) {
  // Fields are read by Java without a call; a function changes them.
  const_cast<CounterObject*>(counter.get())->count += by;
  return counter->count;
});
