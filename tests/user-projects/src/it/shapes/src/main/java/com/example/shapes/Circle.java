package com.example.shapes;

import dev.packed4j.annotations.Object;

/** shapes.Circle derives from shapes.Shape in C++, so Circle extends Shape here. */
@Object("shapes.Circle")
public interface Circle extends Shape {
  double radius();
}
