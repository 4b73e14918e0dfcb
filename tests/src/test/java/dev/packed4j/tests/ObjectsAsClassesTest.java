package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.FunctionInfo;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Objects as classes (issue 22): constructors, getters and setters of mutable fields, methods, static methods and
 * inheritance, through generated bindings of tests/native/accounts.cc, and the same through NativeObject's dynamic
 * access; each failure names the type, the member and the argument.
 */
class ObjectsAsClassesTest {
  private static Accounts accounts;

  @BeforeAll
  static void load() {
    TestLibrary.load();
    accounts = Packed4j.bind(Accounts.class);
  }

  @Test
  void aConstructedObjectHasItsFieldsAndMethods() {
    try (AccountRef account = accounts.open(7, "ann")) {
      assertEquals("test.Account", account.typeKey());
      assertEquals(7, account.id());
      assertEquals("ann", account.owner());
      assertEquals(100, account.deposit(100));
      assertEquals(150, account.deposit(50));
      assertEquals(150, account.balance());
      assertEquals("account ann", account.label());
      account.reset();
      assertEquals(0, accounts.balanceOf(account));
    }
  }

  @Test
  void settersWriteWhatCppAndGettersSee() {
    try (AccountRef account = accounts.open(1, "ann"); AccountRef other = accounts.open(2, "bob")) {
      account.balance(42);
      assertEquals(42, accounts.balanceOf(account));
      assertEquals(42, account.balance());
      account.small(-3);
      assertEquals(-3, account.small());
      account.smallFromLong(12);
      assertEquals(12, account.small());
      account.serial(-1L >>> 1);
      assertEquals(-1L >>> 1, account.serial());
      account.serial(-1); // a uint64 field takes the bit pattern its getter returns: 2^64-1
      assertEquals("18446744073709551615", Long.toUnsignedString(account.serial()));
      // C++ holds 2^64-1, which a call's conversion (NativeObject.get is one) range-checks as any uint64 result.
      Packed4jException wide = assertThrows(Packed4jException.class, () -> NativeObject.of(account).get("serial"));
      assertTrue(wide.getMessage().contains("18446744073709551615"), wide.getMessage());
      account.balanceFromInt(-7);
      assertEquals(-7, account.balance());
      account.balanceFromInt(42);
      account.rate(0.25);
      assertEquals(0.25, account.rate());
      account.active(false);
      assertFalse(account.active());
      account.owner("carol \u00e9\u0000x");
      assertEquals("carol \u00e9\u0000x", account.owner());
      account.partner(other);
      try (AccountRef partner = account.partner()) {
        assertEquals(2, partner.id());
      }
      account.partner(null);
      assertNull(account.partner());
      assertEquals(40, account.transfer(other, 2));
      assertEquals(2, other.balance());
    }
  }

  @Test
  void badWritesAndCallsNameTheTypeTheMemberAndTheArgument() {
    try (AccountRef account = accounts.open(1, "ann")) {
      Packed4jException readOnly = assertThrows(Packed4jException.class, () -> account.id(9));
      assertEquals("ValueError", readOnly.kind());
      assertTrue(readOnly.getMessage().contains("field 'id' of type test.Account is read-only"),
          readOnly.getMessage());
      assertEquals(1, account.id());

      Packed4jException range = assertThrows(Packed4jException.class, () -> account.smallFromLong(1L << 40));
      assertEquals("ValueError", range.kind());
      assertTrue(range.getMessage().contains("test.Account.small: 1099511627776 does not fit in int32"),
          range.getMessage());

      NullPointerException nullString = assertThrows(NullPointerException.class, () -> account.owner(null));
      assertTrue(nullString.getMessage().contains("test.Account.owner(value) is null; a typed setter writes a String"
          + " to a string field, never null (set \"\" to empty it)"), nullString.getMessage());
      assertEquals("ann", account.owner());

      Packed4jException nativeError = assertThrows(Packed4jException.class, () -> account.deposit(-5));
      assertEquals("ValueError", nativeError.kind());
      assertTrue(nativeError.getMessage().contains("a deposit cannot be negative"), nativeError.getMessage());

      NullPointerException nullObject = assertThrows(NullPointerException.class, () -> account.transfer(null, 1));
      assertTrue(nullObject.getMessage().contains("test.Account.transfer argument 1 (to)"), nullObject.getMessage());

      Packed4jException unknown = assertThrows(Packed4jException.class, () -> account.takeOut(1));
      assertEquals("AttributeError", unknown.kind());
      assertTrue(unknown.getMessage().contains("type test.Account has no method 'withdraw'"), unknown.getMessage());
      assertTrue(unknown.getMessage().contains("AccountRef.takeOut"), unknown.getMessage());
      assertTrue(unknown.getMessage().contains("deposit"), unknown.getMessage());
    }
    AccountRef closed = accounts.open(3, "dan");
    closed.close();
    assertTrue(assertThrows(IllegalStateException.class, () -> closed.deposit(1)).getMessage()
        .startsWith("test.Account.deposit argument 0 (self): the test.Account object is closed"));
    // Getters and setters name their member too, as methods do (they named only the type).
    String closedObject = ": the test.Account object is closed; it cannot be used after close()";
    assertEquals("test.Account.balance" + closedObject,
        assertThrows(IllegalStateException.class, () -> closed.balance(1)).getMessage());
    assertEquals("test.Account.balance" + closedObject,
        assertThrows(IllegalStateException.class, closed::balance).getMessage());
    assertEquals("test.Account.owner" + closedObject,
        assertThrows(IllegalStateException.class, () -> closed.owner("x")).getMessage());
    assertEquals("test.Account.owner" + closedObject,
        assertThrows(IllegalStateException.class, closed::owner).getMessage());
    assertTrue(assertThrows(IllegalStateException.class, closed::label).getMessage().contains("label"));
  }

  @Test
  void aChildInheritsMethodsAndItsOverridesWin() {
    try (SavingsRef savings = accounts.openSavings(1, "sue", 10)) {
      assertEquals("test.Savings", savings.typeKey());
      assertEquals("savings sue", savings.label());
      assertEquals(5, savings.deposit(5));
      assertEquals(15, savings.interest());
      savings.bonus(1);
      assertEquals(16, savings.interest());
      AccountRef asAccount = savings;
      assertEquals("savings sue", asAccount.label());
    }
    // test.Checking has no Java interface: Java sees it as an AccountRef, and its override of label still wins.
    try (AccountRef checking = accounts.makeChecking(2, "cal"); AccountRef plain = accounts.open(3, "pat")) {
      assertEquals("test.Checking", checking.typeKey());
      for (int i = 0; i < 3; i++) { // the second and later calls take the cached dispatch
        assertEquals("checking cal", checking.label());
        assertEquals("account pat", plain.label());
        assertEquals(10L * (i + 1), checking.deposit(10));
      }
    }
  }

  @Test
  void staticMethodsAreCalledWithoutAnObject() {
    try (AccountRef parsed = accounts.parse("9:zed")) {
      assertEquals(9, parsed.id());
      assertEquals("zed", parsed.owner());
    }
    assertEquals(5, accounts.add(2, 3));
    try (AccountRef inherited = accounts.parseViaSavings("4:ivy")) {
      assertEquals("test.Account", inherited.typeKey());
    }
    Packed4jException bad = assertThrows(Packed4jException.class, () -> accounts.parse("no colon"));
    assertEquals("ValueError", bad.kind());
    assertTrue(bad.getMessage().contains("test.Account.parse"), bad.getMessage());
    NullPointerException nullText = assertThrows(NullPointerException.class, () -> accounts.parse(null));
    assertTrue(nullText.getMessage().contains("test.Account.parse argument 0 (text)"), nullText.getMessage());
  }

  @Test
  void nativeObjectConstructsSetsAndCallsByName() {
    // test.Ledger has no @Object interface here, but GenerateTest may have generated one in this JVM: the object
    // arrives as a NativeObject or as that view, and NativeObject.of gives dynamic access to either.
    ObjectRef made = assertInstanceOf(ObjectRef.class, NativeObject.construct("test.Ledger", 5L));
    NativeObject ledger = NativeObject.of(made);
    made.close();
    try (ledger) {
      assertEquals(8L, ledger.call("add", 3));
      ledger.set("total", 1);
      assertEquals(1L, ledger.get("total"));
      ledger.set("note", "paid");
      assertEquals("paid", ledger.get("note"));
      Packed4jException readOnly = assertThrows(Packed4jException.class, () -> ledger.set("opened", 2));
      assertTrue(readOnly.getMessage().contains("opened"), readOnly.getMessage());
      assertTrue(readOnly.getMessage().contains("read-only"), readOnly.getMessage());
      Packed4jException wrongType = assertThrows(Packed4jException.class, () -> ledger.set("total", "x"));
      assertTrue(wrongType.getMessage().contains("total"), wrongType.getMessage());
      Packed4jException unknown = assertThrows(Packed4jException.class, () -> ledger.call("sub", 1));
      assertEquals("AttributeError", unknown.kind());
      assertTrue(unknown.getMessage().contains("[add, zero, __init__]"), unknown.getMessage());
      // A field's name called as a method, as an interface built without a manifest does for a setter with no
      // getter beside it (trial userT), says how to read and write it instead.
      Packed4jException field = assertThrows(Packed4jException.class, () -> ledger.call("total", 2));
      assertEquals("AttributeError", field.kind());
      assertTrue(field.getMessage().contains("\"total\" is a field: a Java interface reads it with a getter total(),"
          + " and writes it with a one-parameter void total(...) declared beside that getter or marked"
          + " @Field(\"total\"); NativeObject.get and set take it by name"), field.getMessage());
      Packed4jException readOnlyField = assertThrows(Packed4jException.class, () -> ledger.call("opened", 2));
      assertTrue(readOnlyField.getMessage().contains("\"opened\" is a read-only field: a Java interface reads it"
          + " with a getter opened(); NativeObject.get takes it by name"), readOnlyField.getMessage());
      Packed4jException badArgument = assertThrows(Packed4jException.class, () -> ledger.call("add", "one"));
      assertTrue(badArgument.getMessage().contains("test.Ledger.add"), badArgument.getMessage());
      assertTrue(badArgument.getMessage().contains("argument 1 expected int64"), badArgument.getMessage());
      // The count is the caller's, not the native one that counts the object first.
      Packed4jException arity = assertThrows(Packed4jException.class, () -> ledger.call("add"));
      assertEquals("[TypeError] test.Ledger.add: expected 1 argument after the object (test.Ledger, int64) -> int64,"
          + " got 0 (NativeObject.call)", arity.getMessage());
    }
    assertThrows(IllegalStateException.class, () -> ledger.call("add", 1));
    try (ObjectRef zero = (ObjectRef) NativeObject.callStatic("test.Ledger", "zero");
        NativeObject dynamic = NativeObject.of(zero)) {
      assertEquals(0L, dynamic.get("total"));
    }
    Packed4jException noType = assertThrows(Packed4jException.class, () -> NativeObject.construct("test.Nope"));
    assertEquals("KeyError", noType.kind());
    // An object with an interface (which one: the views registered in this JVM decide) is reached by name too.
    try (ObjectRef account = (ObjectRef) NativeObject.construct("test.Account", 4L, "eve");
        NativeObject dynamic = NativeObject.of(account)) {
      assertEquals("test.Account", account.typeKey());
      assertEquals(10L, dynamic.call("deposit", 10));
      dynamic.set("owner", "eva");
      assertEquals("eva", dynamic.get("owner"));
      assertEquals(10L, dynamic.get("balance"));
      // By name a value converts as C++'s Args does (README, "Type mapping"): an integer field takes a Boolean as
      // 0 or 1, a bool field an integer 0 or 1 and no other, a float field an integer but no Boolean.
      dynamic.set("balance", true);
      assertEquals(1L, dynamic.get("balance"));
      dynamic.set("active", 0);
      assertEquals(false, dynamic.get("active"));
      assertEquals("ValueError", assertThrows(Packed4jException.class, () -> dynamic.set("active", 2)).kind());
      assertEquals(false, dynamic.get("active"));
      dynamic.set("rate", 3);
      assertEquals(3.0, dynamic.get("rate"));
      assertEquals("TypeError", assertThrows(Packed4jException.class, () -> dynamic.set("rate", true)).kind());
    }
    ObjectRef closed = (ObjectRef) NativeObject.construct("test.Account", 5L, "x");
    closed.close();
    assertThrows(IllegalStateException.class, () -> NativeObject.of(closed));
  }

  @Test
  void theRegistryListsMembersMutabilityAndDocs() {
    ObjectTypeInfo account = Registry.objectType("test.Account").orElseThrow();
    assertEquals("A bank account", account.doc());
    ObjectTypeInfo.Field id = account.field("id").orElseThrow();
    assertFalse(id.mutable());
    assertEquals("the account number", id.doc());
    assertTrue(account.field("balance").orElseThrow().mutable());
    ObjectTypeInfo.Member deposit = account.member("deposit").orElseThrow();
    assertEquals(ObjectTypeInfo.MemberKind.METHOD, deposit.kind());
    assertEquals("(test.Account, int64) -> int64", deposit.signature());
    assertEquals(List.of("amount"), deposit.parameterNames());
    assertEquals("adds to the balance and returns it", deposit.doc());
    assertEquals(ObjectTypeInfo.MemberKind.STATIC_METHOD, account.member("parse").orElseThrow().kind());
    ObjectTypeInfo.Member constructor = account.constructor().orElseThrow();
    assertEquals("__init__", constructor.name());
    assertEquals(List.of("id", "owner"), constructor.parameterNames());
    ObjectTypeInfo savings = Registry.objectType("test.Savings").orElseThrow();
    assertTrue(savings.field("bonus").orElseThrow().mutable());
    assertEquals(Set.of("label", "interest", "__init__"),
        Set.copyOf(savings.members().stream().map(ObjectTypeInfo.Member::name).toList()));
    assertEquals("test.Savings", savings.member("label").orElseThrow().declaredBy());

    FunctionInfo balanceOf = Registry.functionInfo("test.accounts.BalanceOf").orElseThrow();
    assertEquals("(test.Account) -> int64", balanceOf.signature());
    assertEquals("", balanceOf.doc());
    assertTrue(Registry.functionInfo("test.accounts.Nope").isEmpty());
  }

  /**
   * Many threads write and read one object's fields: a number is one store, a string a swap under the object's
   * field lock; readers see only values some writer wrote, and every replaced string is released once.
   */
  @Test
  void concurrentSettersNeverCorruptTheObject() throws Exception {
    long before = TestLibrary.settledLiveObjectCount();
    List<String> owners = List.of("a", "bb", "a much longer owner name than the small-string buffer holds", "");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (AccountRef account = accounts.open(1, "start")) {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 5_000; i++) {
            account.balance(thread * 1_000_000L + i);
            account.owner(owners.get((thread + i) % owners.size()));
            long balance = account.balance();
            assertTrue(balance >= 0 && balance < 4_000_000L, "balance " + balance);
            String owner = account.owner();
            assertTrue(owners.contains(owner), owner);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> future : futures) {
        future.get();
      }
      assertTrue(owners.contains(account.owner()));
    } finally {
      pool.shutdownNow();
    }
    assertEquals(before, TestLibrary.settledLiveObjectCount());
  }
}
