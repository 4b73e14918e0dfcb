// The calculator of DGL's FFI developer guide, kept as close to the guide as packed4j allows: the only
// changes are the header and macro names, make_object for std::make_shared, *rv = sum in Sum (the guide
// forgets to return it), P4J_REGISTER_OBJECT_TYPE (which records the fields), and an unnamed rv where the
// guide's body does not use it (-Wunused-parameter).
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include <packed4j/packed4j.h>

using namespace packed4j;

// ---------------------------------------------------------------- the guide's code, adapted as said above
P4J_REGISTER_GLOBAL("calculator.MyAdd")
.set_body([] (Args args, RetValue* rv) {
    int a = args[0];
    int b = args[1];
    *rv = a + b;
  });

class CalculatorObject : public Object {
 public:
  std::string brand;
  int price;

  void VisitAttrs(AttrVisitor *v) final {
    v->Visit("brand", &brand);
    v->Visit("price", &price);
  }

  static constexpr const char* _type_key = "Calculator";
  P4J_DECLARE_OBJECT_TYPE_INFO(CalculatorObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(CalculatorObject);

// This is to define a reference class (the wrapper of an object shared pointer).
// A minimal implementation is as follows, but you could define extra methods.
class Calculator : public ObjectRef {
 public:
  const CalculatorObject* operator->() const {
    return static_cast<const CalculatorObject*>(obj_.get());
  }
  using ContainerType = CalculatorObject;
};

P4J_REGISTER_GLOBAL("calculator.CreateCaculator")
.set_body([] (Args args, RetValue* rv) {
    std::string brand = args[0];
    int price = args[1];
    auto o = make_object<CalculatorObject>();
    o->brand = brand;
    o->price = price;
    *rv = o;
  });

P4J_REGISTER_GLOBAL("calculator.CaculatorGetBrand")
.set_body([] (Args args, RetValue* rv) {
    Calculator calc = args[0];
    *rv = calc->brand;
  });

P4J_REGISTER_GLOBAL("calculator.Sum")
.set_body([] (Args args, RetValue* rv) {
    // All the supported values are represented as a ValueObject, which
    // contains a data field.
    List<Value> values = args[0];
    int sum = 0;
    for (int i = 0; i < values.size(); ++i) {
      sum += static_cast<int>(values[i]->data);
    }
    *rv = sum;
  });

P4J_REGISTER_GLOBAL("calculator.PrintCalculators")
.set_body([] (Args args, RetValue* /* rv */) {
    List<Calculator> calcs = args[0];
    for (int i = 0; i < calcs.size(); ++i) {
      std::cout << calcs[i]->price << std::endl;
    }
  });
// ---------------------------------------------------------------- end of the guide's code

namespace {

/*! \brief Calls a global through the C ABI, as the Java runtime does: strings as views, results owned. */
Any CallGlobal(const char* name, std::vector<P4JAny> args) {
  P4JByteArray name_bytes = details::ByteArrayOf(name);
  P4JObjectHandle function = nullptr;
  EXPECT_EQ(P4JFunctionGetGlobal(&name_bytes, &function), 0);
  EXPECT_NE(function, nullptr) << name;
  P4JAny result;
  details::CheckCall(P4JFunctionCall(function, args.data(), static_cast<int32_t>(args.size()), &result));
  return Any::FromOwned(result);
}

P4JAny IntArg(int64_t value) {
  P4JAny any;
  details::StoreInt(value, &any);
  return any;
}

P4JAny StrArg(std::string_view text) {
  P4JAny any;
  any.type_index = kP4JStrView;
  any.small_len = static_cast<uint32_t>(text.size());
  any.v_ptr = const_cast<char*>(text.data());
  return any;
}

P4JAny ObjArg(const ObjectRef& ref) {
  P4JAny any;
  any.type_index = ref->type_index();
  any.zero_padding = 0;
  any.v_obj = ref.handle();
  return any;
}

TEST(CalculatorTest, MyAddAddsAndNamesBadArguments) {
  EXPECT_EQ(CallGlobal("calculator.MyAdd", {IntArg(1), IntArg(2)}).cast<int64_t>(), 3);
  try {
    CallGlobal("calculator.MyAdd", {IntArg(1), StrArg("abc")});
    FAIL() << "expected a TypeError";
  } catch (const TypeError& error) {
    EXPECT_EQ(error.message(), "calculator.MyAdd: argument 1 expected int32, got string \"abc\"");
  }
  try {
    CallGlobal("calculator.MyAdd", {IntArg(int64_t{1} << 40), IntArg(2)});
    FAIL() << "expected a ValueError";
  } catch (const ValueError& error) {
    EXPECT_EQ(error.message(), "calculator.MyAdd: argument 0 value 1099511627776 is out of range for int32");
  }
}

TEST(CalculatorTest, CreateReflectAndGetBrand) {
  int64_t baseline = P4JObjectLiveCount();
  {
    Calculator calc = CallGlobal("calculator.CreateCaculator", {StrArg("casio"), IntArg(100)}).cast<Calculator>();
    EXPECT_EQ(calc->brand, "casio");
    EXPECT_EQ(calc->price, 100);
    EXPECT_EQ(calc->GetTypeKey(), "Calculator");
    EXPECT_EQ(calc.use_count(), 1u);

    // Reflection: the fields by name, as the Java side reads them.
    P4JAny brand;
    P4JByteArray brand_name = details::ByteArrayOf("brand");
    ASSERT_EQ(P4JObjectGetAttr(calc.handle(), &brand_name, &brand), 0);
    EXPECT_EQ(Any::FromOwned(brand).cast<std::string>(), "casio");
    const P4JTypeInfo* info = nullptr;
    ASSERT_EQ(P4JTypeGetInfo(calc->type_index(), &info), 0);
    ASSERT_EQ(info->num_fields, 2);
    EXPECT_EQ(info->fields[1].kind, kP4JFieldInt32);
    EXPECT_EQ(*reinterpret_cast<const int32_t*>(reinterpret_cast<const char*>(calc.handle()) + info->fields[1].offset),
              100);

    EXPECT_EQ(CallGlobal("calculator.CaculatorGetBrand", {ObjArg(calc)}).cast<std::string>(), "casio");
    EXPECT_EQ(P4JObjectLiveCount(), baseline + 1);
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(CalculatorTest, SumOfAListOfValues) {
  int64_t baseline = P4JObjectLiveCount();
  {
    List<int64_t> numbers{0, 1, 2, 3, 4, 5};
    EXPECT_EQ(CallGlobal("calculator.Sum", {ObjArg(numbers)}).cast<int64_t>(), 15);
    // From C++ too, through PackedFunc.
    EXPECT_EQ(PackedFunc::GetGlobal("calculator.Sum")(numbers).cast<int>(), 15);
    List<Any> mixed{Any(1), Any(std::string("two"))};
    try {
      CallGlobal("calculator.Sum", {ObjArg(mixed)});
      FAIL() << "expected a TypeError";
    } catch (const TypeError& error) {
      EXPECT_EQ(error.message(), "expected int32, got string \"two\"");
    }
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

TEST(CalculatorTest, PrintCalculatorsOfAList) {
  int64_t baseline = P4JObjectLiveCount();
  {
    PackedFunc create = PackedFunc::GetGlobal("calculator.CreateCaculator");
    List<Calculator> calcs{create("casio", 100).cast<Calculator>(), create("hp", 250).cast<Calculator>()};
    std::ostringstream captured;
    std::streambuf* previous = std::cout.rdbuf(captured.rdbuf());
    Any result = CallGlobal("calculator.PrintCalculators", {ObjArg(calcs)});
    std::cout.rdbuf(previous);
    EXPECT_EQ(captured.str(), "100\n250\n");
    EXPECT_TRUE(result.is_none());

    List<Any> wrong{Any(1)};
    try {
      CallGlobal("calculator.PrintCalculators", {ObjArg(wrong)});
      FAIL() << "expected a TypeError";
    } catch (const TypeError& error) {
      EXPECT_EQ(error.message(), "list element at index 0 expected Calculator, got int 1");
    }
  }
  EXPECT_EQ(P4JObjectLiveCount(), baseline);
}

}  // namespace
