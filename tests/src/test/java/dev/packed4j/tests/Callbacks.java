package dev.packed4j.tests;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.PackedFunction;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;

/** Functions as values through tests/native/callbacks.cc. */
// The describe overloads take functional interfaces of the same arity on purpose: the tests check that each one
// reaches C++ with its own signature. Callers pass typed variables, never an ambiguous lambda.
@SuppressWarnings("overloads")
public interface Callbacks {
  @Global("test.cb.Apply")
  Object apply(PackedFunction function, Object value);

  @Global("test.cb.MapList")
  List<Long> mapList(PackedFunction function, List<Long> values);

  @Global("test.cb.CatchError")
  String catchError(PackedFunction function);

  @Global("test.cb.CountErrors")
  long countErrors(PackedFunction function, long times);

  @Global("test.cb.SumOnThreads")
  long sumOnThreads(PackedFunction function, long threads, long calls);

  @Global("test.cb.CallGlobal")
  long callGlobal(String name, long a, long b);

  @Global("test.cb.CallGlobalRepeatedly")
  List<Long> callGlobalRepeatedly(String name, long times);

  @Global("test.cb.MakeCounter")
  PackedFunction makeCounter(long start);

  @Global("test.cb.Compose")
  PackedFunction compose(PackedFunction outer, PackedFunction inner);

  @Global("test.cb.Hold")
  void hold(PackedFunction function);

  @Global("test.cb.CallHeld")
  Object callHeld(Object value);

  @Global("test.cb.DropHeld")
  void dropHeld();

  @Global("test.cb.DropHeldOnNewThread")
  void dropHeldOnNewThread();

  /** A user's own functional interface. */
  @FunctionalInterface
  interface Scale {
    double scale(double value, int times);
  }

  @Global("test.cb.SumTyped")
  long sumTyped(LongBinaryOperator add, long n);

  @Global("test.cb.Describe")
  String describe(PackedFunction function);

  @Global("test.cb.Describe")
  String describe(LongBinaryOperator function);

  @Global("test.cb.Describe")
  String describe(Function<String, String> function);

  @Global("test.cb.Describe")
  String describe(Scale function);

  @Global("test.cb.Describe")
  String describe(Consumer<String> function);

  @Global("test.cb.Describe")
  String describe(IntBinaryOperator function);

  @Global("test.cb.ScaleTwice")
  double scaleTwice(Scale scale, double value);

  @Global("test.cb.ForEach")
  void forEach(Consumer<String> each, List<String> values);

  @Global("test.cb.Describe")
  String describeNodeConsumer(Consumer<Node> function);

  @Global("test.cb.ForEachObject")
  void forEachNode(Consumer<Node> each, List<Node> nodes);

  @Global("test.cb.MapStrings")
  List<String> mapStrings(Function<String, String> function, List<String> values);

  @Global("test.cb.CallGlobalTyped")
  long callGlobalTyped(String name, long a, long b);

  /** Calls the typed entry of the global {@code name} of wire shape (int64, float64) -> float64 with raw values. */
  @Global("test.cb.CallWireEntry")
  double callWireEntry(String name, long a, double b);

  /** A functional interface echoed back: the same Java object. */
  @Global("test.UntypedEcho")
  LongBinaryOperator echo(LongBinaryOperator operator);

  /** A closure out as a functional interface. */
  @Global("test.cb.MakeCounter")
  LongUnaryOperator makeCounterOperator(long start);

  @Global("test.cb.Apply")
  Object applyOperator(IntBinaryOperator operator, Object value);

  /** Whether C++ receives the same native function object twice. */
  @Global("test.cb.SameFunction")
  boolean sameFunction(LongUnaryOperator operator, PackedFunction function);

  @Global("test.cb.Apply")
  Object applyUnary(LongUnaryOperator operator, Object value);

  /** A function handed back as a functional interface: a Java function comes back as a closure out over it. */
  @Global("test.UntypedEcho")
  LongUnaryOperator echoAsOperator(PackedFunction function);

  @Global("packed4j.ObjectLiveCount")
  long liveObjects();

  /**
   * Calls {@code function(thread, call, text)} from {@code threads} new native threads, {@code calls} times each
   * (tests/native/stress.cc); every result must be {@code thread * 1000000 + call + text's UTF-8 length}. Returns
   * the number of right results.
   */
  @Global("test.stress.CallbackOnThreads")
  long callbackOnThreads(PackedFunction function, long threads, long calls, String text);
}
