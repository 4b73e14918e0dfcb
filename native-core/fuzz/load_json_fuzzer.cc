// libFuzzer target for packed4j.LoadJSON: any input is a document, malformed or not. Loading either succeeds or
// fails with a ValueError (any other error kind, a crash or a sanitizer report is a bug), and leaves no object
// alive. A document that loads must survive the other operations: SaveJSON of it succeeds, loading that text
// gives a structurally equal value with the same hash, saving again gives the same text (the same nodes, order
// and sharing), and DeepCopy gives an equal value saved the same way. The streaming and the tree loader of LoadJSON
// must agree (see Check).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <packed4j/packed4j.h>

using namespace packed4j;

namespace {

// Types a document can name, so the fuzzer reaches object creation and every field kind.
class FuzzLeafObject : public Object {
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
  static constexpr const char* _type_key = "fuzz.Leaf";
  P4J_DECLARE_OBJECT_TYPE_INFO(FuzzLeafObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(FuzzLeafObject);

class FuzzLeaf : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(FuzzLeaf, ObjectRef, FuzzLeafObject);
};

class FuzzTreeObject : public Object {
 public:
  FuzzLeaf leaf;
  ObjectRef anything;
  String title;
  List<Any> items;
  void VisitAttrs(AttrVisitor* v) final {
    v->Visit("leaf", &leaf);
    v->Visit("anything", &anything);
    v->Visit("title", &title);
    v->Visit("items", &items);
  }
  static constexpr const char* _type_key = "fuzz.Tree";
  P4J_DECLARE_OBJECT_TYPE_INFO(FuzzTreeObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(FuzzTreeObject);

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "load_json_fuzzer: %s\n", what.c_str());
  std::abort();
}

void Check(const std::string& text) {
  Any loaded;
  try {
    loaded = LoadJSON(text);
  } catch (const ValueError& error) {
    if (error.message().rfind("packed4j.LoadJSON: ", 0) != 0) {
      Fail("a message without the function: " + error.message());
    }
    return;
  } catch (const Error& error) {
    Fail("LoadJSON raised " + error.kind() + ", not ValueError: " + error.message());
  }
  try {
    // LoadJSON streams documents laid out as SaveJSON writes them and leaves the rest to a tree loader. The same
    // JSON with its first "format" spelled with an escape (the same text inside any string) goes to the tree
    // loader, which must build the same value.
    std::string escaped = text;
    size_t at = escaped.find("\"format\"");
    if (at != std::string::npos) {
      escaped.replace(at, 8, "\"\\u0066ormat\"");
      Any tree = LoadJSON(escaped);
      if (!StructuralEqual(loaded, tree) || SaveJSON(tree) != SaveJSON(loaded)) {
        Fail("the streaming and the tree loader disagree: " + text);
      }
    }
    std::string saved = SaveJSON(loaded);
    Any again = LoadJSON(saved);
    if (!StructuralEqual(loaded, again)) Fail("a loaded value does not equal its round trip: " + saved);
    if (StructuralHash(loaded) != StructuralHash(again)) Fail("equal values hash differently: " + saved);
    if (SaveJSON(again) != saved) Fail("saving a round trip gives other text: " + saved);
    Any copy = DeepCopy(loaded);
    if (!StructuralEqual(loaded, copy) || SaveJSON(copy) != saved) Fail("a deep copy differs: " + saved);
  } catch (const Error& error) {
    Fail("a loaded value fails " + error.kind() + ": " + error.message());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int64_t before = P4JObjectLiveCount();
  Check(std::string(reinterpret_cast<const char*>(data), size));
  if (P4JObjectLiveCount() != before) {
    std::fprintf(stderr, "load_json_fuzzer: %lld objects leaked\n",
                 static_cast<long long>(P4JObjectLiveCount() - before));
    std::abort();
  }
  return 0;
}
