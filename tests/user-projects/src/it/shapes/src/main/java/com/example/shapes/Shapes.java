package com.example.shapes;

import dev.packed4j.annotations.Constructor;
import dev.packed4j.annotations.Global;
import java.util.List;
import java.util.Map;

/** The native functions of libshapes.so; packed4j-processor generates the implementation. */
public interface Shapes {
  @Global("shapes.Hypot")
  double hypot(double a, double b);

  @Global("shapes.Greet")
  String greet(String name);

  @Global("shapes.Repeat")
  String repeat(String text, int times);

  @Global("shapes.Check")
  String check(String kind);

  @Global("shapes.Circle")
  Circle circle(String name, double radius);

  @Constructor // the constructor shapes.Circle's object definition registers
  Circle newCircle(String name, double radius);

  @Global("shapes.Rectangle")
  Rectangle rectangle(String name, double width, double height);

  @Global("shapes.Area")
  double area(Shape shape);

  @Global("shapes.TotalArea")
  double totalArea(List<Shape> shapes);

  @Global("shapes.AreasByName")
  Map<String, Double> areasByName(List<Shape> shapes);

  @Global("shapes.Scale")
  List<Double> scale(List<Double> values, Map<String, Double> factors, String key);
}
