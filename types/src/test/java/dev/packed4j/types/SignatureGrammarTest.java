package dev.packed4j.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The one parser and printer of the signature grammar: every form C++ SignatureOf prints reads back as itself. */
class SignatureGrammarTest {

  /** Every form TypeTraits<T>::TypeName() produces in native-core/include/packed4j/. */
  @ParameterizedTest
  @ValueSource(strings = {
      "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
      "string", "bytes", "void", "any", "function", "opaque pointer", "NDArray", "Object", "Calculator",
      "test.Shape", "list<int64>", "list<list<string>>", "map<string, int64>", "map<int64, list<Calculator>>",
      "optional<string>", "optional<map<string, list<optional<float64>>>>", "list<NDArray>", "map<string, any>",
      "list<function>", "optional<opaque pointer>"})
  void typesRoundTrip(String text) {
    NativeType type = NativeType.parse(text);
    assertEquals(text, type.toString());
    assertEquals(type, NativeType.parse(type.toString()));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "() -> void", "() -> int64", "(int64) -> int64", "(int64, list<string>) -> map<string, Calculator>",
      "(map<string, list<int64>>, optional<bytes>) -> optional<Calculator>", "(function, any) -> function",
      "(NDArray, NDArray) -> NDArray", "(float32, bool, string, uint64) -> bool", "(opaque pointer) -> void"})
  void signaturesRoundTrip(String text) {
    Signature signature = Signature.parse(text);
    assertEquals(text, signature.toString());
    assertEquals(signature, Signature.parse(signature.toString()));
  }

  @Test
  void treeOfAMap() {
    NativeType type = NativeType.parse("map<string, list<int64>>");
    assertEquals(NativeType.Kind.MAP, type.kind());
    assertEquals(NativeType.mapOf(NativeType.of("string"), NativeType.listOf(NativeType.of("int64"))), type);
    Signature signature = Signature.parse("(int64, list<string>) -> map<string, Calculator>");
    assertEquals(List.of(NativeType.of("int64"), NativeType.listOf(NativeType.of("string"))),
        signature.parameters());
    assertEquals(NativeType.Kind.OBJECT, signature.result().arguments().get(1).kind());
  }

  @Test
  void spacesAroundPunctuationAreRead() {
    assertEquals("map<string, list<int64>>", NativeType.parse(" map < string ,list<int64 > > ").toString());
  }

  @Test
  void kinds() {
    assertTrue(NativeType.parse("uint64").isInteger());
    assertTrue(NativeType.parse("float32").isFloat());
    assertTrue(NativeType.parse("bool").isScalar());
    assertFalse(NativeType.parse("string").isScalar());
    assertTrue(NativeType.parse("Calculator").isObjectKey());
    assertTrue(NativeType.parse("NDArray").isObjectKey());
    assertTrue(NativeType.parse("NDArray").isTensor());
    assertFalse(NativeType.parse("opaque pointer").isObjectKey());
    assertEquals(NativeType.Kind.OPAQUE_POINTER, NativeType.parse("opaque pointer").kind());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "list<int64", "list<>", "int64>", "map<string>", "list<int64, int64>",
      "Calculator<int64>", "list<int64>>", "a,b", "map<string, list<int64>", "(int64)"})
  void malformedTypesAreRefusedNamingTheText(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NativeType.parse(text));
    assertTrue(e.getMessage().contains("is not a type name"), e.getMessage());
  }

  @Test
  void aTypeTakesTheArgumentsItsNameTakes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NativeType.parse("list<int64, int64>"));
    assertEquals("\"list<int64, int64>\" is not a type name: list takes 1 type argument", e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"int64 -> int64", "(int64) int64", "(int64, ) -> int64", "(int64) -> ", "(list<) -> void"})
  void malformedSignaturesAreRefusedNamingTheText(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Signature.parse(text));
    assertTrue(e.getMessage().startsWith("'" + text + "' is not a signature such as (int64, int64) -> int64"),
        e.getMessage());
  }

  @Test
  void parameterListsSplitAtTopLevelCommasOnly() {
    assertEquals(List.of(NativeType.of("int64"), NativeType.parse("map<string, list<int64>>"), NativeType.of("bool")),
        NativeType.parseList("int64, map<string, list<int64>>, bool"));
    assertEquals(List.of(), NativeType.parseList(" "));
  }
}
