package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.values.AnyCodec;
import dev.packed4j.runtime.internal.values.IntegerCodec;
import dev.packed4j.runtime.internal.values.StringCodec;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** NativeList and NativeMap: the java.util contracts, and changes visible on both sides. */
class NativeContainersTest {
  private static PackedFunction listSize;
  private static PackedFunction listAppend;
  private static PackedFunction listGetItem;
  private static PackedFunction mapSetItem;
  private static PackedFunction mapGetItem;

  @BeforeAll
  static void functions() {
    TestLibraries.requireCore();
    listSize = Registry.global("packed4j.ListSize");
    listAppend = Registry.global("packed4j.ListAppend");
    listGetItem = Registry.global("packed4j.ListGetItem");
    mapSetItem = Registry.global("packed4j.MapSetItem");
    mapGetItem = Registry.global("packed4j.MapGetItem");
  }

  @AfterAll
  static void close() {
    for (PackedFunction function : List.of(listSize, listAppend, listGetItem, mapSetItem, mapGetItem)) {
      function.close();
    }
  }

  /** {@code P4JListFromInt64s}, which the runtime does not call (it writes lists in place), linked here. */
  @SuppressWarnings("restricted") // P4JListFromInt64s with its c_api.h signature
  private static final java.lang.invoke.MethodHandle LIST_FROM_INT64S = java.lang.foreign.Linker.nativeLinker()
      .downcallHandle(dev.packed4j.runtime.internal.capi.NativeLibraries.core().find("P4JListFromInt64s").orElseThrow(),
          java.lang.foreign.FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
              ValueLayout.JAVA_LONG));

  private static NativeList<Long> longs(long... values) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment data = arena.allocateFrom(ValueLayout.JAVA_LONG, values);
      MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
      int status;
      try {
        status = (int) LIST_FROM_INT64S.invokeExact(data.address(), (long) values.length, out.address());
      } catch (Throwable e) {
        throw new AssertionError(e);
      }
      assertEquals(0, status);
      return new NativeList<>(out.get(ValueLayout.JAVA_LONG, 0), IntegerCodec.LONG);
    }
  }

  private static <V> NativeMap<String, V> emptyMap(dev.packed4j.runtime.internal.values.ValueCodec<V> values) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
      assertEquals(0, CApi.P4JMapCreate(0, 0, out.address()));
      return new NativeMap<>(out.get(ValueLayout.JAVA_LONG, 0), StringCodec.STRING, values);
    }
  }

  @Test
  void listReadsAndWritesFollowTheListContract() {
    try (NativeList<Long> list = longs(1, 2, 3)) {
      assertEquals(3, list.size());
      assertEquals(2L, list.get(1));
      assertThrows(IndexOutOfBoundsException.class, () -> list.get(3));
      assertThrows(IndexOutOfBoundsException.class, () -> list.get(-1));
      assertEquals(2L, list.set(1, 20L));
      assertTrue(list.add(4L));
      list.add(0, 0L);
      assertThrows(IndexOutOfBoundsException.class, () -> list.add(9, 9L));
      assertEquals(List.of(0L, 1L, 20L, 3L, 4L), list);
      assertEquals(List.of(0L, 1L, 20L, 3L, 4L).hashCode(), list.hashCode());
      assertEquals(20L, list.remove(2));
      assertTrue(list.remove(Long.valueOf(4L)));
      assertEquals(List.of(0L, 1L, 3L), new ArrayList<>(list));
      assertTrue(list.contains(3L));
      assertEquals(2, list.indexOf(3L));
      assertEquals(List.of(1L, 3L), list.subList(1, 3));
      assertThrows(NullPointerException.class, () -> list.add(null));
      Collections.reverse(list);
      assertEquals(List.of(3L, 1L, 0L), list);
      ListIterator<Long> iterator = list.listIterator();
      while (iterator.hasNext()) {
        if (iterator.next() == 1L) {
          iterator.remove();
        }
      }
      assertEquals(List.of(3L, 0L), list);
      list.clear();
      assertTrue(list.isEmpty());
      assertEquals("[]", list.toString());
    }
  }

  @Test
  void listChangesAreVisibleOnBothSides() {
    try (NativeList<Long> list = longs(5)) {
      list.add(6L);
      assertEquals(2L, listSize.invoke(list));
      assertEquals(6L, listGetItem.invoke(list, 1));
      listAppend.invoke(list, 7L);
      assertEquals(3, list.size());
      assertEquals(7L, list.get(2));
      List<Long> iterated = new ArrayList<>();
      for (long value : list) {
        iterated.add(value);
      }
      assertEquals(List.of(5L, 6L, 7L), iterated);
    }
  }

  @Test
  void aListWithElementsOfAnotherTypeReportsTheElement() {
    try (NativeList<Long> list = longs()) {
      listAppend.invoke(list, "text");
      Packed4jException e = assertThrows(Packed4jException.class, () -> list.get(0));
      assertEquals("TypeError", e.kind());
      assertTrue(e.getMessage().contains("element 0 of NativeList<Long>") && e.getMessage().contains("string"),
          e.getMessage());
    }
  }

  @Test
  void aClosedListCannotBeUsed() {
    NativeList<Long> list = longs(1);
    list.close();
    list.close();
    assertTrue(list.isClosed());
    assertThrows(IllegalStateException.class, list::size);
    assertThrows(IllegalStateException.class, () -> list.add(2L));
    assertEquals("NativeList<Long>[closed]", list.toString());
  }

  @Test
  void mapReadsAndWritesFollowTheMapContract() {
    try (NativeMap<String, Long> map = emptyMap(IntegerCodec.LONG)) {
      assertNull(map.get("missing"));
      assertNull(map.get(42), "a key of another type is absent");
      assertNull(map.put("b", 2L));
      assertNull(map.put("a", 1L));
      assertEquals(2L, map.put("b", 20L));
      assertEquals(2, map.size());
      assertTrue(map.containsKey("a"));
      assertFalse(map.containsKey("c"));
      assertEquals(20L, map.get("b"));
      Map<String, Long> expected = new LinkedHashMap<>();
      expected.put("b", 20L);
      expected.put("a", 1L);
      assertEquals(expected, map);
      assertEquals(expected.hashCode(), map.hashCode());
      assertEquals(List.of("b", "a"), new ArrayList<>(map.keySet()), "insertion order");
      for (Map.Entry<String, Long> entry : map.entrySet()) {
        entry.setValue(entry.getValue() + 100);
      }
      assertEquals(120L, map.get("b"));
      assertEquals(1L + 100, map.remove("a"));
      assertNull(map.remove("a"));
      assertThrows(NullPointerException.class, () -> map.put(null, 1L));
      assertThrows(NullPointerException.class, () -> map.put("x", null));
      map.put("c", 3L);
      Iterator<Map.Entry<String, Long>> iterator = map.entrySet().iterator();
      iterator.next();
      iterator.remove();
      assertEquals(Map.of("c", 3L), map);
      map.clear();
      assertTrue(map.isEmpty());
    }
  }

  @Test
  void mapChangesAreVisibleOnBothSides() {
    try (NativeMap<String, Object> map = emptyMap(AnyCodec.ANY)) {
      map.put("java", "set");
      assertEquals("set", mapGetItem.invoke(map, "java"));
      mapSetItem.invoke(map, "native", 3.5);
      assertEquals(3.5, map.get("native"));
      assertEquals(List.of("java", "native"), new ArrayList<>(map.keySet()));
    }
  }

  @Test
  void aClosedMapCannotBeUsed() {
    NativeMap<String, Long> map = emptyMap(IntegerCodec.LONG);
    map.close();
    assertThrows(IllegalStateException.class, map::size);
    assertThrows(IllegalStateException.class, () -> map.get("a"));
  }
}
