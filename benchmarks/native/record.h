// bench.Record: a small object of three numeric fields and a string, for the objects-as-data benchmark
// (JsonBenchmark): 100,000 of them saved to JSON and loaded back, against Jackson on the same data as Java records.
#ifndef PACKED4J_BENCHMARKS_RECORD_H_
#define PACKED4J_BENCHMARKS_RECORD_H_

#include <packed4j/packed4j.h>

#include <cstdint>
#include <string>

namespace bench {

class RecordObject : public packed4j::Object {
 public:
  int64_t id = 0;
  int64_t count = 0;
  double score = 0;
  std::string label;

  void VisitAttrs(packed4j::AttrVisitor* v) override {
    v->Visit("id", &id);
    v->Visit("count", &count);
    v->Visit("score", &score);
    v->Visit("label", &label);
  }

  static constexpr const char* _type_key = "bench.Record";
  P4J_DECLARE_OBJECT_TYPE_INFO(RecordObject, packed4j::Object);
};

/*! \brief A reference to a RecordObject, the element type of bench.MakeRecords' list. */
class Record : public packed4j::ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Record, packed4j::ObjectRef, RecordObject);
};

}  // namespace bench

#endif  // PACKED4J_BENCHMARKS_RECORD_H_
