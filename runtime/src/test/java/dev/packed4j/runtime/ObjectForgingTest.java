package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.Callbacks;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FieldKind;
import dev.packed4j.runtime.binding.FieldSlot;
import dev.packed4j.runtime.binding.ObjectType;
import dev.packed4j.runtime.fixture.Packed4j_Shape;
import dev.packed4j.runtime.fixture.Packed4j_Square;
import dev.packed4j.runtime.fixture.Shape;
import dev.packed4j.runtime.fixture.ShapeFunctions;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No Java code builds an object over an address of its choosing: the handle a generated class's constructor passes
 * to ObjectRef is a token only the runtime makes, good for one object; and a field is read only from an object of
 * its type, whatever slot a caller picks.
 */
class ObjectForgingTest {
  private static ShapeFunctions shapes;

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
    shapes = Packed4j.bind(ShapeFunctions.class);
    // test.Shape's own generated class registers first, so values declared Object keep their usual view.
    assertEquals("test.Shape", Packed4j_Shape.TYPE.typeKey());
  }

  /** An interface of the test's own, with a view whose factory misbehaves. */
  interface Kept {}

  interface Dropped {}

  interface Stray {}

  static final class KeptRef extends ObjectRef implements Kept {
    KeptRef(OwnedHandle handle) {
      super(handle);
    }
  }

  /** Built from a handle, but not an implementation of the interface its factory was defined for. */
  static final class StrayRef extends ObjectRef {
    StrayRef(OwnedHandle handle) {
      super(handle);
    }
  }

  @Test
  void aHandleTokenBuildsOneObjectAndNoSecond() throws Exception {
    AtomicReference<OwnedHandle> kept = new AtomicReference<>();
    ObjectType.define(Kept.class, "test.Shape", handle -> {
      kept.set(handle);
      return new KeptRef(handle);
    });
    long before = TestLibraries.settledLiveObjectCount();
    try (PackedFunction make = Registry.global("test.MakeShape")) {
      Kept object = Callbacks.call(make, Codecs.object(Kept.class), 5L, "pentagon");
      KeptRef first = assertInstanceOf(KeptRef.class, object);
      assertEquals("test.Shape", first.typeKey());
      assertEquals("OwnedHandle[taken]", kept.get().toString());

      IllegalStateException reuse = assertThrows(IllegalStateException.class,
          () -> new KeptRef(kept.get()));
      assertTrue(reuse.getMessage().contains("already taken"), reuse.getMessage());
      AtomicReference<Throwable> elsewhere = new AtomicReference<>();
      Thread.ofPlatform().start(() -> {
        try {
          new KeptRef(kept.get());
        } catch (Throwable e) {
          elsewhere.set(e);
        }
      }).join();
      IllegalStateException otherThread = assertInstanceOf(IllegalStateException.class, elsewhere.get());
      assertTrue(otherThread.getMessage().contains("on the thread"), otherThread.getMessage());
      assertFalse(first.isClosed(), "the first object stays the only owner");
      assertTrue(first.isInstanceOf("test.Shape"));
      first.close();
    }
    assertEquals(before, TestLibraries.settledLiveObjectCount(), "the one reference was released once");
  }

  @Test
  void aFactoryThatBuildsNothingFromItsHandleIsRefusedAndTheHandleReleased() throws Exception {
    ObjectType.define(Dropped.class, "test.Shape", handle -> null);
    long before = TestLibraries.settledLiveObjectCount();
    try (PackedFunction make = Registry.global("test.MakeShape")) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> Callbacks.call(make, Codecs.object(Dropped.class), 3L, "triangle"));
      assertTrue(e.getMessage().contains(Dropped.class.getName())
          && e.getMessage().contains("without building it from the OwnedHandle"), e.getMessage());
    }
    assertEquals(before, TestLibraries.settledLiveObjectCount(), "the handle nobody took was released");
  }

  @Test
  void anObjectThatDoesNotImplementItsInterfaceIsRefusedAndReleased() throws Exception {
    ObjectType.define(Stray.class, "test.Shape", StrayRef::new);
    long before = TestLibraries.settledLiveObjectCount();
    try (PackedFunction make = Registry.global("test.MakeShape")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Callbacks.call(make, Codecs.object(Stray.class), 4L, "square"));
      assertTrue(e.getMessage().contains(StrayRef.class.getName() + " does not implement " + Stray.class.getName()),
          e.getMessage());
    }
    assertEquals(before, TestLibraries.settledLiveObjectCount(), "the object built was closed");
  }

  interface DroppedOnBothRoutes {}

  interface StrayOnBothRoutes {}

  /**
   * The typed entry's object result ({@code ObjectCodec.decodeOwnedWord}) and the call frame's refuse a factory that
   * builds nothing, or builds an object of another interface, with the same error, and release the result once.
   */
  @Test
  void aRefusedObjectResultIsReleasedOnceOnEveryRoute() throws Throwable {
    ObjectType.define(DroppedOnBothRoutes.class, "test.Shape", handle -> null);
    ObjectType.define(StrayOnBothRoutes.class, "test.Shape", StrayRef::new);
    RouteTwins dropped = RouteTwins.link("Forging", "test.MakeShape", "typed entry (int64, string) -> test.Shape",
        MethodType.methodType(DroppedOnBothRoutes.class, long.class, String.class), Codecs.LONG, Codecs.STRING,
        Codecs.object(DroppedOnBothRoutes.class));
    RouteTwins stray = RouteTwins.link("Forging", "test.MakeShape", "typed entry (int64, string) -> test.Shape",
        MethodType.methodType(StrayOnBothRoutes.class, long.class, String.class), Codecs.LONG, Codecs.STRING,
        Codecs.object(StrayOnBothRoutes.class));
    long before = TestLibraries.settledLiveObjectCount();
    for (int i = 0; i < 3; i++) {
      Throwable nothing = RouteTwins.assertSameFailure(dropped,
          handle -> (DroppedOnBothRoutes) handle.invokeExact(3L, "triangle"));
      assertInstanceOf(IllegalStateException.class, nothing);
      assertTrue(nothing.getMessage().contains("without building it from the OwnedHandle"), nothing.getMessage());
      Throwable other = RouteTwins.assertSameFailure(stray,
          handle -> (StrayOnBothRoutes) handle.invokeExact(4L, "square"));
      assertInstanceOf(IllegalArgumentException.class, other);
      assertTrue(other.getMessage().contains("does not implement " + StrayOnBothRoutes.class.getName()),
          other.getMessage());
    }
    assertEquals(before, TestLibraries.settledLiveObjectCount(), "each refused result was released once");
  }

  @Test
  void aFieldSlotReadsNoObjectOfAnotherType() {
    FieldSlot side = Packed4j_Square.TYPE.field("side", FieldKind.FLOAT64);
    try (Shape shape = shapes.makeShape(6, "hexagon"); Shape circle = shapes.makeCircleAsShape(2.0);
        Shape square = shapes.makeSquareAsShape(3.0)) {
      assertEquals(3.0, side.readDouble((ObjectRef) square));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> side.readDouble((ObjectRef) shape));
      assertTrue(e.getMessage().contains("test.Shape object, which is not a test.Square"), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> side.readDouble((ObjectRef) circle));
      // A slot of the base type reads a derived object.
      assertEquals(6, Packed4j_Shape.TYPE.field("sides", FieldKind.INT32).readInt((ObjectRef) shape));
      assertEquals(4, Packed4j_Shape.TYPE.field("sides", FieldKind.INT32).readInt((ObjectRef) square));
    }
  }
}
