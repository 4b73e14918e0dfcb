// The calculator of DGL's FFI guide, on packed4j. Only the header and macro names changed, plus
// make_object<T>() where DGL writes std::make_shared<T>(): packed4j objects carry an intrusive reference count.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <iostream>
#include <string>

using namespace packed4j;

// ---- Functions (DGL guide: "calculator.MyAdd"), written with the untyped set_body exactly as in the guide.
P4J_REGISTER_GLOBAL("calculator.MyAdd")
.set_body([] (Args args, RetValue* rv) {
  int a = args[0];
  int b = args[1];
  *rv = a + b;
});

// ---- Typed functions: the signature comes from the C++ callable.
P4J_REGISTER_GLOBAL("calculator.Mul").set_body_typed([](int64_t a, int64_t b) { return a * b; });

P4J_REGISTER_GLOBAL("calculator.Divide").set_body_typed([](double a, double b) {
  if (b == 0.0) throw ValueError("calculator.Divide: division by zero");
  return a / b;
});

P4J_REGISTER_GLOBAL("calculator.IsEven").set_body_typed([](int64_t value) { return value % 2 == 0; });

P4J_REGISTER_GLOBAL("calculator.Describe").set_body_typed([](std::string brand, int64_t price) {
  return brand + " costs " + std::to_string(price);
});

P4J_REGISTER_GLOBAL("calculator.Checksum").set_body_typed([](Bytes data) {
  // Fletcher-16 over the bytes, returned as two bytes: a bytes result.
  uint32_t low = 0, high = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    low = (low + data.data()[i]) % 255;
    high = (high + low) % 255;
  }
  const uint8_t checksum[2] = {static_cast<uint8_t>(high), static_cast<uint8_t>(low)};
  return Bytes(checksum, sizeof(checksum));
});

// ---- Objects (DGL guide: "Defining new types").
class CalculatorObject : public Object {
 public:
  std::string brand;
  int price;

  CalculatorObject() = default;
  CalculatorObject(std::string brand_in, int price_in) : brand(std::move(brand_in)), price(price_in) {}

  void VisitAttrs(AttrVisitor *v) final {
    v->Visit("brand", &brand);
    v->Visit("price", &price);
  }

  static constexpr const char* _type_key = "Calculator";
  P4J_DECLARE_OBJECT_TYPE_INFO(CalculatorObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(CalculatorObject);

// This is to define a reference class (the wrapper of an object shared pointer).
class Calculator : public ObjectRef {
 public:
  const CalculatorObject* operator->() const {
    return static_cast<const CalculatorObject*>(obj_.get());
  }
  using ContainerType = CalculatorObject;
};

// ---- Object definitions (packed4j beyond DGL's guide): the calculator's members, registered beside VisitAttrs,
// so Java can construct it, change its price and call its methods. Each member is a typed function with a doc
// string and parameter names; brand stays read-only, price becomes writable.
P4J_REGISTER_OBJECT_DEF(CalculatorObject, "A pocket calculator of a brand, with a price")
    .def_ro("brand", &CalculatorObject::brand, "who made it")
    .def_rw("price", &CalculatorObject::price, "what it costs")
    .def("add", [](const Calculator&, int64_t a, int64_t b) { return a + b; }, "the sum of two numbers", {"a", "b"})
    .def("describe", [](const Calculator& calc) { return calc->brand + " costs " + std::to_string(calc->price); },
         "the brand and the price, as text")
    .def_static("parse", [](std::string text) {
      size_t colon = text.find(':');
      if (colon == std::string::npos) {
        throw ValueError("Calculator.parse: expected \"brand:price\", got \"" + text + "\"");
      }
      auto calc = make_object<CalculatorObject>();
      calc->brand = text.substr(0, colon);
      calc->price = std::stoi(text.substr(colon + 1));
      return calc;
    }, "reads \"brand:price\"", {"text"})
    .def(init<std::string, int>(), "a calculator of a brand and a price", {"brand", "price"});

P4J_REGISTER_GLOBAL("calculator.CreateCalculator")
.set_body([] (Args args, RetValue* rv) {
  std::string brand = args[0];
  int price = args[1];
  auto o = make_object<CalculatorObject>();
  o->brand = brand;
  o->price = price;
  *rv = o;
});

P4J_REGISTER_GLOBAL("calculator.CalculatorGetBrand")
.set_body([] (Args args, RetValue* rv) {
  Calculator calc = args[0];
  *rv = calc->brand;
});

// ---- Containers (DGL guide: "Containers").
P4J_REGISTER_GLOBAL("calculator.Sum")
.set_body([] (Args args, RetValue* rv) {
  // Every value is a Value object here, with a data field.
  List<Value> values = args[0];
  int sum = 0;
  for (int i = 0; i < values.size(); ++i) {
    sum += static_cast<int>(values[i]->data);
  }
  *rv = sum;
});

P4J_REGISTER_GLOBAL("calculator.PrintCalculators")
.set_body([] (Args args, RetValue* rv) {
  List<Calculator> calcs = args[0];
  for (int i = 0; i < calcs.size(); ++i) {
    std::cout << calcs[i]->price << std::endl;
  }
});
