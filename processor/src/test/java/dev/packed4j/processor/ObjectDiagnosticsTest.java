package dev.packed4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;
import static dev.packed4j.processor.Compilations.source;

import com.google.testing.compile.Compilation;
import javax.tools.JavaFileObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code P4J-OBJECT-*} and {@code P4J-FIELD-TYPE} diagnostics of {@code @Object} types. */
class ObjectDiagnosticsTest {

  private static JavaFileObject objectWith(String members) {
    return source(
        "p.NodeRef",
        """
        package p;
        import dev.packed4j.annotations.Field;
        import dev.packed4j.annotations.Object;
        import dev.packed4j.runtime.NDArray;
        import dev.packed4j.runtime.NativeObject;
        import dev.packed4j.runtime.PackedFunction;
        import java.util.List;
        import java.util.Optional;
        @Object("test.Node")
        public interface NodeRef extends AutoCloseable {
          %s
        }
        """
            .formatted(members));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"class, abstract class", "enum, enum", "record, record"})
  void objectOnATypeOtherThanAnInterfaceIsReported(String kind, String declaration) {
    TestCompiler.underEach(
        () -> {
          String body = kind.equals("record") ? "(long price) {}" : kind.equals("enum") ? "{ ONE }" : "{}";
          JavaFileObject node =
              source(
                  "p.Node",
                  """
                  package p;
                  import dev.packed4j.annotations.Object;
                  @Object("test.Node")
                  public %s Node %s
                  """
                      .formatted(declaration, body));
          String message =
              "[P4J-OBJECT-NOT-INTERFACE] @Object is on the " + kind + " Node: packed4j generates an ObjectRef"
                  + " subclass that implements the annotated type, so it must be an interface";
          if (kind.equals("record") && TestCompiler.current() == TestCompiler.ECJ) {
            // ECJ's Messager places no message on a record (its BaseMessagerImpl has no case for RECORD, as of
            // 3.44): the error is reported, without a file and line.
            assertThat(compile(node)).hadErrorContaining(message);
            return;
          }
          assertThat(compile(node))
              .hadErrorContaining(message)
              .inFile(node)
              .onLineContaining("@Object(\"test.Node\")");
        });
  }

  @Compilers
  void malformedTypeKeyIsReportedOnTheStringLiteral() {
    JavaFileObject node =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("test.Node.")
            public interface NodeRef {
              long id();
            }
            """);
    assertThat(compile(node))
        .hadErrorContaining(
            "[P4J-OBJECT-TYPE-KEY] \"test.Node.\" is not a valid type key: it ends with a dot. A type key is the C++"
                + " class's _type_key")
        .inFile(node)
        .onLine(3)
        .atColumn(9);
    assertThat(compile(node)).hadErrorContaining("Did you mean \"test.Node\"?");
  }

  @Compilers
  void duplicateTypeKeyIsReportedOnTheSecondInterface() {
    JavaFileObject first =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface NodeRef {
              long id();
            }
            """);
    JavaFileObject second =
        source(
            "p.OtherNodeRef",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface OtherNodeRef {
              String name();
            }
            """);
    Compilation compilation = compile(first, second);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-OBJECT-DUPLICATE-KEY] type key \"test.Node\" is declared twice: by p.OtherNodeRef, and already"
                + " by p.NodeRef. A native type has one Java view; extend NodeRef instead, or correct the key;"
                + " when packed4j generate wrote one of them, give generate the one you wrote as existing"
                + " (<existing><test.Node>your.Interface</test.Node></existing>, or --existing"
                + " test.Node=your.Interface) and generate again")
        .inFile(second)
        .onLine(3)
        .atColumn(9);
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void superInterfaceThatIsNotAnObjectInterfaceIsReported() {
    JavaFileObject node =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface NodeRef extends Comparable<NodeRef> {
              long id();
            }
            """);
    assertThat(compile(node))
        .hadErrorContaining(
            "[P4J-OBJECT-SUPERTYPE] @Object interface NodeRef extends Comparable<NodeRef>, which is not an @Object"
                + " interface")
        .inFile(node)
        .onLineContaining("interface NodeRef");
  }

  @Compilers
  void twoObjectParentsAreReported() {
    JavaFileObject types =
        source(
            "p.Types",
            """
            package p;
            import dev.packed4j.annotations.Object;
            public interface Types {
              @Object("test.A") interface A { long a(); }
              @Object("test.B") interface B { long b(); }
              @Object("test.C") interface C extends A, B { long c(); }
            }
            """);
    assertThat(compile(types))
        .hadErrorContaining(
            "[P4J-OBJECT-PARENTS] @Object interface Types.C extends the @Object interfaces Types.A and Types.B, but a"
                + " native object type has exactly one parent")
        .inFile(types)
        .onLineContaining("interface C");
  }

  @Compilers
  void fieldOnAMethodWithParametersIsReported() {
    JavaFileObject node = objectWith("@Field(\"child\") long child(int index, int more);");
    assertThat(compile(node))
        .hadErrorContaining(
            "[P4J-OBJECT-GETTER-PARAMETERS] NodeRef.child(int,int) carries @Field but is neither a getter (no"
                + " parameters) nor a setter (one parameter, returning void)")
        .inFile(node)
        .onLineContaining("@Field(\"child\") long child");
  }

  @Compilers
  void voidMethodIsNotAGetter() {
    JavaFileObject node = objectWith("void touch();");
    assertThat(compile(node))
        .hadErrorContaining("[P4J-OBJECT-NOT-GETTER] NodeRef.touch() is not a getter: it returns void.")
        .inFile(node)
        .onLineContaining("void touch();");
  }

  @Compilers
  void genericMethodIsNotAGetter() {
    JavaFileObject node = objectWith("<T> T value();");
    assertThat(compile(node))
        .hadErrorContaining(
            "[P4J-OBJECT-NOT-GETTER] NodeRef.value() is not a getter: it declares the type parameters <T>.")
        .inFile(node)
        .onLineContaining("<T> T value();");
  }

  @Compilers
  void getterClashingWithObjectRefIsReported() {
    JavaFileObject node = objectWith("int typeKey();");
    assertThat(compile(node))
        .hadErrorContaining(
            "[P4J-OBJECT-RESERVED] typeKey() returning int clashes with String typeKey(), which ObjectRef provides."
                + " Rename the getter and keep the native name with @Field(\"typeKey\")")
        .inFile(node)
        .onLineContaining("int typeKey();");
  }

  @Compilers
  void getterClashingWithAFinalMethodOfObjectRefIsReported() {
    JavaFileObject node = objectWith("int handle();");
    assertThat(compile(node))
        .hadErrorContaining(
            "[P4J-OBJECT-RESERVED] handle() returning int clashes with long handle(), which ObjectRef provides.")
        .inFile(node)
        .onLineContaining("int handle();");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          float      | native floating-point fields are float64; read them as double
          short      | native integer fields are int32 or int64; read them as int or long
          Long       | a field always has a value, so read it as the primitive long
          byte[]     | a native field holds bytes only as a Bytes object, which a field accessor takes as NativeObject
          Optional<Long> | a native field is never optional<T> (reflection records no std::optional field)
          PackedFunction | a function field is an object field: read it as NativeObject
          Runnable   | a function field is an object field: read it as NativeObject
          java.lang.Object | an any field is an object field: read it as NativeObject
          char       | char has no wire type
          float[]    | a native field never holds a Java array: read a tensor (NDArray) field as NDArray, or a list field as List<Double>
          long[][]   | a native field never holds a Java array: read a tensor (NDArray) field as NDArray, or a list field as List<List<Long>>
          char[]     | a native field never holds a Java array: read a tensor (NDArray) field as NDArray, or a string field as String
          List<float[]> | float[] crosses only as a parameter of its own (copied into a 1-D NDArray); in List<float[]> declare List<NDArray>
          """)
  void unsupportedFieldTypeSaysWhy(String type, String reason) {
    TestCompiler.underEach(
        () -> {
          JavaFileObject node = objectWith(type + " value();");
          Compilation compilation = compile(node);
          assertThat(compilation)
              .hadErrorContaining(
                  "[P4J-FIELD-TYPE] " + type.replace("java.lang.", "")
                      + " is not a supported type for the field getter NodeRef.value(): "
                      + reason)
              .inFile(node)
              .onLineContaining(type + " value();");
          assertThat(compilation)
              .hadErrorContaining(
                  "A getter reads the field in place, so it can be int, long, double, boolean, String, an @Object"
                      + " interface, NativeObject, NDArray, or a List<E> or Map<K, V> (or NativeList, NativeMap) of"
                      + " the elements a @Global result takes");
        });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          PackedFunction | a function field is an object field: write it as NativeObject
          java.lang.Object | an any field is an object field: write it as NativeObject
          float[]    | a native field never holds a Java array: write a tensor (NDArray) field as NDArray, or a list field as List<Double>
          """)
  void unsupportedSetterTypeSaysWhyInTheWordsOfASetter(String type, String reason) {
    TestCompiler.underEach(
        () -> {
          JavaFileObject node = objectWith("NativeObject value();\n  void value(" + type + " value);");
          assertThat(compile(node))
              .hadErrorContaining(
                  "[P4J-SETTER-TYPE] " + type.replace("java.lang.", "") + " is not a supported type for the setter"
                      + " NodeRef.value(" + type.replace("java.lang.", "") + "): " + reason
                      + ". A setter writes the field in place")
              .inFile(node)
              .onLineContaining("void value(" + type + " value);");
        });
  }

  @Compilers
  void arrayGetterOfATensorFieldIsReportedWithTheTypesAFieldTakes() {
    JavaFileObject node = objectWith("float[] pixels();");
    Compilation compilation = compile(node);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-FIELD-TYPE] float[] is not a supported type for the field getter NodeRef.pixels(): a native field"
                + " never holds a Java array: read a tensor (NDArray) field as NDArray, or a list field as"
                + " List<Double>")
        .inFile(node)
        .onLine(11)
        .atColumn(11);
    assertThat(compilation).hadErrorCount(1);
  }

  /** The types the array field diagnostics above suggest are ones a getter and a setter take. */
  @Compilers
  void typesTheArrayFieldDiagnosticsSuggestAreAccepted() {
    JavaFileObject node =
        objectWith(
            """
            NativeObject pixels();
              void pixels(NativeObject pixels);
              NDArray scan();
              void scan(NDArray scan);
              List<Double> weights();
              void weights(List<Double> weights);
              List<List<Long>> grid();
              String label();
              List<NDArray> layers();
            """);
    Compilation compilation = compile(node);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadErrorCount(0);
  }

  @Compilers
  void fieldOfAnInterfaceWithoutObjectIsReported() {
    JavaFileObject node = objectWith("Runnable task(); Parent parent();");
    JavaFileObject parent =
        source(
            "p.Parent",
            """
            package p;
            public interface Parent {}
            """);
    assertThat(compile(node, parent))
        .hadErrorContaining(
            "[P4J-TYPE-NOT-OBJECT] Parent is not annotated @Object, so it cannot cross the boundary in"
                + " NodeRef.parent()")
        .inFile(node)
        .onLineContaining("Parent parent();");
  }
}
