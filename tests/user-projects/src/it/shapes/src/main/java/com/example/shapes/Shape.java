package com.example.shapes;

import dev.packed4j.annotations.Object;

/** A native shapes.Shape: each getter reads the field of the same name that VisitAttrs declares. */
@Object("shapes.Shape")
public interface Shape extends AutoCloseable {
  String name();

  @Override
  void close(); // releases the native reference
}
