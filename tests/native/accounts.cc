// Object definitions for the end-to-end tests of objects as classes (AccountsTest): a type with every writable field
// kind, methods, a static method and a constructor, and a child that inherits some methods and overrides one.
#include <packed4j/packed4j.h>

#include <cstdint>
#include <mutex>
#include <string>

using namespace packed4j;

class AccountObject : public Object {
 public:
  int64_t id = 0;
  int64_t balance = 0;
  int32_t small = 0;
  uint64_t serial = 0;
  double rate = 0;
  bool active = true;
  std::string owner;
  ObjectRef partner;

  AccountObject() = default;
  AccountObject(int64_t id_in, std::string owner_in) : id(id_in), owner(std::move(owner_in)) {}

  int64_t Deposit(int64_t amount) {
    if (amount < 0) throw ValueError("test.Account.deposit: a deposit cannot be negative, got " + std::to_string(amount));
    balance += amount;
    return balance;
  }

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("id", &id);
    v->Visit("balance", &balance);
    v->Visit("small", &small);
    v->Visit("serial", &serial);
    v->Visit("rate", &rate);
    v->Visit("active", &active);
    v->Visit("owner", &owner);
    v->Visit("partner", &partner);
  }

  static constexpr const char* _type_key = "test.Account";
  P4J_DECLARE_OBJECT_TYPE_INFO(AccountObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(AccountObject);

class SavingsObject : public AccountObject {
 public:
  int64_t bonus = 0;

  SavingsObject() = default;
  SavingsObject(int64_t id_in, std::string owner_in, int64_t bonus_in)
      : AccountObject(id_in, std::move(owner_in)), bonus(bonus_in) {}

  void VisitAttrs(AttrVisitor* v) override {
    AccountObject::VisitAttrs(v);
    v->Visit("bonus", &bonus);
  }

  static constexpr const char* _type_key = "test.Savings";
  P4J_DECLARE_OBJECT_TYPE_INFO(SavingsObject, AccountObject);
};
P4J_REGISTER_OBJECT_TYPE(SavingsObject);

// id stays read-only; everything else may be written.
P4J_REGISTER_OBJECT_DEF(AccountObject, "A bank account")
    .def_ro("id", &AccountObject::id, "the account number")
    .def_rw("balance", &AccountObject::balance, "what it holds")
    .def_rw("small", &AccountObject::small, "an int32 field")
    .def_rw("serial", &AccountObject::serial, "a uint64 field")
    .def_rw("rate", &AccountObject::rate, "the interest rate")
    .def_rw("active", &AccountObject::active, "whether it is open")
    .def_rw("owner", &AccountObject::owner, "who owns it")
    .def_rw("partner", &AccountObject::partner, "a linked account")
    .def("deposit", &AccountObject::Deposit, "adds to the balance and returns it", {"amount"})
    .def("label", [](ObjectPtr<AccountObject> self) { return "account " + self->owner; }, "a label")
    .def("transfer", [](ObjectPtr<AccountObject> self, ObjectPtr<AccountObject> to, int64_t amount) {
      self->balance -= amount;
      to->balance += amount;
      return self->balance;
    }, "moves an amount to another account", {"to", "amount"})
    .def("reset", [](ObjectPtr<AccountObject> self) { self->balance = 0; }, "empties it")
    .def_static("parse", [](std::string text) {
      size_t colon = text.find(':');
      if (colon == std::string::npos) {
        throw ValueError("test.Account.parse: expected \"id:owner\", got \"" + text + "\"");
      }
      return make_object<AccountObject>(std::stoll(text.substr(0, colon)), text.substr(colon + 1));
    }, "reads \"id:owner\"", {"text"})
    .def_static("count", [](int64_t a, int64_t b) { return a + b; }, "adds two numbers", {"a", "b"})
    .def(init<int64_t, std::string>(), "an account of a number and an owner", {"id", "owner"});

// Inherits deposit, transfer, reset and the static methods; overrides label; adds interest; has its own constructor.
P4J_REGISTER_OBJECT_DEF(SavingsObject, "A savings account")
    .def_rw("bonus", &SavingsObject::bonus, "added by interest")
    .def("label", [](ObjectPtr<SavingsObject> self) { return "savings " + self->owner; }, "a label")
    .def("interest", [](ObjectPtr<SavingsObject> self) {
      self->balance += self->bonus;
      return self->balance;
    }, "adds the bonus")
    .def(init<int64_t, std::string, int64_t>(), "a savings account", {"id", "owner", "bonus"});

// A savings account as a plain account: Java sees it through its parent's interface when it has no view of its own.
P4J_REGISTER_GLOBAL("test.accounts.MakeSavings").set_body_typed([](int64_t id, std::string owner, int64_t bonus) {
  return ObjectRef(make_object<SavingsObject>(id, std::move(owner), bonus));
});

// A child Java declares no interface for: it is seen through AccountRef, and its override of label still wins.
class CheckingObject : public AccountObject {
 public:
  CheckingObject() = default;
  CheckingObject(int64_t id_in, std::string owner_in) : AccountObject(id_in, std::move(owner_in)) {}

  static constexpr const char* _type_key = "test.Checking";
  P4J_DECLARE_OBJECT_TYPE_INFO(CheckingObject, AccountObject);
};
P4J_REGISTER_OBJECT_TYPE(CheckingObject);

P4J_REGISTER_OBJECT_DEF(CheckingObject, "A checking account")
    .def("label", [](ObjectPtr<CheckingObject> self) { return "checking " + self->owner; }, "a label");

P4J_REGISTER_GLOBAL("test.accounts.MakeChecking").set_body_typed([](int64_t id, std::string owner) {
  return ObjectRef(make_object<CheckingObject>(id, std::move(owner)));
});

// Reads a balance from C++, to see a Java write.
P4J_REGISTER_GLOBAL("test.accounts.BalanceOf").set_body_typed([](ObjectPtr<AccountObject> account) {
  return account->balance;
});

// Reads a balance after calling back into Java, which may close the account meanwhile: the call holds the object
// it borrows (no reference of its own), so the read is of live memory only if the hold keeps it.
P4J_REGISTER_GLOBAL("test.accounts.BalanceAfter")
    .set_body_typed([](const ObjectPtr<AccountObject>& account, PackedFunc then) {
      then(int64_t{0});
      return account->balance;
    });

// A type Java has no interface for: reached through NativeObject's dynamic get, set, call and construct.
class LedgerObject : public Object {
 public:
  int64_t total = 0;
  int64_t opened = 0;
  std::string note;

  LedgerObject() = default;
  explicit LedgerObject(int64_t start) : total(start), opened(start) {}

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("total", &total);
    v->Visit("opened", &opened);
    v->Visit("note", &note);
  }

  static constexpr const char* _type_key = "test.Ledger";
  P4J_DECLARE_OBJECT_TYPE_INFO(LedgerObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(LedgerObject);

P4J_REGISTER_OBJECT_DEF(LedgerObject, "A running total")
    .def_rw("total", &LedgerObject::total, "the running total")
    .def_ro("opened", &LedgerObject::opened, "the total it started with")
    .def_rw("note", &LedgerObject::note)
    .def("add", [](ObjectPtr<LedgerObject> self, int64_t amount) { return self->total += amount; }, "adds", {"amount"})
    .def_static("zero", []() { return make_object<LedgerObject>(0); }, "an empty ledger")
    .def(init<int64_t>(), "a ledger starting at a total", {"start"});

P4J_REGISTER_GLOBAL("test.accounts.NewLedger").set_body_typed([](int64_t start) {
  return make_object<LedgerObject>(start);
});

// Container fields (ContainerFieldsTest): their declared types are recorded beside their kind (ABI 2.10), so Java
// reads them as List<String> or Map<String, Long> (a copy) and writes them whole (a new native container).
class Account : public ObjectRef {
 public:
  P4J_DEFINE_OBJECT_REF_METHODS(Account, ObjectRef, AccountObject);
};

class ShelfObject : public Object {
 public:
  List<std::string> titles;
  Map<std::string, int64_t> counts;
  List<double> weights;
  List<Account> accounts;
  List<Any> mixed;
  PackedFunc on_change;  // object fields no getter reads typed (function, bytes): NativeObject; scan reads as NDArray
  Bytes cover;
  NDArray scan;
  std::mutex stock_writers;  // serialises stock(), below

  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("titles", &titles);
    v->Visit("counts", &counts);
    v->Visit("weights", &weights);
    v->Visit("accounts", &accounts);
    v->Visit("mixed", &mixed);
    v->Visit("on_change", &on_change);
    v->Visit("cover", &cover);
    v->Visit("scan", &scan);
  }

  static constexpr const char* _type_key = "test.Shelf";
  P4J_DECLARE_OBJECT_TYPE_INFO(ShelfObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ShelfObject);

P4J_REGISTER_OBJECT_DEF(ShelfObject, "A shelf of container fields")
    .def_rw("titles", &ShelfObject::titles, "the titles on it")
    .def_rw("counts", &ShelfObject::counts, "copies of each title")
    .def_ro("weights", &ShelfObject::weights, "the weight of each book")
    .def_rw("accounts", &ShelfObject::accounts, "who borrowed from it")
    .def_rw("mixed", &ShelfObject::mixed, "a list of anything")
    .def_rw("on_change", &ShelfObject::on_change, "called when it changes")
    .def_rw("cover", &ShelfObject::cover, "a picture of it")
    .def("describe", [](ObjectPtr<ShelfObject> self) {
      std::string text;
      for (int64_t i = 0; i < self->titles.size(); ++i) text += (i == 0 ? "" : ",") + std::string(self->titles[i]);
      int64_t copies = 0;
      for (const auto& entry : self->counts) copies += entry.second;
      return text + "/" + std::to_string(copies) + "/" + std::to_string(self->accounts.size());
    }, "the titles, the copies and the accounts, as C++ sees them")
    // Java may read counts on another thread while this runs: change a copy and swap it in under the fields' lock,
    // never the map a reader may be walking. The writers' own mutex keeps one stock() from losing another's entry.
    .def("stock", [](const ObjectPtr<ShelfObject>& self, std::string title, int64_t copies) {
      std::lock_guard<std::mutex> writer(self->stock_writers);
      Map<std::string, int64_t> next;
      for (const auto& entry : LockedRead(self, &ShelfObject::counts)) next.Set(entry.first, entry.second);
      next.Set(title, copies);
      LockedWrite(self, &ShelfObject::counts, next);
    }, "sets the copies of a title, while Java may be reading counts");

// A subtype with no fields of its own, which Java sees through ShelfRef (ContainerFieldsTest).
class BookcaseObject : public ShelfObject {
 public:
  static constexpr const char* _type_key = "test.Bookcase";
  P4J_DECLARE_OBJECT_TYPE_INFO(BookcaseObject, ShelfObject);
};
P4J_REGISTER_OBJECT_TYPE(BookcaseObject);

P4J_REGISTER_GLOBAL("test.shelves.MakeBookcase").set_body_typed([]() {
  auto bookcase = make_object<BookcaseObject>();
  bookcase->titles = List<std::string>{"Dune", "Emma"};
  return bookcase;
});

P4J_REGISTER_GLOBAL("test.shelves.Make").set_body_typed([]() {
  auto shelf = make_object<ShelfObject>();
  shelf->titles = List<std::string>{"Dune", "Emma"};
  shelf->counts = Map<std::string, int64_t>{{"Dune", 2}, {"Emma", 1}};
  shelf->weights = List<double>{0.5, 0.25};
  shelf->mixed = List<Any>{int64_t{1}, std::string("two")};
  return shelf;
});
