package dev.packed4j.tests;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.PackedFunction;
import java.util.List;

/** Functions as values through tests/native/callbacks.cc. */
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

  @Global("packed4j.ObjectLiveCount")
  long liveObjects();
}
