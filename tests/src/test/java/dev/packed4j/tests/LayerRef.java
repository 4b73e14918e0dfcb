package dev.packed4j.tests;

import dev.packed4j.annotations.Field;
import dev.packed4j.annotations.Method;
import dev.packed4j.annotations.Object;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.NativeObject;
import java.util.List;

/** test.Layer of tests/native/tensors.cc: tensor fields read and written as NDArray. */
@Object("test.Layer")
public interface LayerRef extends AutoCloseable {
  /** The def_rw tensor field: a new reference the caller closes, null while unset. */
  NDArray weights();

  /** Stores a tensor of native memory (the object keeps a reference of its own), or null to unset the field. */
  void weights(NDArray weights);

  /** The def_ro tensor field, set only in C++ (test.layers.Make). */
  NDArray bias();

  /** Writes the read-only bias: the runtime refuses it (a manifest check would refuse it at compile time). */
  void bias(NDArray bias);

  /** The tensor field as a native object, as before a getter could read it as NDArray. */
  @Field("weights")
  NativeObject weightsObject();

  String name();

  /** A list<NDArray> field: a copy of the list, each tensor a new reference. */
  List<NDArray> history();

  /** Replaces the list; a tensor over Java memory in it is refused. */
  void history(List<NDArray> history);

  /** The sum of the float32 weights as C++ reads them through the field, -1 when unset. */
  @Method("weights_sum")
  double weightsSum();

  @Override
  void close();
}
