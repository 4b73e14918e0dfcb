package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The binding API generated code uses, over the built-in globals and the test plugin. */
class CallFrameTest {
  private static final FunctionSite LIST_SIZE =
      new FunctionSite("packed4j.ListSize", "Lists.size", new String[] {"values"});
  private static final FunctionSite LIST_GET =
      new FunctionSite("packed4j.ListGetItem", "Lists.get", new String[] {"values", "index"});
  private static final FunctionSite LIVE_COUNT =
      new FunctionSite("packed4j.ObjectLiveCount", "Diagnostics.liveCount", new String[] {});
  private static final FunctionSite ECHO = new FunctionSite("test.Echo", "Echo.echo", new String[] {"value"});
  private static final FunctionSite COUNT = new FunctionSite("test.Count", "Counts.count", new String[] {});
  private static final FunctionSite MAP_KEYS =
      new FunctionSite("packed4j.MapKeys", "Maps.keys", new String[] {"map"});
  private static final Codec<List<Long>> LONGS = Codecs.list(Codecs.LONG);
  private static final Codec<List<Object>> OBJECTS = Codecs.list(Codecs.ANY);

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
  }

  private static long size(List<Long> values) {
    try (CallFrame frame = CallFrame.open(LIST_SIZE, 1)) {
      frame.put(0, LONGS, values);
      frame.invoke();
      return frame.returnLong();
    }
  }

  private static Object getAny(List<Object> values, long index) {
    try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
      frame.put(0, OBJECTS, values);
      frame.putLong(1, index);
      frame.invoke();
      return frame.returnValue(Codecs.ANY);
    }
  }

  private static String echoString(String value) {
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.putString(0, value);
      frame.invoke();
      return frame.returnString();
    }
  }

  @Test
  void aMillionLongsGoInOneBulkCall() {
    List<Long> values = LongStream.range(0, 1_000_000).boxed().toList();
    assertEquals(1_000_000L, size(values));
    try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
      frame.put(0, LONGS, values);
      frame.putLong(1, 999_999);
      frame.invoke();
      assertEquals(999_999, frame.returnInt());
    }
  }

  @Test
  void narrowingResultsAreRangeChecked() {
    List<Object> values = List.of(4_294_967_296L, 40_000L, 200L, -129L);
    Packed4jException e = assertThrows(Packed4jException.class, () -> {
      try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
        frame.put(0, OBJECTS, values);
        frame.putLong(1, 0);
        frame.invoke();
        frame.returnInt();
      }
    });
    assertEquals("ValueError", e.kind());
    assertEquals("[ValueError] packed4j.ListGetItem (Lists.get) returned 4294967296, which does not fit in int",
        e.getMessage());
    assertEquals("packed4j.ListGetItem", e.functionName());
    try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
      frame.put(0, OBJECTS, values);
      frame.putLong(1, 1);
      frame.invoke();
      assertThrows(Packed4jException.class, frame::returnShort);
      assertEquals(40_000, frame.returnInt());
    }
    try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
      frame.put(0, OBJECTS, values);
      frame.putLong(1, 3);
      frame.invoke();
      Packed4jException byteError = assertThrows(Packed4jException.class, frame::returnByte);
      assertTrue(byteError.getMessage().contains("-129, which does not fit in byte"), byteError.getMessage());
      assertEquals(-129, frame.returnShort());
    }
    Packed4jException boxed = assertThrows(Packed4jException.class, () -> {
      try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
        frame.put(0, OBJECTS, values);
        frame.putLong(1, 2);
        frame.invoke();
        frame.returnValue(Codecs.BYTE);
      }
    });
    assertTrue(boxed.getMessage().contains("returned 200, which does not fit in byte"), boxed.getMessage());
  }

  @Test
  void aResultOfTheWrongTypeNamesExpectedAndActual() throws InterruptedException {
    Packed4jException e = assertThrows(Packed4jException.class, () -> {
      try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
        frame.put(0, OBJECTS, List.of("text"));
        frame.putLong(1, 0);
        frame.invoke();
        frame.returnLong();
      }
    });
    assertEquals("TypeError", e.kind());
    assertEquals("[TypeError] packed4j.ListGetItem (Lists.get) returned string, expected long", e.getMessage());
    // Each result reader names the Java type its caller declared, not the wire kind ("int" for every integer).
    Map<String, java.util.function.Consumer<CallFrame>> readers = new java.util.LinkedHashMap<>();
    readers.put("int", CallFrame::returnInt);
    readers.put("short", CallFrame::returnShort);
    readers.put("byte", CallFrame::returnByte);
    readers.put("double", CallFrame::returnDouble);
    readers.put("float", CallFrame::returnFloat);
    readers.put("boolean", CallFrame::returnBoolean);
    readers.forEach((javaType, reader) -> assertEquals(
        "[TypeError] packed4j.ListGetItem (Lists.get) returned string, expected " + javaType,
        assertThrows(Packed4jException.class, () -> {
          try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
            frame.put(0, OBJECTS, List.of("text"));
            frame.putLong(1, 0);
            frame.invoke();
            reader.accept(frame);
          }
        }).getMessage()));
    long before = TestLibraries.settledLiveObjectCount();
    assertThrows(Packed4jException.class, () -> {
      try (CallFrame frame = CallFrame.open(MAP_KEYS, 1)) {
        frame.put(0, Codecs.map(Codecs.STRING, Codecs.LONG), Map.of("a", 1L));
        frame.invoke();
        frame.returnValue(Codecs.list(Codecs.LONG));
      }
    });
    assertEquals(before, Packed4j.liveObjectCount(), "a rejected result is released at close");
  }

  @Test
  void nullsWhereTheTypeForbidsThemNameFunctionArgumentAndElement() {
    NullPointerException element = assertThrows(NullPointerException.class,
        () -> size(Arrays.asList(1L, 2L, 3L, null)));
    assertEquals("packed4j.ListSize argument 0 (values): element 3 is null; List<Long> elements must not be null",
        element.getMessage());
    NullPointerException string = assertThrows(NullPointerException.class, () -> echoString(null));
    assertTrue(string.getMessage().startsWith("test.Echo argument 0 (value) is null"), string.getMessage());
    NullPointerException list = assertThrows(NullPointerException.class, () -> size(null));
    assertTrue(list.getMessage().contains("a List<Long> argument must not be null"), list.getMessage());
  }

  @Test
  void anUnknownFunctionIsReportedAtTheCallWithNearNames() {
    FunctionSite typo = new FunctionSite("packed4j.ListSise", "Lists.size", new String[] {"values"});
    Packed4jException e = assertThrows(Packed4jException.class, () -> {
      try (CallFrame frame = CallFrame.open(typo, 1)) {
        frame.put(0, LONGS, List.of());
        frame.invoke();
      }
    });
    assertEquals("KeyError", e.kind());
    assertTrue(e.getMessage().contains("packed4j.ListSise") && e.getMessage().contains("Lists.size")
        && e.getMessage().contains("did you mean packed4j.ListSize"), e.getMessage());
  }

  @Test
  void containerResultsAreImmutableCopiesOrLiveViews() throws InterruptedException {
    Map<String, Long> map = new LinkedHashMap<>();
    map.put("z", 1L);
    map.put("a", 2L);
    long before = TestLibraries.settledLiveObjectCount();
    try (CallFrame frame = CallFrame.open(MAP_KEYS, 1)) {
      frame.put(0, Codecs.map(Codecs.STRING, Codecs.LONG), map);
      frame.invoke();
      List<String> keys = frame.returnValue(Codecs.list(Codecs.STRING));
      assertEquals(List.of("z", "a"), keys);
      assertThrows(UnsupportedOperationException.class, () -> keys.add("b"));
    }
    assertEquals(before, Packed4j.liveObjectCount(), "the copied list and the argument map are released");
    try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
      frame.put(0, OBJECTS, List.of(map));
      frame.putLong(1, 0);
      frame.invoke();
      Map<String, Long> copy = frame.returnValue(Codecs.map(Codecs.STRING, Codecs.LONG));
      assertEquals(List.of("z", "a"), List.copyOf(copy.keySet()), "insertion order");
      assertThrows(UnsupportedOperationException.class, () -> copy.put("b", 3L));
    }
    try (CallFrame frame = CallFrame.open(MAP_KEYS, 1)) {
      frame.put(0, Codecs.map(Codecs.STRING, Codecs.LONG), map);
      frame.invoke();
      try (NativeList<String> live = frame.returnValue(Codecs.nativeList(Codecs.STRING))) {
        live.add("b");
        assertEquals(List.of("z", "a", "b"), live);
      }
    }
  }

  @Test
  void optionalsMapNoneToEmpty() {
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.put(0, Codecs.optional(Codecs.STRING), Optional.empty());
      frame.invoke();
      assertEquals(Optional.empty(), frame.returnValue(Codecs.optional(Codecs.STRING)));
    }
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.put(0, Codecs.optional(Codecs.STRING), Optional.of("x"));
      frame.invoke();
      assertEquals(Optional.of("x"), frame.returnValue(Codecs.optional(Codecs.STRING)));
    }
    NullPointerException e = assertThrows(NullPointerException.class, () -> {
      try (CallFrame frame = CallFrame.open(ECHO, 1)) {
        frame.put(0, Codecs.optional(Codecs.STRING), null);
      }
    });
    assertTrue(e.getMessage().contains("Optional.empty()"), e.getMessage());
  }

  @Test
  void scalarResultsConvert() {
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.putDouble(0, 2.5);
      frame.invoke();
      assertEquals(2.5, frame.returnDouble());
      assertEquals(2.5f, frame.returnFloat());
    }
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.putDouble(0, 1e300);
      frame.invoke();
      Packed4jException e = assertThrows(Packed4jException.class, frame::returnFloat);
      assertTrue(e.getMessage().contains("does not fit in float"), e.getMessage());
    }
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.putBoolean(0, true);
      frame.invoke();
      assertTrue(frame.returnBoolean());
    }
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.putBytes(0, new byte[] {1, 0, 2});
      frame.invoke();
      assertEquals(List.of((byte) 1, (byte) 0, (byte) 2), toList(frame.returnBytes()));
    }
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.invoke();
      assertNull(frame.returnString(), "an argument never put is None");
    }
  }

  @Test
  void argumentsNeverPutAreNoneAlsoBeyondSixtyFour() {
    for (int count : new int[] {2, 64, 65, 70}) {
      try (CallFrame frame = CallFrame.open(ECHO, count)) {
        frame.putLong(count - 1, 7);
        frame.invoke();
        assertNull(frame.returnString(), "argument 0 of " + count + " was never put");
      }
      try (CallFrame frame = CallFrame.open(ECHO, count)) {
        frame.putString(0, "first");
        frame.invoke();
        assertEquals("first", frame.returnString());
      }
    }
    try (CallFrame frame = CallFrame.open(COUNT, 70)) {
      frame.putLong(3, 1);
      frame.putLong(66, 1);
      frame.invoke();
      assertEquals(70, frame.returnLong());
    }
  }

  private static List<Byte> toList(byte[] bytes) {
    Byte[] boxed = new Byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      boxed[i] = bytes[i];
    }
    return List.of(boxed);
  }

  @Test
  void aFrameOpenedDuringAnotherStacksAboveItAndRestoresIt() {
    String outerText = "outer ".repeat(1_000);
    try (CallFrame outer = CallFrame.open(LIST_GET, 2)) {
      outer.put(0, OBJECTS, List.of("zero", outerText));
      // Frames opened while this one is being filled (as a callback would) do not disturb it.
      try (CallFrame inner = CallFrame.open(ECHO, 1)) {
        inner.putString(0, "inner ".repeat(2_000));
        try (CallFrame innermost = CallFrame.open(LIST_SIZE, 1)) {
          innermost.put(0, LONGS, List.of(1L, 2L));
          innermost.invoke();
          assertEquals(2, innermost.returnLong());
        }
        inner.invoke();
        assertEquals("inner ".repeat(2_000), inner.returnString());
      }
      outer.putLong(1, 1);
      assertEquals(outerText, echoString(outerText));
      outer.invoke();
      assertEquals(outerText, outer.returnString());
    }
  }

  @Test
  void stringsLargerThanTheScratchGrowIt() {
    for (int size : new int[] {10 * 1024, 100 * 1024, 3 * 1024 * 1024}) {
      String text = "é".repeat(size / 2);
      assertEquals(text, echoString(text));
      assertEquals(text, getAny(List.of(text, text), 1));
    }
    assertEquals("small", echoString("small"), "the stack is usable after large frames closed");
  }

  @Test
  void resultsNotTakenAreReleasedAtCloseAndByASecondInvoke() throws InterruptedException {
    long before = TestLibraries.settledLiveObjectCount();
    for (int i = 0; i < 100; i++) {
      try (CallFrame frame = CallFrame.open(ECHO, 1)) {
        frame.putString(0, "not taken " + i);
        frame.invoke();
        frame.returnVoid();
      }
      try (CallFrame frame = CallFrame.open(ECHO, 1)) {
        frame.putString(0, "first " + i);
        frame.invoke();
        frame.invoke();
        assertEquals("first " + i, frame.returnString());
      }
      try (CallFrame frame = CallFrame.open(COUNT, 2)) {
        frame.putLong(0, 1);
        frame.putLong(1, 2);
        frame.invoke();
        assertEquals(2, frame.returnInt());
      }
    }
    assertEquals(before, Packed4j.liveObjectCount(), "every string result was released");
  }

  @Test
  void aFrameLeftOpenIsClosedByTheFrameBelowWithItsResultAndTemporaries() throws InterruptedException {
    long before = TestLibraries.settledLiveObjectCount();
    try (CallFrame outer = CallFrame.open(LIST_SIZE, 1)) {
      outer.put(0, LONGS, List.of(1L, 2L, 3L));
      CallFrame leaked = CallFrame.open(MAP_KEYS, 1);
      leaked.put(0, Codecs.map(Codecs.STRING, Codecs.LONG), Map.of("a", 1L));
      leaked.invoke();
      // Never closed, nor its result (a list) taken: the outer frame's close closes it.
      outer.invoke();
      assertEquals(3, outer.returnLong());
    }
    assertEquals(before, Packed4j.liveObjectCount(), "the leaked frame's map argument and list result are released");
    assertEquals(3, size(List.of(4L, 5L, 6L)), "the stack is usable after it");
  }

  @Test
  void aClosedFrameRefusesACall() {
    CallFrame frame = CallFrame.open(COUNT, 0);
    frame.close();
    frame.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, frame::invoke);
    assertEquals("the call frame of test.Count is closed", e.getMessage());
  }

  @Test
  void aPrimitiveCallAllocatesNothingOnTheJavaHeap() {
    long[] sink = {0};
    List<Long> perRound = SteadyStateAllocation.measure(() -> {
      for (int i = 0; i < 200_000; i++) {
        sink[0] += liveCount();
        sink[0] += count(i, sink[0]);
      }
    }, 64 * 1024, 30);
    assertTrue(sink[0] > 0);
    assertTrue(perRound.getLast() < 64 * 1024,
        "every round of 200000 calls allocated on the heap, bytes per round: " + perRound);
  }

  /** The frame path of a two-argument method, as generated code calls it. */
  private static int count(long first, long second) {
    try (CallFrame frame = CallFrame.open(COUNT, 2)) {
      frame.putLong(0, first);
      frame.putLong(1, second);
      frame.invoke();
      return frame.returnInt();
    }
  }

  private static long liveCount() {
    try (CallFrame frame = CallFrame.open(LIVE_COUNT, 0)) {
      frame.invoke();
      return frame.returnLong();
    }
  }

  @Test
  void objectCodecsCheckTheirArguments() {
    Object nativeObject = getAny(List.of(List.of(1L)), 0);
    try (NativeList<?> list = assertInstanceOf(NativeList.class, nativeObject)) {
      assertEquals(List.of(1L), list);
    }
    try (CallFrame frame = CallFrame.open(MAP_KEYS, 1)) {
      frame.put(0, Codecs.map(Codecs.STRING, Codecs.LONG), Map.of("k", 1L));
      frame.invoke();
      try (NativeObject generic = frame.returnValue(Codecs.NATIVE_OBJECT)) {
        assertEquals("[k]", generic.toString());
      }
    }
  }
}
