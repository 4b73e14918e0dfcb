package com.example.shapes;

import dev.packed4j.annotations.Field;
import dev.packed4j.annotations.Object;

/** shapes.Rectangle; @Field maps a getter to a field of another name. */
@Object("shapes.Rectangle")
public interface Rectangle extends Shape {
  double width();

  @Field("height")
  double tall();
}
