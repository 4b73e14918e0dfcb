package dev.packed4j.tests;

import dev.packed4j.annotations.Global;

/** The globals of test.Layer (tests/native/tensors.cc). */
public interface Layers {
  /** A layer whose weights are unset, and whose bias is the float32 tensor [1, 2, 3] when {@code withBias}. */
  @Global("test.layers.Make")
  LayerRef make(boolean withBias);
}
