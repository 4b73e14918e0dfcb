package dev.packed4j.tests;

import dev.packed4j.annotations.Field;
import dev.packed4j.annotations.Object;

/** test.Node: one field of every kind VisitAttrs supports. */
@Object("test.Node")
public interface Node extends AutoCloseable {
  int small();

  long big();

  /** A uint64 field: Java reads its bit pattern. */
  @Field("unsigned_big")
  long unsignedBig();

  double ratio();

  boolean flag();

  String name();

  /** An ObjectRef field: null when unset. */
  Node child();

  @Override
  void close();
}
