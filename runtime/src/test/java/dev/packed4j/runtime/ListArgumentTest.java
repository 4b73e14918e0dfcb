package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Java list passed as an argument: its values are written straight into the storage of a new native list
 * ({@code P4JListCreateWithCapacity}, {@code P4JListAppendWritten}); what arrives is checked element by element
 * through the built-in list globals.
 */
class ListArgumentTest {
  private static final FunctionSite LIST_SIZE =
      new FunctionSite("packed4j.ListSize", "Lists.size", new String[] {"values"});
  private static final FunctionSite LIST_GET =
      new FunctionSite("packed4j.ListGetItem", "Lists.get", new String[] {"values", "index"});
  private static final FunctionSite ECHO = new FunctionSite("test.Echo", "Echo.echo", new String[] {"value"});
  private static final Codec<List<Object>> OBJECTS = Codecs.list(Codecs.ANY);

  @BeforeAll
  static void plugin() {
    TestPlugin.load();
  }

  private static <T> long size(Codec<T> codec, T values) {
    try (CallFrame frame = CallFrame.open(LIST_SIZE, 1)) {
      frame.put(0, codec, values);
      frame.invoke();
      return frame.returnLong();
    }
  }

  /** The values as the native list holds them, each read back by packed4j.ListGetItem as an Object. */
  private static <E> List<Object> roundTrip(Codec<List<E>> codec, List<E> values) {
    Object[] back = new Object[values.size()];
    for (int i = 0; i < back.length; i++) {
      try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
        frame.put(0, codec, values);
        frame.putLong(1, i);
        frame.invoke();
        back[i] = frame.returnValue(Codecs.ANY);
      }
    }
    return Arrays.asList(back);
  }

  @Test
  void integersOfEveryWidthArriveAsInt64() {
    List<Long> longs = List.of(Long.MIN_VALUE, -1L, 0L, Long.MAX_VALUE);
    assertEquals(List.<Object>copyOf(longs), roundTrip(Codecs.list(Codecs.LONG), longs));
    assertEquals(List.<Object>of((long) Integer.MIN_VALUE, 7L, (long) Integer.MAX_VALUE),
        roundTrip(Codecs.list(Codecs.INT), List.of(Integer.MIN_VALUE, 7, Integer.MAX_VALUE)));
    assertEquals(List.<Object>of(-32768L, 32767L),
        roundTrip(Codecs.list(Codecs.SHORT), List.of(Short.MIN_VALUE, Short.MAX_VALUE)));
    assertEquals(List.<Object>of(-128L, 127L),
        roundTrip(Codecs.list(Codecs.BYTE), List.of(Byte.MIN_VALUE, Byte.MAX_VALUE)));
  }

  @Test
  void floatsArriveAsFloat64BitForBit() {
    List<Double> doubles = List.of(-0.0, Double.NaN, Double.MIN_VALUE, Double.NEGATIVE_INFINITY, 1.5);
    assertEquals(List.<Object>copyOf(doubles), roundTrip(Codecs.list(Codecs.DOUBLE), doubles),
        "Double.equals compares bits: -0.0 and NaN arrive as they left");
    assertEquals(List.<Object>of(0.25, (double) Float.MAX_VALUE),
        roundTrip(Codecs.list(Codecs.FLOAT), List.of(0.25f, Float.MAX_VALUE)));
  }

  @Test
  void valuesOfAnyKindAreOwnedByTheList() throws InterruptedException {
    long baseline = TestLibraries.settledLiveObjectCount();
    byte[] bytes = {1, 2, 3};
    List<Object> values = Arrays.asList("text", bytes, List.of(1L, 2L), Map.of("k", 5L), null, true, 2.5,
        Optional.of("inner"), 42L);
    NativeList<Object> live;
    try (CallFrame frame = CallFrame.open(ECHO, 1)) {
      frame.put(0, OBJECTS, values);
      frame.invoke();
      live = frame.returnValue(Codecs.nativeList(Codecs.ANY));
    }
    // The frame is closed: the scratch memory the strings and bytes were viewed in is gone, the nested list
    // made for the call is released. The list kept copies and references of its own.
    try (live) {
      assertEquals(values.size(), live.size());
      assertEquals("text", live.get(0));
      assertArrayEquals(bytes, assertInstanceOf(byte[].class, live.get(1)));
      try (NativeList<?> nested = assertInstanceOf(NativeList.class, live.get(2))) {
        assertEquals(List.of(1L, 2L), nested);
      }
      try (NativeMap<?, ?> map = assertInstanceOf(NativeMap.class, live.get(3))) {
        assertEquals(Map.of("k", 5L), map);
      }
      assertNull(live.get(4));
      assertEquals(true, live.get(5));
      assertEquals(2.5, live.get(6));
      assertEquals("inner", live.get(7));
      assertEquals(42L, live.get(8));
    }
    assertEquals(baseline, TestLibraries.settledLiveObjectCount(), "the list and what it held are released");
  }

  @Test
  void aFailingElementReleasesThePartlyWrittenList() throws InterruptedException {
    long baseline = TestLibraries.settledLiveObjectCount();
    NullPointerException longs = assertThrows(NullPointerException.class,
        () -> size(Codecs.list(Codecs.LONG), Arrays.asList(1L, 2L, null)));
    assertEquals("packed4j.ListSize argument 0 (values): element 2 is null; List<Long> elements must not be null",
        longs.getMessage());
    NullPointerException doubles = assertThrows(NullPointerException.class,
        () -> size(Codecs.list(Codecs.DOUBLE), Arrays.asList(0.5, null)));
    assertEquals("packed4j.ListSize argument 0 (values): element 1 is null; List<Double> elements must not be null",
        doubles.getMessage());
    // An ArrayList is read by index rather than through its iterator: the same checks.
    NullPointerException arrayList = assertThrows(NullPointerException.class,
        () -> size(Codecs.list(Codecs.INT), new ArrayList<>(Arrays.asList(1, null))));
    assertEquals("packed4j.ListSize argument 0 (values): element 1 is null; List<Integer> elements must not be null",
        arrayList.getMessage());
    assertThrows(NullPointerException.class,
        () -> size(Codecs.list(Codecs.FLOAT), new ArrayList<>(Arrays.asList(0.5f, 1f, null))));
    NullPointerException strings = assertThrows(NullPointerException.class,
        () -> size(Codecs.list(Codecs.STRING), Arrays.asList("a", "b", null)));
    assertTrue(strings.getMessage().contains("element 2 is null"), strings.getMessage());
    RuntimeException unsupported = assertThrows(RuntimeException.class,
        () -> size(OBJECTS, List.of("a", List.of(1L), new Object())));
    assertTrue(unsupported.getMessage().contains("element 2"), unsupported.getMessage());
    assertEquals(baseline, TestLibraries.settledLiveObjectCount(), "no list, string or nested list is left behind");
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void anElementOfAnotherClassIsATypeErrorNamingWhereItIs() throws InterruptedException {
    // Only a raw or unchecked collection can hold one; it was a bare ClassCastException naming no function.
    long baseline = TestLibraries.settledLiveObjectCount();
    String where = "[TypeError] packed4j.ListSize argument 0 (values): ";
    Packed4jException strings = assertThrows(Packed4jException.class,
        () -> size(Codecs.list(Codecs.STRING), (List) List.of("a", 2L)));
    assertEquals(where + "element 1: a java.lang.Long, expected String", strings.getMessage());
    Packed4jException nested = assertThrows(Packed4jException.class,
        () -> size(Codecs.list(Codecs.list(Codecs.LONG)), (List) List.of(List.of(1L), List.of(2L, "3"))));
    assertEquals(where + "element 1: element 1: a java.lang.String, expected an integer (Long, Integer, Short or "
        + "Byte) of List<Long>", nested.getMessage());
    Packed4jException key = assertThrows(Packed4jException.class,
        () -> size(Codecs.map(Codecs.STRING, Codecs.LONG), (Map) Map.of(7L, 1L)));
    assertEquals(where + "key 7: a java.lang.Long, expected String", key.getMessage());
    Packed4jException value = assertThrows(Packed4jException.class,
        () -> size(Codecs.map(Codecs.STRING, Codecs.LONG), (Map) Map.of("k", "v")));
    assertEquals(where + "the value of key k: a java.lang.String, expected Long", value.getMessage());
    Packed4jException optional = assertThrows(Packed4jException.class,
        () -> size(Codecs.optional(Codecs.LONG), (Optional) Optional.of("v")));
    assertEquals(where + "the Optional's value: a java.lang.String, expected Long", optional.getMessage());
    NullPointerException absent = assertThrows(NullPointerException.class,
        () -> size(Codecs.optional(Codecs.LONG), null));
    assertEquals("packed4j.ListSize argument 0 (values) is null; an Optional<Long> argument must not be null (pass"
        + " Optional.empty() for None)", absent.getMessage());
    assertEquals(baseline, TestLibraries.settledLiveObjectCount(), "nothing made for the calls is left behind");
  }

  /** A list whose size() says one thing and whose iterator yields another, as one changed while it is copied. */
  private static <E> List<E> reporting(int size, List<E> yields) {
    return new AbstractList<>() {
      @Override
      public Iterator<E> iterator() {
        return yields.iterator();
      }

      @Override
      public E get(int index) {
        return yields.get(index);
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  @Test
  void aListThatChangesWhileCopiedGivesWhatItYieldsUpToItsSize() {
    Codec<List<Long>> longs = Codecs.list(Codecs.LONG);
    assertEquals(3, size(longs, reporting(5, List.of(1L, 2L, 3L))));
    assertEquals(2, size(longs, reporting(2, List.of(1L, 2L, 3L, 4L))));
    Codec<List<Double>> doubles = Codecs.list(Codecs.DOUBLE);
    assertEquals(0, size(doubles, reporting(3, List.of())));
    assertEquals(1, size(OBJECTS, reporting(4, List.of("a"))));
    assertEquals(2, size(OBJECTS, reporting(2, List.of("a", "b", "c"))));
  }

  @Test
  void anArrayListIsCopiedAsAnyOtherList() {
    ArrayList<Long> longs = new ArrayList<>(List.of(3L, 1L, 2L));
    assertEquals(List.<Object>of(3L, 1L, 2L), roundTrip(Codecs.list(Codecs.LONG), longs));
    ArrayList<Double> doubles = new ArrayList<>(List.of(-0.0, 2.5));
    assertEquals(List.<Object>of(-0.0, 2.5), roundTrip(Codecs.list(Codecs.DOUBLE), doubles));
    assertEquals(0, size(Codecs.list(Codecs.LONG), new ArrayList<>()));
  }

  @Test
  void aMillionLongsAndDoublesArriveInOrder() {
    List<Long> longs = LongStream.range(0, 1_000_000).boxed().toList();
    assertEquals(1_000_000, size(Codecs.list(Codecs.LONG), longs));
    List<Double> doubles = LongStream.range(0, 1_000_000).mapToObj(i -> i * 0.5).toList();
    try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
      frame.put(0, Codecs.list(Codecs.DOUBLE), doubles);
      frame.putLong(1, 999_999);
      frame.invoke();
      assertEquals(499_999.5, frame.returnDouble());
    }
  }

  @Test
  void packedFunctionInvokeBuildsTheSameLists() {
    PackedFunction listSize = Registry.global("packed4j.ListSize");
    PackedFunction listGetItem = Registry.global("packed4j.ListGetItem");
    List<Long> longs = LongStream.range(0, 100_000).boxed().toList();
    assertEquals(100_000L, listSize.invoke(longs));
    assertEquals(99_999L, listGetItem.invoke(longs, 99_999));
    List<Double> doubles = List.of(0.5, -0.0, Double.NaN);
    assertEquals(-0.0, listGetItem.invoke(doubles, 1));
    assertEquals(Double.NaN, listGetItem.invoke(doubles, 2));
  }

  @Test
  void passingAListOfLongsAllocatesNothingOnTheJavaHeap() {
    // An ArrayList, whichever other lists went through the same code before (the other tests pass several kinds).
    List<Long> values = new ArrayList<>(LongStream.range(0, 1000).boxed().toList());
    Codec<List<Long>> longs = Codecs.list(Codecs.LONG);
    long[] sink = {0};
    List<Long> perRound = SteadyStateAllocation.measure(() -> {
      for (int i = 0; i < 20_000; i++) {
        sink[0] += size(longs, values);
      }
    }, 64 * 1024, 30);
    assertEquals(0, sink[0] % 1000);
    assertTrue(perRound.getLast() < 64 * 1024,
        "every round of 20000 calls allocated on the heap, bytes per round: " + perRound);
  }
}
