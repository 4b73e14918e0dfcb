// Object types for the end-to-end tests (ObjectsTest): every field kind, a derived type, and a type that Java
// has no interface for.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <string>

using namespace packed4j;

class NodeObject : public Object {
 public:
  int32_t small = 0;
  int64_t big = 0;
  uint64_t unsigned_big = 0;
  double ratio = 0.0;
  bool flag = false;
  std::string name;
  ObjectRef child;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("small", &small);
    v->Visit("big", &big);
    v->Visit("unsigned_big", &unsigned_big);
    v->Visit("ratio", &ratio);
    v->Visit("flag", &flag);
    v->Visit("name", &name);
    v->Visit("child", &child);
  }

  static constexpr const char* _type_key = "test.Node";
  P4J_DECLARE_OBJECT_TYPE_INFO(NodeObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(NodeObject);

class DerivedNodeObject : public NodeObject {
 public:
  int64_t extra = 0;

  void VisitAttrs(AttrVisitor* v) override {
    NodeObject::VisitAttrs(v);
    v->Visit("extra", &extra);
  }

  static constexpr const char* _type_key = "test.DerivedNode";
  P4J_DECLARE_OBJECT_TYPE_INFO(DerivedNodeObject, NodeObject);
};
P4J_REGISTER_OBJECT_TYPE(DerivedNodeObject);

class HiddenObject : public Object {
 public:
  std::string secret;
  int64_t level = 0;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("secret", &secret);
    v->Visit("level", &level);
  }

  static constexpr const char* _type_key = "test.Hidden";
  P4J_DECLARE_OBJECT_TYPE_INFO(HiddenObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(HiddenObject);

class Node : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Node, ObjectRef, NodeObject);
};

P4J_REGISTER_GLOBAL("test.MakeNode").set_body([](Args args, RetValue* rv) {
  auto node = make_object<NodeObject>();
  node->small = args[0];
  node->big = args[1];
  // Java has no unsigned long: the bit pattern of the int64 argument is the uint64 value.
  node->unsigned_big = static_cast<uint64_t>(static_cast<int64_t>(args[2]));
  node->ratio = args[3];
  node->flag = args[4];
  node->name = args[5].operator std::string();
  *rv = node;
});

P4J_REGISTER_GLOBAL("test.MakeDerived").set_body([](Args args, RetValue* rv) {
  auto node = make_object<DerivedNodeObject>();
  node->name = args[0].operator std::string();
  node->extra = args[1];
  *rv = node;
});

P4J_REGISTER_GLOBAL("test.MakeHidden").set_body([](Args args, RetValue* rv) {
  auto hidden = make_object<HiddenObject>();
  hidden->secret = args[0].operator std::string();
  hidden->level = args[1];
  *rv = hidden;
});

P4J_REGISTER_GLOBAL("test.SetChild").set_body([](Args args, RetValue*) {
  Node parent = args[0];
  ObjectRef child = args[1];
  const_cast<NodeObject*>(parent.operator->())->child = child;
});

P4J_REGISTER_GLOBAL("test.GetChild").set_body([](Args args, RetValue* rv) {
  Node parent = args[0];
  *rv = parent->child;
});

P4J_REGISTER_GLOBAL("test.NodeName").set_body([](Args args, RetValue* rv) {
  Node node = args[0];
  *rv = node->name;
});

// A type whose Java view (LeafNode) no test touches before it arrives declared as its base: the runtime must
// find the view by the type key alone.
class LeafNodeObject : public NodeObject {
 public:
  std::string leaf_label;

  void VisitAttrs(AttrVisitor* v) override {
    NodeObject::VisitAttrs(v);
    v->Visit("leaf_label", &leaf_label);
  }

  static constexpr const char* _type_key = "test.LeafNode";
  P4J_DECLARE_OBJECT_TYPE_INFO(LeafNodeObject, NodeObject);
};
P4J_REGISTER_OBJECT_TYPE(LeafNodeObject);

P4J_REGISTER_GLOBAL("test.MakeLeaf").set_body_typed([](std::string label) {
  auto leaf = make_object<LeafNodeObject>();
  leaf->leaf_label = label;
  return ObjectRef(leaf);
});

class DerivedNode : public Node {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(DerivedNode, Node, DerivedNodeObject);
};

// Typed over an object key: its signature is "(test.DerivedNode) -> int64", which TypeVerdictParityTest checks
// declarations against (a base, the type itself, and a sibling type that is unrelated).
P4J_REGISTER_GLOBAL("test.DerivedExtra").set_body_typed([](DerivedNode node) { return node->extra; });

// Objects as data, the C++ side (ObjectsAsDataTest): a graph built here is saved here with packed4j::SaveJSON for
// Java to load, and a document Java saved is loaded here with packed4j::LoadJSON and checked here.

// [a, b, a] with a.child = b: a referenced twice, b twice (once as a's child).
P4J_REGISTER_GLOBAL("test.data.SaveSharedGraph").set_body_typed([](std::string name) {
  auto a = make_object<NodeObject>();
  a->name = name + ".a";
  a->big = 1 << 20;
  auto b = make_object<NodeObject>();
  b->name = name + ".b";
  b->ratio = 0.25;
  a->child = ObjectRef(b);
  List<Any> graph{a, b, a};
  return SaveJSON(graph);
});

// What test.data.SaveSharedGraph built, as Java saves it: "" when the loaded graph has that structure and sharing,
// else what differs.
P4J_REGISTER_GLOBAL("test.data.CheckSharedGraph").set_body_typed([](std::string json, std::string name) {
  List<Any> graph = LoadJSON(json).cast<List<Any>>();
  if (graph.size() != 3) return std::string("3 items expected, got ") + std::to_string(graph.size());
  Node a = graph[0].cast<Node>();
  Node b = graph[1].cast<Node>();
  if (!graph[2].cast<Node>().same_as(a)) return std::string("items 0 and 2 are not one object");
  if (!a->child.same_as(b)) return std::string("item 0's child is not item 1");
  if (a->name != name + ".a" || a->big != (1 << 20)) return "item 0 is " + a->name;
  if (b->name != name + ".b" || b->ratio != 0.25) return "item 1 is " + b->name;
  return std::string();
});
