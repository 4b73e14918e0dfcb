package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Dynamic calls through the built-in globals and the test plugin. */
class PackedFunctionTest {
  private static PackedFunction listSize;
  private static PackedFunction listGetItem;
  private static PackedFunction mapGetItem;
  private static PackedFunction mapKeys;
  private static PackedFunction getTypeKey;
  private static PackedFunction echo;
  private static PackedFunction fail;

  @BeforeAll
  static void functions() {
    TestPlugin.load();
    listSize = Registry.global("packed4j.ListSize");
    listGetItem = Registry.global("packed4j.ListGetItem");
    mapGetItem = Registry.global("packed4j.MapGetItem");
    mapKeys = Registry.global("packed4j.MapKeys");
    getTypeKey = Registry.global("packed4j.GetTypeKey");
    echo = Registry.global("test.Echo");
    fail = Registry.global("test.Fail");
  }

  @AfterAll
  static void close() {
    for (PackedFunction function : List.of(listSize, listGetItem, mapGetItem, mapKeys, getTypeKey, echo, fail)) {
      function.close();
    }
  }

  @Test
  void scalarsRoundTrip() {
    assertNull(echo.invoke((Object) null));
    assertEquals(true, echo.invoke(true));
    assertEquals(-5L, echo.invoke((byte) -5));
    assertEquals(300L, echo.invoke((short) 300));
    assertEquals(7L, echo.invoke(7));
    assertEquals(Long.MIN_VALUE, echo.invoke(Long.MIN_VALUE));
    assertEquals(1.5, echo.invoke(1.5f));
    assertEquals(Math.PI, echo.invoke(Math.PI));
    assertEquals("x", echo.invoke(Optional.of("x")));
    assertNull(echo.invoke(Optional.empty()));
  }

  @Test
  void stringsKeepEmbeddedNulsAndEveryCodePoint() {
    for (String text : List.of("", "a\0b\0", "héllo wörld", "日本語", "emoji 😀 and 𝄞", "lone \uD800 surrogate")) {
      String expected = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      assertEquals(expected, echo.invoke(text));
      assertEquals(expected, listGetItem.invoke(List.of("first", text), 1));
    }
  }

  @Test
  void bytesRoundTrip() {
    byte[] bytes = {0, 1, -1, 127, -128, 0};
    assertArrayEquals(bytes, (byte[]) echo.invoke((Object) bytes));
    assertArrayEquals(new byte[0], (byte[]) echo.invoke((Object) new byte[0]));
  }

  @Test
  void javaListsAndMapsBecomeNativeContainers() {
    assertEquals(3L, listSize.invoke(List.of(1, 2, 3)));
    assertEquals(0L, listSize.invoke(List.of()));
    List<Object> mixed = Arrays.asList(1L, 2.5, true, "text", null, List.of(9L));
    assertEquals(2.5, listGetItem.invoke(mixed, 1));
    assertNull(listGetItem.invoke(mixed, 4));
    try (NativeList<?> nested = (NativeList<?>) listGetItem.invoke(mixed, 5)) {
      assertEquals(List.of(9L), nested);
    }
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put("b", 2);
    map.put(1, "one");
    map.put("a", List.of("x"));
    assertEquals(2L, mapGetItem.invoke(map, "b"));
    assertEquals("one", mapGetItem.invoke(map, 1));
    try (NativeList<?> keys = (NativeList<?>) mapKeys.invoke(map)) {
      assertEquals(List.of("b", 1L, "a"), keys);
    }
  }

  @Test
  void nativeErrorsCarryKindMessageAndFunction() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> mapGetItem.invoke(Map.of("a", 1), "zz"));
    assertEquals("KeyError", e.kind());
    assertEquals("packed4j.MapGetItem", e.functionName());
    assertTrue(e.getMessage().startsWith("[KeyError] packed4j.MapGetItem"), e.getMessage());

    Packed4jException typeError = assertThrows(Packed4jException.class, () -> listSize.invoke("not a list"));
    assertEquals("TypeError", typeError.kind());
    assertTrue(typeError.nativeMessage().contains("string") || typeError.nativeMessage().contains("str"),
        typeError.nativeMessage());

    Packed4jException custom = assertThrows(Packed4jException.class, () -> fail.invoke("IndexError", "index 9 of 3"));
    assertEquals("IndexError", custom.kind());
    assertEquals("test.Fail", custom.functionName());
    assertTrue(custom.nativeMessage().contains("index 9 of 3"), custom.nativeMessage());
    assertEquals("[IndexError] test.Fail: " + custom.nativeMessage(), custom.getMessage());
    ByteArrayOutputStream trace = new ByteArrayOutputStream();
    custom.printStackTrace(new PrintStream(trace, true, StandardCharsets.UTF_8));
    String printed = trace.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("[IndexError] test.Fail"), printed);
    if (!custom.nativeBacktrace().isBlank()) {
      assertTrue(printed.contains("NativeBacktrace: native backtrace"), printed);
    }
  }

  @Test
  void anArgumentWithoutNativeRepresentationIsATypeErrorNamingIt() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> echo.invoke(1, new Thread()));
    assertEquals("TypeError", e.kind());
    assertTrue(e.getMessage().contains("test.Echo argument 1") && e.getMessage().contains("java.lang.Thread"),
        e.getMessage());
  }

  @Test
  void functionsAreValuesToo() {
    try (PackedFunction viaList = (PackedFunction) listGetItem.invoke(List.of(listSize), 0)) {
      assertEquals(listSize, viaList);
      assertEquals(2L, viaList.invoke(List.of("a", "b")));
    }
    String functionKey = (String) getTypeKey.invoke(listSize);
    assertEquals(listSize.typeKey(), functionKey);
  }

  @Test
  void aNoneArgumentReachesNativeAsNone() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> getTypeKey.invoke((Object) null));
    assertTrue(e.getMessage().contains("None"), e.getMessage());
  }

  @Test
  void aClosedFunctionCannotBeCalled() {
    PackedFunction size = Registry.global("packed4j.ListSize");
    size.close();
    assertThrows(IllegalStateException.class, () -> size.invoke(List.of()));
    assertTrue(size.toString().contains("closed"), size.toString());
  }

  @Test
  void aClosedObjectArgumentNamesFunctionAndArgument() {
    NativeList<?> keys = (NativeList<?>) mapKeys.invoke(Map.of("k", 1));
    keys.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> listSize.invoke(keys));
    assertTrue(e.getMessage().contains("packed4j.ListSize argument 0") && e.getMessage().contains("closed"),
        e.getMessage());
  }

  @Test
  void builtInContainersAreReturnedAsLiveViews() {
    Object keys = mapKeys.invoke(Map.of("k", 1));
    try (NativeList<?> list = assertInstanceOf(NativeList.class, keys)) {
      assertEquals(List.of("k"), list);
    }
    Object map = listGetItem.invoke(List.of(Map.of("k", 1)), 0);
    try (NativeMap<?, ?> live = assertInstanceOf(NativeMap.class, map)) {
      assertEquals(Map.of("k", 1L), live);
    }
  }
}
