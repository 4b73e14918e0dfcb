package dev.packed4j.tests;

import dev.packed4j.annotations.Global;
import dev.packed4j.runtime.NDArray;
import java.util.List;
import java.util.function.Function;

/** Tensors through functions of tests/native/tensors.cc. */
public interface Tensors {
  @Global("test.tensor.Shape")
  List<Long> shape(NDArray a);

  @Global("test.tensor.Strides")
  List<Long> strides(NDArray a);

  @Global("test.tensor.DataAddress")
  long dataAddress(NDArray a);

  @Global("test.tensor.ByteOffset")
  long byteOffset(NDArray a);

  @Global("test.tensor.IsContiguous")
  boolean isContiguous(NDArray a);

  @Global("test.tensor.DType")
  String dtype(NDArray a);

  @Global("test.tensor.OtherReferences")
  long otherReferences(NDArray a);

  @Global("test.tensor.SumFloat32")
  double sumFloat32(NDArray a);

  @Global("test.tensor.SumFloat64")
  double sum(double[] values);

  @Global("test.tensor.SumFloat32")
  double sumFloats(float[] values);

  @Global("test.tensor.SumInt32AndInt64")
  long sum(int[] a, long[] b);

  @Global("test.tensor.FillIota16")
  void fillIota(NDArray a);

  @Global("test.tensor.Scale")
  NDArray scale(NDArray a, double factor);

  @Global("test.tensor.Echo")
  NDArray echo(NDArray a);

  @Global("test.tensor.Flatten")
  NDArray flatten(NDArray a);

  @Global("test.tensor.Broadcast")
  NDArray broadcast(NDArray a, long count);

  /** An {@code optional<NDArray>} result: null for None, as for every reference type. */
  @Global("test.tensor.SameOrNone")
  NDArray sameOrNone(NDArray a, boolean none);

  @Global("test.tensor.ProduceForeign")
  long produceForeign(long count);

  @Global("test.tensor.ForeignDeleted")
  long foreignDeleted();

  @Global("test.tensor.ConsumeFirstFloat")
  double consumeFirstFloat(long managedTensorAddress);

  @Global("test.tensor.ViewDataAddress")
  long viewDataAddress(NDArray a);

  @Global("test.tensor.ViewSumFloat32")
  double viewSumFloat32(NDArray a);

  @Global("test.tensor.ViewFillIota32")
  long viewFillIota(NDArray a);

  @Global("test.tensor.ViewFillIota32")
  long viewFillIota(float[] a);

  @Global("test.tensor.ViewLiveObjects")
  long viewLiveObjects(NDArray a);

  @Global("test.tensor.ForwardView")
  long forwardView(Function<NDArray, Long> f, NDArray a);

  @Global("test.tensor.PackedViewDataAddress")
  long packedViewDataAddress(NDArray a, long rows, long columns);

  @Global("test.tensor.PackedViewLiveObjects")
  long packedViewLiveObjects(NDArray a);
}
