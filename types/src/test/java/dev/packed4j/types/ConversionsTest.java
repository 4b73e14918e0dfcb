package dev.packed4j.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.types.JavaType.PrimitiveKind;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The conversion table, its functional-interface rule, its narrowing rule and the Java-to-native printer. */
class ConversionsTest {
  /** Shape <- Circle, Shape <- Square; Other unrelated. */
  private static final Map<String, String> PARENTS = Map.of("Circle", "Shape", "Square", "Shape", "Shape", "Object",
      "Other", "Object");
  private static final ObjectHierarchy OBJECTS = new ObjectHierarchy() {
    @Override
    public boolean isRegistered(String key) {
      return PARENTS.containsKey(key) || key.equals("Object");
    }

    @Override
    public boolean derivesFrom(String key, String ancestor) {
      for (String k = key; k != null; k = PARENTS.get(k)) {
        if (k.equals(ancestor)) {
          return true;
        }
      }
      return false;
    }
  };
  private final Conversions table = new Conversions(OBJECTS);

  private static JavaType p(PrimitiveKind kind) {
    return new JavaType.Primitive(kind);
  }

  private static NativeType n(String text) {
    return NativeType.parse(text);
  }

  @Test
  void anOptionalArgumentNeedsAParameterThatTakesNone() {
    JavaType optionalLong = new JavaType.OptionalOf(new JavaType.Boxed(PrimitiveKind.LONG));
    assertEquals(Optional.of("the native side takes int64, never None (it is not optional<int64>), so an empty"
        + " Optional always fails"), table.argument(optionalLong, n("int64")));
    assertEquals(Optional.empty(), table.argument(optionalLong, n("optional<int64>")));
    assertEquals(Optional.empty(), table.argument(optionalLong, n("any")));
    assertEquals(Optional.empty(), table.argument(new JavaType.OptionalOf(new JavaType.NativeObject()), n("Object")));
    // The element is checked first; a result may be Optional of a plain one, which is then never empty.
    assertEquals(Optional.of("the native side takes a string"), table.argument(optionalLong, n("string")));
    assertEquals(Optional.empty(), table.result(optionalLong, n("int64")));
  }

  @Test
  void anOptionalResultNeedsAJavaTypeThatHoldsNone() {
    assertEquals(Optional.of("the native side may return None, which a long cannot hold"),
        table.result(p(PrimitiveKind.LONG), n("optional<int64>")));
    assertEquals(Optional.of("the native side may return None, which an int cannot hold"),
        table.result(p(PrimitiveKind.INT), n("optional<int32>")));
    assertEquals(Optional.of("the native side may return None, which a double cannot hold"),
        table.result(p(PrimitiveKind.DOUBLE), n("optional<float64>")));
    assertEquals(Optional.of("the native side may return None, which a boolean cannot hold"),
        table.result(p(PrimitiveKind.BOOLEAN), n("optional<bool>")));
    for (PrimitiveKind kind : PrimitiveKind.values()) {
      NativeType optional = n("optional<" + kind.nativeType() + ">");
      String name = kind.name().toLowerCase(Locale.ROOT);
      assertTrue(table.result(p(kind), optional).orElseThrow().endsWith(" " + name + " cannot hold"), name);
      assertEquals(Optional.empty(), table.result(new JavaType.Boxed(kind), optional), name);
      assertFalse(Conversions.holdsNone(p(kind)), name);
    }
    assertEquals(Optional.empty(),
        table.result(new JavaType.OptionalOf(new JavaType.Boxed(PrimitiveKind.LONG)), n("optional<int64>")));
    // Every reference type receives None as null (README "Type mapping"), Object and Optional included.
    List<JavaType> references = List.of(new JavaType.Text(), new JavaType.Bytes(), new JavaType.Any(),
        new JavaType.ObjectInterface("Circle"), new JavaType.NativeObject(), new JavaType.PackedFunction(),
        new JavaType.Functional("LongUnaryOperator"),
        new JavaType.ListOf(new JavaType.Text()), new JavaType.MapOf(new JavaType.Text(), new JavaType.Text()));
    for (JavaType reference : references) {
      assertTrue(Conversions.holdsNone(reference), reference.toString());
    }
    assertEquals(Optional.empty(), table.result(new JavaType.Text(), n("optional<string>")));
    assertEquals(Optional.empty(), table.result(new JavaType.ObjectInterface("Circle"), n("optional<Shape>")));
    assertEquals(Optional.empty(), table.result(new JavaType.ListOf(new JavaType.Boxed(PrimitiveKind.LONG)),
        n("optional<list<int64>>")));
    // The element is checked first: a long cannot read a string, None or not.
    assertEquals(Optional.of("the native side returns a string"), table.result(p(PrimitiveKind.LONG),
        n("optional<string>")));
    // A plain result is never None; an optional parameter takes what its element takes.
    assertEquals(Optional.empty(), table.result(p(PrimitiveKind.LONG), n("int64")));
    assertEquals(Optional.empty(), table.argument(p(PrimitiveKind.LONG), n("optional<int64>")));
  }

  @Test
  void scalars() {
    assertEquals(Optional.empty(), table.argument(p(PrimitiveKind.INT), n("uint64")));
    assertEquals(Optional.empty(), table.argument(p(PrimitiveKind.INT), n("float64")));
    assertEquals(Optional.of("a floating-point value never converts to an integer"),
        table.argument(p(PrimitiveKind.DOUBLE), n("int64")));
    assertEquals(Optional.empty(), table.result(p(PrimitiveKind.DOUBLE), n("int64")));
    assertEquals(Optional.of("a floating-point result never converts to an integer"),
        table.result(p(PrimitiveKind.LONG), n("float64")));
    assertEquals(Optional.of("the native side takes a bool"), table.argument(p(PrimitiveKind.INT), n("bool")));
    assertEquals(Optional.of("the native side returns a string"), table.result(new JavaType.Bytes(), n("string")));
  }

  @Test
  void voidResults() {
    assertEquals(Optional.empty(), table.result(new JavaType.Void(), n("int64")));
    assertEquals(Optional.empty(), table.result(new JavaType.OptionalOf(new JavaType.Text()), NativeType.VOID));
    assertEquals(Optional.of("the function returns nothing"), table.result(p(PrimitiveKind.INT), NativeType.VOID));
  }

  @Test
  void containersElementByElement() {
    JavaType longs = new JavaType.ListOf(new JavaType.Boxed(PrimitiveKind.LONG));
    assertEquals(Optional.empty(), table.argument(longs, n("list<int32>")));
    assertEquals(Optional.of("its elements: the native side takes a string"),
        table.argument(longs, n("list<string>")));
    JavaType map = new JavaType.MapOf(new JavaType.Text(), longs);
    assertEquals(Optional.of("its keys: the native side returns an integer"),
        table.result(map, n("map<int64, list<int64>>")));
    assertEquals(Optional.of("its values: its elements: the native side returns a string"),
        table.result(map, n("map<string, list<string>>")));
    assertEquals(Optional.empty(), table.argument(new JavaType.Text(), n("optional<string>")));
    assertEquals(Optional.empty(), table.argument(new JavaType.Any(), n("list<string>")));
  }

  @Test
  void objectsMeetWhenOneDerivesFromTheOther() {
    assertEquals(Optional.empty(), table.argument(new JavaType.ObjectInterface("Circle"), n("Shape")));
    assertEquals(Optional.empty(), table.result(new JavaType.ObjectInterface("Circle"), n("Shape")));
    assertEquals(Optional.of("the native types Circle and Square are unrelated (neither derives from the other)"),
        table.argument(new JavaType.ObjectInterface("Circle"), n("Square")));
    assertEquals(Optional.empty(), table.argument(new JavaType.ObjectInterface("Unknown"), n("Square")));
    assertEquals(Optional.empty(), table.argument(new JavaType.Text(), n("Object")));
    assertEquals(Optional.of("the native side returns an object of type Object"),
        table.result(new JavaType.Text(), n("Object")));
    assertEquals(Optional.empty(), table.argument(new JavaType.NumericArray(PrimitiveKind.FLOAT), n("NDArray")));
    assertEquals(Optional.of("the native side takes an object of type Shape"),
        table.argument(new JavaType.Tensor(), n("Shape")));
  }

  @Test
  void functions() {
    assertEquals(Optional.empty(), table.argument(new JavaType.Functional("LongUnaryOperator"), n("function")));
    assertEquals(Optional.empty(), table.result(new JavaType.PackedFunction(), n("function")));
    assertEquals(Optional.of("the native side takes a function"),
        table.argument(new JavaType.Unsupported("Foo"), n("function")));
    assertTrue(JavaType.isFunctionalInterface(true, "com.example", 1));
    assertTrue(JavaType.isFunctionalInterface(false, "java.util.function", 1));
    assertFalse(JavaType.isFunctionalInterface(false, "com.example", 1));
    assertFalse(JavaType.isFunctionalInterface(false, "java.util", 2));
  }

  @Test
  void fields() {
    assertEquals(Optional.of("an int getter reads an int32 field; read it as long"),
        table.field(p(PrimitiveKind.INT), n("int64")));
    assertEquals(Optional.empty(), table.field(p(PrimitiveKind.LONG), n("uint64")));
    assertEquals(Optional.of("a double getter reads a float64 field"),
        table.field(p(PrimitiveKind.DOUBLE), n("float32")));
    assertEquals("long", Conversions.fieldJavaTypeFor(n("uint64")));
  }

  @Test
  void setterFieldsWidenAndSpeakOfWriting() {
    assertEquals(Optional.empty(), table.setterField(p(PrimitiveKind.INT), n("int64")));
    assertEquals(Optional.empty(), table.setterField(p(PrimitiveKind.INT), n("int32")));
    assertEquals(Optional.empty(), table.setterField(p(PrimitiveKind.LONG), n("int32")));
    assertEquals(Optional.of("an int setter writes an int32, int64 or uint64 field"),
        table.setterField(p(PrimitiveKind.INT), n("float64")));
    assertEquals(Optional.of("a double setter writes a float64 field"),
        table.setterField(p(PrimitiveKind.DOUBLE), n("int64")));
    assertEquals(Optional.of("a String setter writes a string field"),
        table.setterField(new JavaType.Text(), n("int32")));
    assertEquals("NativeObject", Conversions.fieldJavaTypeFor(n("Object")));
  }

  @Test
  void containerGettersReadTheirElementsAsAResultWould() {
    JavaType strings = new JavaType.ListOf(new JavaType.Text());
    JavaType ints = new JavaType.ListOf(new JavaType.Boxed(PrimitiveKind.INT));
    assertEquals(Optional.empty(), table.field(strings, n("list<string>")));
    // A result narrows an int64 element to an Integer, range-checked when it runs.
    assertEquals(Optional.empty(), table.field(ints, n("list<int64>")));
    assertEquals(Optional.of("its elements: the native side returns an integer"),
        table.field(strings, n("list<int64>")));
    assertEquals(Optional.empty(),
        table.field(new JavaType.ListOf(new JavaType.Boxed(PrimitiveKind.DOUBLE)), n("list<int64>")));
    JavaType counts = new JavaType.MapOf(new JavaType.Text(), new JavaType.Boxed(PrimitiveKind.LONG));
    assertEquals(Optional.empty(), table.field(counts, n("map<string, int64>")));
    assertEquals(Optional.of("its values: the native side returns a string"),
        table.field(counts, n("map<string, string>")));
    assertEquals(Optional.empty(), table.field(new JavaType.ListOf(new JavaType.ObjectInterface("Circle")),
        n("list<Shape>")));
    assertEquals(Optional.of("its elements: the native types Circle and Other are unrelated (neither derives from the"
        + " other)"), table.field(new JavaType.ListOf(new JavaType.ObjectInterface("Circle")), n("list<Other>")));
  }

  @Test
  void containerGettersNeedAContainerFieldOfTheirKind() {
    JavaType strings = new JavaType.ListOf(new JavaType.Text());
    assertEquals(Optional.of("a List getter reads a list field"), table.field(strings, n("string")));
    assertEquals(Optional.of("a List getter reads a list field"), table.field(strings, n("map<string, string>")));
    assertEquals(Optional.of("a Map setter writes a map field"),
        table.setterField(new JavaType.MapOf(new JavaType.Text(), new JavaType.Text()), n("list<string>")));
    assertEquals(Optional.of("a List getter reads a list field"), table.field(strings, n("Shape")));
    assertEquals(Optional.of("an object getter reads an object field, not a list"),
        table.field(new JavaType.ObjectInterface("Shape"), n("list<Shape>")));
  }

  @Test
  void containerSettersWriteTheirElementsAsAnArgumentWould() {
    JavaType longs = new JavaType.ListOf(new JavaType.Boxed(PrimitiveKind.LONG));
    assertEquals(Optional.empty(), table.setterField(longs, n("list<int32>")));
    // An argument never converts a float to an integer; a result may (a getter of the same types is refused).
    JavaType doubles = new JavaType.ListOf(new JavaType.Boxed(PrimitiveKind.DOUBLE));
    assertEquals(Optional.of("its elements: a floating-point value never converts to an integer"),
        table.setterField(doubles, n("list<int64>")));
    assertEquals(Optional.empty(), table.setterField(longs, n("list<float64>")));
    assertEquals(Optional.of("its elements: a floating-point result never converts to an integer"),
        table.field(longs, n("list<float64>")));
    assertEquals(Optional.of("its keys: the native side takes a string"),
        table.setterField(new JavaType.MapOf(new JavaType.Boxed(PrimitiveKind.LONG), longs),
            n("map<string, list<int64>>")));
  }

  @Test
  void aContainerFieldOfALibraryBeforeAbi210HasNoElementTypes() {
    assertEquals(Optional.of("the library records no element type for this List field (it was built before"
        + " packed4j's native ABI 2.10, which records list<T> and map<K, V>); rebuild it against packed4j's current"
        + " native-core, or read the field as NativeObject"),
        table.field(new JavaType.ListOf(new JavaType.Text()), n("List")));
    assertEquals(Optional.of("the library records no element type for this Map field (it was built before"
        + " packed4j's native ABI 2.10, which records list<T> and map<K, V>); rebuild it against packed4j's current"
        + " native-core, or write the field as NativeObject"),
        table.setterField(new JavaType.MapOf(new JavaType.Text(), new JavaType.Text()), n("Map")));
    assertEquals(Optional.of("a List getter reads a list field"),
        table.field(new JavaType.ListOf(new JavaType.Text()), n("Map")));
    assertEquals("NativeObject", Conversions.fieldJavaTypeFor(n("List")));
    assertEquals("NativeObject", Conversions.fieldJavaTypeFor(n("Map")));
  }

  @Test
  void aNativeObjectReadsAndWritesEveryObjectField() {
    JavaType object = new JavaType.NativeObject();
    for (String type : List.of("Object", "Shape", "List", "Map", "NDArray", "list<string>", "map<string, int64>",
        "function", "any", "bytes")) {
      assertEquals(Optional.empty(), table.field(object, n(type)), type);
      assertEquals(Optional.empty(), table.setterField(object, n(type)), type);
    }
    assertEquals(Optional.of("a NativeObject getter reads an object field"), table.field(object, n("string")));
    assertEquals(Optional.of("a NativeObject setter writes an object field"), table.setterField(object, n("int64")));
  }

  @Test
  void anNDArrayReadsAndWritesATensorField() {
    JavaType tensor = new JavaType.Tensor();
    assertEquals(Optional.empty(), table.field(tensor, n("NDArray")));
    assertEquals(Optional.empty(), table.setterField(tensor, n("NDArray")));
    // A field of the root type may hold a tensor: the value is checked when it runs, as for an @Object getter.
    assertEquals(Optional.empty(), table.field(tensor, n("Object")));
    assertEquals(Optional.empty(), table.setterField(tensor, n("Object")));
    for (String type : List.of("Shape", "list<float32>", "List", "function", "any", "bytes", "string", "int64",
        "float64")) {
      assertEquals(Optional.of("an NDArray getter reads a tensor (NDArray) field"), table.field(tensor, n(type)),
          type);
      assertEquals(Optional.of("an NDArray setter writes a tensor (NDArray) field"),
          table.setterField(tensor, n(type)), type);
    }
  }

  @Test
  void fieldTypesToDeclare() {
    assertEquals("List<String>", Conversions.fieldJavaTypeFor(n("list<string>")));
    assertEquals("Map<String, Long>", Conversions.fieldJavaTypeFor(n("map<string, int64>")));
    assertEquals("List<Integer>", Conversions.fieldJavaTypeFor(n("list<int32>")));
    assertEquals("NativeObject", Conversions.fieldJavaTypeFor(n("function")));
    assertEquals("NDArray", Conversions.fieldJavaTypeFor(n("NDArray")));
    assertEquals("an @Object(\"Shape\") interface", Conversions.fieldJavaTypeFor(n("Shape")));
  }

  @Test
  void javaTypesToDeclare() {
    assertEquals("Map<String, List<Long>>", Conversions.javaTypeFor(n("map<string, list<int64>>"), false));
    assertEquals("an @Object(\"Shape\") interface", Conversions.javaTypeFor(n("Shape"), false));
    assertEquals("Optional<Integer>", Conversions.javaTypeFor(n("optional<uint16>"), false));
    assertEquals("Object", Conversions.javaTypeFor(n("opaque pointer"), false));
  }

  @Test
  void anObjectInsideAContainerIsNamedAsItsInterfaceWithAClauseSayingWhichOne() {
    assertEquals("List<Thing>, where Thing is your @Object(\"odd.Thing\") interface",
        Conversions.javaTypeFor(n("list<odd.Thing>"), false));
    assertEquals("List<Thing>, where Thing is your @Object(\"odd.Thing\") interface",
        Conversions.fieldJavaTypeFor(n("list<odd.Thing>")));
    assertEquals("Map<Shape, List<Node>>, where Shape is your @Object(\"Shape\") interface and Node is your"
        + " @Object(\"test.Node\") interface", Conversions.javaTypeFor(n("map<Shape, list<test.Node>>"), false));
    assertEquals("List<NativeObject>", Conversions.javaTypeFor(n("list<Object>"), false));
  }

  @Test
  void javaTypesPrintTheirNativeSignature() {
    Signature signature = JavaType.signatureOf(
        List.of(p(PrimitiveKind.LONG), new JavaType.ListOf(new JavaType.Text()),
            new JavaType.Functional("LongUnaryOperator"), new JavaType.NumericArray(PrimitiveKind.FLOAT)),
        new JavaType.MapOf(new JavaType.Text(), new JavaType.ObjectInterface("Calculator")));
    assertEquals("(int64, list<string>, function, NDArray) -> map<string, Calculator>", signature.toString());
    assertEquals("() -> void", JavaType.signatureOf(List.of(), new JavaType.Void()).toString());
    assertThrows(IllegalStateException.class, () -> new JavaType.Unsupported("Foo").nativeType());
  }

  @Test
  void narrowing() {
    assertTrue(Narrowing.fitsInt(Integer.MIN_VALUE));
    assertFalse(Narrowing.fitsInt(1L << 31));
    assertFalse(Narrowing.fitsShort(40_000));
    assertFalse(Narrowing.fitsByte(128));
    assertTrue(Narrowing.fitsFloat(Float.MAX_VALUE));
    assertFalse(Narrowing.fitsFloat(1e39));
    assertTrue(Narrowing.fitsFloat(Double.POSITIVE_INFINITY));
    assertTrue(Narrowing.fitsFloat(Double.NaN));
    assertTrue(Narrowing.isExactDouble(1L << 53));
    assertFalse(Narrowing.isExactDouble((1L << 53) + 1));
    assertTrue(Narrowing.isExactDouble(Long.MIN_VALUE));
    assertFalse(Narrowing.isExactDouble(Long.MAX_VALUE));
  }
}
