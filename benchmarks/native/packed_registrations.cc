// The benchmark functions in packed4j's registry, as a user registers them.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench_functions.h"
#include "counter.h"
#include "record.h"

using namespace packed4j;

// Untyped, the DGL way: the arguments arrive packed and are converted one by one.
P4J_REGISTER_GLOBAL("bench.AddPacked").set_body([](Args args, RetValue* rv) {
  int64_t a = args[0];
  int64_t b = args[1];
  *rv = bench::Add(a, b);
});

// Typed: the signature comes from the callable, so Java may call it without packing (a typed entry).
P4J_REGISTER_GLOBAL("bench.AddTyped").set_body_typed([](int64_t a, int64_t b) { return bench::Add(a, b); });

P4J_REGISTER_GLOBAL("bench.Nop").set_body_typed([]() { bench::Nop(); });

// std::string_view: the bytes are read where the caller put them, as the C twin reads them.
P4J_REGISTER_GLOBAL("bench.CountCodePoints").set_body_typed([](std::string_view text) {
  return bench::CountCodePoints(text);
});

P4J_REGISTER_GLOBAL("bench.EchoString").set_body_typed([](std::string_view text) {
  return bench::EchoString(text);
});

P4J_REGISTER_OBJECT_TYPE(bench::CounterObject);

// Objects as classes (issue 22): a method, a constructor and writable fields of the counter, each with a C twin.
P4J_REGISTER_OBJECT_DEF(bench::CounterObject, "A counter")
    .def_rw("value", &bench::CounterObject::value)
    .def_rw("label", &bench::CounterObject::label)
    // The object as a const reference: lent for the call, no reference count taken (a by-value ObjectPtr takes one).
    .def("add", [](const ObjectPtr<bench::CounterObject>& self, int64_t a, int64_t b) {
      return bench::CounterAdd(self->value, a, b);
    })
    .def(init<int64_t>());

P4J_REGISTER_GLOBAL("bench.MakeCounter").set_body([](Args args, RetValue* rv) {
  auto counter = make_object<bench::CounterObject>();
  counter->value = args[0];
  *rv = counter;
});

// Takes the object as an argument: what passing an object costs (the Java side holds it for the call).
P4J_REGISTER_GLOBAL("bench.CounterValue").set_body([](Args args, RetValue* rv) {
  bench::Counter counter = args[0];
  *rv = counter->value;
});

P4J_REGISTER_GLOBAL("bench.SumList").set_body_typed([](List<int64_t> values) {
  return bench::Sum(values.size(), [&values](int64_t i) { return static_cast<int64_t>(values[i]); });
});

// The same sum over the forms of a list argument that make no list object: a vector copy, and a view that reads
// the caller's values in place (the Java runtime lends them in its scratch memory, P4J_LIST_WORD_BORROWED).
P4J_REGISTER_GLOBAL("bench.SumVector").set_body_typed([](const std::vector<int64_t>& values) {
  return bench::Sum(static_cast<int64_t>(values.size()), [&values](int64_t i) { return values[i]; });
});
P4J_REGISTER_GLOBAL("bench.SumView").set_body_typed([](ListView<int64_t> values) {
  return bench::Sum(values.size(), [&values](int64_t i) { return values[i]; });
});
// Four parameters of the shapes a typed entry takes in place: for the size of the generated method's compiled body.
P4J_REGISTER_GLOBAL("bench.Several")
    .set_body_typed([](ListView<int64_t> values, std::optional<int64_t> extra, BytesView data, std::string_view text) {
      return bench::Sum(values.size(), [&values](int64_t i) { return values[i]; }) + extra.value_or(0) +
             static_cast<int64_t>(data.size() + text.size());
    });

// Reads one byte of a tensor: the work does not grow with the tensor, so the time is what passing it costs. A
// TensorView, as a kernel that only reads its input during the call declares it: no native object is made.
P4J_REGISTER_GLOBAL("bench.TensorFirstByte").set_body_typed([](TensorView tensor) {
  return static_cast<int64_t>(*static_cast<const uint8_t*>(tensor->data));
});

// The same with an NDArray parameter, which may outlive the call: a wrapped tensor passed for the first time
// becomes a native object in C++.
P4J_REGISTER_GLOBAL("bench.TensorFirstByteNDArray").set_body_typed([](NDArray tensor) {
  return static_cast<int64_t>(*static_cast<const uint8_t*>(tensor->data));
});

// Typed forms of the object and bytes rows of issue 24's table: each takes a typed entry, without a call frame.
// create(String, long): the name is checked as the C twin checks it; the object is returned as an owned handle.
P4J_REGISTER_GLOBAL("bench.CreateCounter").set_body_typed([](std::string_view name, int64_t value) {
  if (name.empty()) throw ValueError("a counter needs a name");
  auto counter = make_object<bench::CounterObject>();
  counter->value = value;
  return counter;
});

// The object as a typed argument: its handle, lent (the Java side holds it for the call; a const reference takes
// no reference count).
P4J_REGISTER_GLOBAL("bench.CounterValueTyped").set_body_typed([](const bench::Counter& counter) {
  return counter->value;
});

// Bytes in and out: the argument arrives as a span, the result is handed back as a span the thread keeps.
P4J_REGISTER_GLOBAL("bench.EchoBytes").set_body_typed([](Bytes data) { return data; });
// The same echo over a view: the argument is read where the caller lent it, the result copied where the entry keeps
// span results; no Bytes object (a malloc, a copy and a free per call with Bytes).
P4J_REGISTER_GLOBAL("bench.EchoBytesView").set_body_typed([](BytesView data) { return data; });

P4J_REGISTER_OBJECT_TYPE(bench::RecordObject);

// n records with the values JsonBenchmark's Java records hold: id i, count 3i, score i / 8, label "record-i".
P4J_REGISTER_GLOBAL("bench.MakeRecords").set_body_typed([](int64_t n) {
  List<bench::Record> records;
  for (int64_t i = 0; i < n; i++) {
    auto record = make_object<bench::RecordObject>();
    record->id = i;
    record->count = 3 * i;
    record->score = static_cast<double>(i) / 8;
    record->label = "record-" + std::to_string(i);
    records.push_back(bench::Record(record));
  }
  return records;
});
