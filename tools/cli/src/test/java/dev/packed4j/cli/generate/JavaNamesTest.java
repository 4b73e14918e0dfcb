package dev.packed4j.cli.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The documented rule from registry names to Java identifiers (docs/guide.md, "Generating interfaces"). */
class JavaNamesTest {
  @Test
  void wordsSplitAtSeparatorsAndCamelHumps() {
    assertEquals(List.of("My", "Add"), JavaNames.words("MyAdd"));
    assertEquals(List.of("URL", "Parse"), JavaNames.words("URLParse"));
    assertEquals(List.of("sum", "list"), JavaNames.words("sum_list"));
    assertEquals(List.of("Sum", "Int64", "List"), JavaNames.words("SumInt64List"));
    assertEquals(List.of("a", "b", "c"), JavaNames.words("a-b.c"));
    assertEquals(List.of(), JavaNames.words("__"));
  }

  @Test
  void methodsAreLowerCamelCase() {
    assertEquals("myAdd", JavaNames.method("MyAdd"));
    assertEquals("urlParse", JavaNames.method("URLParse"));
    assertEquals("getHTTPCode", JavaNames.method("get_HTTPCode"));
    assertEquals("sumInt64List", JavaNames.method("SumInt64List"));
    assertEquals("unsignedBig", JavaNames.method("unsigned_big"));
  }

  @Test
  void typesAreUpperCamelCase() {
    assertEquals("Calculator", JavaNames.type("calculator"));
    assertEquals("TensorOps", JavaNames.type("tensor_ops"));
    assertEquals("TestLate", JavaNames.type("test.late"));
    assertEquals("Globals", JavaNames.type(""));
  }

  @Test
  void keywordsObjectMethodsAndDigitsAreMadeLegal() {
    assertEquals("new_", JavaNames.method("New"));
    assertEquals("class_", JavaNames.method("class"));
    assertEquals("true_", JavaNames.method("TRUE"));
    assertEquals("toString_", JavaNames.method("ToString"));
    assertEquals("hashCode_", JavaNames.method("hash_code"));
    assertEquals("_2dConv", JavaNames.method("2dConv"));
    assertEquals("_3d", JavaNames.type("3d"));
    assertEquals("function", JavaNames.method("--"));
  }

  @Test
  void lettersAndDigitsOfEveryScriptStayInTheirWords() {
    // Once split at every non-ASCII letter: odd.ünïcödé became nCD.
    assertEquals(List.of("ünïcödé"), JavaNames.words("ünïcödé"));
    assertEquals("ünïcödé", JavaNames.method("ünïcödé"));
    assertEquals(List.of("größe", "Max"), JavaNames.words("größeMax"));
    assertEquals("größeMax", JavaNames.method("größe_max"));
    assertEquals("Übersicht", JavaNames.type("übersicht"));
    assertEquals("计算", JavaNames.method("计算"));
    assertEquals("𝑥Value", JavaNames.method("𝑥_value")); // a letter outside the BMP, two chars
    assertEquals("_٣d", JavaNames.method("٣d")); // an Arabic-Indic digit cannot start an identifier
    assertEquals("function", JavaNames.method("→·←")); // symbols are not letters
    // Marks belong to their letters: a virama split नमस्ते into two words, a combining diaeresis ü into u and ber.
    assertEquals(List.of("नमस्ते"), JavaNames.words("नमस्ते"));
    assertEquals("u\u0308ber", JavaNames.method("u\u0308ber"));
    assertEquals("ⅻMonths", JavaNames.method("Ⅻ_months")); // a letter number, lower-cased as a first word
  }

  @Test
  void typeNamesAreCappedForTheirClassFiles() {
    String type = JavaNames.type("very_long_".repeat(30));
    assertEquals(JavaNames.MAX_TYPE_NAME, type.length());
    assertTrue(type.startsWith("VeryLongVeryLong"), type);
    // The cap is in bytes of the file name: 21 CJK characters are 63 of them; a surrogate pair is never split.
    assertEquals("计".repeat(21), JavaNames.type("计".repeat(40)));
    String astral = JavaNames.type("a" + "𝑥".repeat(40));
    assertFalse(Character.isHighSurrogate(astral.charAt(astral.length() - 1)), astral);
    assertTrue(astral.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= JavaNames.MAX_TYPE_NAME, astral);
    assertEquals("A" + "𝑥".repeat(15), astral); // 1 + 15 x 4 = 61 bytes; one more would be 65
  }

  @Test
  void packageNamesAreChecked() {
    assertTrue(JavaNames.isPackageName("com.example.calculator"));
    assertFalse(JavaNames.isPackageName("com.example.new"));
    assertFalse(JavaNames.isPackageName("com..example"));
    assertFalse(JavaNames.isPackageName("1com"));
    assertFalse(JavaNames.isPackageName(""));
  }
}
