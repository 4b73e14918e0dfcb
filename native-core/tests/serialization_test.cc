// Objects as data: SaveJSON / LoadJSON round trips of every value kind, kept sharing, a seeded property test over
// random object graphs, StructuralEqual / StructuralHash / DeepCopy, and every error LoadJSON and SaveJSON report.
#include <dlfcn.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "test_util.h"

namespace {

using namespace packed4j;
using namespace packed4j::testing;

/*! \brief One field of each primitive kind. */
class LeafObject : public Object {
 public:
  int32_t small = 0;
  int64_t big = 0;
  uint64_t serial = 0;
  double weight = 0;
  bool flag = false;
  std::string name;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("small", &small);
    v->Visit("big", &big);
    v->Visit("serial", &serial);
    v->Visit("weight", &weight);
    v->Visit("flag", &flag);
    v->Visit("name", &name);
  }

  static constexpr const char* _type_key = "ser.Leaf";
  P4J_DECLARE_OBJECT_TYPE_INFO(LeafObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(LeafObject);

class Leaf : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Leaf, ObjectRef, LeafObject);
};

/*! \brief Inherits Leaf's fields (its VisitAttrs does not visit them) and adds one. */
class DerivedLeafObject : public LeafObject {
 public:
  double extra = 0;
  void VisitAttrs(AttrVisitor* v) final { v->Visit("extra", &extra); }
  static constexpr const char* _type_key = "ser.DerivedLeaf";
  P4J_DECLARE_OBJECT_TYPE_INFO(DerivedLeafObject, LeafObject);
};
P4J_REGISTER_OBJECT_TYPE(DerivedLeafObject);

class TreeObject;

/*! \brief Object fields: a typed reference, any object, a string object, a list and a map. */
class TreeObject : public Object {
 public:
  std::string label;
  Leaf leaf;
  ObjectRef anything;
  String title;
  List<Any> items;
  Map<Any, Any> props;

  void VisitAttrs(AttrVisitor* v) final {
    v->Visit("label", &label);
    v->Visit("leaf", &leaf);
    v->Visit("anything", &anything);
    v->Visit("title", &title);
    v->Visit("items", &items);
    v->Visit("props", &props);
  }

  static constexpr const char* _type_key = "ser.Tree";
  P4J_DECLARE_OBJECT_TYPE_INFO(TreeObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(TreeObject);

class Tree : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Tree, ObjectRef, TreeObject);
};

/*! \brief Opts out of structural comparison: compared by identity, shared by DeepCopy. */
class HandleObject : public Object {
 public:
  int64_t id = 0;
  void VisitAttrs(AttrVisitor* v) final { v->Visit("id", &id); }
  static constexpr bool _type_compare_by_identity = true;
  static constexpr const char* _type_key = "ser.Handle";
  P4J_DECLARE_OBJECT_TYPE_INFO(HandleObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(HandleObject);

/*! \brief No default constructor: saved and compared, but not created from data. */
class FixedObject : public Object {
 public:
  explicit FixedObject(int64_t value) : value(value) {}
  int64_t value;
  void VisitAttrs(AttrVisitor* v) final { v->Visit("value", &value); }
  static constexpr const char* _type_key = "ser.Fixed";
  P4J_DECLARE_OBJECT_TYPE_INFO(FixedObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(FixedObject);

/*! \brief Writable fields that setters replace while other threads save, compare, hash and copy the object. */
class SlotObject : public Object {
 public:
  ObjectRef held;
  String title;
  std::string label;
  static constexpr const char* _type_key = "ser.Slot";
  P4J_DECLARE_OBJECT_TYPE_INFO(SlotObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(SlotObject);
P4J_REGISTER_OBJECT_DEF(SlotObject, "fields a setter swaps")
    .def_rw("held", &SlotObject::held)
    .def_rw("title", &SlotObject::title)
    .def_rw("label", &SlotObject::label);

/*! \brief Containers whose element types the object definition declares: a load checks them as a write does. */
class LeafBinObject : public Object {
 public:
  List<Leaf> leaves;
  Map<std::string, int64_t> counts;
  static constexpr const char* _type_key = "ser.LeafBin";
  P4J_DECLARE_OBJECT_TYPE_INFO(LeafBinObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(LeafBinObject);
P4J_REGISTER_OBJECT_DEF(LeafBinObject, "container fields of declared element types")
    .def_ro("leaves", &LeafBinObject::leaves)
    .def_rw("counts", &LeafBinObject::counts);

ObjectPtr<LeafObject> MakeLeaf(int64_t big, const std::string& name) {
  auto leaf = make_object<LeafObject>();
  leaf->small = -7;
  leaf->big = big;
  leaf->serial = std::numeric_limits<uint64_t>::max();
  leaf->weight = 0.25;
  leaf->flag = true;
  leaf->name = name;
  return leaf;
}

Leaf LeafRef(int64_t big, const std::string& name) { return Leaf(ObjectPtr<Object>(MakeLeaf(big, name))); }

Any DTypeAny(DLDataType dtype) {
  P4JAny value = details::NoneValue();
  value.type_index = kP4JDataType;
  value.v_dtype = dtype;
  return Any::FromBorrowed(value);
}

Any DeviceAny(DLDevice device) {
  P4JAny value = details::NoneValue();
  value.type_index = kP4JDevice;
  value.v_device = device;
  return Any::FromBorrowed(value);
}

/*! \brief The message of the Error a call throws, "" when it throws none. */
template <typename F>
std::string ErrorOf(F body) {
  try {
    body();
  } catch (const Error& error) {
    return error.kind() + ": " + error.message();
  }
  return "";
}

std::string LoadError(const std::string& json) {
  return ErrorOf([&] { LoadJSON(json); });
}

/*! \brief A document around the given nodes and root. */
std::string Document(const std::string& nodes, const std::string& root = "{\"ref\":0}") {
  return "{\"format\":\"packed4j-json\",\"version\":1,\"root\":" + root + ",\"nodes\":[" + nodes + "]}";
}

/*! \brief Saves, loads and checks structure, hash and that a second save writes the same text. */
Any RoundTrip(const Any& value) {
  std::string json = SaveJSON(value);
  Any loaded = LoadJSON(json);
  EXPECT_TRUE(StructuralEqual(value, loaded)) << json;
  EXPECT_EQ(StructuralHash(value), StructuralHash(loaded)) << json;
  EXPECT_EQ(SaveJSON(loaded), json);
  return loaded;
}

TEST(SerializationTest, ScalarsRoundTripWithTheirKinds) {
  for (const Any& value : {Any(), Any(true), Any(false), Any(int64_t{0}), Any(int64_t{-5}),
                           Any(std::numeric_limits<int64_t>::min()), Any(std::numeric_limits<int64_t>::max()),
                           Any(1.0), Any(-0.0), Any(1e300), Any(5e-324), Any(-2.5), Any(0.1)}) {
    Any loaded = RoundTrip(value);
    EXPECT_EQ(loaded.type_index(), value.type_index()) << value.Describe();
  }
  EXPECT_EQ(SaveJSON(Any(1.0)), "{\"format\":\"packed4j-json\",\"version\":1,\"root\":1.0,\"nodes\":[]}");
  EXPECT_EQ(LoadJSON(SaveJSON(Any(int64_t{1}))).type_index(), kP4JInt);  // 1 stays an integer, 1.0 a float
  EXPECT_TRUE(std::signbit(LoadJSON(SaveJSON(Any(-0.0))).cast<double>()));
  for (double special : {std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    Any loaded = RoundTrip(Any(special));
    double back = loaded.cast<double>();
    EXPECT_TRUE(std::isnan(special) ? std::isnan(back) : back == special);
  }
  EXPECT_NE(SaveJSON(Any(HUGE_VAL)).find("{\"float\":\"inf\"}"), std::string::npos);
}

TEST(SerializationTest, StringsBytesDtypesAndDevicesRoundTrip) {
  std::string all_bytes;
  for (int i = 0; i < 256; ++i) all_bytes.push_back(static_cast<char>(i));
  std::string controls = "tab\t nl\n quote\" backslash\\ bell\x07 nul";
  controls.push_back('\0');
  for (const Any& value : {Any(std::string()), Any(std::string("h\xc3\xa9llo \xf0\x9f\x8c\x8d")), Any(controls),
                           Any(Bytes(all_bytes)), Any(Bytes(std::string())), DTypeAny(DataTypeOf<float>()),
                           DTypeAny(DLDataType{kDLInt, 8, 4}), DTypeAny(DLDataType{P4J_DL_BOOL_CODE, 8, 1}),
                           DeviceAny(DLDevice{kDLCUDA, 3})}) {
    Any loaded = RoundTrip(value);
    EXPECT_EQ(loaded.type_index(), value.type_index()) << value.Describe();
  }
  EXPECT_EQ(LoadJSON(SaveJSON(Any(controls))).cast<std::string>(), controls);
  EXPECT_EQ(LoadJSON(SaveJSON(Any(Bytes(all_bytes)))).cast<Bytes>().view(), all_bytes);
  // A string argument passed as a borrowed view (what Java passes) is saved like a String object.
  PackedFunc save = PackedFunc::GetGlobal("packed4j.SaveJSON");
  P4JAny view = StrView("viewed");
  Any result;
  save.CallPacked(&view, 1, &result);
  EXPECT_EQ(result.cast<std::string>(), SaveJSON(Any(std::string("viewed"))));
  EXPECT_EQ(LoadJSON(Document("", "\"\\u00e9\\ud83c\\udf0d\\/\"")).cast<std::string>(), "\xc3\xa9\xf0\x9f\x8c\x8d/");
}

TEST(SerializationTest, ContainersTensorsAndObjectsRoundTrip) {
  Leaf leaf = LeafRef(42, "leaf");
  List<Any> list{int64_t{1}, 2.5, std::string("three"), Any(), leaf, List<Any>{}};
  Map<Any, Any> map;
  map.Set(int64_t{7}, std::string("seven"));
  map.Set(std::string("key"), List<Any>{int64_t{1}});
  map.Set(leaf, true);  // an object key (by identity) comes back as the loaded object
  NDArray matrix = NDArray::Empty({2, 3}, DataTypeOf<float>());
  for (int i = 0; i < 6; ++i) matrix.data<float>()[i] = 0.5f * static_cast<float>(i);
  NDArray empty = NDArray::Empty({0, 4}, DataTypeOf<int8_t>());
  NDArray scalar = NDArray::Empty({}, DataTypeOf<double>());
  scalar.data<double>()[0] = -1.25;
  auto tree = make_object<TreeObject>();
  tree->label = "root";
  tree->leaf = leaf;
  tree->anything = matrix;
  tree->title = String("title");
  tree->items = List<Any>{leaf, int64_t{3}};
  tree->props.Set(std::string("scale"), 2.0);
  auto derived = make_object<DerivedLeafObject>();
  derived->big = 9;
  derived->extra = 1.5;
  for (const Any& value : {Any(list), Any(map), Any(matrix), Any(empty), Any(scalar), Any(tree), Any(derived),
                           Any(leaf), Any(make_object<TreeObject>())}) {
    RoundTrip(value);
  }
  Tree loaded = LoadJSON(SaveJSON(Any(tree))).cast<Tree>();
  EXPECT_EQ(loaded->label, "root");
  EXPECT_EQ(loaded->leaf->serial, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(loaded->leaf->small, -7);
  EXPECT_EQ(loaded->title, "title");
  EXPECT_EQ(loaded->props.size(), 1);
  NDArray loaded_matrix = Downcast<NDArray>(loaded->anything);
  EXPECT_EQ(loaded_matrix.Shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(loaded_matrix.data<float>()[5], 2.5f);
  Any loaded_derived = LoadJSON(SaveJSON(Any(derived)));
  EXPECT_EQ(loaded_derived.cast<ObjectRef>()->GetTypeKey(), "ser.DerivedLeaf");
  // A strided view is saved as its elements in row-major order.
  NDArray column = matrix.View({2}, {3});
  EXPECT_EQ(SaveJSON(Any(column)).find("\"shape\":[2]"), SaveJSON(Any(column)).find("\"shape\":[2]"));
  NDArray column_back = LoadJSON(SaveJSON(Any(column))).cast<NDArray>();
  EXPECT_EQ(column_back.data<float>()[1], 1.5f);
}

TEST(SerializationTest, TheFormatIsTheDocumentedOne) {
  auto leaf = make_object<LeafObject>();
  leaf->big = 3;
  leaf->name = "n";
  List<Any> list{leaf, leaf, Bytes(std::string("\x01\x02")), 1.5};
  EXPECT_EQ(SaveJSON(Any(list)),
            "{\"format\":\"packed4j-json\",\"version\":1,\"root\":{\"ref\":1},\"nodes\":["
            "{\"type\":\"ser.Leaf\",\"fields\":{\"small\":0,\"big\":3,\"serial\":0,\"weight\":0.0,\"flag\":false,"
            "\"name\":\"n\"}},"
            "{\"type\":\"List\",\"items\":[{\"ref\":0},{\"ref\":0},{\"bytes\":\"AQI=\"},1.5]}]}");
  Map<Any, Any> map{{int64_t{1}, std::string("one")}};
  NDArray tensor = NDArray::Empty({2}, DataTypeOf<int16_t>());
  tensor.data<int16_t>()[0] = 1;
  tensor.data<int16_t>()[1] = -1;
  EXPECT_EQ(SaveJSON(List<Any>{map, tensor}),
            "{\"format\":\"packed4j-json\",\"version\":1,\"root\":{\"ref\":2},\"nodes\":["
            "{\"type\":\"Map\",\"entries\":[[1,\"one\"]]},"
            "{\"type\":\"NDArray\",\"dtype\":\"int16\",\"shape\":[2],\"data\":\"AQD//w==\"},"
            "{\"type\":\"List\",\"items\":[{\"ref\":0},{\"ref\":1}]}]}");
}

TEST(SerializationTest, ANodeReferredToTwiceLoadsAsOneObject) {
  Leaf shared = LeafRef(1, "shared");
  auto tree = make_object<TreeObject>();
  tree->leaf = shared;
  tree->anything = shared;
  tree->items = List<Any>{shared, shared};
  List<Any> root{tree, shared, tree};
  std::string json = SaveJSON(root);
  EXPECT_EQ(json.find("\"shared\""), json.rfind("\"shared\""));  // written once
  List<Any> loaded = LoadJSON(json).cast<List<Any>>();
  Tree loaded_tree = loaded[0].cast<Tree>();
  EXPECT_TRUE(loaded[2].cast<Tree>().same_as(loaded_tree));
  Leaf loaded_leaf = loaded[1].cast<Leaf>();
  EXPECT_TRUE(loaded_tree->leaf.same_as(loaded_leaf));
  EXPECT_TRUE(loaded_tree->anything.same_as(loaded_leaf));
  EXPECT_TRUE(loaded_tree->items[0].cast<Leaf>().same_as(loaded_leaf));
  EXPECT_FALSE(loaded_leaf.same_as(shared));
}

TEST(SerializationTest, AnObjectOfAPluginTypeRoundTrips) {
  void* plugin = dlopen(PACKED4J_TEST_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(plugin, nullptr) << dlerror();
  Any point = PackedFunc::GetGlobal("test_plugin.MakePoint")(int64_t{3}, int64_t{-4}, std::string("p"));
  Any loaded = RoundTrip(List<Any>{point, point});
  ObjectRef first = loaded.cast<List<Any>>()[0].cast<ObjectRef>();
  EXPECT_EQ(first->GetTypeKey(), "test_plugin.Point");
  EXPECT_EQ(first.use_count(), 3u);  // the list holds it twice
  Any copy = DeepCopy(point);
  EXPECT_TRUE(StructuralEqual(copy, point));
  EXPECT_FALSE(copy.cast<ObjectRef>().same_as(point.cast<ObjectRef>()));
}

// The example of docs/cpp-api.md, "Objects as data" (the doc's block is an exact run of these lines).
TEST(SerializationTest, TheCppApiSheetExample) {
  auto leaf = make_object<LeafObject>();  // any type registered with P4J_REGISTER_OBJECT_TYPE
  leaf->name = "shared";
  List<Any> both{leaf, leaf, 2.5};
  std::string json = SaveJSON(both);  // {"format":"packed4j-json","version":1,"root":{"ref":1},"nodes":[...]}
  EXPECT_EQ(json.find("\"name\":\"shared\""), json.rfind("\"name\":\"shared\""));  // the leaf is written once
  List<Any> loaded = LoadJSON(json).cast<List<Any>>();
  EXPECT_TRUE(loaded[0].cast<Leaf>().same_as(loaded[1].cast<Leaf>()));  // ... and loads back as one object
  EXPECT_TRUE(StructuralEqual(both, loaded));  // same structure and field values, other objects
  EXPECT_EQ(StructuralHash(both), StructuralHash(loaded));
  Any copy = DeepCopy(both);  // a new graph with the same sharing
  EXPECT_FALSE(copy.cast<List<Any>>().same_as(both));
  EXPECT_EQ(SaveJSON(copy), json);
  std::string partial = "{\"format\":\"packed4j-json\",\"version\":1,\"root\":{\"ref\":0},\"nodes\":["
                        "{\"type\":\"ser.Leaf\",\"fields\":{\"small\":1}}]}";
  EXPECT_EQ(ErrorOf([&] { LoadJSON(partial); }),
            "ValueError: packed4j.LoadJSON: nodes[0].fields: missing field \"big\" of ser.Leaf; its fields are: "
            "small, big, serial, weight, flag, name");
}

// ---- the property test: random graphs of the test types with shared nodes ----

class GraphGenerator {
 public:
  explicit GraphGenerator(uint64_t seed) : random_(seed) {}

  Any Build(int nodes) {
    pool_.clear();
    for (int i = 0; i < nodes; ++i) pool_.push_back(NewNode());
    return pool_.back();
  }

 private:
  int64_t Pick(int64_t n) { return static_cast<int64_t>(random_() % static_cast<uint64_t>(n)); }

  std::string Text() {
    static const char* kWords[] = {"", "a", "caf\xc3\xa9", "quote\"", "line\nbreak", "\xf0\x9f\x8c\x8d"};
    return kWords[Pick(6)];
  }

  Any Scalar() {
    switch (Pick(8)) {
      case 0: return Any();
      case 1: return Any(Pick(2) == 0);
      case 2: return Any(static_cast<int64_t>(random_()));
      case 3: return Any(static_cast<double>(Pick(1000)) / 8 - 60);
      case 4: return Any(Pick(3) == 0 ? std::nan("") : -0.0);
      case 5: return Any(Text());
      case 6: return Any(Bytes(Text()));
      default: return DTypeAny(DataTypeOf<float>());
    }
  }

  /*! \brief An earlier node (shared), or a scalar. */
  Any Child() {
    if (!pool_.empty() && Pick(3) != 0) return pool_[static_cast<size_t>(Pick(static_cast<int64_t>(pool_.size())))];
    return Scalar();
  }

  Any NewNode() {
    switch (Pick(5)) {
      case 0: {
        List<Any> list;
        for (int64_t i = Pick(5); i > 0; --i) list.push_back(Child());
        return list;
      }
      case 1: {
        Map<Any, Any> map;
        for (int64_t i = Pick(4); i > 0; --i) {
          if (Pick(2) == 0) {
            map.Set(Text() + std::to_string(Pick(100)), Child());
          } else {
            map.Set(Pick(50), Child());
          }
        }
        return map;
      }
      case 2: {
        auto leaf = make_object<LeafObject>();
        leaf->small = static_cast<int32_t>(random_());
        leaf->big = static_cast<int64_t>(random_());
        leaf->serial = random_();
        leaf->weight = Pick(4) == 0 ? std::nan("") : static_cast<double>(Pick(100)) / 3;
        leaf->flag = Pick(2) == 0;
        leaf->name = Text();
        return leaf;
      }
      case 3: {
        auto tree = make_object<TreeObject>();
        tree->label = Text();
        Any leaf = Child();
        if (leaf.type_index() == LeafObject::RuntimeTypeIndex()) tree->leaf = leaf.cast<Leaf>();
        Any anything = Child();
        if (details::IsObjectValue(anything.raw())) tree->anything = anything.cast<ObjectRef>();
        tree->title = Pick(2) == 0 ? String() : String(Text());
        for (int64_t i = Pick(3); i > 0; --i) tree->items.push_back(Child());
        tree->props.Set(std::string("k"), Child());
        return tree;
      }
      default: {
        NDArray tensor = NDArray::Empty({Pick(3), 2}, DataTypeOf<int32_t>());
        for (int64_t i = 0; i < tensor.NumElements(); ++i) tensor.data<int32_t>()[i] = static_cast<int32_t>(random_());
        return tensor;
      }
    }
  }

  std::mt19937_64 random_;
  std::vector<Any> pool_;
};

TEST(SerializationTest, RandomGraphsRoundTripAndCopyWithTheirSharing) {
  int64_t before = P4JObjectLiveCount();
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    GraphGenerator generator(seed);
    Any graph = generator.Build(1 + static_cast<int>(seed % 40));
    std::string json = SaveJSON(graph);
    Any loaded = LoadJSON(json);
    ASSERT_TRUE(StructuralEqual(graph, loaded)) << json;
    ASSERT_EQ(StructuralHash(graph), StructuralHash(loaded));
    // The same text again: the same nodes in the same order with the same references, i.e. the same sharing.
    ASSERT_EQ(SaveJSON(loaded), json);
    Any copy = DeepCopy(graph);
    ASSERT_TRUE(StructuralEqual(graph, copy));
    ASSERT_EQ(StructuralHash(graph), StructuralHash(copy));
    ASSERT_EQ(SaveJSON(copy), json);
    if (details::IsObjectValue(graph.raw()) && graph.type_index() != kP4JString && graph.type_index() != kP4JBytes) {
      ASSERT_NE(copy.raw().v_obj, graph.raw().v_obj);
    }
  }
  EXPECT_EQ(P4JObjectLiveCount(), before);
}

/*!
 * \brief The same document with its first "format" spelled with an escape ("\u0066ormat"): the same JSON, which
 *  LoadJSON's streaming path leaves to the tree loader (it reads keys without escapes).
 */
std::string ForTheTreeLoader(std::string json) {
  size_t at = json.find("\"format\"");
  if (at != std::string::npos) json.replace(at, 8, "\"\\u0066ormat\"");
  return json;
}

/*! \brief Loads json by both of LoadJSON's paths and checks they build the same value (same text when saved). */
void ExpectBothLoadersAgree(const std::string& json) {
  Any streamed = LoadJSON(json);
  Any tree = LoadJSON(ForTheTreeLoader(json));
  EXPECT_TRUE(StructuralEqual(streamed, tree)) << json;
  EXPECT_EQ(SaveJSON(streamed), SaveJSON(tree)) << json;
}

TEST(SerializationTest, TheStreamingAndTheTreeLoaderAgree) {
  int64_t before = P4JObjectLiveCount();
  {
    // What SaveJSON writes: every value kind, escapes and UTF-8 in strings and keys, shared nodes.
    auto tree = make_object<TreeObject>();
    tree->label = "tab\there \"quoted\" \\ caf\xc3\xa9 \xf0\x9f\x99\x82 \x01";
    tree->leaf = LeafRef(-5, "a somewhat longer name than fifteen bytes");
    tree->anything = tree->leaf;
    tree->title = String("title");
    tree->items = List<Any>{tree->leaf, Bytes(std::string("\x00\xff", 2)), std::nan(""), -HUGE_VAL, -0.0,
                            DTypeAny(DLDataType{kDLFloat, 16, 4}), DeviceAny(DLDevice{kDLCUDA, 3}), nullptr, true};
    tree->props = Map<Any, Any>{{std::string("k\xc3\xa9y"), int64_t{1}}, {int64_t{-2}, tree->leaf}};
    NDArray tensor = NDArray::Empty({2, 2}, DataTypeOf<float>());
    for (int i = 0; i < 4; ++i) tensor.data<float>()[i] = static_cast<float>(i) / 3;
    ExpectBothLoadersAgree(SaveJSON(List<Any>{tree, tensor, tree, int64_t{7}}));
  }
  ExpectBothLoadersAgree(SaveJSON(Any(std::string("just a string"))));
  ExpectBothLoadersAgree(SaveJSON(Any(int64_t{-9223372036854775807 - 1})));
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    GraphGenerator generator(seed);
    ExpectBothLoadersAgree(SaveJSON(generator.Build(1 + static_cast<int>(seed % 40))));
  }
  // Layouts SaveJSON does not write, read by either path: white space, fields in another order (matched by
  // name), keys in another order, escapes in keys and type keys.
  std::string fields =
      "\"small\":1,\"big\":2,\"serial\":18446744073709551615,\"weight\":4,\"flag\":true,\"name\":\"n\"";
  std::string shuffled = "\"name\":\"n\",\"flag\":true,\"small\":1,\"serial\":18446744073709551615,\"weight\":4,"
                         "\"big\":2";
  std::string expected = SaveJSON(LoadJSON(ForTheTreeLoader(
      Document("{\"type\":\"ser.Leaf\",\"fields\":{" + fields + "}}"))));
  for (const std::string& json : {
           Document("{\"type\":\"ser.Leaf\",\"fields\":{" + shuffled + "}}"),
           Document("{\"type\":\"ser.\\u004ceaf\",\"fields\":{" + fields + "}}"),
           Document("{\"fields\":{" + fields + "},\"type\":\"ser.Leaf\"}"),
           "{\"version\":1,\"format\":\"packed4j-json\",\"nodes\":[{\"type\":\"ser.Leaf\",\"fields\":{" + fields +
               "}}],\"root\":{\"ref\":0}}",
           " {\n \"format\" : \"packed4j-json\" ,\n \"version\" : 1 , \"root\" : { \"ref\" : 0 } , \"nodes\" : [ {"
           " \"type\" : \"ser.Leaf\" , \"fields\" : { " + fields + " } } ] }\n"}) {
    EXPECT_EQ(SaveJSON(LoadJSON(json)), expected) << json;
    ExpectBothLoadersAgree(json);
  }
  // Errors are the tree loader's: a malformed document is reported as malformed even where an earlier node is
  // wrong too (the tree is parsed whole before any node is built).
  std::string broken = Document("{\"type\":\"ser.Leaf\",\"fields\":{\"small\":\"x\"}}");
  EXPECT_EQ(LoadError(broken.substr(0, broken.size() - 1)),
            "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 108 (byte 107): expected ',' or '}' in an "
            "object");
  EXPECT_EQ(P4JObjectLiveCount(), before);
}

// ---- structural equality, hash and copy ----

TEST(StructuralTest, FloatsNaNAndSignedZero) {
  EXPECT_TRUE(StructuralEqual(std::nan(""), -std::nan("")));
  EXPECT_EQ(StructuralHash(std::nan("")), StructuralHash(-std::nan("")));
  EXPECT_TRUE(StructuralEqual(0.0, -0.0));
  EXPECT_EQ(StructuralHash(0.0), StructuralHash(-0.0));
  EXPECT_FALSE(StructuralEqual(int64_t{1}, 1.0));  // an integer never equals a float
  EXPECT_FALSE(StructuralEqual(true, int64_t{1}));
  EXPECT_FALSE(StructuralEqual(std::string("a"), Bytes(std::string("a"))));
  auto a = MakeLeaf(1, "x");
  auto b = MakeLeaf(1, "x");
  a->weight = std::nan("");
  b->weight = std::nan("");
  EXPECT_TRUE(StructuralEqual(a, b));
  b->weight = 0.0;
  a->weight = -0.0;
  EXPECT_TRUE(StructuralEqual(a, b));
  EXPECT_EQ(StructuralHash(a), StructuralHash(b));
  b->name = "y";
  EXPECT_FALSE(StructuralEqual(a, b));
}

TEST(StructuralTest, ContainersCompareByContentsAndMapsInOrder) {
  Leaf shared = LeafRef(5, "s");
  List<Any> dag{shared, shared};
  List<Any> tree{LeafRef(5, "s"), LeafRef(5, "s")};
  EXPECT_TRUE(StructuralEqual(dag, tree));  // sharing is not part of equality
  EXPECT_EQ(StructuralHash(dag), StructuralHash(tree));
  EXPECT_FALSE(StructuralEqual(dag, List<Any>{shared}));
  Map<Any, Any> ab{{std::string("a"), int64_t{1}}, {std::string("b"), int64_t{2}}};
  Map<Any, Any> ba{{std::string("b"), int64_t{2}}, {std::string("a"), int64_t{1}}};
  EXPECT_TRUE(StructuralEqual(ab, Map<Any, Any>{{std::string("a"), int64_t{1}}, {std::string("b"), int64_t{2}}}));
  EXPECT_FALSE(StructuralEqual(ab, ba));  // insertion order is part of a map
  NDArray x = NDArray::Empty({2}, DataTypeOf<float>());
  NDArray y = NDArray::Empty({2}, DataTypeOf<float>());
  x.data<float>()[0] = y.data<float>()[0] = 1;
  x.data<float>()[1] = y.data<float>()[1] = 2;
  EXPECT_TRUE(StructuralEqual(x, y));
  EXPECT_EQ(StructuralHash(x), StructuralHash(y));
  y.data<float>()[1] = 3;
  EXPECT_FALSE(StructuralEqual(x, y));
  EXPECT_FALSE(StructuralEqual(x, NDArray::Empty({1, 2}, DataTypeOf<float>())));
  EXPECT_FALSE(StructuralEqual(LeafRef(1, "a"), make_object<DerivedLeafObject>()));
}

TEST(StructuralTest, TypesThatOptOutCompareAndCopyByIdentity) {
  auto first = make_object<HandleObject>();
  auto second = make_object<HandleObject>();
  EXPECT_FALSE(StructuralEqual(first, second));
  EXPECT_TRUE(StructuralEqual(first, first));
  EXPECT_TRUE(StructuralEqual(List<Any>{first}, List<Any>{first}));
  EXPECT_EQ(StructuralHash(List<Any>{first}), StructuralHash(List<Any>{first}));
  List<Any> copy = DeepCopy(List<Any>{first}).cast<List<Any>>();
  EXPECT_EQ(copy[0].raw().v_obj, first.handle());  // shared, not copied
  PackedFunc function = PackedFunc::GetGlobal("packed4j.ListSize");
  EXPECT_TRUE(StructuralEqual(List<Any>{function}, List<Any>{function}));
  EXPECT_EQ(DeepCopy(function).raw().v_obj, function.handle());
  // Saved by its fields all the same, and loaded as a new object.
  Any loaded = LoadJSON(SaveJSON(first));
  EXPECT_EQ(loaded.type_index(), HandleObject::RuntimeTypeIndex());
  EXPECT_NE(loaded.raw().v_obj, first.handle());
}

TEST(StructuralTest, DeepCopyKeepsSharingAndCopiesEveryNode) {
  Leaf shared = LeafRef(1, "shared");
  auto tree = make_object<TreeObject>();
  tree->leaf = shared;
  tree->items = List<Any>{shared, std::string("text")};
  List<Any> root{tree, shared, tree};
  List<Any> copy = DeepCopy(root).cast<List<Any>>();
  EXPECT_TRUE(StructuralEqual(root, copy));
  Tree copied_tree = copy[0].cast<Tree>();
  EXPECT_FALSE(copied_tree.same_as(Tree(ObjectPtr<Object>(tree))));
  EXPECT_TRUE(copy[2].cast<Tree>().same_as(copied_tree));
  EXPECT_TRUE(copied_tree->leaf.same_as(copy[1].cast<Leaf>()));
  EXPECT_TRUE(copied_tree->items[0].cast<Leaf>().same_as(copied_tree->leaf));
  EXPECT_FALSE(copied_tree->leaf.same_as(shared));
  EXPECT_FALSE(copied_tree->items.same_as(tree->items));
  // The copy is independent of the original.
  tree->items.push_back(int64_t{1});
  EXPECT_FALSE(StructuralEqual(root, copy));
  EXPECT_EQ(DeepCopy(int64_t{4}).cast<int64_t>(), 4);
  EXPECT_EQ(DeepCopy(std::string("s")).cast<std::string>(), "s");
}

TEST(StructuralTest, DeepGraphsTakeConstantStack) {
  // 100,000 levels: far past any recursion, and past the 512 levels serialization accepts.
  List<Any> a;
  List<Any> b;
  for (int i = 0; i < 100000; ++i) {
    a = List<Any>{a, int64_t{i}};
    b = List<Any>{b, int64_t{i}};
  }
  EXPECT_TRUE(StructuralEqual(a, b));
  EXPECT_EQ(StructuralHash(a), StructuralHash(b));
  Any copy = DeepCopy(a);
  EXPECT_TRUE(StructuralEqual(a, copy));
  EXPECT_NE(ErrorOf([&] { SaveJSON(a); }).find("nests deeper than 512 levels"), std::string::npos);
}

TEST(StructuralTest, CyclesAreErrorsNamingThePath) {
  List<Any> outer;
  auto tree = make_object<TreeObject>();
  outer.push_back(int64_t{0});
  outer.push_back(tree);
  tree->items.push_back(outer);  // outer[1].items[0] is outer again
  const char* functions[] = {"packed4j.SaveJSON", "packed4j.StructuralHash", "packed4j.DeepCopy"};
  for (const char* name : functions) {
    EXPECT_EQ(ErrorOf([&] { PackedFunc::GetGlobal(name)(outer); }),
              std::string("ValueError: ") + name + ": the value has a cycle: root[1].items[0] refers back to root");
  }
  EXPECT_EQ(ErrorOf([&] { StructuralEqual(outer, int64_t{1}); }),
            "ValueError: packed4j.StructuralEqual: the value has a cycle: root[1].items[0] refers back to root");
  tree->items.Set(0, Any());  // break the cycle, or reference counting could never free it
}

// ---- nesting ----

// The setters of object and string fields are thread-safe (P4JObjectSetField swaps under the field lock and
// releases the old value), so the operations read those fields as the getter does: an object field once per walk,
// with a reference of its own, and a string under the lock. They used to read the fields in place: the old object
// was freed under a save or a copy (errors made of freed memory, a crash in its deleter), and strings came torn.
TEST(StructuralTest, SettersOnOtherThreadsNeitherFreeNorTearWhatTheOperationsRead) {
  auto slot = make_object<SlotObject>();
  ObjectRef holder{ObjectPtr<Object>(slot)};
  const P4JTypeInfo* info = nullptr;
  ASSERT_EQ(P4JTypeGetInfo(SlotObject::RuntimeTypeIndex(), &info), 0);
  auto index = [&](std::string_view name) {
    for (int32_t i = 0; i < info->num_fields; ++i) {
      if (details::ViewOf(info->fields[i].name) == name) return i;
    }
    ADD_FAILURE() << "no field " << name;
    return 0;
  };
  const int32_t held = index("held");
  const int32_t title = index("title");
  const int32_t label = index("label");
  const std::string short_text(5, 'y');
  const std::string long_text(300, 'x');  // on the heap: a torn copy would mix the two
  const int64_t baseline = P4JObjectLiveCount();
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  auto set = [&](int i) {
    Leaf fresh = LeafRef(i, "leaf");  // the only reference once the field lets go of it
    P4JAny object = ObjectValue(fresh);
    String text(i % 2 == 0 ? short_text : long_text);
    P4JAny string_object = ObjectValue(text);
    P4JAny view = StrView(i % 2 == 0 ? long_text : short_text);
    if (P4JObjectSetField(holder.handle(), held, &object) != 0 ||
        P4JObjectSetField(holder.handle(), title, &string_object) != 0 ||
        P4JObjectSetField(holder.handle(), label, &view) != 0) {
      failures++;
    }
  };
  set(0);
  std::thread setter([&] {
    for (int i = 1; !stop.load(); ++i) set(i);
  });
  auto whole = [&](const std::string& json, const char* key) {
    size_t at = json.find(key);
    if (at == std::string::npos) return false;
    size_t start = json.find('"', at + std::strlen(key) + 1) + 1;
    std::string text = json.substr(start, json.find('"', start) - start);
    return text == short_text || text == long_text;
  };
  try {
    for (int round = 0; round < 3000; ++round) {
      std::string json = SaveJSON(holder);
      if (!whole(json, "\"label\"") || !whole(json, "\"title\"") || json.find("ser.Leaf") == std::string::npos) {
        ADD_FAILURE() << json;
        break;
      }
      Any copy = DeepCopy(holder);
      StructuralHash(holder);
      StructuralEqual(holder, copy);
    }
  } catch (const Error& error) {  // what a read of freed memory made of a type index or a node
    ADD_FAILURE() << error.kind() << ": " << error.message();
  }
  stop = true;
  setter.join();
  EXPECT_EQ(failures.load(), 0);
  P4JAny none = details::NoneValue();
  ASSERT_EQ(P4JObjectSetField(holder.handle(), held, &none), 0);
  ASSERT_EQ(P4JObjectSetField(holder.handle(), title, &none), 0);
  EXPECT_LE(P4JObjectLiveCount(), baseline) << "every leaf and string the setter made is released";
}

TEST(SerializationTest, NestingIsLimitedTo512Levels) {
  List<Any> deep;
  for (int i = 1; i < 512; ++i) deep = List<Any>{deep};
  RoundTrip(deep);  // 512 levels
  List<Any> deeper{deep};
  std::string error = ErrorOf([&] { SaveJSON(deeper); });
  EXPECT_EQ(error.rfind("ValueError: packed4j.SaveJSON: the value nests deeper than 512 levels at root[0][0]", 0), 0u)
      << error;
  // The path keeps its first and last steps, not all 512.
  EXPECT_NE(error.find("[0][0]... (496 more steps) ...[0]"), std::string::npos) << error;
  EXPECT_LT(error.size(), 200u) << error;
  // The same depth written by hand: each node refers to the one before.
  std::string nodes = "{\"type\":\"List\",\"items\":[]}";
  for (int i = 1; i < 513; ++i) nodes += ",{\"type\":\"List\",\"items\":[{\"ref\":" + std::to_string(i - 1) + "}]}";
  EXPECT_EQ(LoadError(Document(nodes, "{\"ref\":512}")),
            "ValueError: packed4j.LoadJSON: nodes[512]: the value nests deeper than 512 levels");
  std::string brackets = std::string(40, '[') + std::string(40, ']');
  EXPECT_EQ(LoadError(brackets),
            "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 33 (byte 32): the document nests deeper "
            "than 32 levels (a packed4j-json document nests 6 at most: nodes refer to each other by index)");
}

// ---- errors ----

TEST(SerializationTest, MalformedJsonNamesLineAndColumn) {
  EXPECT_EQ(LoadError("{\"format\":\n  nul}"),
            "ValueError: packed4j.LoadJSON: malformed JSON at line 2, column 3 (byte 13): expected null");
  EXPECT_EQ(LoadError(""), "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 1 (byte 0): unexpected "
                           "end of input, expected a value");
  EXPECT_EQ(LoadError("[1,]"),
            "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 4 (byte 3): unexpected character \"]\"");
  // A byte that starts no value is named as a byte, not printed as half a character (trial userT).
  EXPECT_EQ(LoadError("\xEF\xBB\xBF{}"), "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 1 (byte 0): "
                                       "unexpected UTF-8 byte order mark (bytes EF BB BF): save the document without one");
  EXPECT_EQ(LoadError("[\xC3\xA9]"), "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 2 (byte 1): "
                                    "unexpected byte 0xC3, expected a value");
  EXPECT_EQ(LoadError("[\x01]"), "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 2 (byte 1): "
                               "unexpected byte 0x01, expected a value");
  EXPECT_EQ(LoadError("{\"a\":1,\"a\":2}"), "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 8 "
                                            "(byte 7): the key \"a\" appears twice in one object");
  EXPECT_EQ(LoadError("\"abc"),
            "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 5 (byte 4): unterminated string");
  EXPECT_EQ(LoadError("\"\xff\""),
            "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 2 (byte 1): invalid UTF-8 in a string");
  EXPECT_EQ(LoadError("\"\\udc00\""), "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 8 (byte 7): "
                                      "a lone low surrogate in a \\u escape");
  EXPECT_EQ(LoadError("01"), "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 3 (byte 2): a number "
                             "must not have leading zeros");
  EXPECT_EQ(LoadError("{} x"),
            "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 4 (byte 3): unexpected text after the "
            "document");
}

TEST(SerializationTest, HugeNumbersAreErrors) {
  EXPECT_EQ(LoadError(Document("", "1e999")), "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 46 "
                                              "(byte 45): the number 1e999 is out of range for float64");
  EXPECT_EQ(LoadError(Document("", "123456789012345678901234567890")),
            "ValueError: packed4j.LoadJSON: malformed JSON at line 1, column 46 (byte 45): the integer "
            "123456789012345678901234567890 is out of range (integers are int64, or uint64 for a uint64 field)");
  EXPECT_EQ(LoadError(Document("", "18446744073709551615")),
            "ValueError: packed4j.LoadJSON: root: the integer 18446744073709551615 is out of range for int64");
  EXPECT_EQ(LoadError(Document("", "-9223372036854775809")).find("is out of range (integers are int64"), 111u);
}

TEST(SerializationTest, TheDocumentIsChecked) {
  EXPECT_EQ(LoadError("[]"), "ValueError: packed4j.LoadJSON: the document: expected an object, got an array of 0 "
                             "elements");
  EXPECT_EQ(LoadError("{\"version\":1}"),
            "ValueError: packed4j.LoadJSON: the document: not a packed4j-json document: it has no \"format\"");
  EXPECT_EQ(LoadError("{\"format\":\"tvm-json\",\"version\":1}"),
            "ValueError: packed4j.LoadJSON: format: unknown format the string \"tvm-json\" (expected "
            "\"packed4j-json\")");
  EXPECT_EQ(LoadError("{\"format\":\"packed4j-json\",\"version\":2,\"root\":null,\"nodes\":[]}"),
            "ValueError: packed4j.LoadJSON: version: version 2 is newer than this reader's (1); load it with a newer "
            "packed4j");
  EXPECT_EQ(LoadError("{\"format\":\"packed4j-json\",\"version\":\"1\",\"root\":null,\"nodes\":[]}"),
            "ValueError: packed4j.LoadJSON: version: expected a format version from 1 to 1, got the string \"1\"");
  EXPECT_EQ(LoadError("{\"format\":\"packed4j-json\",\"version\":1,\"root\":null}"),
            "ValueError: packed4j.LoadJSON: the document: missing \"nodes\"");
  EXPECT_EQ(LoadError("{\"format\":\"packed4j-json\",\"version\":1,\"root\":null,\"nodes\":[],\"extra\":0}"),
            "ValueError: packed4j.LoadJSON: the document: unknown key \"extra\"");
  EXPECT_EQ(LoadError(Document("", "{\"ref\":0}")),
            "ValueError: packed4j.LoadJSON: root.ref: expected the index of an earlier node, but none comes before "
            "this one; got the integer 0 (a node refers only to nodes before it)");
  EXPECT_EQ(LoadError(Document("{\"type\":\"List\",\"items\":[{\"ref\":0}]}")),
            "ValueError: packed4j.LoadJSON: nodes[0].items[0].ref: expected the index of an earlier node, but none "
            "comes before this one; got the integer 0 (a node refers only to nodes before it)");
  EXPECT_EQ(LoadError(Document("{\"type\":\"List\",\"items\":[]}", "{\"ref\":1}")),
            "ValueError: packed4j.LoadJSON: root.ref: expected the index of an earlier node (0 to 0), got the integer 1 "
            "(a node refers only to nodes before it)");
  // A float is named as written: 1.0 is not the integer 1.
  EXPECT_EQ(LoadError("{\"format\":\"packed4j-json\",\"version\":1.0,\"root\":null,\"nodes\":[]}"),
            "ValueError: packed4j.LoadJSON: version: expected a format version from 1 to 1, got the number 1.0");
  EXPECT_EQ(LoadError(Document("", "[1]")),
            "ValueError: packed4j.LoadJSON: root: expected a value, got an array of 1 elements (a list is a node in "
            "\"nodes\", referred to as {\"ref\": index})");
  EXPECT_EQ(LoadError(Document("", "{\"float\":\"NaN\"}")),
            "ValueError: packed4j.LoadJSON: root.float: expected \"nan\", \"inf\" or \"-inf\", got the string \"NaN\"");
  EXPECT_EQ(LoadError(Document("", "{\"bytes\":\"AQI\"}")),
            "ValueError: packed4j.LoadJSON: root.bytes: expected base64 text (standard alphabet, padded), got the "
            "string \"AQI\"");
  EXPECT_EQ(LoadError(Document("", "{\"big\":1}")),
            "ValueError: packed4j.LoadJSON: root: unknown value tag \"big\" (a tagged value has exactly one of the "
            "keys ref, float, bytes, dtype, device)");
  EXPECT_EQ(LoadError(Document("{\"type\":\"Map\",\"entries\":[[1,2],[1,3]]}")),
            "ValueError: packed4j.LoadJSON: nodes[0].entries[1][0]: the key int 1 appears twice in one map");
  EXPECT_EQ(LoadError(Document("{\"type\":\"Map\",\"entries\":[[1.5,2]]}")),
            "ValueError: packed4j.LoadJSON: nodes[0].entries[0][0]: a map key must be an integer, a string or an "
            "object, got float 1.5");
  EXPECT_EQ(LoadError(Document("{\"type\":\"List\"}")), "ValueError: packed4j.LoadJSON: nodes[0]: missing \"items\"");
}

TEST(SerializationTest, TypesAndFieldsAreChecked) {
  std::string leaf_fields = "\"small\":1,\"big\":2,\"serial\":3,\"weight\":4.0,\"flag\":true,\"name\":\"n\"";
  auto leaf_node = [](const std::string& fields) { return "{\"type\":\"ser.Leaf\",\"fields\":{" + fields + "}}"; };
  EXPECT_EQ(LoadJSON(Document(leaf_node(leaf_fields))).cast<Leaf>()->serial, 3u);
  EXPECT_EQ(LoadError(Document("{\"type\":\"no.SuchType\",\"fields\":{}}")),
            "ValueError: packed4j.LoadJSON: nodes[0].type: type key \"no.SuchType\" is not registered (load the "
            "library that defines it before loading the data)");
  EXPECT_EQ(LoadError(Document("{\"type\":\"String\",\"fields\":{}}")),
            "ValueError: packed4j.LoadJSON: nodes[0].type: a String cannot be a node (nodes are List, Map, NDArray or "
            "a registered type)");
  EXPECT_EQ(LoadError(Document(leaf_node("\"small\":1"))),
            "ValueError: packed4j.LoadJSON: nodes[0].fields: missing field \"big\" of ser.Leaf; its fields are: "
            "small, big, serial, weight, flag, name");
  EXPECT_EQ(LoadError(Document(leaf_node(leaf_fields + ",\"color\":1"))),
            "ValueError: packed4j.LoadJSON: nodes[0].fields: ser.Leaf has no field \"color\"; its fields are: small, "
            "big, serial, weight, flag, name");
  struct Case {
    std::string field;
    std::string value;
    std::string error;
  };
  std::vector<Case> cases = {
      {"small", "\"x\"", "expected an int32, got the string \"x\""},
      {"small", "3000000000", "expected an int32, got the integer 3000000000"},
      {"big", "1.5", "expected an int64, got the number 1.5"},
      {"serial", "-1", "expected a uint64, got the integer -1"},
      {"weight", "true", "expected a float64, got true"},
      {"weight", "9007199254740993", "expected a float64, got the integer 9007199254740993"},
      {"flag", "1", "expected a bool, got the integer 1"},
      {"name", "null", "expected a string, got null"},
  };
  for (const Case& c : cases) {
    std::string fields = leaf_fields;
    size_t at = fields.find("\"" + c.field + "\":");
    size_t end = fields.find(',', at);
    fields.replace(at, (end == std::string::npos ? fields.size() : end) - at, "\"" + c.field + "\":" + c.value);
    EXPECT_EQ(LoadError(Document(leaf_node(fields))),
              "ValueError: packed4j.LoadJSON: nodes[0].fields." + c.field + ": " + c.error);
  }
  // uint64 fields take the whole range; float64 fields take exact integers and the tagged non-finite values.
  std::string fields = leaf_fields;
  fields.replace(fields.find("\"serial\":3"), 10, "\"serial\":18446744073709551615");
  fields.replace(fields.find("\"weight\":4.0"), 12, "\"weight\":{\"float\":\"-inf\"}");
  Leaf loaded = LoadJSON(Document(leaf_node(fields))).cast<Leaf>();
  EXPECT_EQ(loaded->serial, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(loaded->weight, -HUGE_VAL);
  // Object fields: the declared type is checked.
  std::string tree = "{\"type\":\"ser.Tree\",\"fields\":{\"label\":\"t\",\"leaf\":LEAF,\"anything\":null,"
                     "\"title\":null,\"items\":null,\"props\":null}}";
  auto with_leaf = [&](const std::string& value) { return tree.replace(tree.find("LEAF"), 4, value), tree; };
  std::string list_then_tree = "{\"type\":\"List\",\"items\":[]}," + with_leaf("{\"ref\":0}");
  EXPECT_EQ(LoadError(Document(list_then_tree, "{\"ref\":1}")),
            "ValueError: packed4j.LoadJSON: nodes[1].fields.leaf: expected a ser.Leaf or null, got list of size 0");
  tree = "{\"type\":\"ser.Tree\",\"fields\":{\"label\":\"t\",\"leaf\":LEAF,\"anything\":null,"
         "\"title\":null,\"items\":null,\"props\":null}}";
  EXPECT_EQ(LoadError(Document(with_leaf("3"))),
            "ValueError: packed4j.LoadJSON: nodes[0].fields.leaf: expected a ser.Leaf or null, got the integer 3");
  tree = "{\"type\":\"ser.Tree\",\"fields\":{\"label\":\"t\",\"leaf\":LEAF,\"anything\":null,"
         "\"title\":null,\"items\":null,\"props\":null}}";
  EXPECT_EQ(LoadError(Document(with_leaf("\"text\""))),
            "ValueError: packed4j.LoadJSON: nodes[0].fields.leaf: expected a ser.Leaf or null, got string \"text\"");
  // A derived object where its base is declared is accepted.
  std::string derived = "{\"type\":\"ser.DerivedLeaf\",\"fields\":{" + leaf_fields + ",\"extra\":0.5}}";
  tree = "{\"type\":\"ser.Tree\",\"fields\":{\"label\":\"t\",\"leaf\":LEAF,\"anything\":null,"
         "\"title\":null,\"items\":null,\"props\":null}}";
  Tree with_derived = LoadJSON(Document(derived + "," + with_leaf("{\"ref\":0}"), "{\"ref\":1}")).cast<Tree>();
  EXPECT_EQ(with_derived->leaf->GetTypeKey(), "ser.DerivedLeaf");
  EXPECT_FALSE(with_derived->items.defined());
}

TEST(SerializationTest, DeclaredElementTypesOfContainerFieldsAreChecked) {
  auto bin = make_object<LeafBinObject>();
  bin->leaves = List<Leaf>{LeafRef(1, "a"), LeafRef(2, "b")};
  bin->counts = Map<std::string, int64_t>{{"a", 1}};
  std::string saved = SaveJSON(ObjectRef(bin));
  ASSERT_TRUE(StructuralEqual(ObjectRef(bin), LoadJSON(saved)));
  // In SaveJSON's own layout (the streaming loader) and in another key order (the tree loader alone): one error.
  std::string leaf = "{\"type\":\"ser.Leaf\",\"fields\":{\"small\":1,\"big\":2,\"serial\":3,\"weight\":4.0,"
                     "\"flag\":true,\"name\":\"n\"}}";
  // nodes: the leaf, a list of the items, a map of the entries, and the bin referring to both (the root).
  auto document = [&](const std::string& items, const std::string& entries, bool saved_order) {
    std::string leaves_field = "\"leaves\":{\"ref\":1}";
    std::string counts_field = "\"counts\":{\"ref\":2}";
    std::string bin = "{\"type\":\"ser.LeafBin\",\"fields\":{" +
                      (saved_order ? leaves_field + "," + counts_field : counts_field + "," + leaves_field) + "}}";
    return Document(leaf + ",{\"type\":\"List\",\"items\":[" + items + "]},{\"type\":\"Map\",\"entries\":[" +
                        entries + "]}," + bin,
                    "{\"ref\":3}");
  };
  for (bool saved_order : {true, false}) {
    EXPECT_EQ(LoadError(document("{\"ref\":0},7", "[\"a\",1]", saved_order)),
              "ValueError: packed4j.LoadJSON: nodes[3].fields.leaves: declared list<ser.Leaf>, list element at index 1 "
              "expected ser.Leaf, got int 7")
        << saved_order;
    EXPECT_EQ(LoadError(document("{\"ref\":0}", "[\"a\",\"one\"]", saved_order)),
              "ValueError: packed4j.LoadJSON: nodes[3].fields.counts: declared map<string, int64>, map value for key "
              "string \"a\" expected int64, got string \"one\"")
        << saved_order;
    // The right elements load.
    ObjectRef loaded = LoadJSON(document("{\"ref\":0}", "[\"a\",1]", saved_order)).cast<ObjectRef>();
    EXPECT_EQ(static_cast<const LeafBinObject*>(loaded.get())->leaves.size(), 1);
  }
}

TEST(SerializationTest, TypesWithoutADefaultConstructorAreSavedButNotCreated) {
  auto fixed = make_object<FixedObject>(12);
  std::string json = SaveJSON(fixed);
  EXPECT_EQ(json, Document("{\"type\":\"ser.Fixed\",\"fields\":{\"value\":12}}"));
  EXPECT_TRUE(StructuralEqual(fixed, make_object<FixedObject>(12)));
  std::string expected = "type \"ser.Fixed\" cannot be created from data: it has no default constructor, or it was "
                         "not registered with P4J_REGISTER_OBJECT_TYPE by headers that record the creation hook";
  EXPECT_EQ(LoadError(json), "ValueError: packed4j.LoadJSON: nodes[0]: " + expected);
  EXPECT_EQ(ErrorOf([&] { DeepCopy(fixed); }), "ValueError: packed4j.DeepCopy: " + expected);
}

TEST(SerializationTest, TensorsAreCheckedAndLimited) {
  auto tensor_node = [](const std::string& dtype, const std::string& shape, const std::string& data) {
    return Document("{\"type\":\"NDArray\",\"dtype\":\"" + dtype + "\",\"shape\":" + shape + ",\"data\":\"" + data +
                    "\"}");
  };
  EXPECT_EQ(LoadJSON(tensor_node("int16", "[2]", "AQD//w==")).cast<NDArray>().data<int16_t>()[1], -1);
  EXPECT_EQ(LoadError(tensor_node("real32", "[1]", "")),
            "ValueError: packed4j.LoadJSON: nodes[0].dtype: expected a dtype name such as \"float32\", got the string "
            "\"real32\"");
  EXPECT_EQ(LoadError(tensor_node("int16", "[3]", "AQD//w==")),
            "ValueError: packed4j.LoadJSON: nodes[0].data: expected the base64 text of 6 bytes (dtype int16, shape "
            "(3,))");
  EXPECT_EQ(LoadError(tensor_node("int16", "[-1]", "")),
            "ValueError: packed4j.LoadJSON: nodes[0].shape[0]: expected a non-negative integer, got the integer -1");
  EXPECT_EQ(LoadError(tensor_node("float32", "[4194305]", "")),
            "ValueError: packed4j.LoadJSON: nodes[0]: a tensor of dtype float32 and shape (4194305,) has 16777220 "
            "bytes, more than the limit of 16777216");
  EXPECT_EQ(LoadError(tensor_node("float32", "[4294967296,4294967296]", "")),
            "ValueError: packed4j.LoadJSON: nodes[0]: a tensor of dtype float32 and shape (4294967296, 4294967296) "
            "has no whole number of bytes");
  NDArray big = NDArray::Empty({(int64_t{16} << 20) / 4 + 1}, DataTypeOf<float>());
  EXPECT_EQ(ErrorOf([&] { SaveJSON(List<Any>{big}); }),
            "ValueError: packed4j.SaveJSON: nodes[0]: a tensor of 16777220 bytes is larger than the limit of "
            "16777216 bytes");
  NDArray limit = NDArray::Empty({(int64_t{16} << 20) / 4}, DataTypeOf<float>());
  EXPECT_TRUE(StructuralEqual(LoadJSON(SaveJSON(limit)), limit));
}

TEST(SerializationTest, WhatIsNotDataCannotBeSaved) {
  PackedFunc function = PackedFunc::GetGlobal("packed4j.ListSize");
  EXPECT_EQ(ErrorOf([&] { SaveJSON(List<Any>{int64_t{1}, function}); }),
            "ValueError: packed4j.SaveJSON: nodes[0]: a Function object cannot be saved (only lists, maps, NDArrays "
            "and objects of registered types are data)");
  EXPECT_EQ(ErrorOf([&] { SaveJSON(List<Any>{static_cast<void*>(&function)}); }).find(
                "ValueError: packed4j.SaveJSON: nodes[0].items[0]: opaque pointer"),
            0u);
  auto leaf = MakeLeaf(1, std::string("bad \xff utf-8"));
  EXPECT_EQ(ErrorOf([&] { SaveJSON(leaf); }),
            "ValueError: packed4j.SaveJSON: nodes[0].fields.name: the string \"bad \xff utf-8\" is not valid UTF-8 "
            "(byte 4); keep binary data in Bytes");
}

TEST(SerializationTest, TheGlobalsAreRegisteredWithSignatures) {
  for (const char* name : {"packed4j.SaveJSON", "packed4j.LoadJSON", "packed4j.StructuralEqual",
                           "packed4j.StructuralHash", "packed4j.DeepCopy"}) {
    PackedFunc function = PackedFunc::GetGlobal(name);
    ASSERT_TRUE(function.defined()) << name;
    EXPECT_FALSE(function.signature().empty()) << name;
  }
  EXPECT_EQ(PackedFunc::GetGlobal("packed4j.StructuralEqual").signature(), "(any, any) -> bool");
  // The creation-hook registrar refuses what is not a dynamic type, naming itself.
  PackedFunc registrar = PackedFunc::GetGlobal("packed4j_internal.RegisterObjectCreator");
  EXPECT_EQ(ErrorOf([&] { registrar(int64_t{kP4JList}, Any(), false); }),
            "ValueError: packed4j_internal.RegisterObjectCreator: argument 0 must be a registered dynamic type "
            "index, got 68");
}

}  // namespace
