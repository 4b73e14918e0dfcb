package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeMap;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ContainersTest {
  private static Containers containers;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    containers = Packed4j.bind(Containers.class);
  }

  @Test
  void dglSumOverAList() {
    assertEquals(15, containers.sum(List.of(0L, 1L, 2L, 3L, 4L, 5L)));
  }

  @Test
  void emptyListAndMap() {
    assertEquals(0, containers.sum(List.of()));
    assertEquals(List.of(), containers.echoLongs(List.of()));
    assertEquals(Map.of(), containers.echoStringMap(Map.of()));
    assertEquals(List.of(), containers.range(0));
  }

  @Test
  void nestedListAndMap() {
    List<Object> nested = List.of(List.of(1L, 2L, 3L), Map.of("A", 5L, "B", 6L));
    List<Object> back = containers.echoNested(nested);
    assertEquals(2, back.size());
    assertEquals(List.of(1L, 2L, 3L), back.get(0));
    assertEquals(Map.of("A", 5L, "B", 6L), back.get(1));

    List<List<Long>> lists = List.of(List.of(), List.of(1L), List.of(2L, 3L));
    assertEquals(lists, containers.echoListOfLists(lists));

    Map<String, List<Map<Long, String>>> deep = new LinkedHashMap<>();
    deep.put("x", List.of(Map.of(1L, "one"), Map.of()));
    deep.put("y", List.of());
    assertEquals(deep, containers.echoDeep(deep));

    Map<String, List<Double>> fromCpp = containers.mapOfLists();
    assertEquals(List.of("A", "B"), new ArrayList<>(fromCpp.keySet()));
    assertEquals(List.of(1.0, 2.0, 3.0), fromCpp.get("A"));
    assertEquals(List.of(4.5), fromCpp.get("B"));
  }

  @Test
  void returnedCopiesAreImmutable() {
    List<Long> range = containers.range(3);
    assertEquals(List.of(0L, 1L, 2L), range);
    assertThrows(UnsupportedOperationException.class, () -> range.add(3L));
    Map<Long, Long> map = containers.intKeyMap(2);
    assertThrows(UnsupportedOperationException.class, () -> map.put(1L, 1L));
  }

  @Test
  void mapWithOneHundredIntegerKeys() {
    Map<Long, Long> map = containers.intKeyMap(100);
    assertEquals(100, map.size());
    assertEquals(LongStream.range(0, 100).map(i -> 7 * i).boxed().toList(), new ArrayList<>(map.keySet()),
        "iteration follows insertion order");
    for (long i = 0; i < 100; i++) {
      assertEquals(i, map.get(7 * i));
      assertNull(map.get(7 * i + 1));
    }
    assertEquals(42, containers.lookUp(map, 7 * 42));
    Packed4jException missing = assertThrows(Packed4jException.class, () -> containers.lookUp(map, 8));
    assertEquals("KeyError", missing.kind());
    assertTrue(missing.getMessage().contains("8"), missing.getMessage());

    try (NativeMap<Long, Long> live = containers.intKeyMapLive(100)) {
      assertEquals(100, live.size());
      assertEquals(3L, live.get(21L));
      assertNull(live.get(22L), "a missing key reads as null, as java.util.Map says");
      assertFalse(live.containsKey(22L));
      live.put(22L, -1L);
      assertEquals(-1L, live.get(22L));
      assertEquals(101, live.size());
      assertEquals(-1L, containers.lookUp(live, 22L), "a Java change is visible in C++");
    }
  }

  @Test
  void objectKeysCompareByNativeIdentity() throws InterruptedException {
    // Settled: objects earlier tests dropped are released first, not during this test.
    long baseline = TestLibrary.settledLiveObjectCount();
    try (Node a = containers.makeNode(1, 1, 1, 1, true, "a");
        Node b = containers.makeNode(1, 1, 1, 1, true, "a")) {
      Map<Node, Long> keyed = new LinkedHashMap<>();
      keyed.put(a, 10L);
      keyed.put(b, 20L);
      Map<Node, Long> back = containers.echoNodeKeys(keyed);
      assertEquals(2, back.size(), "equal fields, distinct objects: two keys");
      assertEquals(10L, back.get(a));
      assertEquals(20L, back.get(b));
      assertEquals(List.of(a, b), new ArrayList<>(back.keySet()));
      back.keySet().forEach(Node::close);
    }
    assertEquals(baseline, TestLibrary.settledLiveObjectCount());
  }

  @Test
  void duplicateKeysLastWins() {
    Map<String, Long> map = containers.duplicateKeys();
    assertEquals(List.of("a", "b"), new ArrayList<>(map.keySet()));
    assertEquals(3L, map.get("a"));
    assertEquals(2L, map.get("b"));
  }

  @Test
  void wrongElementTypeNamesTheIndex() {
    Packed4jException error = assertThrows(Packed4jException.class, () -> containers.sumStrings(List.of("a", "b")));
    assertEquals("TypeError", error.kind());
    assertTrue(error.getMessage().contains("test.SumInt64List"), error.getMessage());
    assertTrue(error.getMessage().contains("index 0") || error.getMessage().contains("[0]"), error.getMessage());
  }

  @Test
  void nullElementNamesThePosition() {
    List<Long> withNull = Arrays.asList(1L, 2L, null, 4L);
    NullPointerException error = assertThrows(NullPointerException.class, () -> containers.sum(withNull));
    assertTrue(error.getMessage().contains("test.SumInt64List"), error.getMessage());
    assertTrue(error.getMessage().contains("2"), error.getMessage());
    Map<String, Long> nullValue = new LinkedHashMap<>();
    nullValue.put("k", null);
    NullPointerException mapError = assertThrows(NullPointerException.class,
        () -> containers.echoStringMap(nullValue));
    assertTrue(mapError.getMessage().contains("k"), mapError.getMessage());
  }

  @Test
  void optionals() {
    assertEquals(Optional.of("present"), containers.maybeName(true));
    assertEquals(Optional.empty(), containers.maybeName(false));
    assertEquals("some 5", containers.describe(Optional.of(5L)));
    assertEquals("none", containers.describe(Optional.empty()));
  }

  @Test
  void sharedMutableListChangedOnEachSide() {
    try (NativeList<Long> shared = containers.sharedList()) {
      shared.clear();
      containers.appendInCpp(10);
      assertEquals(List.of(10L), shared, "a C++ change is visible in Java");
      shared.add(5L);
      shared.add(0, 1L);
      assertEquals(16, containers.sumInCpp(), "a Java change is visible in C++");
      shared.set(0, 100L);
      assertEquals(115, containers.sumInCpp());
      assertEquals(100L, shared.remove(0));
      assertEquals(List.of(10L, 5L), shared);
      assertThrows(IndexOutOfBoundsException.class, () -> shared.get(2));
      assertThrows(IndexOutOfBoundsException.class, () -> shared.set(-1, 0L));
    }
    try (NativeList<Long> passed = containers.share(new ArrayList<>(List.of(1L, 2L)))) {
      assertEquals(List.of(1L, 2L), passed);
    }
  }

  @Test
  void liveListsAndMapsMayBeSharedAndChangedByJavaThreads() throws Exception {
    int threads = 4;
    int adds = 2_000;
    try (NativeList<Long> shared = containers.sharedList()) {
      shared.clear();
      AtomicInteger removed = new AtomicInteger();
      runOnThreads(threads, thread -> {
        // Each thread its own view of the one native list: the lock is the list's, not the view's.
        try (NativeList<Long> view = containers.sharedList()) {
          for (int i = 0; i < adds; i++) {
            view.add(1L);
            if (i % 10 == 0) {
              try {
                view.remove(0);
                removed.incrementAndGet();
              } catch (IndexOutOfBoundsException emptied) {
                // another thread took the last element between this thread's add and remove
              }
            }
            try {
              assertEquals(1L, view.get(view.size() - 1));
              view.set(0, 1L);
            } catch (IndexOutOfBoundsException shrunk) {
              // the list shrank between size() and the access
            }
          }
        }
      });
      assertEquals(threads * adds - removed.get(), shared.size());
      assertEquals(shared.size(), containers.sumInCpp(), "every element is 1: none torn, lost or doubled");
      shared.clear();
    }
    try (NativeMap<Long, Long> map = containers.intKeyMapLive(0)) {
      runOnThreads(threads, thread -> {
        for (long i = 0; i < 500; i++) {
          long key = thread * 10_000L + i;
          map.put(key, i);
          assertEquals(i, map.get(key));
          if (i % 5 == 0) {
            assertEquals(i, map.remove(key));
          }
          try {
            for (Map.Entry<Long, Long> entry : map.entrySet()) {
              assertEquals(entry.getKey() % 10_000L, entry.getValue());
            }
          } catch (java.util.ConcurrentModificationException | java.util.NoSuchElementException changed) {
            // another thread changed the map during this pass
          }
        }
      });
      assertEquals(threads * 400, map.size());
    }
  }

  /** Runs {@code body} on {@code count} threads at once (each given its number) and rethrows the first failure. */
  private static void runOnThreads(int count, java.util.function.IntConsumer body) throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(count);
    try {
      java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<?>> runs = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int thread = i;
        runs.add(pool.submit(() -> {
          start.await();
          body.accept(thread);
          return null;
        }));
      }
      start.countDown();
      for (java.util.concurrent.Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"}) // a raw view, as a caller with unchecked generics has
  void aValueOfAnotherClassInARawLiveContainerIsATypeErrorNotATruncation() {
    try (NativeList<Long> list = containers.share(new ArrayList<>(List.of(1L)))) {
      List raw = list;
      Packed4jException fraction = assertThrows(Packed4jException.class, () -> raw.add(2.9));
      assertEquals("TypeError", fraction.kind());
      assertEquals("NativeList.add(element): a java.lang.Double, expected Long", fraction.nativeMessage());
      Packed4jException text = assertThrows(Packed4jException.class, () -> raw.set(0, "nine"));
      assertEquals("NativeList.set(element): a java.lang.String, expected Long", text.nativeMessage());
      assertThrows(Packed4jException.class, () -> raw.add(0, new java.math.BigInteger("1180591620717411303424")));
      assertEquals(List.of(1L), list, "nothing was written");
    }
    try (NativeMap<Long, Long> map = containers.intKeyMapLive(1)) {
      Map raw = map;
      Packed4jException fraction = assertThrows(Packed4jException.class, () -> raw.put(7L, 4.8));
      assertEquals("TypeError", fraction.kind());
      assertTrue(fraction.nativeMessage().endsWith(": a java.lang.Double, expected Long"), fraction.nativeMessage());
      assertFalse(map.containsKey(7L));
    }
  }

  @Test
  void containersHoldObjectReferences() throws InterruptedException {
    containers.releaseHeld(); // creates the native list that test.Hold keeps for the life of the process
    // Settled: objects earlier tests dropped are released first, not during this test.
    long baseline = TestLibrary.settledLiveObjectCount();
    try (Node first = containers.makeNode(1, 1, 1, 1, true, "first");
        Node second = containers.makeNode(2, 2, 2, 2, true, "second")) {
      assertEquals(1, containers.useCount(first));
      containers.hold(List.of(first, second, first));
      assertEquals(3, containers.useCount(first), "held twice by the container");
      assertEquals(2, containers.useCount(second));
      containers.releaseHeld();
      assertEquals(1, containers.useCount(first));
      assertEquals(1, containers.useCount(second));
    }
    assertEquals(baseline, TestLibrary.settledLiveObjectCount());
  }

  @Test
  void closedObjectInsideAListNamesFunctionArgumentAndElement() throws InterruptedException {
    // Settled: objects earlier tests dropped are released first, not during this test.
    long baseline = TestLibrary.settledLiveObjectCount();
    Node open = containers.makeNode(1, 1, 1, 1, true, "open");
    Node closed = containers.makeNode(2, 2, 2, 2, true, "closed");
    closed.close();
    IllegalStateException error = assertThrows(IllegalStateException.class,
        () -> containers.hold(List.of(open, closed)));
    assertTrue(error.getMessage().contains("test.Hold"), error.getMessage());
    assertTrue(error.getMessage().contains("nodes"), error.getMessage());
    assertTrue(error.getMessage().contains("1"), error.getMessage());
    assertEquals(1, containers.useCount(open), "the partly built list was released");
    open.close();
    assertEquals(baseline, TestLibrary.settledLiveObjectCount());
  }

  @Test
  void aClosedLiveListNamesTheMethod() {
    NativeList<Long> list = containers.rangeLive(2);
    list.close();
    IllegalStateException size = assertThrows(IllegalStateException.class, list::size);
    assertEquals("NativeList.size(): the NativeList<Long> is closed; it cannot be used after close()",
        size.getMessage());
    IllegalStateException add = assertThrows(IllegalStateException.class, () -> list.add(3L));
    assertTrue(add.getMessage().startsWith("NativeList.add(element): "), add.getMessage());
  }

  @Test
  void aListThatContainsItselfPrintsWithoutRecursingForever() {
    try (NativeList<Long> list = containers.rangeLive(2)) {
      dev.packed4j.runtime.Registry.global("packed4j.ListAppend").invoke(list, list);
      assertEquals(3, list.size());
      assertTrue(list.toString().startsWith("[0, 1, [0, 1, ["), list.toString());
      assertTrue(list.toString().contains("..."), list.toString());
      list.clear(); // breaks the cycle, which reference counting alone would never free
    }
  }

  @Test
  void oneMillionLongs() {
    List<Long> values = LongStream.range(0, 1_000_000).boxed().toList();
    assertEquals(499_999_500_000L, containers.sum(values));
    List<Long> range = containers.range(1_000_000);
    assertEquals(1_000_000, range.size());
    assertEquals(999_999L, range.get(999_999));
    assertEquals(values, range);
  }
}
