package dev.packed4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;
import static dev.packed4j.processor.Compilations.source;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Objects as classes (issue 22): how the processor tells getters, setters and methods apart, the shapes it rejects
 * on {@code @Object} interfaces and on bound interfaces ({@code @Constructor}, {@code @Method(of = ...)}), and the
 * checks of methods, setters and constructors against a version-2 manifest, each message at its element.
 */
class ObjectMemberDiagnosticsTest {
  private static final String MANIFEST = """
      {
        "format": "packed4j-manifest",
        "version": 2,
        "globals": [],
        "objectTypes": [
          {"key": "Calculator", "parent": "Object", "doc": "A pocket calculator", "fields": [
            {"name": "brand", "type": "string", "mutable": false},
            {"name": "price", "type": "int32", "mutable": true, "doc": "what it costs"},
            {"name": "total", "type": "int64", "mutable": true}],
           "methods": [
            {"name": "add", "kind": "method", "typed": true, "parameters": ["Calculator", "int64", "int64"],
             "result": "int64", "parameterNames": ["a", "b"]},
            {"name": "describe", "kind": "method", "typed": true, "parameters": ["Calculator"], "result": "string"},
            {"name": "parse", "kind": "static", "typed": true, "parameters": ["string"], "result": "Calculator"},
            {"name": "__init__", "kind": "constructor", "typed": true, "parameters": ["string", "int32"],
             "result": "Calculator"}]},
          {"key": "Scientific", "parent": "Calculator", "fields": [
            {"name": "brand", "type": "string"},
            {"name": "price", "type": "int32", "mutable": true},
            {"name": "total", "type": "int64", "mutable": true}],
           "methods": [
            {"name": "describe", "kind": "method", "typed": true, "parameters": ["Scientific"], "result": "string"}]},
          {"key": "Graphing", "parent": "Scientific", "fields": [
            {"name": "brand", "type": "string"},
            {"name": "price", "type": "int32", "mutable": true},
            {"name": "total", "type": "int64", "mutable": true}],
           "methods": [
            {"name": "add", "kind": "method", "typed": true, "parameters": ["Graphing", "float64", "float64"],
             "result": "float64"},
            {"name": "describe", "kind": "method", "typed": true, "parameters": ["Graphing", "int64"],
             "result": "string"}]}
        ],
        "coreGlobals": [],
        "coreObjectTypes": [{"key": "Object", "fields": []}]
      }
      """;

  private static final JavaFileObject SCIENTIFIC_REF = source("p.ScientificRef", """
      package p;
      import dev.packed4j.annotations.Method;
      import dev.packed4j.annotations.Object;
      @Object("Scientific")
      public interface ScientificRef extends CalculatorRef {
      }
      """);

  @TempDir static Path directory;
  private static Path manifest;

  @BeforeAll
  static void writeManifest() throws IOException {
    manifest = Files.writeString(directory.resolve("calculator.manifest.json"), MANIFEST);
  }

  private static Compilation checked(JavaFileObject... sources) {
    return Compilations.compiler(List.of("-Apacked4j.manifest=" + manifest), new Packed4jProcessor())
        .compile(sources);
  }

  private static JavaFileObject calculatorRef(String members) {
    return source("p.CalculatorRef", """
        package p;
        import dev.packed4j.annotations.Constructor;
        import dev.packed4j.annotations.Field;
        import dev.packed4j.annotations.Method;
        import dev.packed4j.annotations.Object;
        @Object("Calculator")
        public interface CalculatorRef extends AutoCloseable {
          String brand();
          long price();
          %s
          @Override void close();
        }
        """.formatted(members));
  }

  /** The view of "Graphing", a child of "Scientific" whose add and describe have other signatures. */
  private static JavaFileObject graphingRef(String extendsClause, String members) {
    return source("p.GraphingRef", """
        package p;
        import dev.packed4j.annotations.Object;
        @Object("Graphing")
        public interface GraphingRef%s {
          %s
        }
        """.formatted(extendsClause, members));
  }

  private static JavaFileObject calculators(String members) {
    return source("p.Calculators", """
        package p;
        import dev.packed4j.annotations.Constructor;
        import dev.packed4j.annotations.Global;
        import dev.packed4j.annotations.Method;
        public interface Calculators {
          %s
        }
        """.formatted(members));
  }

  @Compilers
  void aFullObjectDefinitionCompilesCleanAgainstTheManifest() {
    Compilation compilation = checked(
        calculatorRef("""
            void price(long price);
            @Field("price") void changePrice(int cents);
            long add(long a, long b);
            @Method String describe();
            @Method("add") long plus(long a, long b);
            """),
        SCIENTIFIC_REF,
        calculators("""
            @Constructor CalculatorRef create(String brand, int price);
            @Method(of = CalculatorRef.class) CalculatorRef parse(String text);
            @Method(of = ScientificRef.class, value = "parse") CalculatorRef parseScientific(String text);
            """));
    assertThat(compilation).succeeded();
    // The helpers' sources import every annotation; ECJ warns about the unused ones, packed4j about nothing.
    for (javax.tools.Diagnostic<? extends JavaFileObject> warning : compilation.warnings()) {
      String message = warning.getMessage(java.util.Locale.ROOT);
      if (!message.startsWith("The import dev.packed4j.annotations.")) {
        throw new AssertionError("unexpected warning: " + message);
      }
    }
    assertThat(compilation).generatedSourceFile("p.Packed4j_CalculatorRef").contentsAsUtf8String()
        .contains("Fields.PRICE.writeLong(this, price)");
  }

  @Compilers
  void aVersionOneManifestChecksNoMembers() throws IOException {
    Path versionOne = Files.writeString(directory.resolve("v1.manifest.json"), """
        {"format": "packed4j-manifest", "version": 1, "globals": [], "coreGlobals": [],
         "objectTypes": [{"key": "Calculator", "parent": "Object", "fields": [
           {"name": "brand", "type": "string"}, {"name": "price", "type": "int32"}]}],
         "coreObjectTypes": [{"key": "Object", "fields": []}]}
        """);
    Compilation compilation =
        Compilations.compiler(List.of("-Apacked4j.manifest=" + versionOne), new Packed4jProcessor())
            .compile(calculatorRef("void price(long price);\nlong add(long a, long b);"),
                calculators("@Constructor CalculatorRef create(String brand, int price);"));
    assertThat(compilation).succeeded();
  }

  @Compilers
  void aConstructorMustReturnAnObjectInterface() {
    JavaFileObject calculators = calculators("@Constructor String create(String brand, int price);");
    assertThat(compile(calculatorRef(""), calculators))
        .hadErrorContaining(
            "[P4J-CONSTRUCTOR-RESULT] @Constructor method Calculators.create(String,int) returns String, which is not"
                + " an @Object interface")
        .inFile(calculators)
        .onLineContaining("@Constructor String create");
  }

  @Compilers
  void aConstructorOnAnObjectInterfaceIsReported() {
    JavaFileObject ref = calculatorRef("@Constructor CalculatorRef copy(String brand);");
    assertThat(compile(ref))
        .hadErrorContaining(
            "[P4J-CONSTRUCTOR-IN-OBJECT] @Constructor on CalculatorRef.copy(String), a method of the @Object"
                + " interface CalculatorRef")
        .inFile(ref)
        .onLineContaining("@Constructor CalculatorRef copy");
  }

  @Compilers
  void aConstructorOnAParentObjectInterfaceIsReportedOnceAsTheParents() {
    JavaFileObject ref = calculatorRef("@Constructor CalculatorRef copy(String brand);");
    JavaFileObject scientific = source("p.ScientificRef", """
        package p;
        import dev.packed4j.annotations.Object;
        @Object("Scientific")
        public interface ScientificRef extends CalculatorRef {}
        """);
    Compilation compilation = compile(ref, scientific);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-CONSTRUCTOR-IN-OBJECT] @Constructor on CalculatorRef.copy(String), a method of the @Object"
                + " interface CalculatorRef: a constructor makes a new object, so nothing calls it on one. Declare it"
                + " on an ordinary bound interface (one with @Global methods), returning CalculatorRef")
        .inFile(ref)
        .onLineContaining("@Constructor CalculatorRef copy");
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void annotationsOnMethodsOfObjectAreReported() {
    JavaFileObject ref = source("p.CalculatorRef", """
        package p;
        import dev.packed4j.annotations.Field;
        import dev.packed4j.annotations.Global;
        import dev.packed4j.annotations.Method;
        import dev.packed4j.annotations.Object;
        @Object("Calculator")
        public interface CalculatorRef {
          String brand();
          @Method("describe") String toString();
          @Field("price") int hashCode();
          @Global("calculator.Same") boolean equals(java.lang.Object other);
        }
        """);
    Compilation compilation = compile(ref);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-BINDING-OBJECT-METHOD] @Method on CalculatorRef.toString(), which redeclares a method of"
                + " java.lang.Object: every class, the generated one too, inherits toString() from Object, so packed4j"
                + " never implements it and a call would never reach the native side. Give the method another name;"
                + " the annotation keeps the native one")
        .inFile(ref)
        .onLineContaining("@Method(\"describe\") String toString();");
    assertThat(compilation)
        .hadErrorContaining("[P4J-BINDING-OBJECT-METHOD] @Field on CalculatorRef.hashCode(), which redeclares")
        .inFile(ref)
        .onLineContaining("@Field(\"price\") int hashCode();");
    assertThat(compilation)
        .hadErrorContaining("[P4J-GLOBAL-IN-OBJECT] @Global method CalculatorRef.equals(Object)")
        .inFile(ref)
        .onLineContaining("boolean equals");
    assertThat(compilation).hadErrorCount(3);
  }

  @Compilers
  void twoTargetsOnOneMethodAreReported() {
    JavaFileObject calculators =
        calculators("@Constructor @Global(\"calculator.Create\") CalculatorRef create(String brand, int price);");
    assertThat(compile(calculatorRef(""), calculators))
        .hadErrorContaining(
            "[P4J-BINDING-TARGETS] Calculators.create(String,int) carries @Global and @Constructor, but a method"
                + " calls one native function")
        .inFile(calculators)
        .onLineContaining("CalculatorRef create");
  }

  @Compilers
  void aConstructorOnADefaultMethodIsReported() {
    JavaFileObject calculators =
        calculators("@Constructor default CalculatorRef create(String brand, int price) { return null; }");
    assertThat(compile(calculatorRef(""), calculators))
        .hadErrorContaining(
            "[P4J-BINDING-NOT-ABSTRACT] @Constructor on Calculators.create(String,int), which is not an abstract"
                + " method of an interface (it is a default method)")
        .inFile(calculators)
        .onLineContaining("@Constructor default");
  }

  @Compilers
  void aStaticMethodNeedsOf() {
    JavaFileObject calculators = calculators("@Method CalculatorRef parse(String text);");
    assertThat(compile(calculatorRef(""), calculators))
        .hadErrorContaining(
            "[P4J-METHOD-OF-MISSING] @Method on Calculators.parse(String), a method of Calculators, which is not an"
                + " @Object interface")
        .inFile(calculators)
        .onLineContaining("@Method CalculatorRef parse");
  }

  @Compilers
  void ofMustNameAnObjectInterface() {
    JavaFileObject calculators = calculators("@Method(of = Runnable.class) CalculatorRef parse(String text);");
    assertThat(compile(calculatorRef(""), calculators))
        .hadErrorContaining(
            "[P4J-METHOD-OF-NOT-OBJECT] @Method(of = Runnable.class) on Calculators.parse(String): Runnable is not an"
                + " @Object interface")
        .inFile(calculators)
        .onLineContaining("Runnable.class");
  }

  @Compilers
  void ofOnAnObjectInterfaceIsReported() {
    JavaFileObject ref = calculatorRef("@Method(of = CalculatorRef.class) long add(long a, long b);");
    assertThat(compile(ref))
        .hadErrorContaining(
            "[P4J-METHOD-OF-IN-OBJECT] @Method(of = CalculatorRef.class) on CalculatorRef.add(long,long), a method"
                + " of the @Object interface CalculatorRef")
        .inFile(ref)
        .onLineContaining("@Method(of = CalculatorRef.class)");
  }

  @Compilers
  void aMalformedMethodNameIsReported() {
    JavaFileObject ref = calculatorRef("@Method(\"add-two\") long add(long a, long b);");
    assertThat(compile(ref))
        .hadErrorContaining("[P4J-METHOD-NAME] \"add-two\" is not a valid method name")
        .inFile(ref)
        .onLineContaining("@Method(\"add-two\")");
  }

  @Compilers
  void methodAndFieldTogetherAreReported() {
    JavaFileObject ref = calculatorRef("@Method @Field(\"price\") long cost();");
    assertThat(compile(ref))
        .hadErrorContaining(
            "[P4J-METHOD-AND-FIELD] CalculatorRef.cost() carries both @Method and @Field")
        .inFile(ref)
        .onLineContaining("long cost();");
  }

  @Compilers
  void aSetterOfAnUnsupportedTypeIsReportedOnItsParameter() {
    JavaFileObject ref = calculatorRef("@Field(\"price\") void prices(java.util.Optional<Long> prices);");
    assertThat(compile(ref))
        .hadErrorContaining("[P4J-SETTER-TYPE] Optional<Long> is not a supported type for the setter"
            + " CalculatorRef.prices(Optional<Long>): a native field is never optional<T> (reflection records no"
            + " std::optional field), and an unset object or container field reads as null; declare the type itself."
            + " A setter writes the field in place, so it takes int, long, double, boolean, String, an @Object"
            + " interface, NativeObject, NDArray, or a List<E> or Map<K, V> (or NativeList, NativeMap) of the"
            + " elements a @Global parameter takes")
        .inFile(ref)
        .onLineContaining("void prices");
  }

  @Compilers
  void aSetterMustTakeItsGettersType() {
    JavaFileObject ref = calculatorRef("void brand(long brand);");
    assertThat(compile(ref))
        .hadErrorContaining(
            "[P4J-SETTER-GETTER-TYPE] the setter CalculatorRef.brand(long) takes long, but the getter"
                + " CalculatorRef.brand() of the same field returns String")
        .inFile(ref)
        .onLineContaining("void brand(long brand);");
  }

  @Compilers
  void aNoParameterVoidMethodNeedsMethod() {
    JavaFileObject ref = calculatorRef("void reset();");
    assertThat(compile(ref))
        .hadErrorContaining(
            "[P4J-OBJECT-NOT-GETTER] CalculatorRef.reset() is not a getter: it returns void. An abstract method of"
                + " an @Object interface without parameters reads one native field and returns its value. Give it a"
                + " field type, mark it @Method to call a native method of the type")
        .inFile(ref)
        .onLineContaining("void reset();");
  }

  @Compilers
  void aSetterOfAReadOnlyFieldIsReported() {
    JavaFileObject ref = calculatorRef("void brand(String brand);");
    assertThat(checked(ref))
        .hadErrorContaining(
            "[P4J-NATIVE-READ-ONLY] CalculatorRef.brand(String) writes the field \"brand\" of \"Calculator\", which"
                + " is read-only")
        .inFile(ref)
        .onLineContaining("void brand(String brand);");
  }

  @Compilers
  void aSetterOfTheWrongNativeTypeIsReported() {
    JavaFileObject ref = calculatorRef("@Field(\"price\") void priceText(String price);");
    assertThat(checked(ref))
        .hadErrorContaining(
            "[P4J-NATIVE-SETTER-TYPE] CalculatorRef.priceText(String) takes String, but the field \"price\" of"
                + " \"Calculator\" is int32")
        .inFile(ref)
        .onLineContaining("String price");
  }

  @Compilers
  void anIntSetterWritesAnInt64FieldWhichAnIntGetterMayNotRead() {
    assertThat(checked(calculatorRef("@Field(\"total\") void total(int total);"))).succeeded();
    JavaFileObject ref = calculatorRef("@Field(\"total\") int totalAsInt();");
    assertThat(checked(ref))
        .hadErrorContaining(
            "[P4J-NATIVE-FIELD-TYPE] CalculatorRef.totalAsInt() returns int, but the field \"total\" of"
                + " \"Calculator\" is int64: an int getter reads an int32 field; read it as long. Declare the getter"
                + " as long")
        .inFile(ref)
        .onLineContaining("int totalAsInt();");
  }

  @Compilers
  void aSetterOfANonNumberFieldSpeaksOfWriting() {
    JavaFileObject ref = calculatorRef("@Field(\"brand\") void brandCode(int code);");
    assertThat(checked(ref))
        .hadErrorContaining(
            "[P4J-NATIVE-SETTER-TYPE] CalculatorRef.brandCode(int) takes int, but the field \"brand\" of"
                + " \"Calculator\" is string: an int setter writes an int32, int64 or uint64 field. Declare the"
                + " parameter as String")
        .inFile(ref)
        .onLineContaining("int code");
  }

  @Compilers
  void aSetterOfAnUnknownFieldIsReported() {
    JavaFileObject ref = calculatorRef("@Field(\"cost\") void changeCost(long cost);");
    assertThat(checked(ref))
        .hadErrorContaining(
            "[P4J-NATIVE-UNKNOWN-FIELD] CalculatorRef.changeCost(long) writes the field \"cost\", but the native type"
                + " \"Calculator\" has no such field")
        .inFile(ref)
        .onLineContaining("@Field(\"cost\")");
  }

  @Compilers
  void aMethodDeclaredWithoutMethodIsReportedAsTheMethodItIs() {
    // Trial userR wrote "long area();" for a .def("area", ...) method: it reads as a getter of a field "area", and
    // the message advised @Field and a field of a similar name.
    JavaFileObject ref = calculatorRef("String describe();");
    assertThat(checked(ref))
        .hadErrorContaining(
            "[P4J-NATIVE-UNKNOWN-FIELD] CalculatorRef.describe() reads the field \"describe\", but the native type"
                + " \"Calculator\" has no such field (its fields: brand: string, price: int32, total: int64). Name a"
                + " field its VisitAttrs visits, naming it with @Field(\"<name>\") on the method if needed. But"
                + " \"describe\" is a method of \"Calculator\": mark the declaration @Method to call it (without"
                + " @Method, a method without parameters reads a field, and a void one with one parameter writes one)")
        .inFile(ref)
        .onLineContaining("String describe();");
    // Named by @Field, the method's name is what @Method must give.
    JavaFileObject renamed = calculatorRef("@Field(\"describe\") String text();");
    assertThat(checked(renamed))
        .hadErrorContaining("But \"describe\" is a method of \"Calculator\": mark the declaration"
            + " @Method(\"describe\") to call it")
        .inFile(renamed)
        .onLineContaining("\"describe\"");
    // A declaration that could not call the method (describe takes no argument after the object) gets no such
    // advice: with a getter of that name, a void one-parameter method reads as its setter.
    JavaFileObject setter = calculatorRef("String describe(); void describe(String text);");
    assertThat(checked(setter))
        .hadErrorContaining("[P4J-NATIVE-UNKNOWN-FIELD] CalculatorRef.describe(String) writes the field"
            + " \"describe\", but the native type \"Calculator\" has no such field (its fields: brand: string,"
            + " price: int32, total: int64). Name a field its VisitAttrs visits, naming it with @Field(\"<name>\")"
            + " on the method if needed")
        .inFile(setter)
        .onLineContaining("void describe(String text);");
    assertThat(checked(calculatorRef("@Method String describe();"))).succeeded();
  }

  @Compilers
  void aMethodTheTypeDoesNotRegisterIsReportedWithNearNames() {
    JavaFileObject ref = calculatorRef("long addd(long a, long b);");
    assertThat(checked(ref))
        .hadErrorContaining(
            "[P4J-NATIVE-UNKNOWN-MEMBER] CalculatorRef.addd(long,long) calls the method \"addd\" of \"Calculator\","
                + " but the libraries of the manifest (calculator.manifest.json) register none (its members: add,"
                + " describe, parse, __init__). Register it in the type's object definition"
                + " (P4J_REGISTER_OBJECT_DEF), or correct the name. Did you mean \"add\"?")
        .inFile(ref)
        .onLineContaining("long addd");
  }

  @Compilers
  void aMethodNamedLikeAFieldSaysHowToWriteIt() {
    // No getter price() here, so price(long) is a method, which the type does not have.
    JavaFileObject ref = source("p.PriceRef", """
        package p;
        import dev.packed4j.annotations.Object;
        @Object("Calculator")
        public interface PriceRef {
          void price(long price);
        }
        """);
    assertThat(checked(ref))
        .hadErrorContaining(
            "\"price\" is a field: a one-parameter void method writes it when a getter price() is declared beside"
                + " it, or when it is marked @Field(\"price\")")
        .inFile(ref)
        .onLineContaining("void price(long price);");
    // Either way of following the advice compiles without a word: @Field is not redundant where it makes the setter
    // (trial userT: "P4J-FIELD-REDUNDANT ... Remove the annotation" brought the error back).
    JavaFileObject marked = source("p.PriceRef", """
        package p;
        import dev.packed4j.annotations.Field;
        import dev.packed4j.annotations.Object;
        @Object("Calculator")
        public interface PriceRef {
          @Field("price") void price(long price);
        }
        """);
    assertThat(checked(marked)).succeededWithoutWarnings();
    JavaFileObject withGetter = source("p.PriceRef", """
        package p;
        import dev.packed4j.annotations.Object;
        @Object("Calculator")
        public interface PriceRef {
          int price();
          void price(long price);
        }
        """);
    assertThat(checked(withGetter)).succeededWithoutWarnings();
  }

  @Compilers
  void aRenamedMethodNamedLikeAFieldIsNotAdvisedAGetterBesideIt() {
    // A getter price() beside setPrice(long) would change nothing: the setter's name is not the field's.
    JavaFileObject ref = source("p.PriceRef", """
        package p;
        import dev.packed4j.annotations.Method;
        import dev.packed4j.annotations.Object;
        @Object("Calculator")
        public interface PriceRef {
          @Method("price") void setPrice(long price);
        }
        """);
    assertThat(checked(ref))
        .hadErrorContaining(
            "\"price\" is a field: declare a getter price() to read it, or mark a one-parameter void method"
                + " @Field(\"price\") to write it")
        .inFile(ref)
        .onLineContaining("void setPrice(long price);");
  }

  @Compilers
  void aMethodOfAnotherShapeNamedLikeAFieldSaysHowToReadAndWriteIt() {
    JavaFileObject ref = source("p.PriceRef", """
        package p;
        import dev.packed4j.annotations.Object;
        @Object("Calculator")
        public interface PriceRef {
          long price(long price, long discount);
        }
        """);
    assertThat(checked(ref))
        .hadErrorContaining(
            "\"price\" is a field: declare a getter price() to read it, or mark a one-parameter void method"
                + " @Field(\"price\") to write it")
        .inFile(ref)
        .onLineContaining("long price(long price, long discount);");
  }

  @Compilers
  void aMethodNamedLikeAReadOnlyFieldSaysItCannotBeWritten() {
    // brand is def_ro: advising a @Field setter would only lead to P4J-NATIVE-READ-ONLY.
    JavaFileObject ref = source("p.BrandRef", """
        package p;
        import dev.packed4j.annotations.Object;
        @Object("Calculator")
        public interface BrandRef {
          void brand(String brand);
        }
        """);
    assertThat(checked(ref))
        .hadErrorContaining(
            "[P4J-NATIVE-UNKNOWN-MEMBER] BrandRef.brand(String) calls the method \"brand\" of \"Calculator\", but the"
                + " libraries of the manifest (calculator.manifest.json) register none (its members: add, describe,"
                + " parse, __init__). Register it in the type's object definition (P4J_REGISTER_OBJECT_DEF), or correct"
                + " the name. \"brand\" is a read-only field (its VisitAttrs or a def_ro declares it): declare a getter"
                + " brand() to read it; to write it from Java, declare it with def_rw in the type's object definition,"
                + " then mark a one-parameter void method @Field(\"brand\")")
        .inFile(ref)
        .onLineContaining("void brand(String brand);");
  }

  @Compilers
  void aMemberOfAnotherKindIsReported() {
    JavaFileObject calculators = calculators("@Method(of = CalculatorRef.class) long add(long a, long b);");
    assertThat(checked(calculatorRef(""), calculators))
        .hadErrorContaining(
            "[P4J-NATIVE-MEMBER-KIND] Calculators.add(long,long) calls \"add\" of \"Calculator\" as a static method,"
                + " but it is registered as a method. Declare it on the type's @Object interface")
        .inFile(calculators)
        .onLineContaining("long add");
  }

  @Compilers
  void aMethodsArityAndTypesAreCheckedWithoutTheObject() {
    JavaFileObject ref = calculatorRef("long add(long a);\n@Method String describe(int extra);");
    Compilation compilation = checked(ref);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-ARITY] CalculatorRef.add(long) has 1 parameter, but Calculator.add takes 2 (registered as"
                + " (Calculator, int64, int64) -> int64)")
        .inFile(ref)
        .onLineContaining("long add(long a);");
    assertThat(compilation)
        .hadErrorContaining("[P4J-NATIVE-ARITY] CalculatorRef.describe(int) has 1 parameter, but Calculator.describe"
            + " takes 0");
  }

  @Compilers
  void aConstructorsTypesAreChecked() {
    JavaFileObject calculators = calculators("@Constructor CalculatorRef create(String brand, String price);");
    assertThat(checked(calculatorRef(""), calculators))
        .hadErrorContaining(
            "[P4J-NATIVE-PARAMETER-TYPE] parameter price of Calculators.create(String,String) is String, which"
                + " cannot convert to int32, argument 1 of Calculator.__init__")
        .inFile(calculators)
        .onLineContaining("CalculatorRef create");
  }

  @Compilers
  void aChildThatDoesNotExtendTheViewOfItsNativeParentIsWarnedAbout() {
    JavaFileObject graphing = graphingRef("", "String brand();");
    Compilation compilation = checked(calculatorRef(""), SCIENTIFIC_REF, graphing);
    assertThat(compilation).succeeded();
    assertThat(compilation)
        .hadWarningContaining(
            "[P4J-NATIVE-PARENT-VIEW] GraphingRef views \"Graphing\", which derives from \"Scientific\", but it does"
                + " not extend ScientificRef, the view of \"Scientific\" in this compilation: a \"Graphing\" object"
                + " returned where ScientificRef is declared is then a ScientificRef, never a GraphingRef. Extend"
                + " ScientificRef")
        .inFile(graphing)
        .onLineContaining("public interface GraphingRef");
  }

  @Compilers
  void aChildThatSkipsTheViewOfItsNativeParentIsWarnedAbout() {
    JavaFileObject graphing = graphingRef(" extends CalculatorRef", "");
    Compilation compilation = checked(calculatorRef(""), graphing, SCIENTIFIC_REF);
    assertThat(compilation).succeeded();
    assertThat(compilation)
        .hadWarningContaining(
            "[P4J-NATIVE-PARENT-VIEW] GraphingRef views \"Graphing\", which derives from \"Scientific\", but it"
                + " extends CalculatorRef instead of ScientificRef, the view of \"Scientific\" in this compilation")
        .inFile(graphing)
        .onLineContaining("public interface GraphingRef");
    // Without a view of "Scientific" in the compilation, CalculatorRef is the nearest: nothing to say.
    Compilation withoutScientific = checked(calculatorRef(""), graphing);
    assertThat(withoutScientific).succeeded();
    com.google.common.truth.Truth.assertThat(withoutScientific.warnings().stream()
        .map(warning -> warning.getMessage(java.util.Locale.ROOT))
        .filter(message -> message.contains("[P4J-")).toList()).isEmpty();
  }

  @Compilers
  void anInheritedMethodWhoseNativeOverrideDoesNotFitIsReportedOnTheChild() {
    JavaFileObject graphing = graphingRef(" extends ScientificRef", "");
    Compilation compilation = checked(calculatorRef("long add(long a, long b);"), SCIENTIFIC_REF, graphing);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-NATIVE-OVERRIDE] GraphingRef inherits CalculatorRef.add(long,long), which calls \"Calculator.add\","
                + " but \"Graphing\" overrides it registered as (Graphing, float64, float64) -> float64, which does"
                + " not fit: its result, float64, cannot convert to long: a floating-point result never converts to"
                + " an integer. Give the override the signature of the method it overrides: a call of"
                + " CalculatorRef.add(long,long) on a \"Graphing\" object runs the override")
        .inFile(graphing)
        .onLineContaining("public interface GraphingRef");
    assertThat(compilation).hadErrorCount(1);
    assertThat(checked(calculatorRef("@Method String describe();"), SCIENTIFIC_REF, graphing))
        .hadErrorContaining(
            "[P4J-NATIVE-OVERRIDE] GraphingRef inherits CalculatorRef.describe(), which calls \"Calculator.describe\","
                + " but \"Graphing\" overrides it registered as (Graphing, int64) -> string, which does not fit: it"
                + " takes 1 argument after the object, the Java method 0")
        .inFile(graphing)
        .onLineContaining("public interface GraphingRef");
    // A method that does not fit the member it is declared for is reported there, once, not again on each child.
    Compilation wrongInParent = checked(calculatorRef("long add(long a);"), SCIENTIFIC_REF, graphing);
    assertThat(wrongInParent).hadErrorContaining("[P4J-NATIVE-ARITY] CalculatorRef.add(long) has 1 parameter");
    assertThat(wrongInParent).hadErrorCount(1);
  }
}
