package dev.packed4j.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The manifest's one JSON reader, shared by packed4j-processor and packed4j generate. */
class JsonTest {
  @Test
  void readsObjectsArraysStringsIntegersAndLiterals() {
    Object value = Json.parse(" {\"a\": [1, -2, \"x\\u00e9\\n\\\"\"], \"b\": {\"t\": true, \"f\": false, \"n\": null},"
        + " \"e\": []}\n");
    Map<String, Object> root = Json.object(value, "the document");
    assertEquals(List.of("a", "b", "e"), List.copyOf(root.keySet()), "members in document order");
    assertEquals(Arrays.asList(1L, -2L, "x\u00e9\n\""), Json.array(root.get("a"), "a"));
    Map<String, Object> b = Json.object(root.get("b"), "b");
    assertEquals(Boolean.TRUE, b.get("t"));
    assertEquals(Boolean.FALSE, b.get("f"));
    assertNull(b.get("n"));
    assertEquals(List.of(), Json.array(root.get("e"), "e"));
  }

  @Test
  void malformedTextSaysWhatAndWhere() {
    assertEquals("it is not valid JSON: a member name (a string) was expected at line 3, column 16",
        assertThrows(IllegalArgumentException.class,
            () -> Json.parse("{\n  \"format\": \"packed4j-manifest\",\n  \"version\": 1,,\n}")).getMessage());
    assertEquals("it is not valid JSON: the member \"a\" appears twice at line 1, column 10",
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1, \"a\": 2}")).getMessage());
    assertEquals("it is not valid JSON: only integers are expected in a manifest at line 1, column 2",
        assertThrows(IllegalArgumentException.class, () -> Json.parse("1.5")).getMessage());
    assertEquals("it is not valid JSON: unexpected text after the JSON value at line 1, column 4",
        assertThrows(IllegalArgumentException.class, () -> Json.parse("[] x")).getMessage());
    assertEquals("it is not valid JSON: a string is not closed at line 1, column 4",
        assertThrows(IllegalArgumentException.class, () -> Json.parse("\"ab")).getMessage());
  }

  @Test
  void nestingIsBoundedInsteadOfOverflowingTheStack() {
    String deepest = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
    Object value = Json.parse(deepest);
    int depth = 0;
    while (value instanceof List<?> list) {
      depth++;
      value = list.isEmpty() ? null : list.get(0);
    }
    assertEquals(Json.MAX_DEPTH, depth);
    // One level more, or ten thousand, is refused where it starts: the 257th bracket.
    for (int levels : new int[] {Json.MAX_DEPTH + 1, 10_000}) {
      String text = "[".repeat(levels) + "]".repeat(levels);
      assertEquals("it nests arrays and objects more than 256 levels deep at line 1, column 257, deeper than packed4j"
              + " reads (a manifest nests six): it is not a manifest packed4j describe wrote",
          assertThrows(IllegalArgumentException.class, () -> Json.parse(text)).getMessage());
    }
    String objects = "{\"a\": ".repeat(10_000) + "1" + "}".repeat(10_000);
    assertThrows(IllegalArgumentException.class, () -> Json.parse(objects));
  }

  @Test
  void theAccessorsNameWhatIsMissing() {
    assertEquals("globals is missing or not a JSON array",
        assertThrows(IllegalArgumentException.class, () -> Json.array(null, "globals")).getMessage());
    assertEquals("a global's name is missing or not a JSON string",
        assertThrows(IllegalArgumentException.class, () -> Json.string(1L, "a global's name")).getMessage());
    assertEquals("the manifest is missing or not a JSON object",
        assertThrows(IllegalArgumentException.class, () -> Json.object(List.of(), "the manifest")).getMessage());
  }

  @Test
  void quotedStringsReadBackAsThemselves() {
    assertEquals("\"a\\u0001\\n\\\"\\\\\"", Json.quote("a\u0001\n\"\\"));
    for (String text : List.of("", "plain", "tab\there", "caf\u00e9 \u2603", "\u0000\u001f", "a/b")) {
      assertEquals(text, Json.parse(Json.quote(text)));
    }
  }
}
