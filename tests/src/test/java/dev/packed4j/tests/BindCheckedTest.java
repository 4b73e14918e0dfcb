package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import java.util.List;
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
