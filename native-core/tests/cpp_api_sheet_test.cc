// The snippets of docs/cpp-api.md, run: every C++ block of that sheet is an exact run of lines of this file
// (checked by the ctest packed4j_cpp_api_sheet_blocks_are_tested), and every fact the sheet states is asserted here.
// Edit a snippet here first, then copy it into the sheet.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_util.h"

using namespace packed4j;
using packed4j::testing::ErrorOf;
using packed4j::testing::TakeRaised;

namespace {

// ---- functions
P4J_REGISTER_GLOBAL("sheet.Mul").set_body_typed([](int64_t a, int64_t b) { return a * b; });

P4J_REGISTER_GLOBAL("sheet.Describe").set_body([](Args args, RetValue* rv) {
  std::string out = std::to_string(args.size()) + " arguments:";  // Args::size() is an int
  for (int i = 0; i < args.size(); ++i) {
    if (args[i].is_none()) {
      out += " None";
    } else if (args[i].type_index() == kP4JInt) {
      out += " int " + std::to_string(args[i].cast<int64_t>());
    } else if (args[i].type_index() == kP4JStrView || args[i].type_index() == kP4JString) {
      std::string text = args[i];  // a string comes as a view (kP4JStrView) or a String object
      out += " string " + text;
    } else {
      out += " " + Any::FromBorrowed(args[i].raw()).Describe();  // "float 2.5", "list of size 3", ...
    }
  }
  *rv = out;
});

TEST(CppApiSheetTest, FunctionsTypedAndUntyped) {
  PackedFunc mul = PackedFunc::GetGlobal("sheet.Mul");
  EXPECT_EQ(mul.signature(), "(int64, int64) -> int64");
  EXPECT_EQ(mul(6, 7).cast<int64_t>(), 42);
  EXPECT_EQ(ErrorOf([&] { mul("six", 7); }), "TypeError: sheet.Mul: argument 0 expected int64, got string \"six\"");
  EXPECT_EQ(ErrorOf([&] { mul(6); }), "TypeError: sheet.Mul: expected 2 arguments (int64, int64) -> int64, got 1");

  PackedFunc describe = PackedFunc::GetGlobal("sheet.Describe");
  EXPECT_EQ(describe.signature(), "");  // set_body records no signature
  EXPECT_EQ(describe(1, "two", nullptr, 2.5, List<int64_t>{1, 2, 3}).cast<std::string>(),
            "5 arguments: int 1 string two None float 2.5 list of size 3");
  EXPECT_EQ(describe(String("obj")).cast<std::string>(), "1 arguments: string obj");
  EXPECT_EQ(describe().cast<std::string>(), "0 arguments:");
}

P4J_REGISTER_GLOBAL("sheet.Add").set_body([](Args args, RetValue* rv) {
  if (args.size() != 2) throw TypeError("sheet.Add: expected 2 arguments, got " + std::to_string(args.size()));
  int a = args[0];  // TypeError "sheet.Add: argument 0 expected int32, got string \"x\""
  int b = args[1];  // ValueError "sheet.Add: argument 1 value 3000000000 is out of range for int32"
  *rv = a + b;
});

TEST(CppApiSheetTest, ArgumentsAreCheckedWhenConverted) {
  PackedFunc add = PackedFunc::GetGlobal("sheet.Add");
  EXPECT_EQ(add(1, 2).cast<int64_t>(), 3);
  EXPECT_EQ(ErrorOf([&] { add(1); }), "TypeError: sheet.Add: expected 2 arguments, got 1");
  EXPECT_EQ(ErrorOf([&] { add("x", 2); }), "TypeError: sheet.Add: argument 0 expected int32, got string \"x\"");
  EXPECT_EQ(ErrorOf([&] { add(1, int64_t{3000000000}); }),
            "ValueError: sheet.Add: argument 1 value 3000000000 is out of range for int32");
}

// Asking for an argument past the end is a TypeError too, not undefined behaviour.
P4J_REGISTER_GLOBAL("sheet.Third").set_body([](Args args, RetValue* rv) { *rv = args[2].cast<int64_t>(); });

TEST(CppApiSheetTest, AnArgumentPastTheEndIsATypeError) {
  EXPECT_EQ(ErrorOf([] { PackedFunc::GetGlobal("sheet.Third")(1, 2); }),
            "TypeError: sheet.Third: argument 2 was requested, but 2 arguments were given");
}

TEST(CppApiSheetTest, RegistryLookups) {
  // A global registered twice keeps the first; Registry::Register(name, true) replaces it.
  Registry::Register("sheet.Replaced").set_body_typed([]() { return 1; });
  Registry::Register("sheet.Replaced").set_body_typed([]() { return 2; });  // refused: stderr says why
  EXPECT_EQ(PackedFunc::GetGlobal("sheet.Replaced")().cast<int>(), 1);
  Registry::Register("sheet.Replaced", true).set_body_typed([]() { return 3; });
  EXPECT_EQ(PackedFunc::GetGlobal("sheet.Replaced")().cast<int>(), 3);
  std::vector<std::string> names = Registry::ListNames();  // sorted
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "sheet.Mul"), names.end());
  EXPECT_FALSE(PackedFunc::GetGlobal("sheet.NoSuchFunction").defined());
  // The refusal is also kept for the loader (Java reports it as an exception when the library is loaded).
  List<std::string> refused = PackedFunc::GetGlobal("packed4j.TakeRegistrationErrors")().cast<List<std::string>>();
  ASSERT_EQ(refused.size(), 1);
  std::string first = refused[0];
  EXPECT_EQ(first.rfind("ValueError: global function \"sheet.Replaced\" is already registered by ", 0), 0u) << first;
}

// ---- results
TEST(CppApiSheetTest, ResultsAndAny) {
  RetValue rv;
  rv = 42;                       // int64
  EXPECT_EQ(rv.type_index(), kP4JInt);
  rv = 2.5;                      // float64
  EXPECT_EQ(rv.type_index(), kP4JFloat);
  rv = true;                     // bool
  EXPECT_EQ(rv.type_index(), kP4JBool);
  rv = "casio";                  // a String object
  EXPECT_EQ(rv.type_index(), kP4JString);
  rv = std::string("casio");     // a String object too
  EXPECT_EQ(rv.type_index(), kP4JString);
  rv = nullptr;                  // None
  EXPECT_TRUE(rv.is_none());
  rv = std::optional<int64_t>();  // None too
  EXPECT_TRUE(rv.is_none());
  rv = List<int64_t>{1, 2};      // an object: a List, Map, NDArray, PackedFunc, or an ObjectRef or ObjectPtr
  EXPECT_EQ(rv.type_index(), kP4JList);

  Any value = 42;
  int64_t n = value;             // converts, checked
  EXPECT_EQ(n, 42);
  EXPECT_EQ(value.cast<double>(), 42.0);
  EXPECT_EQ(ErrorOf([&] { value.cast<std::string>(); }), "TypeError: expected string, got int 42");
  EXPECT_EQ(value.Describe(), "int 42");

  // The other objects of the comment above (an ObjectRef and ObjectPtr of yours: ObjectTypesWithFields).
  rv = Map<std::string, int64_t>{{"a", 1}};
  EXPECT_EQ(rv.type_index(), kP4JMap);
  rv = NDArray::Empty({1}, DataTypeOf<float>());
  EXPECT_EQ(rv.type_index(), kP4JNDArray);
  rv = PackedFunc::GetGlobal("sheet.Mul");
  EXPECT_EQ(rv.type_index(), kP4JFunction);
}

// ---- strings
TEST(CppApiSheetTest, StringsAndBytes) {
  String name("casio");
  EXPECT_EQ(name.size(), 5u);
  EXPECT_EQ(name.view(), "casio");
  EXPECT_TRUE(name == "casio");  // content, not identity
  std::string copy = name.str();
  Bytes blob(std::string_view("\x00\x01", 2));
  EXPECT_EQ(blob.size(), 2u);
  EXPECT_EQ(blob.data()[1], 1);
  EXPECT_EQ(Bytes().size(), 0u);        // String() and Bytes() are empty values, not None;
  Bytes none{ObjectPtr<Object>()};       // a reference to no object is None: Java reads null
  EXPECT_TRUE(none.get() == nullptr);    // (std::optional<Bytes> says the same, through a slower route)
  EXPECT_EQ(copy, "casio");
}

// ---- lists
TEST(CppApiSheetTest, Lists) {
  List<int64_t> numbers{1, 2, 3};
  numbers.push_back(4);
  EXPECT_EQ(numbers.size(), 4);  // int64_t
  EXPECT_EQ(numbers[0], 1);
  numbers.Set(0, 10);            // operator[] reads; Set, insert, erase, clear write
  numbers.insert(1, 5);
  numbers.erase(2);
  int64_t sum = 0;
  for (int64_t n : numbers) sum += n;
  EXPECT_EQ(sum, 10 + 5 + 3 + 4);
  EXPECT_EQ(numbers.ToVector(), (std::vector<int64_t>{10, 5, 3, 4}));
  EXPECT_EQ(ErrorOf([&] { numbers[9]; }), "IndexError: list index 9 is out of range for a list of size 4");
  numbers.clear();
  EXPECT_TRUE(numbers.empty());

  List<Any> mixed{Any(1), Any("two")};  // any values: read each as Any, check type_index()
  EXPECT_EQ(mixed[1].type_index(), kP4JString);
  List<int64_t> checked = Any(mixed).cast<List<int64_t>>();  // the same list; elements are checked when read
  EXPECT_EQ(ErrorOf([&] { checked[1]; }), "TypeError: list element at index 1 expected int64, got string \"two\"");
}

TEST(CppApiSheetTest, ListAndBytesParametersReadInPlace) {
  PackedFunc total = PackedFunc::FromTyped([](ListView<int64_t> values) {  // read in place, for the call only
    int64_t sum = 0;
    for (int64_t v : values) sum += v;
    return sum;
  });
  PackedFunc longest = PackedFunc::FromTyped([](std::vector<std::string> words) {  // a copy of the elements
    size_t size = 0;
    for (const std::string& word : words) size = std::max(size, word.size());
    return static_cast<int64_t>(size);
  });
  PackedFunc echo = PackedFunc::FromTyped([](BytesView data) { return data; });  // no Bytes object made
  EXPECT_EQ(total.signature(), "(list<int64>) -> int64");
  EXPECT_EQ(total(List<int64_t>{1, 2, 3}).cast<int64_t>(), 6);
  EXPECT_EQ(longest(List<std::string>{"a", "abc"}).cast<int64_t>(), 3);
  EXPECT_EQ(echo.signature(), "(bytes) -> bytes");
  EXPECT_EQ(echo(Bytes(std::string_view("\x01\x02", 2))).cast<Bytes>().size(), 2u);
}

// ---- maps
TEST(CppApiSheetTest, MapsIterateInInsertionOrder) {
  Map<std::string, double> prices{{"casio", 9.5}, {"hp", 30.0}};
  prices.Set("sharp", 12.0);     // a new key goes last
  prices.Set("casio", 8.0);      // an existing key keeps its place
  std::string seen;
  for (const auto& [brand, price] : prices) {  // std::pair<K, V> by value, in insertion order
    seen += brand + "=" + std::to_string(static_cast<int>(price)) + " ";
  }
  EXPECT_EQ(seen, "casio=8 hp=30 sharp=12 ");
  EXPECT_EQ(prices.keys(), (std::vector<std::string>{"casio", "hp", "sharp"}));
  EXPECT_EQ(prices.size(), 3);   // int64_t
  EXPECT_EQ(prices.at("hp"), 30.0);
  EXPECT_EQ(prices["hp"], 30.0);  // reads only: write with Set
  EXPECT_TRUE(prices.contains("sharp"));
  EXPECT_EQ(prices.count("acme"), 0);
  EXPECT_EQ(ErrorOf([&] { prices.at("acme"); }), "KeyError: key string \"acme\" is not in the map");
  EXPECT_TRUE(prices.erase("casio"));
  EXPECT_EQ(prices.keys(), (std::vector<std::string>{"hp", "sharp"}));
}

// ---- objects
class CalculatorObject : public Object {
 public:
  std::string brand;
  int64_t price = 0;
  List<int64_t> history;

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("brand", &brand);
    v->Visit("price", &price);
    v->Visit("history", &history);
  }

  static constexpr const char* _type_key = "sheet.Calculator";
  P4J_DECLARE_OBJECT_TYPE_INFO(CalculatorObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(CalculatorObject);  // records the fields for Java: getters brand(), price(), history()

class Calculator : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Calculator, ObjectRef, CalculatorObject);
};

P4J_REGISTER_GLOBAL("sheet.CreateCalculator").set_body_typed([](std::string brand, int64_t price) {
  ObjectPtr<CalculatorObject> calc = make_object<CalculatorObject>();
  calc->brand = brand;
  calc->price = price;
  return Calculator(calc);
});

P4J_REGISTER_GLOBAL("sheet.Price").set_body_typed([](Calculator calc) { return calc->price; });

TEST(CppApiSheetTest, ObjectTypesWithFields) {
  Calculator calc = PackedFunc::GetGlobal("sheet.CreateCalculator")("casio", 100).cast<Calculator>();
  EXPECT_EQ(calc->brand, "casio");
  EXPECT_EQ(calc->GetTypeKey(), "sheet.Calculator");
  EXPECT_TRUE(calc->IsInstance<CalculatorObject>());
  ObjectRef any_ref = calc;
  Calculator back = Downcast<Calculator>(any_ref);  // TypeError when it is another type
  EXPECT_EQ(back.as<CalculatorObject>()->price, 100);
  EXPECT_EQ(ErrorOf([] { Downcast<Calculator>(String("x")); }),
            "TypeError: cannot downcast a String object to sheet.Calculator");
  EXPECT_EQ(ErrorOf([] { PackedFunc::GetGlobal("sheet.Price")(String("x")); }),
            "TypeError: sheet.Price: argument 0 expected sheet.Calculator, got string \"x\"");

  // The fields P4J_REGISTER_OBJECT_TYPE recorded: what Java's getters and `packed4j describe` read.
  const P4JTypeInfo* info = nullptr;
  ASSERT_EQ(P4JTypeGetInfo(CalculatorObject::RuntimeTypeIndex(), &info), 0);
  ASSERT_EQ(info->num_fields, 3);
  EXPECT_EQ(details::ViewOf(info->fields[0].name), "brand");
  EXPECT_EQ(info->fields[0].kind, kP4JFieldString);
  EXPECT_EQ(info->fields[1].kind, kP4JFieldInt64);
  EXPECT_EQ(info->fields[2].kind, kP4JFieldObject);

  // A result may be the reference or the ObjectPtr.
  RetValue rv;
  rv = calc;
  EXPECT_EQ(rv.type_index(), CalculatorObject::RuntimeTypeIndex());
  rv = make_object<CalculatorObject>();
  EXPECT_EQ(rv.cast<Calculator>()->price, 0);
}

// ---- object definitions
class CounterObject : public Object {
 public:
  std::string name;
  int64_t count = 0;

  CounterObject(std::string name_in, int64_t start) : name(std::move(name_in)), count(start) {}
  int64_t Add(int64_t step) { return count += step; }

  static constexpr const char* _type_key = "sheet.Counter";
  P4J_DECLARE_OBJECT_TYPE_INFO(CounterObject, Object);
};

P4J_REGISTER_OBJECT_DEF(CounterObject, "Counts up from a start")
    .def_ro("name", &CounterObject::name, "what it counts")
    .def_rw("count", &CounterObject::count, "the current count")  // writable: P4JObjectSetField, a Java setter
    .def("add", &CounterObject::Add, "adds step, returns the new count", {"step"})
    .def_static("zero", [](std::string name) { return make_object<CounterObject>(name, 0); }, "a counter at 0",
                {"name"})
    .def(init<std::string, int64_t>(), "a counter from start", {"name", "start"});  // "__init__"

P4J_REGISTER_GLOBAL("sheet.Square")
    .set_body_typed([](int64_t x) { return x * x; })
    .describe("x times x")
    .params({"x"});

TEST(CppApiSheetTest, ObjectDefinitions) {
  int32_t counter_type = CounterObject::RuntimeTypeIndex();
  PackedFunc make = GetMethod(counter_type, "__init__");
  auto counter = make("laps", 10).cast<ObjectPtr<CounterObject>>();
  PackedFunc add = GetMethod(counter_type, "add");  // looked up through the parents: a child's override wins
  EXPECT_EQ(add.signature(), "(sheet.Counter, int64) -> int64");  // the object comes first
  EXPECT_EQ(add(counter, 5).cast<int64_t>(), 15);
  EXPECT_EQ(GetMethod(counter_type, "zero")("steps").cast<ObjectPtr<CounterObject>>()->count, 0);
  EXPECT_EQ(ErrorOf([&] { add(nullptr, 1); }),
            "TypeError: sheet.Counter.add: argument 0 expected sheet.Counter, got None");
  EXPECT_EQ(GetMethodDoc(counter_type, "add").doc, "adds step, returns the new count");
  EXPECT_EQ(GetMethodDoc(counter_type, "add").param_names, std::vector<std::string>{"step"});
  EXPECT_EQ(GetGlobalDoc("sheet.Square").param_names, std::vector<std::string>{"x"});
  // Fields by name, as Java's NativeObject does: for an object whose class this code cannot see (another library's).
  SetAttr(counter, "count", 7);  // checked, one store for a number
  EXPECT_EQ(counter->count, 7);
  EXPECT_EQ(GetAttr(counter, "count").cast<int64_t>(), 7);
  EXPECT_EQ(ErrorOf([&] { SetAttr(counter, "name", 7); }),
            "ValueError: SetAttr: field \"name\" of sheet.Counter is read-only (an object definition's def_rw "
            "declares a field writable)");
  EXPECT_EQ(ErrorOf([&] { GetAttr(ObjectRef(), "name"); }),
            "TypeError: GetAttr(\"name\"): expected an object, got None");
  // A string or object field Java may set, read and written in C++ under the lock Java's setters take.
  std::string copied = LockedRead(counter, &CounterObject::name);
  LockedWrite(counter, &CounterObject::name, std::string("laps, renamed"));
  {
    FieldsLock lock(counter);  // several fields at once: copy them, and call nothing of packed4j meanwhile
    copied = counter->name + "/" + std::to_string(counter->count);
  }
  EXPECT_EQ(copied, "laps, renamed/7");
}

// ---- tensors
TEST(CppApiSheetTest, TensorShapeDTypeAndElementCount) {
  NDArray t = NDArray::Empty({2, 3, 4}, DataTypeOf<float>());  // zeroed, CPU, contiguous
  EXPECT_EQ(t.NumElements(), 24);  // the product of the shape: 1 for ndim 0, 0 when a dimension is 0
  EXPECT_EQ(t.ndim(), 3);
  EXPECT_EQ(t.Shape(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(t.Strides(), (std::vector<int64_t>{12, 4, 1}));  // in elements, as DLPack counts them
  EXPECT_EQ(t->shape[2], 4);       // t-> is the DLTensor: data, device, ndim, dtype, shape, strides, byte_offset
  EXPECT_EQ(DataTypeToString(t.dtype()), "float32");
  EXPECT_TRUE(SameDataType(t.dtype(), DataTypeOf<float>()));
  EXPECT_EQ(DeviceToString(t.device()), "cpu");
  EXPECT_TRUE(t.IsContiguous());
  float* values = t.data<float>();  // checks the dtype and that the memory is on the host; adds byte_offset
  EXPECT_EQ(values[23], 0.0f);
  values[23] = 1.5f;
  EXPECT_EQ(ErrorOf([&] { t.data<int32_t>(); }), "TypeError: tensor: expected int32, got float32");
  EXPECT_EQ(NDArray::Empty({}, DataTypeOf<double>()).NumElements(), 1);
  EXPECT_EQ(NDArray::Empty({5, 0}, DataTypeOf<double>()).NumElements(), 0);
}

// A TensorView may be written through: data<T>() returns a T* into the caller's memory, no copy. A Java
// NDArray.wrap(segment, ...) sees the writes in its segment; a float[] argument is a copy and does not.
P4J_REGISTER_GLOBAL("sheet.FillIota").set_body_typed([](TensorView a) {
  a.CheckContiguous("a");
  float* values = a.data<float>();
  for (int64_t i = 0; i < a.NumElements(); ++i) values[i] = static_cast<float>(i);
  return a.NumElements();
});

// In set_body, args[i] converts to a TensorView too.
P4J_REGISTER_GLOBAL("sheet.PackedNumElements").set_body([](Args args, RetValue* rv) {
  TensorView a = args[0];
  *rv = a.NumElements();
});

TEST(CppApiSheetTest, WritingThroughATensorViewReachesTheCallersMemory) {
  // What Java passes for a tensor it wrapped: a DLTensor over its own memory, borrowed for the call.
  std::vector<float> memory(6, -1.0f);
  std::vector<int64_t> shape{2, 3};
  DLTensor borrowed{memory.data(), DLDevice{kDLCPU, 0}, 2, DataTypeOf<float>(), shape.data(), nullptr, 0};
  int64_t live = P4JObjectLiveCount();
  PackedFunc fill = PackedFunc::GetGlobal("sheet.FillIota");
  EXPECT_EQ(fill(TensorView(&borrowed)).cast<int64_t>(), 6);
  EXPECT_EQ(memory, (std::vector<float>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(P4JObjectLiveCount(), live);  // no native object was made for the view
  EXPECT_EQ(PackedFunc::GetGlobal("sheet.PackedNumElements")(TensorView(&borrowed)).cast<int64_t>(), 6);
  // Through the typed entry too, which is the route a bound Java method takes.
  std::vector<float> other(4, -1.0f);
  NDArray over = NDArray::FromBorrowed(other.data(), {4}, DataTypeOf<float>());
  auto entry = reinterpret_cast<int64_t (*)(P4JObjectHandle, int64_t)>(fill.typed_entry());
  EXPECT_EQ(entry(fill.handle(), static_cast<int64_t>(reinterpret_cast<intptr_t>(over.handle()))), 4);
  EXPECT_EQ(other, (std::vector<float>{0, 1, 2, 3}));
}

// ---- errors
P4J_REGISTER_GLOBAL("sheet.Check").set_body_typed([](std::string kind) {
  if (kind == "value") throw ValueError("a price must not be negative");  // also TypeError, IndexError, ...
  if (kind == "custom") throw Error("PaperJam", "the printer is jammed");  // a kind of your own
  if (kind == "std") throw std::runtime_error("disk full");                // any std::exception: RuntimeError
  return kind;
});

TEST(CppApiSheetTest, ErrorsKeepTheirKind) {
  PackedFunc check = PackedFunc::GetGlobal("sheet.Check");
  EXPECT_EQ(ErrorOf([&] { check("value"); }), "ValueError: a price must not be negative");
  EXPECT_EQ(ErrorOf([&] { check("custom"); }), "PaperJam: the printer is jammed");
  EXPECT_EQ(ErrorOf([&] { check("std"); }), "RuntimeError: disk full");
  try {
    check("value");
    FAIL() << "no error";
  } catch (const ValueError& error) {  // an error coming back from a call is thrown as its own kind
    EXPECT_EQ(error.kind(), "ValueError");
    EXPECT_EQ(std::string(error.what()), "ValueError: a price must not be negative");
    EXPECT_NE(error.backtrace(), "");
  }
}

// ---- callbacks: a Java function arrives as a PackedFunc (a lambda argument, or a global Java registered)
P4J_REGISTER_GLOBAL("sheet.ApplyTwice").set_body_typed([](PackedFunc f, int64_t x) {
  TypedPackedFunc<int64_t(int64_t)> typed(f);  // no packing when f's signature is (int64) -> int64
  int64_t once = typed(x);
  return f(once).cast<int64_t>();              // packed: any arguments, an Any back
});

P4J_REGISTER_GLOBAL("sheet.LogTo").set_body_typed([](std::string line) {
  auto log = TypedPackedFunc<void(std::string)>::GetGlobal("sheet.host.Log");  // Packed4j.register / Registry
  if (!log.defined()) throw KeyError("sheet.host.Log is not registered");
  log(line);
});

TEST(CppApiSheetTest, CallbacksAreCalledLikeAnyFunction) {
  PackedFunc apply_twice = PackedFunc::GetGlobal("sheet.ApplyTwice");
  PackedFunc add_one = PackedFunc::FromTyped([](int64_t v) { return v + 1; }, "add_one");
  EXPECT_TRUE(TypedPackedFunc<int64_t(int64_t)>(add_one).uses_typed_entry());
  EXPECT_EQ(apply_twice(add_one, 5).cast<int64_t>(), 7);
  PackedFunc untyped([](Args args, RetValue* rv) { *rv = args[0].cast<int64_t>() * 10; }, "times_ten");
  EXPECT_FALSE(TypedPackedFunc<int64_t(int64_t)>(untyped).uses_typed_entry());
  EXPECT_EQ(apply_twice(untyped, 5).cast<int64_t>(), 500);
  PackedFunc failing([](Args, RetValue*) { throw RuntimeError("no coffee"); }, "failing");
  EXPECT_EQ(ErrorOf([&] { apply_twice(failing, 5); }), "RuntimeError: no coffee");

  PackedFunc log_to = PackedFunc::GetGlobal("sheet.LogTo");
  EXPECT_EQ(ErrorOf([&] { log_to("x"); }), "KeyError: sheet.host.Log is not registered");
  static std::string logged;  // a Java global registered by name, here written in C++
  Registry::Register("sheet.host.Log").set_body_typed([](std::string line) { logged += line; });
  log_to("hello");
  EXPECT_EQ(logged, "hello");
}

// ---- the C ABI
TEST(CppApiSheetTest, TheCAbiUnderneath) {
  static_assert(sizeof(P4JAny) == 16, "a value is 16 bytes");
  EXPECT_EQ(P4JAbiVersion(), P4J_ABI_VERSION);
  P4JByteArray name = {"sheet.Mul", 9};
  P4JObjectHandle mul = nullptr;
  ASSERT_EQ(P4JFunctionGetGlobal(&name, &mul), 0);  // a borrowed handle; NULL when none is registered
  P4JAny args[2];
  args[0].type_index = kP4JInt;
  args[0].zero_padding = 0;
  args[0].v_int64 = 6;
  args[1] = args[0];
  args[1].v_int64 = 7;
  P4JAny result;
  ASSERT_EQ(P4JFunctionCall(mul, args, 2, &result), 0);  // arguments borrowed, the result owned by the caller
  EXPECT_EQ(result.type_index, kP4JInt);
  EXPECT_EQ(result.v_int64, 42);
  EXPECT_EQ(P4JFunctionCall(mul, args, 1, &result), -1);  // -1: an error is raised on this thread
  P4JObjectHandle error = nullptr;
  P4JErrorMoveFromRaised(&error);  // owned, a kP4JError object; its cell follows the header
  const P4JErrorCell* cell = reinterpret_cast<const P4JErrorCell*>(error + 1);
  EXPECT_EQ(std::string(cell->kind.data, cell->kind.size), "TypeError");
  EXPECT_EQ(std::string(cell->message.data, cell->message.size),
            "sheet.Mul: expected 2 arguments (int64, int64) -> int64, got 1");
  P4JObjectDecRef(error);
}

}  // namespace
