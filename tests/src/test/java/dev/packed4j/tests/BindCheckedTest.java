package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.annotations.Global;
import dev.packed4j.annotations.Method;
import dev.packed4j.annotations.Object;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Packed4j.bindChecked: the whole interface against the loaded registry, every problem in one exception. */
class BindCheckedTest {
  @BeforeAll
  static void load() {
    TestLibrary.load();
  }

  /** Matches the test plugin. */
  public interface Matching {
    @Global("test.AddInt32") int add(int a, int b);

    @Global("test.EchoFloat64") double echo(long value);

    @Global("test.SumInt64List") long sum(List<Long> values);

    @Global("test.MakeLeaf") LeafNode leaf(String label);

    @Global("test.UntypedEcho") String untyped(double value);
  }

  /** Each method wrong in another way. */
  public interface Mismatched {
    @Global("test.AddInt23") int add(int a, int b);

    @Global("test.AddInt32") int addOne(int a);

    @Global("test.EchoString") String echo(int value);

    @Global("test.EchoFloat64") long truncate(double value);

    @Global("test.SumInt64List") long sum(List<String> values);

    @Global("test.ReturnNothing") String nothing();

    @Global("test.UntypedEcho") String untyped(double value);
  }

  /** test.Ledger (tests/native/accounts.cc), declared wrong in each way bindChecked finds in an object interface. */
  @Object("test.Ledger")
  public interface WrongLedger extends AutoCloseable {
    String total();

    long opened();

    void opened(long opened);

    long pages();

    @Method
    long add(long amount, long times);

    @Method
    WrongLedger zero();

    @Override
    void close();
  }

  /** Reaches WrongLedger inside an Optional result. */
  public interface Ledgers {
    @Global("test.accounts.NewLedger")
    Optional<WrongLedger> ledger(long start);
  }

  /** test.Checking viewed as a child of test.LeafNode, which it does not derive from. */
  @Object("test.Checking")
  public interface CheckingAsLeaf extends LeafNode {
  }

  /** A method of an object called as a static method, and an object interface with a wrong parent. */
  public interface WrongKinds {
    @Method(of = AccountRef.class, value = "deposit")
    long depositStatically(long amount);

    @Global("test.UntypedEcho")
    CheckingAsLeaf echo(CheckingAsLeaf checking);
  }

  @Test
  void aMemberOfAnotherKindAndAWrongParentAreFound() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.bindChecked(WrongKinds.class));
    List<String> lines = e.getMessage().lines().skip(1).map(String::strip).sorted().toList();
    assertEquals(List.of(
        "CheckingAsLeaf: extends LeafNode, the view of test.LeafNode, but test.Checking does not derive from it",
        "WrongKinds.depositStatically(long): test.Account.deposit is a method of an object, called here as a static"
            + " method; declare it on the type's @Object interface, which calls it with the object first"), lines,
        e.getMessage());
  }

  @Test
  void aMatchingInterfaceBindsAndCalls() {
    Matching matching = Packed4j.bindChecked(Matching.class);
    assertEquals(5, matching.add(2, 3));
    assertEquals(7.0, matching.echo(7));
    assertEquals(6L, matching.sum(List.of(1L, 2L, 3L)));
    try (LeafNode leaf = matching.leaf("green")) {
      assertEquals("green", leaf.label());
    }
  }

  @Test
  void theObjectInterfacesAnInterfaceReachesAreCheckedToo() {
    // Accounts returns AccountRef and SavingsRef, which declare a setter of the read-only id and a method no type
    // registers, on purpose (ObjectsAsClassesTest calls them for their run-time errors). SavingsRef inherits both:
    // they are reported once, on AccountRef, as test.Savings does not override them.
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.bindChecked(Accounts.class));
    assertEquals("BindError", e.kind());
    List<String> lines = e.getMessage().lines().skip(1).map(String::strip).sorted().toList();
    assertEquals(List.of(
        "AccountRef.id(long): field 'id' of test.Account is read-only (its VisitAttrs or a def_ro declares it); only"
            + " a def_rw field has a setter",
        "AccountRef.takeOut(long): type test.Account has no method 'withdraw'; its members are [deposit, label,"
            + " transfer, reset, parse, count, __init__]"), lines,
        e.getMessage());
    assertTrue(e.getMessage().contains("Accounts does not match the loaded native registry (2 problems):"),
        e.getMessage());
  }

  @Test
  void eachWayAnObjectInterfaceCanBeWrongIsFound() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.bindChecked(Ledgers.class));
    List<String> lines = e.getMessage().lines().skip(1).map(String::strip).sorted().toList();
    assertEquals(List.of(
        "WrongLedger.add(long,long): test.Ledger.add takes 1 argument after the object ((test.Ledger, int64) ->"
            + " int64), the method 2",
        "WrongLedger.opened(long): field 'opened' of test.Ledger is read-only (its VisitAttrs or a def_ro declares"
            + " it); only a def_rw field has a setter",
        "WrongLedger.pages(): test.Ledger has no field 'pages' to read; its fields: total, opened, note",
        "WrongLedger.total(): reads field 'total' (int64) of test.Ledger as java.lang.String: a String getter reads"
            + " a string field",
        "WrongLedger.zero(): test.Ledger.zero is a static method, not a method of an object"), lines,
        e.getMessage());
  }

  @Test
  void everyProblemOfAnInterfaceIsInOneException() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.bindChecked(Mismatched.class));
    assertEquals("BindError", e.kind());
    String message = e.getMessage();
    List<String> lines = message.lines().skip(1).map(String::strip).sorted().toList();
    assertEquals(List.of(
        "Mismatched.add(int,int): no loaded library registers 'test.AddInt23'; did you mean test.AddInt32?",
        "Mismatched.addOne(int): test.AddInt32 takes 2 arguments ((int32, int32) -> int64), the method 1",
        "Mismatched.echo(int): argument 0 is int, which cannot convert to string (test.EchoString (string) ->"
            + " string): the native side takes a string",
        "Mismatched.nothing(): the result is java.lang.String, but test.ReturnNothing returns void (() -> void):"
            + " the function returns nothing",
        "Mismatched.sum(java.util.List): argument 0 is java.util.List<java.lang.String>, which cannot convert to"
            + " list<int64> (test.SumInt64List (list<int64>) -> int64): its elements: the native side takes an integer",
        "Mismatched.truncate(double): the result is long, but test.EchoFloat64 returns float64 ((float64) ->"
            + " float64): a floating-point result never converts to an integer"), lines, message);
    assertEquals(true, message.contains("BindCheckedTest$Mismatched does not match the loaded native registry"
        + " (6 problems):"), message);
  }
}
