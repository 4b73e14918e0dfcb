package dev.packed4j.tests;

import dev.packed4j.annotations.Object;

/** test.DerivedNode, whose C++ parent is test.Node. */
@Object("test.DerivedNode")
public interface DerivedNode extends Node {
  long extra();
}
