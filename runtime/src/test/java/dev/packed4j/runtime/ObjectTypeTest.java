package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.FieldKind;
import dev.packed4j.runtime.binding.FieldSlot;
import dev.packed4j.runtime.binding.ObjectType;
import dev.packed4j.runtime.fixture.Circle;
import dev.packed4j.runtime.fixture.Packed4j_Shape;
import dev.packed4j.runtime.fixture.Packed4j_Square;
import dev.packed4j.runtime.fixture.Shape;
import dev.packed4j.runtime.fixture.ShapeFunctions;
import dev.packed4j.runtime.fixture.Square;
import dev.packed4j.runtime.fixture.Unprocessed;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Generated-style classes over test_objects.cc: binding, object views, field reads and their checks. */
class ObjectTypeTest {
  private static ShapeFunctions shapes;

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
    shapes = Packed4j.bind(ShapeFunctions.class);
  }

  @Test
  void bindLoadsTheGeneratedClassByName() {
    assertEquals("dev.packed4j.runtime.fixture.Packed4j_ShapeFunctions", shapes.getClass().getName());
    assertEquals(0L, Packed4j.bind(ShapeFunctions.Nested.class).count());
  }

  @Test
  void bindExplainsAMissingGeneratedClass() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> Packed4j.bind(Unprocessed.class));
    assertTrue(e.getMessage().contains("Packed4j_Unprocessed"), e.getMessage());
    assertTrue(e.getMessage().contains("annotationProcessorPaths"), e.getMessage());
  }

  @Test
  void bindTakesOnlyInterfaces() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Packed4j.bind(String.class));
    assertTrue(e.getMessage().contains("java.lang.String") && e.getMessage().contains("interface"), e.getMessage());
  }

  @Test
  void bindRefusesAnObjectInterfaceNamingWhatItIs() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Packed4j.bind(Shape.class));
    assertEquals("Packed4j.bind takes an interface with @Global methods, and dev.packed4j.runtime.fixture.Shape is an"
        + " @Object interface (the view of the native type 'test.Shape'): its objects come from its constructors and"
        + " from the functions that return it; bind the interface that declares those functions", e.getMessage());
  }

  @Test
  void fieldsOfEveryKindAreReadFromTheObject() {
    try (Shape shape = shapes.makeShape(6, "hexagon")) {
      assertInstanceOf(Packed4j_Shape.class, shape);
      assertEquals(6, shape.sides());
      assertEquals(6_000_000_000_000L, shape.id());
      assertEquals(9.0, shape.area());
      assertTrue(shape.filled());
      assertEquals("hexagon", shape.name());
      assertNull(shape.child(), "no child: a null object field reads as null");
      assertEquals("test.Shape", ((ObjectRef) shape).typeKey());
    }
  }

  @Test
  void aUint64IsReadAsItsBitPattern() {
    try (Shape shape = shapes.makeShape(3, "triangle")) {
      assertEquals(-1L, shape.serial());
      assertEquals("18446744073709551615", Long.toUnsignedString(shape.serial()));
    }
  }

  @Test
  void aSubtypeIsViewedThroughItsOwnGeneratedClass() {
    try (Shape shape = shapes.makeSquareAsShape(3.0)) {
      Square square = assertInstanceOf(Square.class, shape);
      assertInstanceOf(Packed4j_Square.class, shape);
      assertEquals(3.0, square.side());
      assertEquals(9.0, square.area());
      assertEquals(4, square.sides());
      assertTrue(((ObjectRef) shape).isInstanceOf("test.Shape"));
      assertTrue(((ObjectRef) shape).isInstanceOf("test.Square"));
      assertFalse(((ObjectRef) shape).isInstanceOf("test.Other"));
      assertFalse(((ObjectRef) shape).isInstanceOf("no.such.Type"));
    }
  }

  @Test
  void aSubtypeWhoseClassWasNeverUsedIsFoundThroughTheProcessorsIndex() {
    try (Shape shape = shapes.makeCircleAsShape(2.0)) {
      Circle circle = assertInstanceOf(Circle.class, shape);
      assertEquals(2.0, circle.radius());
      assertEquals("circle", circle.name());
    }
    try (PackedFunction makeCircle = Registry.global("test.MakeCircle");
        ObjectRef any = (ObjectRef) makeCircle.invoke(1.0)) {
      assertInstanceOf(Circle.class, any, "also for a result declared as Object");
    }
  }

  @Test
  void anUnrelatedTypeIsATypeErrorNamingBothKeys() throws InterruptedException {
    long before = TestLibraries.settledLiveObjectCount();
    Packed4jException e = assertThrows(Packed4jException.class, shapes::makeOtherAsShape);
    assertEquals("TypeError", e.kind());
    assertEquals("test.MakeOther", e.functionName());
    assertTrue(e.getMessage().contains("test.Other") && e.getMessage().contains("test.Shape")
        && e.getMessage().contains("ShapeFunctions.makeOtherAsShape"), e.getMessage());
    assertEquals(before, Packed4j.liveObjectCount(), "the rejected result is released");
  }

  @Test
  void objectFieldsAndToStringUseTheMetadata() {
    try (Shape parent = shapes.makeShape(4, "parent"); Shape child = shapes.makeShape(3, "child")) {
      try (PackedFunction setChild = Registry.global("test.SetChild")) {
        ((ObjectRef) setChild.invoke(parent, child)).close();
      }
      try (Shape read = parent.child()) {
        assertEquals("child", read.name());
        assertEquals(child, read, "the same native object");
        assertEquals(child.hashCode(), read.hashCode());
        assertFalse(read == child);
      }
      String text = parent.toString();
      assertTrue(text.startsWith("test.Shape{sides=4, id=4000000000000, serial=18446744073709551615, area=6.0, "
          + "filled=true, name=parent, child=test.Shape{sides=3"), text);
    }
  }

  @Test
  void aFieldOfAnotherKindIsATypeErrorNamingBothKinds() {
    try (Shape shape = shapes.makeShape(5, "five")) {
      Packed4jException e = assertThrows(Packed4jException.class,
          () -> Packed4j_Shape.TYPE.field("name", FieldKind.INT64).readLong((ObjectRef) shape));
      assertEquals("TypeError", e.kind());
      assertTrue(e.getMessage().contains("name") && e.getMessage().contains("test.Shape")
          && e.getMessage().contains("string") && e.getMessage().contains("int64"), e.getMessage());
      Packed4jException narrowing = assertThrows(Packed4jException.class,
          () -> Packed4j_Shape.TYPE.field("id", FieldKind.INT32).readInt((ObjectRef) shape));
      assertTrue(narrowing.getMessage().contains("int64 natively") && narrowing.getMessage().contains("int32"),
          narrowing.getMessage());
      // an int32 field widens to a long accessor
      assertEquals(5L, Packed4j_Shape.TYPE.field("sides", FieldKind.INT64).readLong((ObjectRef) shape));
      // a uint64 field read by a long accessor keeps its bits
      assertEquals(-1L, Packed4j_Shape.TYPE.field("serial", FieldKind.INT64).readLong((ObjectRef) shape));
    }
  }

  @Test
  void aMissingFieldIsAnAttributeErrorListingTheFields() {
    try (Shape shape = shapes.makeShape(5, "five")) {
      Packed4jException e = assertThrows(Packed4jException.class,
          () -> Packed4j_Shape.TYPE.field("nmae", FieldKind.STRING).readString((ObjectRef) shape));
      assertEquals("AttributeError", e.kind());
      assertTrue(e.getMessage().contains("nmae") && e.getMessage().contains("[sides, id, serial, area, filled, "
          + "name, child]") && e.getMessage().contains("did you mean name"), e.getMessage());
    }
  }

  /** An interface whose type key no loaded library registers, for a slot made before its library. */
  interface NotLoadedYet {}

  @Test
  void aSlotMadeBeforeItsLibraryFailsAtEachUseNotWhenMade() {
    ObjectType<NotLoadedYet> type = ObjectType.define(NotLoadedYet.class, "test.NotLoadedYet", handle -> {
      throw new AssertionError("no object of this type is ever made");
    });
    FieldSlot slot = type.field("sides", FieldKind.INT32); // resolved when made if it can be; no error here
    try (Shape shape = shapes.makeShape(3, "three")) {
      for (int use = 0; use < 2; use++) { // resolved again at each use, so the error is the same every time
        Packed4jException e = assertThrows(Packed4jException.class, () -> slot.readInt((ObjectRef) shape));
        assertEquals("KeyError", e.kind());
        assertTrue(e.getMessage().contains("test.NotLoadedYet") && e.getMessage().contains("Packed4j.loadLibrary"),
            e.getMessage());
        assertThrows(Packed4jException.class, () -> slot.writeInt((ObjectRef) shape, 4));
      }
      assertEquals(3, shape.sides()); // the failed write stored nothing
    }
  }

  @Test
  void readingAClosedObjectIsAnIllegalStateException() {
    Shape shape = shapes.makeShape(5, "five");
    shape.close();
    shape.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, shape::sides);
    assertTrue(e.getMessage().contains("test.Shape") && e.getMessage().contains("closed"), e.getMessage());
    assertThrows(IllegalStateException.class, shape::name);
    assertEquals("test.Shape{closed}", shape.toString());
  }

  @Test
  void objectsInsideContainersAreBorrowedArguments() throws InterruptedException {
    try (Shape a = shapes.makeShape(3, "a"); Shape b = shapes.makeShape(4, "b")) {
      Map<String, Shape> map = new LinkedHashMap<>();
      map.put("a", a);
      map.put("b", b);
      long before = TestLibraries.settledLiveObjectCount();
      assertEquals(2, shapes.count(List.of(1L, 2L, 3L), map));
      assertEquals(before, Packed4j.liveObjectCount(), "the temporary list and map are released");
      assertEquals("a", a.name(), "Java still owns the objects");
    }
  }

  @Test
  void aClosedObjectArgumentNamesTheFunctionAndArgument() {
    Shape closed = shapes.makeShape(3, "closed");
    closed.close();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> shapes.count(List.of(), Map.of("x", closed)));
    assertTrue(e.getMessage().contains("test.Count argument 1 (shapes)") && e.getMessage().contains("closed"),
        e.getMessage());
  }

  @Test
  void anyResultsUseTheGeneratedClassOfTheNearestRegisteredType() {
    try (PackedFunction makeSquare = Registry.global("test.MakeSquare");
        PackedFunction makeOther = Registry.global("test.MakeOther")) {
      try (ObjectRef square = (ObjectRef) makeSquare.invoke(2.0)) {
        assertInstanceOf(Packed4j_Square.class, square);
      }
      try (NativeObject other = assertInstanceOf(NativeObject.class, makeOther.invoke())) {
        assertEquals("test.Other", other.typeKey());
        assertEquals(List.of("value"), other.fieldNames());
        assertEquals(7L, other.get("value"));
        Packed4jException e = assertThrows(Packed4jException.class, () -> other.get("valeu"));
        assertEquals("AttributeError", e.kind());
        assertEquals("test.Other{value=7}", other.toString());
      }
    }
  }
}
