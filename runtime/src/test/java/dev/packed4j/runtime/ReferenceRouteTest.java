package dev.packed4j.runtime;

import static dev.packed4j.runtime.RouteTwins.assertSameFailure;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.fixture.Packed4j_Shape;
import dev.packed4j.runtime.fixture.Shape;
import dev.packed4j.runtime.fixture.Square;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reference shapes a typed entry takes without a call frame (test_objects.cc): a String result, {@code byte[]}
 * arguments and results, {@code @Object} arguments and results. Each method is linked twice, as generated code links
 * it (the typed entry, checked) and held to its call frame, and both are driven into the same values and the same
 * failures: identical exception class, kind and message.
 */
class ReferenceRouteTest {
  private static final Codec<Shape> SHAPE = Codecs.object(Shape.class);

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
  }

  private static RouteTwins routes(String function, String expectedRoute, MethodType type, Codec<?>... codecs) {
    return RouteTwins.link("Refs", function, expectedRoute, type, codecs);
  }

  // ------------------------------------------------------------------ String result

  private static final MethodType ECHO = MethodType.methodType(String.class, String.class);

  @Test
  void aStringResultTakesTheTypedEntryAndReadsTheSameText() throws Throwable {
    RouteTwins echo =
        routes("test.TypedEchoText", "typed entry (string) -> string", ECHO, Codecs.STRING, Codecs.STRING);
    for (String text : List.of("", "plain", "h\u00e9llo \u20ac", "with\0nul", "x".repeat(10_000))) {
      for (MethodHandle handle : echo.both()) {
        assertEquals(text, (String) handle.invokeExact(text));
      }
    }
  }

  @Test
  void aStringResultFailsTheSameWayOnBothRoutes() {
    RouteTwins echo =
        routes("test.TypedEchoText", "typed entry (string) -> string", ECHO, Codecs.STRING, Codecs.STRING);
    Throwable error = assertSameFailure(echo, h -> (String) h.invokeExact("fail"));
    assertEquals("[ValueError] test.TypedEchoText: refused fail", error.getMessage());
    Throwable nullArgument = assertSameFailure(echo, h -> (String) h.invokeExact((String) null));
    assertInstanceOf(NullPointerException.class, nullArgument);
    assertTrue(nullArgument.getMessage().contains("p0"), nullArgument.getMessage());
  }

  @Test
  void aNoneStringResultIsNullOnBothRoutes() throws Throwable {
    RouteTwins maybe = routes("test.TypedMaybeText", "typed entry (bool) -> string",
        MethodType.methodType(String.class, boolean.class), Codecs.BOOLEAN, Codecs.STRING);
    for (MethodHandle handle : maybe.both()) {
      assertEquals("here", (String) handle.invokeExact(true));
      assertNull((String) handle.invokeExact(false));
    }
  }

  // ------------------------------------------------------------------ byte[] argument and result

  private static final MethodType ECHO_BYTES = MethodType.methodType(byte[].class, byte[].class);

  private static RouteTwins echoBytes() {
    return routes("test.TypedEchoBytes", "typed entry (bytes) -> bytes", ECHO_BYTES, Codecs.BYTES, Codecs.BYTES);
  }

  @Test
  void bytesTakeTheTypedEntryBothWays() throws Throwable {
    RouteTwins echo = echoBytes();
    byte[] all = new byte[256];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) i;
    }
    for (byte[] data : List.of(new byte[0], new byte[] {0}, all, new byte[100_000])) {
      for (MethodHandle handle : echo.both()) {
        byte[] result = (byte[]) handle.invokeExact(data);
        assertArrayEquals(data, result);
        assertNotSame(data, result);
      }
    }
    RouteTwins maybe = routes("test.TypedMaybeBytes", "typed entry (bool) -> bytes",
        MethodType.methodType(byte[].class, boolean.class), Codecs.BOOLEAN, Codecs.BYTES);
    for (MethodHandle handle : maybe.both()) {
      assertArrayEquals("here".getBytes(StandardCharsets.US_ASCII), (byte[]) handle.invokeExact(true));
      assertNull((byte[]) handle.invokeExact(false));
    }
  }

  @Test
  void bytesFailTheSameWayOnBothRoutes() {
    RouteTwins echo = echoBytes();
    Throwable error = assertSameFailure(echo, h -> (byte[]) h.invokeExact("bad".getBytes(StandardCharsets.US_ASCII)));
    assertEquals("[ValueError] test.TypedEchoBytes: refused bytes of size 3", error.getMessage());
    Throwable nullArgument = assertSameFailure(echo, h -> (byte[]) h.invokeExact((byte[]) null));
    assertInstanceOf(NullPointerException.class, nullArgument);
    assertTrue(nullArgument.getMessage().contains("p0"), nullArgument.getMessage());
  }

  // ------------------------------------------------------------------ @Object result

  private static final MethodType MAKE = MethodType.methodType(Shape.class, String.class, long.class);

  private static RouteTwins make() {
    return routes("test.TypedMakeNamed", "typed entry (string, int64) -> test.Shape", MAKE, Codecs.STRING,
        Codecs.LONG, SHAPE);
  }

  @Test
  void anObjectResultIsWrappedOnceIntoTheGeneratedClass() throws Throwable {
    RouteTwins make = make();
    for (MethodHandle handle : make.both()) {
      try (Shape shape = (Shape) handle.invokeExact("tri", 3L)) {
        assertInstanceOf(Packed4j_Shape.class, shape);
        assertEquals(3, shape.sides());
        assertEquals("tri", shape.name());
      }
      assertNull((Shape) handle.invokeExact("none", 0L), "None is null");
    }
  }

  @Test
  void anObjectResultFailsTheSameWayOnBothRoutes() {
    RouteTwins make = make();
    Throwable error = assertSameFailure(make, h -> (Shape) h.invokeExact("bad", -1L));
    assertEquals("[ValueError] test.TypedMakeNamed: negative sides -1", error.getMessage());
    assertSameFailure(make, h -> (Shape) h.invokeExact((String) null, 1L));
    // An object of a type the method does not declare: the codec's error on both routes, the object released.
    RouteTwins other = routes("test.MakeOther", "typed entry () -> test.Other", MethodType.methodType(Shape.class),
        SHAPE);
    Throwable mismatch = assertSameFailure(other, h -> (Shape) h.invokeExact());
    assertTrue(mismatch.getMessage().contains("test.Other"), mismatch.getMessage());
  }

  @Test
  void objectResultsAreReleasedWhenClosed() throws Throwable {
    RouteTwins make = make();
    long before = Packed4j.liveObjectCount();
    for (int i = 0; i < 100; i++) {
      try (Shape shape = (Shape) make.typed().invokeExact("loop", 4L)) {
        assertEquals(4, shape.sides());
      }
    }
    assertEquals(before, Packed4j.liveObjectCount());
  }

  // ------------------------------------------------------------------ Optional of a String or an @Object result

  private static RouteTwins findShape() {
    return routes("test.TypedFindShape", "typed entry (string, int64) -> optional<test.Shape>",
        MethodType.methodType(Optional.class, String.class, long.class), Codecs.STRING, Codecs.LONG,
        Codecs.optional(SHAPE));
  }

  private static RouteTwins findName() {
    return routes("test.TypedFindName", "typed entry (int64) -> optional<string>",
        MethodType.methodType(Optional.class, long.class), Codecs.LONG, Codecs.optional(Codecs.STRING));
  }

  @Test
  void optionalStringsAndObjectsTakeTheTypedEntry() throws Throwable {
    RouteTwins find = findShape();
    RouteTwins name = findName();
    long before = Packed4j.liveObjectCount();
    for (MethodHandle handle : find.both()) {
      Optional<?> found = (Optional) handle.invokeExact("tri", 3L);
      try (Shape shape = (Shape) found.orElseThrow()) {
        assertInstanceOf(Packed4j_Shape.class, shape);
        assertEquals(3, shape.sides());
        assertEquals("tri", shape.name());
      }
      assertEquals(Optional.empty(), (Optional) handle.invokeExact("none", 0L));
    }
    for (MethodHandle handle : name.both()) {
      assertEquals(Optional.of("nnn"), (Optional) handle.invokeExact(3L));
      assertEquals(Optional.of("n".repeat(5000)), (Optional) handle.invokeExact(5000L));
      assertEquals(Optional.empty(), (Optional) handle.invokeExact(0L));
    }
    assertEquals(before, Packed4j.liveObjectCount());
  }

  @Test
  void optionalStringsAndObjectsFailTheSameWayOnBothRoutes() {
    long before = Packed4j.liveObjectCount();
    assertEquals("[ValueError] test.TypedFindShape: negative sides -1",
        assertSameFailure(findShape(), h -> (Optional) h.invokeExact("bad", -1L)).getMessage());
    assertEquals("[ValueError] test.TypedFindName: negative length -2",
        assertSameFailure(findName(), h -> (Optional) h.invokeExact(-2L)).getMessage());
    // An object of a type the method does not declare: the codec's error on both routes, the object released.
    RouteTwins other = routes("test.TypedFindOther", "typed entry (bool) -> optional<test.Other>",
        MethodType.methodType(Optional.class, boolean.class), Codecs.BOOLEAN, Codecs.optional(SHAPE));
    Throwable mismatch = assertSameFailure(other, h -> (Optional) h.invokeExact(true));
    assertTrue(mismatch.getMessage().contains("test.Other"), mismatch.getMessage());
    assertEquals(before, Packed4j.liveObjectCount(), "the refused object is released on both routes");
  }

  // ------------------------------------------------------------------ @Object argument

  private static final MethodType SIDES = MethodType.methodType(long.class, Shape.class);

  private static RouteTwins sides() {
    return routes("test.TypedSides", "typed entry (test.Shape) -> int64", SIDES, SHAPE, Codecs.LONG);
  }

  private static Shape shape(long sides) throws Throwable {
    return (Shape) make().typed().invokeExact("arg", sides);
  }

  @Test
  void anObjectArgumentPassesItsHandle() throws Throwable {
    RouteTwins sides = sides();
    try (Shape shape = shape(5)) {
      for (MethodHandle handle : sides.both()) {
        assertEquals(5L, (long) handle.invokeExact(shape));
      }
    }
  }

  @Test
  void anObjectArgumentFailsTheSameWayOnBothRoutes() throws Throwable {
    RouteTwins sides = sides();
    try (Shape many = shape(11)) {
      Throwable error = assertSameFailure(sides, h -> (long) h.invokeExact(many));
      assertEquals("[ValueError] test.TypedSides: too many sides 11", error.getMessage());
    }
    Throwable nullArgument = assertSameFailure(sides, h -> (long) h.invokeExact((Shape) null));
    assertInstanceOf(NullPointerException.class, nullArgument);
    assertTrue(nullArgument.getMessage().contains("p0"), nullArgument.getMessage());

    Shape closed = shape(3);
    closed.close();
    Throwable closedError = assertSameFailure(sides, h -> (long) h.invokeExact(closed));
    assertTrue(closedError.getMessage().contains("closed"), closedError.getMessage());

    Shape foreign = new ForeignShape();
    Throwable notNative = assertSameFailure(sides, h -> (long) h.invokeExact(foreign));
    assertTrue(notNative.getMessage().contains("not a native object"), notNative.getMessage());

    // An object of another native type than the entry takes: the entry's own TypeError, as the packed call's.
    RouteTwins squareSide = routes("test.TypedSquareSide", "typed entry (test.Square) -> float64",
        MethodType.methodType(double.class, Shape.class), SHAPE, Codecs.DOUBLE);
    try (Shape notSquare = shape(4)) {
      Throwable wrongType = assertSameFailure(squareSide, h -> (double) h.invokeExact(notSquare));
      assertInstanceOf(Packed4jException.class, wrongType);
      assertEquals("TypeError", ((Packed4jException) wrongType).kind());
    }
  }

  @Test
  void theArgumentsPinIsGivenBackAfterTheCall() throws Throwable {
    RouteTwins sides = sides();
    Shape shape = shape(6);
    assertEquals(6L, (long) sides.typed().invokeExact(shape));
    try (Shape failing = shape(12)) {
      assertThrows(Packed4jException.class, () -> { long unused = (long) sides.typed().invokeExact(failing); });
    }
    long open = Packed4j.liveObjectCount();
    shape.close(); // would wait for a pin or a handle still held
    assertThrows(IllegalStateException.class, shape::sides);
    assertEquals(open - 1, Packed4j.liveObjectCount(), "still held after the call");
  }

  @Test
  void aCloseWhileACallHoldsTheObjectReleasesItOnlyAfterTheCall() throws Throwable {
    Shape shape = shape(6);
    long open = Packed4j.liveObjectCount();
    // What a typed call does before its downcall, and gives back when the downcall has returned.
    ReleaseEpochs.HeldHandles held = ThreadStack.currentHeldHandles();
    int depth = held.depth();
    long handle = RuntimeAccess.get().heldHandle(shape, held);
    try {
      shape.close(); // as another thread would, during the call
      assertThrows(IllegalStateException.class, shape::sides);
      assertEquals(open, Packed4j.liveObjectCount(), "an epoch end released an object a call still holds");
      assertEquals(open, Packed4j.liveObjectCount(), "and the next one too");
      assertTrue(handle != 0);
    } finally {
      held.restore(depth);
    }
    assertEquals(open - 1, Packed4j.liveObjectCount(), "released at the first epoch end after the call");
  }

  @Test
  void handlesHeldAboveTheFirstAreSeenByTheEpochEndToo() throws Throwable {
    // Nested calls and several object arguments hold more than one handle: the first sits in a field of the holder,
    // the others in its array, which grows past 8.
    Shape[] shapes = new Shape[12];
    for (int i = 0; i < shapes.length; i++) {
      shapes[i] = shape(3 + i);
    }
    long open = Packed4j.liveObjectCount();
    ReleaseEpochs.HeldHandles held = ThreadStack.currentHeldHandles();
    int depth = held.depth();
    try {
      for (Shape shape : shapes) {
        assertTrue(RuntimeAccess.get().heldHandle(shape, held) != 0);
      }
      for (Shape shape : shapes) {
        shape.close();
      }
      assertEquals(open, Packed4j.liveObjectCount(), "an epoch end released an object a call still holds");
    } finally {
      held.restore(depth);
    }
    assertEquals(open - shapes.length, Packed4j.liveObjectCount(), "released at the first epoch end after the call");
  }

  @Test
  void everyThreadFindsItsOwnHolderThoughThreadsShareCacheSlots() throws Throwable {
    // 130 threads, one after another: ids past the holder cache's 64 slots meet the holders of ended threads there.
    for (int i = 0; i < 130; i++) {
      long[] found = new long[2];
      Thread thread = Thread.ofPlatform().start(() -> {
        found[0] = ThreadStack.currentHeldHandles().threadId();
        found[1] = Thread.currentThread().threadId();
      });
      thread.join();
      assertEquals(found[1], found[0], "a thread was given another thread's holder");
    }
  }

  @Test
  void aClosedObjectIsNotHeldByTheCallThatRefusesIt() throws Throwable {
    RouteTwins sides = sides();
    Shape closed = shape(3);
    closed.close();
    ReleaseEpochs.HeldHandles held = ThreadStack.currentHeldHandles();
    int depth = held.depth();
    assertThrows(IllegalStateException.class, () -> { long unused = (long) sides.typed().invokeExact(closed); });
    assertEquals(depth, held.depth(), "the failed call left a handle held");
  }

  @Test
  void anObjectArgumentCallAllocatesNothingOnceCompiled() throws Throwable {
    RouteTwins sides = sides();
    try (Shape shape = shape(7)) {
      MethodHandle typed = sides.typed();
      List<Long> perRound = SteadyStateAllocation.measure(() -> {
        try {
          long sum = 0;
          for (int i = 0; i < 20_000; i++) {
            sum += (long) typed.invokeExact(shape);
          }
          assertEquals(7L * 20_000, sum);
        } catch (Throwable e) {
          throw new AssertionError(e);
        }
      }, 1024, 40);
      assertTrue(perRound.get(perRound.size() - 1) < 1024, perRound.toString());
    }
  }

  @Test
  void aStringAndAnObjectArgumentTogetherWithAStringResult() throws Throwable {
    RouteTwins greet = routes("test.TypedGreet", "typed entry (string, test.Shape) -> string",
        MethodType.methodType(String.class, String.class, Shape.class), Codecs.STRING, SHAPE, Codecs.STRING);
    Shape shape = shape(3);
    for (MethodHandle handle : greet.both()) {
      assertEquals("hello, arg", (String) handle.invokeExact("hello", shape));
    }
    assertSameFailure(greet, h -> (String) h.invokeExact((String) null, shape));
    assertSameFailure(greet, h -> (String) h.invokeExact("hello", (Shape) null));
    shape.close(); // no pin is left held by either route
    Throwable closed = assertSameFailure(greet, h -> (String) h.invokeExact("hello", shape));
    assertInstanceOf(IllegalStateException.class, closed);
  }

  @Test
  void anObjectResultOfAnotherTypeIsReleased() {
    RouteTwins other = routes("test.MakeOther", "typed entry () -> test.Other", MethodType.methodType(Shape.class),
        SHAPE);
    long before = Packed4j.liveObjectCount();
    for (int i = 0; i < 10; i++) {
      assertThrows(Packed4jException.class, () -> { Shape unused = (Shape) other.typed().invokeExact(); });
    }
    assertEquals(before, Packed4j.liveObjectCount());
  }

  /** A Shape packed4j did not make. */
  private static final class ForeignShape implements Shape {
    @Override public int sides() { return 0; }
    @Override public long id() { return 0; }
    @Override public long serial() { return 0; }
    @Override public double area() { return 0; }
    @Override public boolean filled() { return false; }
    @Override public String name() { return ""; }
    @Override public Shape child() { return null; }
    @Override public void close() {}
  }
}
