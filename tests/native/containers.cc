// Containers for the end-to-end tests (ContainersTest): typed views, nesting, maps with integer keys, a list
// shared between C++ and Java, and object references held by containers.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <string>

using namespace packed4j;

P4J_REGISTER_GLOBAL("test.SumInt64List").set_body_typed([](List<int64_t> values) {
  int64_t sum = 0;
  for (int64_t i = 0; i < values.size(); ++i) sum += values[i];
  return sum;
});

P4J_REGISTER_GLOBAL("test.Range").set_body_typed([](int64_t count) {
  List<int64_t> values;
  for (int64_t i = 0; i < count; ++i) values.push_back(i);
  return values;
});

// Untyped: returns its argument as it came (the same native container, not a copy).
P4J_REGISTER_GLOBAL("test.EchoContainer").set_body([](Args args, RetValue* rv) { *rv = args[0]; });

P4J_REGISTER_GLOBAL("test.EchoInt64List").set_body_typed([](List<int64_t> values) { return values; });

P4J_REGISTER_GLOBAL("test.EchoStringMap").set_body_typed([](Map<std::string, int64_t> values) { return values; });

// Keys 7*i in insertion order, values i.
P4J_REGISTER_GLOBAL("test.IntKeyMap").set_body_typed([](int64_t count) {
  Map<int64_t, int64_t> map;
  for (int64_t i = 0; i < count; ++i) map.Set(7 * i, i);
  return map;
});

// A typed lookup: a missing key is a KeyError naming the key.
P4J_REGISTER_GLOBAL("test.LookUp").set_body_typed([](Map<int64_t, int64_t> map, int64_t key) {
  return map.at(key);
});

// Built from pairs with a duplicate key: the last value wins, at the first key's position.
P4J_REGISTER_GLOBAL("test.DuplicateKeys").set_body_typed([]() {
  return Map<std::string, int64_t>({{"a", 1}, {"b", 2}, {"a", 3}});
});

// {"A": [1, 2, 3], "B": [4.5]}: a map of lists, built in C++.
P4J_REGISTER_GLOBAL("test.MapOfLists").set_body_typed([]() {
  Map<std::string, List<double>> map;
  map.Set("A", List<double>({1.0, 2.0, 3.0}));
  map.Set("B", List<double>({4.5}));
  return map;
});

P4J_REGISTER_GLOBAL("test.MaybeName").set_body([](Args args, RetValue* rv) {
  bool present = args[0];
  if (present) *rv = std::string("present");
});

P4J_REGISTER_GLOBAL("test.DescribeOptional").set_body([](Args args, RetValue* rv) {
  if (args[0].type_index() == kP4JNone) {
    *rv = std::string("none");
  } else {
    int64_t value = args[0];
    *rv = "some " + std::to_string(value);
  }
});

// ---- A list that C++ keeps and Java sees live. Never destroyed: it lives as long as the process.
static List<int64_t>& SharedList() {
  static auto* shared = new List<int64_t>();
  return *shared;
}

P4J_REGISTER_GLOBAL("test.SharedList").set_body_typed([]() { return SharedList(); });
P4J_REGISTER_GLOBAL("test.SharedListAppend").set_body_typed([](int64_t value) { SharedList().push_back(value); });
P4J_REGISTER_GLOBAL("test.SharedListSum").set_body_typed([]() {
  int64_t sum = 0;
  for (int64_t i = 0; i < SharedList().size(); ++i) sum += SharedList()[i];
  return sum;
});

// ---- Object references held by a container.
static List<ObjectRef>& HeldObjects() {
  static auto* held = new List<ObjectRef>();
  return *held;
}

P4J_REGISTER_GLOBAL("test.Hold").set_body_typed([](List<ObjectRef> objects) {
  for (int64_t i = 0; i < objects.size(); ++i) HeldObjects().push_back(objects[i]);
});
P4J_REGISTER_GLOBAL("test.ReleaseHeld").set_body_typed([]() { HeldObjects().clear(); });

// References to obj, not counting the one this call holds for its argument.
P4J_REGISTER_GLOBAL("test.UseCount").set_body_typed([](ObjectRef obj) {
  return static_cast<int64_t>(obj.use_count()) - 1;
});
