// Borrowed object arguments (details/function_entries.h, kBorrowedObjectParameter): a set_body_typed body or a
// method taking `const ObjectPtr<T>&` or `const Ref&` is lent the caller's object, through the typed entry and
// through a packed call alike: no reference count taken or dropped, the same type check (derived types accepted)
// and the same errors as a parameter taken by value, which still gets a reference of its own.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <packed4j/packed4j.h>

#include "test_util.h"

namespace packed4j {
namespace {

using testing::TakeRaised;

class LentObject : public Object {
 public:
  int64_t value = 0;
  explicit LentObject(int64_t value_in = 0) : value(value_in) {}
  void VisitAttrs(AttrVisitor* v) override { v->Visit("value", &value); }
  /*! \brief The count the method sees on its own object. */
  int64_t Count() const { return static_cast<int64_t>(use_count()); }
  virtual int64_t Kind() const { return 1; }
  static constexpr const char* _type_key = "borrow.Lent";
  P4J_DECLARE_OBJECT_TYPE_INFO(LentObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(LentObject);

class DerivedLentObject : public LentObject {
 public:
  explicit DerivedLentObject(int64_t value_in = 0) : LentObject(value_in) {}
  int64_t Kind() const override { return 2; }
  static constexpr const char* _type_key = "borrow.DerivedLent";
  P4J_DECLARE_OBJECT_TYPE_INFO(DerivedLentObject, LentObject);
};
P4J_REGISTER_OBJECT_TYPE(DerivedLentObject);

class Lent : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Lent, ObjectRef, LentObject);
};

ObjectPtr<LentObject> kept;

P4J_REGISTER_GLOBAL("borrow.PtrCount").set_body_typed([](const ObjectPtr<LentObject>& object) {
  return static_cast<int64_t>(object.use_count()) * 10 + object->Kind();
});
P4J_REGISTER_GLOBAL("borrow.RefCount").set_body_typed([](const Lent& object) {
  return static_cast<int64_t>(object.use_count()) * 10 + object->Kind();
});
P4J_REGISTER_GLOBAL("borrow.ValueCount").set_body_typed([](ObjectPtr<LentObject> object) {
  return static_cast<int64_t>(object.use_count()) * 10 + object->Kind();
});
P4J_REGISTER_GLOBAL("borrow.Keep").set_body_typed([](const ObjectPtr<LentObject>& object, int64_t value) {
  kept = object;  // a copy of the lent reference takes a count of its own
  return object->value + value;
});

P4J_REGISTER_OBJECT_DEF(LentObject, "an object lent to its methods")
    .def("count", &LentObject::Count)
    .def("count_by_value", [](ObjectPtr<LentObject> self) { return static_cast<int64_t>(self.use_count()); });

int64_t WordOf(const ObjectRef& object) { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(object.handle())); }
int64_t WordOf(const ObjectPtr<Object>& object) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(object.handle()));
}

using Entry = int64_t (*)(P4JObjectHandle, int64_t);

Entry EntryOf(const PackedFunc& function) {
  EXPECT_NE(function.typed_entry(), nullptr) << function.signature();
  return reinterpret_cast<Entry>(function.typed_entry());
}

TEST(BorrowedObjectTest, ConstReferencesAreLentWithoutACount) {
  static_assert(details::kBorrowedObjectParameter<const ObjectPtr<LentObject>&>);
  static_assert(details::kBorrowedObjectParameter<const Lent&>);
  static_assert(!details::kBorrowedObjectParameter<ObjectPtr<LentObject>>, "by value: a reference of its own");
  static_assert(!details::kBorrowedObjectParameter<const ObjectRef&>, "ObjectRef converts strings too");
  static_assert(!details::kBorrowedObjectParameter<const String&>, "a string comes as a span");
  static_assert(!details::kBorrowedObjectParameter<const NDArray&>, "a tensor has a conversion of its own");
  int64_t baseline = P4JObjectLiveCount();
  {
    ObjectPtr<Object> object = make_object<LentObject>(5);
    for (const char* name : {"borrow.PtrCount", "borrow.RefCount"}) {
      PackedFunc function = PackedFunc::GetGlobal(name);
      EXPECT_EQ(EntryOf(function)(function.handle(), WordOf(object)), 11) << name << ": lent, one count (ours)";
      EXPECT_EQ(function(Lent(object)).operator int64_t(), 21) << name << ": the packed call's argument holds one";
      EXPECT_EQ(object.use_count(), 1u) << name;
    }
    PackedFunc by_value = PackedFunc::GetGlobal("borrow.ValueCount");
    EXPECT_EQ(EntryOf(by_value)(by_value.handle(), WordOf(object)), 21) << "by value: a count of its own";
    EXPECT_EQ(object.use_count(), 1u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(BorrowedObjectTest, ABodyThatKeepsTheObjectTakesItsOwnReference) {
  int64_t baseline = P4JObjectLiveCount();
  {
    ObjectPtr<Object> object = make_object<LentObject>(40);
    PackedFunc keep = PackedFunc::GetGlobal("borrow.Keep");
    auto entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t, int64_t)>(keep.typed_entry());
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry(keep.handle(), WordOf(object), 2), 42);
    EXPECT_EQ(object.use_count(), 2u) << "ours and the kept copy";
    object = ObjectPtr<Object>();
    EXPECT_EQ(kept->value, 40) << "the kept copy outlives the caller's reference";
    kept = ObjectPtr<LentObject>();
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(BorrowedObjectTest, DerivedTypesAreLentAndOtherTypesFailAsByValue) {
  int64_t baseline = P4JObjectLiveCount();
  {
    ObjectPtr<Object> derived = make_object<DerivedLentObject>(3);
    PackedFunc ptr_count = PackedFunc::GetGlobal("borrow.PtrCount");
    PackedFunc by_value = PackedFunc::GetGlobal("borrow.ValueCount");
    EXPECT_EQ(EntryOf(ptr_count)(ptr_count.handle(), WordOf(derived)), 12) << "a derived object, its override";
    EXPECT_EQ(derived.use_count(), 1u);

    // Another type, None: the entry raises what the by-value parameter's conversion raises, naming the argument.
    String other("not lent");
    for (int64_t word : {WordOf(other), int64_t{0}}) {
      EXPECT_EQ(EntryOf(ptr_count)(ptr_count.handle(), word), P4J_TYPED_ERROR_I64);
      std::string lent_error = TakeRaised();
      EXPECT_EQ(EntryOf(by_value)(by_value.handle(), word), P4J_TYPED_ERROR_I64);
      std::string by_value_error = TakeRaised();
      EXPECT_NE(lent_error.find("TypeError: borrow.PtrCount: argument 0"), std::string::npos) << lent_error;
      EXPECT_EQ(lent_error.substr(lent_error.find("argument")), by_value_error.substr(by_value_error.find("argument")));
    }
    std::string packed_error = testing::ErrorOf([&] { ptr_count(other); });
    EXPECT_NE(packed_error.find("expected borrow.Lent"), std::string::npos) << packed_error;
    EXPECT_EQ(other.use_count(), 1u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(BorrowedObjectTest, MemberFunctionMethodsAreLentTheirObject) {
  int64_t baseline = P4JObjectLiveCount();
  {
    ObjectPtr<Object> object = make_object<DerivedLentObject>(1);
    PackedFunc count = GetMethod(DerivedLentObject::RuntimeTypeIndex(), "count");
    EXPECT_EQ(EntryOf(count)(count.handle(), WordOf(object)), 1) << "the adapter takes const ObjectPtr<T>&";
    PackedFunc count_by_value = GetMethod(DerivedLentObject::RuntimeTypeIndex(), "count_by_value");
    EXPECT_EQ(EntryOf(count_by_value)(count_by_value.handle(), WordOf(object)), 2);
    EXPECT_EQ(object.use_count(), 1u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

}  // namespace
}  // namespace packed4j
