package dev.packed4j.samples.callbacks;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.PackedFunction;
import java.util.List;
import java.util.function.LongUnaryOperator;

/** The callbacks plugin's functions (native/callbacks.cc). */
public interface Callbacks {
  /** A Java lambda in: C++ applies it to every element. */
  @Global("callbacks.MapList")
  List<Long> mapList(LongUnaryOperator function, List<Long> values);

  /** C++ greets every name through the Java globals host.Greet and host.Log. */
  @Global("callbacks.GreetAll")
  long greetAll(List<String> names);

  /** C++ calls the function and reports what it threw. */
  @Global("callbacks.TryCall")
  String tryCall(PackedFunction function);

  /** A C++ closure out, as a Java functional interface. */
  @Global("callbacks.MakeCounter")
  LongUnaryOperator makeCounter(long start);
}
