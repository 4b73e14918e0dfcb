package com.example.shapes;

import dev.packed4j.annotations.Global;

/** The native functions of libunits.so, the project's second library. */
public interface Units {
  @Global("units.ToCentimetres")
  double toCentimetres(double metres);

  @Global("units.AreaIn")
  double areaIn(Shape shape, String unit);
}
