// bench.Counter: an object with an int64 field, read from Java by the generated getter (straight from memory,
// at the offset VisitAttrs records) and by the C twin bench_counter_value; its object definition
// (packed_registrations.cc) adds a method, a constructor and writable fields, whose C twins are in c_twins.cc.
#ifndef PACKED4J_BENCHMARKS_COUNTER_H_
#define PACKED4J_BENCHMARKS_COUNTER_H_

#include <packed4j/packed4j.h>

#include <cstdint>
#include <string>

namespace bench {

class CounterObject : public packed4j::Object {
 public:
  int64_t value = 0;
  std::string label;

  CounterObject() = default;
  explicit CounterObject(int64_t value_in) : value(value_in) {}

  void VisitAttrs(packed4j::AttrVisitor* v) override {
    v->Visit("value", &value);
    v->Visit("label", &label);
  }

  static constexpr const char* _type_key = "bench.Counter";
  P4J_DECLARE_OBJECT_TYPE_INFO(CounterObject, packed4j::Object);
};

/*! \brief A reference to a CounterObject, as a function parameter: converted from the argument with a type check. */
class Counter : public packed4j::ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Counter, packed4j::ObjectRef, CounterObject);
};

}  // namespace bench

#endif  // PACKED4J_BENCHMARKS_COUNTER_H_
