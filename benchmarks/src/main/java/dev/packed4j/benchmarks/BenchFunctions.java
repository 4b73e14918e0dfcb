package dev.packed4j.benchmarks;

import dev.packed4j.annotations.Constructor;
import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.NDArray;
import java.util.List;
import java.util.Optional;

/** The benchmark plugin's registered functions (benchmarks/native/packed_registrations.cc). */
public interface BenchFunctions {
  /** The counter's constructor ({@code def(init<int64_t>())}). */
  @Constructor
  Counter newCounter(long value);

  /** Registered with the untyped {@code set_body}, the way DGL's guide writes {@code MyAdd}. */
  @Global("bench.AddPacked")
  int addPacked(int a, int b);

  /** The same addition registered with {@code set_body_typed}: the native side knows its exact signature. */
  @Global("bench.AddTyped")
  int addTyped(int a, int b);

  @Global("bench.Nop")
  void nop();

  @Global("bench.CountCodePoints")
  long countCodePoints(String text);

  @Global("bench.EchoString")
  String echoString(String text);

  @Global("bench.MakeCounter")
  Counter makeCounter(long value);

  /** Passes the object as an argument (a packed call): what holding it for the call costs. */
  @Global("bench.CounterValue")
  long valueOf(Counter counter);

  /** {@code set_body_typed}, an object result: the typed entry hands back an owned handle. */
  @Global("bench.CreateCounter")
  Counter createCounter(String name, long value);

  /** {@code set_body_typed}, an object argument: the typed entry takes the pinned handle. */
  @Global("bench.CounterValueTyped")
  long valueOfTyped(Counter counter);

  /** {@code set_body_typed}, bytes in and out: spans both ways. */
  @Global("bench.EchoBytes")
  byte[] echoBytes(byte[] data);

  /** The same echo over a {@code BytesView}: no {@code Bytes} object is made, the result copied once. */
  @Global("bench.EchoBytesView")
  byte[] echoBytesView(byte[] data);

  @Global("bench.SumList")
  long sum(List<Long> values);

  /** The same sum over a {@code std::vector<int64_t>}: the entry copies the borrowed values into a vector. */
  @Global("bench.SumVector")
  long sumVector(List<Long> values);

  /** The same sum over a {@code ListView<int64_t>}: the entry reads the borrowed values in place. */
  @Global("bench.SumView")
  long sumView(List<Long> values);

  /**
   * Several parameters of the shapes issue 24 put on the typed entry (a list, an optional, bytes, a String): for
   * what C2's InlineSmallCode means for such a method (docs/benchmarks.md).
   */
  @Global("bench.Several")
  long several(List<Long> values, Optional<Long> extra, byte[] data, String text);

  @Global("bench.TensorFirstByte")
  long firstByte(NDArray tensor);

  @Global("bench.TensorFirstByteNDArray")
  long firstByteOfNDArrayParameter(NDArray tensor);
}
