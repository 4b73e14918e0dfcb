package com.example.shapes;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

public final class Main {
  private Main() {}

  public static void main(String[] args) {
    Packed4j.loadLibrary("shapes"); // libshapes.so, carried in this jar under META-INF/native/linux-x86_64
    Shapes shapes = Packed4j.bind(Shapes.class);
    Packed4j.loadLibrary("units");  // a second library, libunits.so, in the same jar
    Units units = Packed4j.bind(Units.class);

    System.out.println(shapes.hypot(3, 4));                // 5.0
    System.out.println(shapes.greet("packed4j"));          // Hello, packed4j!
    System.out.println(shapes.repeat("ab", 3));            // ababab

    try (Circle circle = shapes.circle("wheel", 1.0);
        Rectangle door = shapes.rectangle("door", 2.0, 3.0)) {
      System.out.println(circle);                          // shapes.Circle{name=wheel, radius=1.0}
      System.out.println(door.name() + " " + door.tall()); // door 3.0
      System.out.println(shapes.area(door));               // 6.0
      System.out.println(units.areaIn(door, "cm2"));       // 60000.0: libunits.so calls shapes.Area
      List<Shape> all = List.of(circle, door);
      System.out.printf("%.4f%n", shapes.totalArea(all));  // 9.1416
      Map<String, Double> areas = shapes.areasByName(all); // {wheel=3.14..., door=6.0}
      System.out.println(areas.keySet());                  // [wheel, door]
    }
    try (Circle coin = shapes.newCircle("coin", 1.0)) {
      coin.radius(2.0);
      System.out.printf("%s %.4f%n", coin.name(), coin.area()); // coin 12.5664
    }
    System.out.println(units.toCentimetres(1.5));          // 150.0
    System.out.println(shapes.scale(List.of(1.0, 2.5), Map.of("double", 2.0), "double")); // [2.0, 5.0]

    for (String kind : List.of("type", "value", "index", "key", "attribute", "runtime", "custom")) {
      try {
        shapes.check(kind);
      } catch (Packed4jException e) {
        System.out.println(e.kind() + ": " + e.nativeMessage());
      }
    }
    try {
      shapes.circle("hole", -1.0);
    } catch (Packed4jException e) {
      System.out.println(e.getMessage());
    }

    // The same interface, the plugin in a child JVM of its own: a crash there is an exception here.
    try (Session isolated = Packed4j.isolated("shapes")) {
      System.out.println(isolated.bind(Shapes.class).hypot(6, 8)); // 10.0
    }
    // libunits.so calls shapes.Area, so its child hosts both libraries: the jar's libraries, listed by their files.
    List<Path> both = List.of(Packed4j.libraryFile("shapes"), Packed4j.libraryFile("units"));
    try (Session isolated = Packed4j.isolated(both);
        Rectangle door = isolated.bind(Shapes.class).rectangle("door", 2.0, 3.0)) {
      System.out.println(isolated.bind(Units.class).areaIn(door, "cm2")); // 60000.0, computed in the child
    }
  }
}
