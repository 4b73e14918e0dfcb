package com.example.shapes;

import dev.packed4j.annotations.Method;
import dev.packed4j.annotations.Object;

/** shapes.Circle derives from shapes.Shape in C++, so Circle extends Shape here. */
@Object("shapes.Circle")
public interface Circle extends Shape {
  double radius();

  void radius(double radius); // a setter: the object definition declares radius with def_rw

  @Method
  double area(); // a method of the type: without parameters it needs @Method, or it would be a getter
}
