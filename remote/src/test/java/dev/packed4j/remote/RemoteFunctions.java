package dev.packed4j.remote;

import dev.packed4j.annotations.Constructor;
import dev.packed4j.annotations.Global;
import dev.packed4j.annotations.Method;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.PackedFunction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;

/** The test plugin's functions (native/remote_plugin.cc), bound locally and through sessions alike. */
public interface RemoteFunctions {
  @Global("remote.Add")
  long add(long a, long b);

  @Global("remote.Add")
  int addInts(int a, int b);

  @Global("remote.Divide")
  double divide(double a, double b);

  @Global("remote.IsEven")
  boolean isEven(long value);

  @Global("remote.Greet")
  String greet(String name);

  @Global("remote.Reverse")
  byte[] reverse(byte[] data);

  @Global("remote.Sum")
  long sum(List<Long> values);

  @Global("remote.Range")
  List<Long> range(long count);

  @Global("remote.Range")
  List<Byte> byteRange(long count);

  @Global("remote.Lengths")
  Map<String, Long> lengths(List<String> words);

  @Global("remote.MaybeName")
  Optional<String> maybeName(Optional<String> name);

  @Global("remote.Fail")
  long fail(String what);

  @Global("remote.Sleep")
  long sleep(long millis);

  @Global("remote.Crash")
  long crash(long value);

  @Global("remote.Apply")
  long apply(PackedFunction function, long value);

  @Global("remote.Counter")
  PackedFunction counter(long start);

  @Global("remote.Counter")
  LongUnaryOperator counterOperator(long start);

  @Global("remote.Counter")
  Function<Long, Long> counterFunction(long start);

  @Global("remote.MakePoint")
  PointRef makePoint(long x, long y, String label);

  /** A remote.TaggedPoint, declared as its parent. */
  @Global("remote.MakeTagged")
  PointRef makeTagged(long x, String tag);

  @Global("remote.Distance2")
  long distance2(PointRef a, PointRef b);

  @Global("remote.Pair")
  List<PointRef> pair(long x);

  @Global("remote.TotalX")
  long totalX(List<PointRef> points);

  @Global("remote.Merge")
  Map<String, Long> merge(Map<String, Long> a, Map<String, Long> b);

  @Global("remote.MakeShelf")
  ShelfRef makeShelf();

  /** Two remote.Point objects declared as shelves: the first is refused, the second released unseen. */
  @Global("remote.Pair")
  List<ShelfRef> pairAsShelves(long x);

  /** The core's loader, typed: a shelf as a JSON document describes it (unset fields included). */
  @Global("packed4j.LoadJSON")
  ShelfRef loadShelf(String json);

  /** A remote.Shelf declared as a point, which it is not: refused, here and through a session. */
  @Global("remote.MakeShelf")
  PointRef makeShelfAsPoint();

  @Constructor
  PointRef newPoint(long x, long y, String label);

  @Method(of = PointRef.class)
  PointRef origin();

  @Global("remote.SumFloat32")
  double sumFloat32(NDArray values);

  @Global("remote.EchoTensor")
  NDArray echo(NDArray tensor);

  @Global("remote.HoldTensor")
  long holdTensor(float[] values, long millis);

  /** A {@code float[]} crosses as the 1-D float32 tensor the local binding makes of it. */
  @Global("remote.SumFloat32")
  double sumFloats(float[] values);

  @Global("remote.EchoTensor")
  NDArray echoDoubles(double[] values);

  @Global("remote.EchoTensor")
  NDArray echoInts(int[] values);

  @Global("remote.EchoTensor")
  NDArray echoLongs(long[] values);

  @Global("remote.Ramp")
  NDArray ramp(long n);

  /** A tensor on cuda:0, for this process only. */
  @Global("remote.DeviceTensor")
  NDArray deviceTensor();

  /** A strided view of its argument's memory. */
  @Global("remote.Transpose")
  NDArray transpose(NDArray a);

  /** A global no library registers: its call's KeyError, on a server. */
  interface Missing {
    @Global("remote.Nothing")
    long nothing();
  }

  /** {@code remote.ProcessId}, registered with {@code set_body}: the method packed4j generate writes for one. */
  default Object processId(Object... args) {
    return Packed4j.invokeGlobal(this, "remote.ProcessId", args);
  }
}
