package dev.packed4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;
import static dev.packed4j.processor.Compilations.source;

import javax.tools.JavaFileObject;

/** {@code P4J-FIELD-*}: the {@code @Field} annotation's value and placement. */
class FieldDiagnosticsTest {

  @Compilers
  void malformedFieldNameIsReportedOnTheStringLiteral() {
    JavaFileObject node =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface NodeRef {
              @Field("unsigned-big") long unsignedBig();
            }
            """);
    assertThat(compile(node))
        .hadErrorContaining(
            "[P4J-FIELD-NAME] \"unsigned-big\" is not a valid field name: it contains '-' at index 8. A field name is"
                + " the name VisitAttrs passes to AttrVisitor::Visit, a C++ identifier [A-Za-z_][A-Za-z0-9_]*, for"
                + " example \"price\". Did you mean \"unsigned_big\"?")
        .inFile(node)
        .onLine(6)
        .atColumn(10);
  }

  @Compilers
  void dottedFieldNameIsReported() {
    JavaFileObject node =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface NodeRef {
              @Field("child.name") String childName();
            }
            """);
    assertThat(compile(node))
        .hadErrorContaining(
            "[P4J-FIELD-NAME] \"child.name\" is not a valid field name: it contains a dot at index 5, and a field"
                + " name is a single identifier")
        .inFile(node)
        .onLineContaining("child.name");
  }

  @Compilers
  void fieldOutsideAnObjectInterfaceIsReported() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.Price") @Field("price") long price();
            }
            """);
    assertThat(compile(calculator))
        .hadErrorContaining(
            "[P4J-FIELD-PLACEMENT] @Field on Calculator.price() has no effect: interface Calculator is not an"
                + " @Object interface")
        .inFile(calculator)
        .onLine(5)
        .atColumn(31);
  }

  @Compilers
  void fieldOnADefaultMethodIsReported() {
    JavaFileObject node =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface NodeRef {
              long price();
              @Field("price") default long doubled() { return 2 * price(); }
            }
            """);
    assertThat(compile(node))
        .hadErrorContaining(
            "[P4J-FIELD-PLACEMENT] @Field on NodeRef.doubled() has no effect: it is a default method, which computes"
                + " its value in Java")
        .inFile(node)
        .onLineContaining("doubled");
  }

  @Compilers
  void fieldRepeatingTheMethodNameIsAWarning() {
    JavaFileObject node =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface NodeRef {
              @Field("price") long price();
            }
            """);
    assertThat(compile(node))
        .hadWarningContaining(
            "[P4J-FIELD-REDUNDANT] @Field(\"price\") on NodeRef.price() repeats the method name, which is the field"
                + " name already. Remove the annotation")
        .inFile(node)
        .onLine(6)
        .atColumn(10);
  }

  @Compilers
  void fieldRepeatingTheNameOfASetterIsAWarningBesideItsGetterOnly() {
    // Beside the getter price(), the name alone makes price(long) the setter: the annotation adds nothing.
    JavaFileObject node =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface NodeRef {
              long price();
              @Field("price") void price(long price);
            }
            """);
    assertThat(compile(node))
        .hadWarningContaining(
            "[P4J-FIELD-REDUNDANT] @Field(\"price\") on NodeRef.price(long) repeats the method name, which is the"
                + " field name already. Remove the annotation")
        .inFile(node)
        .onLine(7)
        .atColumn(10);
    // Without the getter, the annotation is what makes it a setter rather than a method: no warning.
    JavaFileObject setterOnly =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface NodeRef {
              @Field("price") void price(long price);
            }
            """);
    assertThat(compile(setterOnly)).succeededWithoutWarnings();
    // Beside a getter renamed to another field, it keeps the setter on its own field: removing it would not.
    JavaFileObject renamedGetter =
        source(
            "p.NodeRef",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            @Object("test.Node")
            public interface NodeRef {
              @Field("cost") long price();
              @Field("price") void price(long price);
            }
            """);
    assertThat(compile(renamedGetter)).succeededWithoutWarnings();
  }
}
