// Objects: layout (header offset), make_object, reference counts, the live count, type indices and
// inheritance, field metadata recorded without an instance, and reads by name or index.
#include <dlfcn.h>

#include <limits>

#include "test_util.h"

namespace {

using namespace packed4j;
using namespace packed4j::testing;

class ShapeObject : public Object {
 public:
  std::string name;
  int32_t sides = 0;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("name", &name);
    v->Visit("sides", &sides);
  }

  static constexpr const char* _type_key = "test.Shape";
  P4J_DECLARE_OBJECT_TYPE_INFO(ShapeObject, Object);
};

class Shape : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Shape, ObjectRef, ShapeObject);
};

/*! \brief Every field kind, plus the inherited ones (its VisitAttrs does not visit the parent's). */
class RichShapeObject : public ShapeObject {
 public:
  int64_t area = 0;
  uint64_t serial = 0;
  double weight = 0;
  bool filled = false;
  Shape neighbour;
  ObjectRef anything;

  void VisitAttrs(AttrVisitor* v) final {
    v->Visit("area", &area);
    v->Visit("serial", &serial);
    v->Visit("weight", &weight);
    v->Visit("filled", &filled);
    v->Visit("neighbour", &neighbour);
    v->Visit("anything", &anything);
  }

  static constexpr const char* _type_key = "test.RichShape";
  P4J_DECLARE_OBJECT_TYPE_INFO(RichShapeObject, ShapeObject);
};

/*! \brief No default constructor: its fields are recorded on raw storage. */
class FixedObject : public Object {
 public:
  explicit FixedObject(int64_t value) : value(value) {}
  int64_t value;
  void VisitAttrs(AttrVisitor* v) final { v->Visit("value", &value); }
  static constexpr const char* _type_key = "test.Fixed";
  P4J_DECLARE_OBJECT_TYPE_INFO(FixedObject, Object);
};

/*! \brief Declared but never registered: a type index on first use, no field metadata. */
class UnregisteredObject : public Object {
 public:
  int64_t hidden = 7;
  void VisitAttrs(AttrVisitor* v) final { v->Visit("hidden", &hidden); }
  static constexpr const char* _type_key = "test.Unregistered";
  P4J_DECLARE_OBJECT_TYPE_INFO(UnregisteredObject, Object);
};

// Registered child before parent on purpose: the merged fields must still come out right.
P4J_REGISTER_OBJECT_TYPE(RichShapeObject);
P4J_REGISTER_OBJECT_TYPE(ShapeObject);
P4J_REGISTER_OBJECT_TYPE(FixedObject);

const P4JTypeInfo* InfoOf(int32_t type_index) {
  const P4JTypeInfo* info = nullptr;
  EXPECT_EQ(P4JTypeGetInfo(type_index, &info), 0);
  return info;
}

int64_t OffsetOf(const Object* object, const void* field) {
  return static_cast<const char*>(field) - reinterpret_cast<const char*>(object->handle());
}

Any GetAttr(const ObjectRef& object, const char* name) {
  P4JByteArray bytes = details::ByteArrayOf(name);
  P4JAny value;
  details::CheckCall(P4JObjectGetAttr(object.handle(), &bytes, &value));
  return Any::FromOwned(value);
}

TEST(ObjectTest, HandleIsTheHeaderAfterTheVtablePointer) {
  auto shape = make_object<ShapeObject>();
  const P4JObject* handle = shape->handle();
  EXPECT_EQ(reinterpret_cast<const char*>(handle) - reinterpret_cast<const char*>(shape.get()),
            static_cast<std::ptrdiff_t>(sizeof(void*)));
  EXPECT_EQ(details::HandleOffset<ShapeObject>(), static_cast<int64_t>(sizeof(void*)));
  EXPECT_EQ(handle->type_index, ShapeObject::RuntimeTypeIndex());
  EXPECT_EQ(handle->ref_counter, 1u);
  EXPECT_NE(handle->deleter, nullptr);
  // The first field comes right after the header.
  EXPECT_GE(OffsetOf(shape.get(), &shape->name), static_cast<int64_t>(sizeof(P4JObject)));
}

TEST(ObjectTest, BuiltinCellsFollowTheHeader) {
  String text("abc");
  EXPECT_EQ(reinterpret_cast<const char*>(&text.get()->cell) - reinterpret_cast<const char*>(text.handle()),
            static_cast<std::ptrdiff_t>(sizeof(P4JObject)));
  List<int64_t> list;
  EXPECT_EQ(reinterpret_cast<const char*>(&list.get()->cell) - reinterpret_cast<const char*>(list.handle()),
            static_cast<std::ptrdiff_t>(sizeof(P4JObject)));
  PackedFunc function([](Args, RetValue*) {});
  EXPECT_EQ(reinterpret_cast<const char*>(&function.get()->cell) -
                reinterpret_cast<const char*>(function.handle()),
            static_cast<std::ptrdiff_t>(sizeof(P4JObject)));
}

TEST(ObjectTest, ReferenceCountsAndLiveCountBalance) {
  int64_t baseline = P4JObjectLiveCount();
  {
    ObjectPtr<ShapeObject> shape = make_object<ShapeObject>();
    EXPECT_EQ(P4JObjectLiveCount(), baseline + 1);
    ObjectPtr<ShapeObject> copy = shape;
    EXPECT_EQ(shape.use_count(), 2u);
    Shape ref(copy);
    EXPECT_EQ(shape.use_count(), 3u);
    ObjectPtr<Object> base = std::move(copy);
    EXPECT_EQ(shape.use_count(), 3u);
    EXPECT_EQ(copy, nullptr);  // NOLINT(bugprone-use-after-move): moved-from pointers are null by contract
    P4JObjectIncRef(shape->handle());
    EXPECT_EQ(shape.use_count(), 4u);
    P4JObjectDecRef(shape->handle());
    Shape again = GetRef<Shape>(shape.get());
    EXPECT_EQ(again.use_count(), 4u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ObjectTest, TypeIndicesKeysAndInheritance) {
  int32_t shape = ShapeObject::RuntimeTypeIndex();
  int32_t rich = RichShapeObject::RuntimeTypeIndex();
  EXPECT_GE(shape, kP4JDynamicObjectBegin);
  EXPECT_NE(shape, rich);
  EXPECT_EQ(P4JTypeIsInstanceOf(rich, shape), 1);
  EXPECT_EQ(P4JTypeIsInstanceOf(shape, rich), 0);
  EXPECT_EQ(P4JTypeIsInstanceOf(rich, kP4JObject), 1);
  EXPECT_EQ(P4JTypeIsInstanceOf(kP4JString, shape), 0);

  ObjectPtr<RichShapeObject> object = make_object<RichShapeObject>();
  EXPECT_TRUE(object->IsInstance<ShapeObject>());
  EXPECT_TRUE(object->IsInstance<Object>());
  ObjectPtr<ShapeObject> plain = make_object<ShapeObject>();
  EXPECT_FALSE(plain->IsInstance<RichShapeObject>());

  ObjectRef as_base(object);
  EXPECT_NE(as_base.as<ShapeObject>(), nullptr);
  EXPECT_EQ(ObjectRef(plain).as<RichShapeObject>(), nullptr);
  EXPECT_EQ(Downcast<Shape>(as_base)->sides, 0);
  EXPECT_EQ(ErrorOf([&] { Downcast<Shape>(ObjectRef(String("x"))); }),
            "TypeError: cannot downcast a String object to test.Shape");

  const P4JTypeInfo* info = InfoOf(rich);
  EXPECT_EQ(details::ViewOf(info->type_key), "test.RichShape");
  EXPECT_EQ(info->parent_type_index, shape);
  EXPECT_EQ(info->depth, 2);
  EXPECT_EQ(info->instance_size, static_cast<int64_t>(sizeof(RichShapeObject) - sizeof(void*)));
  EXPECT_EQ(InfoOf(kP4JObject)->parent_type_index, -1);
  EXPECT_EQ(InfoOf(kP4JObject)->depth, 0);

  int32_t found = -1;
  P4JByteArray key = details::ByteArrayOf("test.Shape");
  ASSERT_EQ(P4JTypeKeyToIndex(&key, &found), 0);
  EXPECT_EQ(found, shape);
  P4JByteArray unknown = details::ByteArrayOf("test.NoSuchType");
  EXPECT_EQ(P4JTypeKeyToIndex(&unknown, &found), -1);
  EXPECT_EQ(TakeRaised(), "KeyError: type key \"test.NoSuchType\" is not registered");

  // The same key under another parent is refused. What other tests' registrations left (in one process: the
  // C++ sheet's duplicate name, the ABI test plugins) is taken first, so only this refusal is counted.
  PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors")();
  int32_t ignored = 0;
  EXPECT_EQ(P4JTypeGetOrAllocIndex(&key, kP4JList, 32, &ignored), -1);
  std::string refused = TakeRaised();
  EXPECT_EQ(refused.rfind("ValueError: type key \"test.Shape\" is registered by ", 0), 0u) << refused;
  EXPECT_NE(refused.find(" with parent \"Object\", and "), std::string::npos) << refused;
  EXPECT_NE(refused.find(" registers it again with parent \"List\""), std::string::npos) << refused;
  // A loader reports it: the refusal is recorded as a registration error.
  List<std::string> recorded =
      PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors")().cast<List<std::string>>();
  ASSERT_EQ(recorded.size(), 1);
  EXPECT_EQ(recorded[0].rfind("LoadError: type key \"test.Shape\"", 0), 0u) << recorded[0];
  // The same key under the same parent is the same index.
  ASSERT_EQ(P4JTypeGetOrAllocIndex(&key, kP4JObject, 0, &ignored), 0);
  EXPECT_EQ(ignored, shape);
}

TEST(ObjectTest, FieldMetadataOfEveryKindIncludingInheritedFields) {
  const P4JTypeInfo* info = InfoOf(RichShapeObject::RuntimeTypeIndex());
  ASSERT_EQ(info->num_fields, 8);
  RichShapeObject probe;
  struct Expected {
    const char* name;
    P4JFieldKind kind;
    const void* address;
    int64_t size;
    int32_t object_type_index;
  } expected[] = {
      {"name", kP4JFieldString, &probe.name, sizeof(std::string), 0},
      {"sides", kP4JFieldInt32, &probe.sides, 4, 0},
      {"area", kP4JFieldInt64, &probe.area, 8, 0},
      {"serial", kP4JFieldUInt64, &probe.serial, 8, 0},
      {"weight", kP4JFieldFloat64, &probe.weight, 8, 0},
      {"filled", kP4JFieldBool, &probe.filled, 1, 0},
      {"neighbour", kP4JFieldObject, &probe.neighbour, 8, ShapeObject::RuntimeTypeIndex()},
      {"anything", kP4JFieldObject, &probe.anything, 8, kP4JObject},
  };
  for (int32_t i = 0; i < info->num_fields; ++i) {
    const P4JFieldInfo& field = info->fields[i];
    SCOPED_TRACE(expected[i].name);
    EXPECT_EQ(details::ViewOf(field.name), expected[i].name);
    EXPECT_EQ(field.kind, expected[i].kind);
    EXPECT_EQ(field.offset, OffsetOf(&probe, expected[i].address));
    EXPECT_EQ(field.size, expected[i].size);
    EXPECT_EQ(field.object_type_index, expected[i].object_type_index);
  }
  // The parent has only its own two fields.
  EXPECT_EQ(InfoOf(ShapeObject::RuntimeTypeIndex())->num_fields, 2);
  // Without a default constructor, recorded all the same.
  const P4JTypeInfo* fixed = InfoOf(FixedObject::RuntimeTypeIndex());
  ASSERT_EQ(fixed->num_fields, 1);
  FixedObject fixed_probe(1);
  EXPECT_EQ(fixed->fields[0].offset, OffsetOf(&fixed_probe, &fixed_probe.value));
}

// An object with a field of its own reference type: the reference class is defined while the object type is only
// declared (P4J_DEFINE_OBJECT_REF_METHODS needed it complete, so such a field had to be a plain ObjectRef).
class TreeNodeObject;
class TreeNode : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(TreeNode, ObjectRef, TreeNodeObject);
};
class TreeNodeObject : public Object {
 public:
  int64_t value = 0;
  TreeNode parent;
  void VisitAttrs(AttrVisitor* v) final {
    v->Visit("value", &value);
    v->Visit("parent", &parent);
  }
  static constexpr const char* _type_key = "test.TreeNode";
  P4J_DECLARE_OBJECT_TYPE_INFO(TreeNodeObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(TreeNodeObject);

TEST(ObjectTest, AFieldOfTheObjectsOwnReferenceType) {
  auto root = make_object<TreeNodeObject>();
  root->value = 1;
  auto leaf = make_object<TreeNodeObject>();
  leaf->value = 2;
  leaf->parent = TreeNode(root);
  TreeNode node(leaf);
  EXPECT_EQ(node->value, 2);
  EXPECT_EQ(node->parent->value, 1);
  EXPECT_EQ(node.get()->parent.get(), root.get());
  const P4JTypeInfo* info = InfoOf(TreeNodeObject::RuntimeTypeIndex());
  ASSERT_EQ(info->num_fields, 2);
  EXPECT_EQ(details::ViewOf(info->fields[1].name), "parent");
  EXPECT_EQ(info->fields[1].kind, kP4JFieldObject);
  EXPECT_EQ(info->fields[1].object_type_index, TreeNodeObject::RuntimeTypeIndex());  // typed, not Object
}

TEST(ObjectTest, ReadsFieldsByNameAndIndex) {
  int64_t baseline = P4JObjectLiveCount();
  {
    auto neighbour = make_object<ShapeObject>();
    neighbour->name = "square";
    auto rich = make_object<RichShapeObject>();
    rich->name = std::string("tri\0angle", 9);
    rich->sides = 3;
    rich->area = -12;
    rich->serial = 99;
    rich->weight = 1.5;
    rich->filled = true;
    rich->neighbour = Shape(neighbour);
    ObjectRef ref(rich);

    EXPECT_EQ(GetAttr(ref, "name").cast<std::string>(), std::string("tri\0angle", 9));
    EXPECT_EQ(GetAttr(ref, "sides").cast<int64_t>(), 3);
    EXPECT_EQ(GetAttr(ref, "area").cast<int64_t>(), -12);
    EXPECT_EQ(GetAttr(ref, "serial").cast<uint64_t>(), 99u);
    EXPECT_EQ(GetAttr(ref, "weight").cast<double>(), 1.5);
    EXPECT_EQ(GetAttr(ref, "filled").type_index(), kP4JBool);
    EXPECT_TRUE(GetAttr(ref, "filled").cast<bool>());
    EXPECT_TRUE(GetAttr(ref, "neighbour").cast<Shape>().same_as(Shape(neighbour)));
    EXPECT_TRUE(GetAttr(ref, "anything").is_none());
    EXPECT_EQ(neighbour.use_count(), 2u);

    P4JAny by_index;
    ASSERT_EQ(P4JObjectGetField(ref.handle(), 1, &by_index), 0);
    EXPECT_EQ(by_index.v_int64, 3);
    EXPECT_EQ(P4JObjectGetField(ref.handle(), 8, &by_index), -1);
    EXPECT_EQ(TakeRaised(), "IndexError: field index 8 is out of range: test.RichShape has 8 fields");

    EXPECT_EQ(ErrorOf([&] { GetAttr(ref, "colour"); }),
              "AttributeError: test.RichShape object has no field \"colour\"; its fields are: name, sides, area, "
              "serial, weight, filled, neighbour, anything");
    rich->serial = std::numeric_limits<uint64_t>::max();
    EXPECT_EQ(ErrorOf([&] { GetAttr(ref, "serial"); }),
              "ValueError: field \"serial\" of test.RichShape holds 18446744073709551615, which is out of range "
              "for int64");
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(ObjectTest, UnregisteredTypesGetAnIndexButNoFields) {
  auto object = make_object<UnregisteredObject>();
  EXPECT_GE(object->type_index(), kP4JDynamicObjectBegin);
  EXPECT_EQ(object->GetTypeKey(), "test.Unregistered");
  EXPECT_EQ(InfoOf(object->type_index())->num_fields, 0);
  EXPECT_EQ(ErrorOf([&] { GetAttr(ObjectRef(object), "hidden"); }),
            "AttributeError: test.Unregistered object has no field \"hidden\"; it has no recorded fields "
            "(P4J_REGISTER_OBJECT_TYPE records them)");
}

/*! \brief One int64 or float64 field named "value" at the first field offset, as two libraries might declare it. */
std::vector<P4JFieldInfo> ValueField(P4JFieldKind kind) {
  P4JFieldInfo field{};
  field.name = details::ByteArrayOf("value");
  field.kind = kind;
  field.offset = static_cast<int64_t>(sizeof(P4JObject));
  field.size = 8;
  return {field};
}

TEST(ObjectTest, AKeyRegisteredAgainKeepsItsLayoutOrIsRefusedNamingBothLibraries) {
  P4JByteArray key = details::ByteArrayOf("test.RegisteredTwice");
  int32_t index = -1;
  ASSERT_EQ(P4JTypeGetOrAllocIndex(&key, kP4JObject, 64, &index), 0);
  std::vector<P4JFieldInfo> first = ValueField(kP4JFieldFloat64);
  ASSERT_EQ(P4JTypeRegisterFields(index, first.data(), 1), 0);
  // Every library using the type registers it at load: the same layout again is fine.
  std::vector<P4JFieldInfo> same = ValueField(kP4JFieldFloat64);
  EXPECT_EQ(P4JTypeRegisterFields(index, same.data(), 1), 0);

  std::vector<P4JFieldInfo> other = ValueField(kP4JFieldInt64);
  PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors")();  // what other tests left, in one process
  EXPECT_EQ(P4JTypeRegisterFields(index, other.data(), 1), -1);
  std::string refused = TakeRaised();
  Dl_info self{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&ValueField), &self), 0);
  std::string library = self.dli_fname;
  EXPECT_EQ(refused, "ValueError: type key \"test.RegisteredTwice\" is registered by " + library +
                         " with the fields {value: float64 at 24 (8 bytes)}, and " + library +
                         " registers it again with other fields {value: int64 at 24 (8 bytes)}: the Java side "
                         "would read one library's objects at the other's offsets. The first layout stays; give "
                         "one of the types another type key, or build both libraries from the same definition");
  List<std::string> recorded =
      PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors")().cast<List<std::string>>();
  ASSERT_EQ(recorded.size(), 1);
  EXPECT_EQ("ValueError: " + std::string(recorded[0]).substr(std::string("LoadError: ").size()), refused);
  // The first layout stays.
  const P4JTypeInfo* info = InfoOf(index);
  ASSERT_EQ(info->num_fields, 1);
  EXPECT_EQ(info->fields[0].kind, kP4JFieldFloat64);
}

TEST(ObjectTest, RegisterFieldsValidatesOffsets) {
  P4JFieldInfo bad{};
  bad.name = details::ByteArrayOf("outside");
  bad.kind = kP4JFieldInt64;
  bad.offset = 4;
  bad.size = 8;
  EXPECT_EQ(P4JTypeRegisterFields(FixedObject::RuntimeTypeIndex(), &bad, 1), -1);
  EXPECT_EQ(TakeRaised().rfind("ValueError: field \"outside\" of type \"test.Fixed\" at offset 4", 0), 0u);
  EXPECT_EQ(InfoOf(FixedObject::RuntimeTypeIndex())->num_fields, 1);
}

}  // namespace
