package dev.packed4j.tests;

import dev.packed4j.annotations.Field;
import dev.packed4j.annotations.Object;

/** test.LeafNode: only ever returned where a test.Node is declared. */
@Object("test.LeafNode")
public interface LeafNode extends Node {
  @Field("leaf_label")
  String label();
}
