package dev.packed4j.benchmarks;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.PackedFunction;
import java.util.function.LongBinaryOperator;

/** The benchmark plugin's functions that call Java (benchmarks/native/callbacks.cc). */
public interface CallbackFunctions {
  /** C++ keeps a typed callback: a LongBinaryOperator, passed as a functional interface. */
  @Global("bench.HoldTyped")
  void holdTyped(LongBinaryOperator function);

  /** C++ calls the kept callback n times through its typed entry. */
  @Global("bench.CallHeldTyped")
  long callHeldTyped(long n);

  @Global("bench.HoldPacked")
  void holdPacked(PackedFunction function);

  /** C++ calls the kept PackedFunction.of n times, packed. */
  @Global("bench.CallHeldPacked")
  long callHeldPacked(long n);

  /** C++ looks a Java global up once by name. */
  @Global("bench.LookUpGlobal")
  void lookUpGlobal(String name);

  /** C++ calls the global it looked up n times. */
  @Global("bench.CallGlobal")
  long callGlobal(long n);

  /** C++ calls a callback once, through its typed entry: the callback travels on the typed entry (issue 24). */
  @Global("bench.ApplyOnce")
  long applyOnce(LongBinaryOperator function, long a, long b);

  @Global("bench.DropHeld")
  void dropHeld();
}
