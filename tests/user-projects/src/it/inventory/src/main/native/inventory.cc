// A project with only C++ sources: packed4j-maven-plugin's generate goal writes its Java API.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <memory>
#include <string>

using namespace packed4j;

// ---- functions: inventory.Total becomes Inventory.total(List<Long> counts), its doc string the method's Javadoc
P4J_REGISTER_GLOBAL("inventory.Total")
    .set_body_typed([](List<int64_t> counts) {
      int64_t total = 0;
      for (int64_t count : counts) total += count;
      return total;
    })
    .describe("The sum of the counts")
    .params({"counts"});

P4J_REGISTER_GLOBAL("inventory.Label")
    .set_body_typed([](std::string name, int64_t count) { return name + " x" + std::to_string(count); })
    .params({"name", "count"});

// ---- objects: each type becomes an @Object interface with a getter per field
class ItemObject : public Object {
 public:
  std::string name;
  int64_t count = 0;

  ItemObject() = default;
  ItemObject(std::string name_in, int64_t count_in) : name(std::move(name_in)), count(count_in) {}

  int64_t Take(int64_t wanted) {
    int64_t taken = wanted < count ? wanted : count;
    count -= taken;
    return taken;
  }

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("name", &name);
    v->Visit("count", &count);
  }

  static constexpr const char* _type_key = "inventory.Item";
  P4J_DECLARE_OBJECT_TYPE_INFO(ItemObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ItemObject);

class PerishableObject : public ItemObject {
 public:
  int64_t days_left = 0;

  void VisitAttrs(AttrVisitor* v) override {
    ItemObject::VisitAttrs(v);
    v->Visit("days_left", &days_left);
  }

  static constexpr const char* _type_key = "inventory.Perishable";
  P4J_DECLARE_OBJECT_TYPE_INFO(PerishableObject, ItemObject);
};
P4J_REGISTER_OBJECT_TYPE(PerishableObject);

// ---- object definitions: a writable field gets a setter, a method a Java method, the constructor a method of the
// Inventory interface (newItem); each with its doc string
P4J_REGISTER_OBJECT_DEF(ItemObject, "Goods on a shelf")
    .def_ro("name", &ItemObject::name, "what the goods are")
    .def_rw("count", &ItemObject::count, "how many are on the shelf")
    .def("Take", &ItemObject::Take, "takes up to wanted off the shelf and returns how many it took", {"wanted"})
    .def(init<std::string, int64_t>(), "goods of a name and a count", {"name", "count"});

class Item : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Item, ObjectRef, ItemObject);
};

class Perishable : public Item {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Perishable, Item, PerishableObject);
};

P4J_REGISTER_GLOBAL("inventory.MakeItem")
    .set_body_typed([](std::string name, int64_t count) { return Item(make_object<ItemObject>(name, count)); })
    .params({"name", "count"});

P4J_REGISTER_GLOBAL("inventory.MakePerishable").set_body_typed([](std::string name, int64_t days_left) {
  auto item = make_object<PerishableObject>();
  item->name = name;
  item->count = 1;
  item->days_left = days_left;
  return Perishable(item);
});

P4J_REGISTER_GLOBAL("inventory.CountAll").set_body_typed([](List<Item> items) {
  int64_t total = 0;
  for (Item item : items) total += item->count;
  return total;
});

// ---- callbacks: a function in (a Java callback), a function out (a native closure)
P4J_REGISTER_GLOBAL("inventory.Restock").set_body_typed([](PackedFunc supplier, std::string name) {
  TypedPackedFunc<int64_t(std::string)> supply(supplier);
  return supply(name) + 1;
});

P4J_REGISTER_GLOBAL("inventory.Counter").set_body_typed([](int64_t start) {
  auto count = std::make_shared<int64_t>(start);
  return PackedFunc::FromTyped([count](int64_t step) { return *count += step; }, "counter");
});

// ---- a set_body function: no signature, so Java gets Object describe(Object... args)
P4J_REGISTER_GLOBAL("inventory.Describe").set_body([](Args args, RetValue* rv) {
  std::string text;
  for (int i = 0; i < args.size(); ++i) text += (i ? "," : "") + args[i].operator std::string();
  *rv = text;
});
