package dev.packed4j.runtime.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.TestPlugin;
import dev.packed4j.runtime.fixture.Packed4j_Shape;
import dev.packed4j.runtime.fixture.Shape;
import dev.packed4j.runtime.fixture.ShapeFunctions;
import dev.packed4j.runtime.internal.values.CallTarget;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The record behind FieldSlot: resolved when made, or at its first use after the type's library is loaded. */
class ObjectFieldSlotTest {
  private static ShapeFunctions shapes;

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
    shapes = Packed4j.bind(ShapeFunctions.class);
  }

  @Test
  void aSlotMadeWithTheLibraryLoadedIsResolvedWhenMade() {
    ObjectFieldSlot slot = (ObjectFieldSlot) Packed4j_Shape.TYPE.field("sides", FieldKind.INT32);
    assertNotNull(slot.layout(), "resolved in the constructor, so compiled accessors fold it");
    try (Shape shape = shapes.makeShape(6, "hexagon")) {
      assertEquals(6, slot.readInt((ObjectRef) shape));
    }
    assertNull(slot.lateLayout()[0], "never resolved late");
  }

  @Test
  void aSlotMadeUnresolvedResolvesOnceAtItsFirstUse() {
    // As ObjectType.field makes a slot whose type's library is not loaded yet: no layout.
    ObjectFieldSlot slot = new ObjectFieldSlot(Packed4j_Shape.TYPE, "sides", FieldKind.INT32,
        CallTarget.operation("test.Shape.sides"), CallTarget.operation("test.Shape.sides", "value"), null,
        new ObjectFieldSlot.Layout[1], new int[] {-1});
    try (Shape shape = shapes.makeShape(5, "pentagon")) {
      assertEquals(5, slot.readInt((ObjectRef) shape));
    }
    assertNotNull(slot.lateLayout()[0], "the first use keeps what it resolved");
    ObjectFieldSlot.Layout kept = slot.lateLayout()[0];
    try (Shape shape = shapes.makeShape(4, "square")) {
      assertEquals(4, slot.readInt((ObjectRef) shape));
    }
    assertSame(kept, slot.lateLayout()[0], "resolved once, not at each use");
  }
}
