package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import dev.packed4j.runtime.internal.values.Nesting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Values nested deeper than the runtime converts are a ValueError naming the limit, never a StackOverflowError;
 * native graphs of any depth are built level by level and released with constant native stack.
 */
class DeepNestingTest {
  private static final FunctionSite LIST_GET = new FunctionSite("packed4j.ListGetItem", "DeepNestingTest.get",
      new String[] {"list", "index"});
  private static final Codec<List<Object>> COPIED_LIST = Codecs.list(Codecs.ANY);

  private static PackedFunction listSize;
  private static PackedFunction listAppend;
  private static PackedFunction mapKeys;

  @BeforeAll
  static void functions() {
    TestLibraries.requireCore();
    listSize = Registry.global("packed4j.ListSize");
    listAppend = Registry.global("packed4j.ListAppend");
    mapKeys = Registry.global("packed4j.MapKeys");
  }

  @AfterAll
  static void close() {
    listSize.close();
    listAppend.close();
    mapKeys.close();
  }

  /** {@code depth} Java lists, each holding the next one; the innermost is empty. */
  private static List<Object> nestedJavaLists(int depth) {
    List<Object> chain = new ArrayList<>();
    for (int level = 1; level < depth; level++) {
      List<Object> outer = new ArrayList<>();
      outer.add(chain);
      chain = outer;
    }
    return chain;
  }

  private static void assertDepthLimit(Packed4jException e, String function) {
    assertEquals("ValueError", e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains(function), e.getMessage());
    assertTrue(e.getMessage().contains("nested deeper than " + Nesting.LIMIT + " levels"), e.getMessage());
    assertTrue(e.getMessage().length() < 1000, "one message, not one line per level: " + e.getMessage());
  }

  @Test
  void aJavaListNestedUpToTheLimitIsPassed() throws InterruptedException {
    long before = TestLibraries.settledLiveObjectCount();
    assertEquals(1L, listSize.invoke(nestedJavaLists(Nesting.LIMIT)));
    assertEquals(before, TestLibraries.settledLiveObjectCount());
  }

  @Test
  void aJavaListNestedDeeperIsAValueErrorNamingTheLimit() throws InterruptedException {
    long before = TestLibraries.settledLiveObjectCount();
    for (int depth : new int[] {Nesting.LIMIT + 1, 2_000, 100_000}) {
      Packed4jException e = assertThrows(Packed4jException.class, () -> listSize.invoke(nestedJavaLists(depth)));
      assertDepthLimit(e, "packed4j.ListSize");
    }
    // Every temporary list built before the limit was reached is released.
    assertEquals(before, TestLibraries.settledLiveObjectCount());
    assertEquals(1L, listSize.invoke(nestedJavaLists(3)));
  }

  @Test
  void aListThatContainsItselfIsAValueErrorNotAStackOverflow() {
    List<Object> cyclic = new ArrayList<>();
    cyclic.add(1L);
    cyclic.add(cyclic);
    assertDepthLimit(assertThrows(Packed4jException.class, () -> listSize.invoke(cyclic)), "packed4j.ListSize");
    Map<String, Object> map = new java.util.HashMap<>();
    map.put("self", map);
    assertDepthLimit(assertThrows(Packed4jException.class, () -> listSize.invoke(List.of(map))),
        "packed4j.ListSize");
  }

  /** A native chain {@code depth} lists deep, built one level per call; the caller closes the returned view. */
  @SuppressWarnings("unchecked")
  private static NativeList<Object> nativeChain(int depth) {
    NativeList<Object> chain = (NativeList<Object>) mapKeys.invoke(Map.of());
    for (int level = 1; level < depth; level++) {
      NativeList<Object> outer = (NativeList<Object>) mapKeys.invoke(Map.of());
      listAppend.invoke(outer, chain);
      chain.close();
      chain = outer;
    }
    return chain;
  }

  private static List<Object> copyFirst(NativeList<Object> list) {
    try (CallFrame frame = CallFrame.open(LIST_GET, 2)) {
      frame.put(0, Codecs.ANY, list);
      frame.putLong(1, 0);
      frame.invoke();
      return frame.returnValue(COPIED_LIST);
    }
  }

  @Test
  void aNativeListDeeperThanTheLimitIsCopiedOneLevelAndReadLevelByLevel() throws InterruptedException {
    long before = TestLibraries.settledLiveObjectCount();
    try (NativeList<Object> deep = nativeChain(Nesting.LIMIT * 4)) {
      // A List<Object> result copies its own level; nested containers arrive as live views, so depth costs nothing.
      List<Object> copy = copyFirst(deep);
      assertEquals(1, copy.size());
      NativeList<?> level = (NativeList<?>) copy.getFirst();
      for (int i = 0; i < Nesting.LIMIT * 4 - 3; i++) {
        NativeList<?> inner = (NativeList<?>) level.get(0);
        level.close();
        level = inner;
      }
      assertTrue(level.isEmpty());
      level.close();
    }
    assertEquals(before, TestLibraries.settledLiveObjectCount());
  }

  @Test
  void aNativeListOfAnyDepthIsReleasedWithConstantNativeStack() throws InterruptedException {
    long before = TestLibraries.settledLiveObjectCount();
    // 100,000 levels: the native release recursed once per level and overflowed the thread's stack at ~25,000.
    NativeList<Object> deep = nativeChain(100_000);
    assertEquals(before + 100_000, Packed4j.liveObjectCount());
    deep.close();
    assertEquals(before, TestLibraries.settledLiveObjectCount());
  }
}
