package dev.packed4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;
import static dev.packed4j.processor.Compilations.source;

import com.google.testing.compile.Compilation;
import javax.tools.JavaFileObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code P4J-TYPE-*} and {@code P4J-THROWS-*}: types that cannot cross the boundary, on the parameter or method. */
class TypeDiagnosticsTest {

  private static JavaFileObject calculatorWith(String method) {
    return source(
        "p.Calculator",
        """
        package p;
        import dev.packed4j.annotations.Global;
        import java.util.*; import java.util.function.*;
        public interface Calculator {
          %s
        }
        """
            .formatted(method));
  }

  @Compilers
  void mapWithObjectKeysIsReportedOnTheParameter() {
    JavaFileObject calculator =
        calculatorWith("@Global(\"calculator.Sum\") long sum(Map<Object, String> values);");
    Compilation compilation = compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] Map<Object,String> is not a supported type for parameter values of"
                + " Calculator.sum(Map<Object,String>): map keys must be String, a boxed integer (Byte, Short,"
                + " Integer, Long) or an @Object type, not Object. Supported types: boolean, byte, short, int,"
                + " long, float, double and their boxes, String, byte[], @Object interfaces")
        .inFile(calculator)
        .onLine(5)
        .atColumn(58);
    assertThat(compilation).hadErrorCount(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          char                         | char has no wire type; pass a code point as int, or text as String
          List<Character>              | char has no wire type
          short[]                      | arrays other than byte[] do not cross the boundary; float[], double[], int[] and long[] parameters are copied into a 1-D NDArray; use List<Short> or an NDArray
          String[]                     | arrays other than byte[] do not cross the boundary; float[], double[], int[] and long[] parameters are copied into a 1-D NDArray; use List<String>
          boolean[]                    | arrays other than byte[] do not cross the boundary; float[], double[], int[] and long[] parameters are copied into a 1-D NDArray; use List<Boolean>
          Date[]                       | copied into a 1-D NDArray; nor does its element type Date: Date is a class, and a native object
          char[][]                     | copied into a 1-D NDArray; use List<String>
          byte[][]                     | copied into a 1-D NDArray; use a 2-D NDArray or List<byte[]>
          List<char[]>                 | arrays other than byte[] do not cross the boundary; float[], double[], int[] and long[] parameters are copied into a 1-D NDArray; in List<char[]> declare List<String>
          List<String[]>               | copied into a 1-D NDArray; in List<String[]> declare List<List<String>>
          Map<String,float[]>          | float[] crosses only as a parameter of its own (copied into a 1-D NDArray); in Map<String,float[]> declare Map<String,NDArray>
          List                         | the raw type List has no element type; write its type arguments
          List<? extends Number>       | the wildcard ? extends Number has no single conversion
          Set<Long>                    | Set is not a container packed4j converts; use List<T>
          ArrayList<Long>              | declare List<T> rather than ArrayList: the runtime builds the list
          HashMap<String,Long>         | declare Map<K,V> rather than HashMap: the runtime builds the map
          Optional<Optional<String>>   | Optional<Optional<T>> cannot be told apart from Optional<T>
          OptionalLong                 | use Optional<Long> rather than OptionalLong
          Thread.State                 | the enum Thread.State has no wire type; pass its name as String
          Date                         | Date is a class, and a native object is viewed through an @Object interface
          Iterator<String>             | Iterator is a JDK interface with no native counterpart
          Supplier<Date>               | in the functional interface Supplier<Date>, type argument Date: Date is a class
          Function<String,char[]>      | in the functional interface Function<String,char[]>, type argument char[]: arrays
          Predicate<? super String>    | type argument ? super String: the wildcard ? super String has no single
          Function                     | the raw type Function has no concrete types; write its type arguments
          Consumer<int[]>              | in the functional interface Consumer<int[]>, type argument int[]: int[] crosses only as a parameter of its own (copied into a 1-D NDArray); in Consumer<int[]> declare Consumer<NDArray>
          Map<Double,Long>             | map keys must be String, a boxed integer (Byte, Short, Integer, Long) or
          Map<String,List<int[]>>      | int[] crosses only as a parameter of its own (copied into a 1-D NDArray); in List<int[]> declare List<NDArray>
          Map<float[],Long>            | float[] crosses only as a parameter of its own (copied into a 1-D NDArray); map keys must be String, a boxed integer (Byte, Short, Integer, Long) or an @Object type
          BiFunction<int[],int[][],Long> | int[] crosses only as a parameter of its own (copied into a 1-D NDArray); in BiFunction<int[],int[][],Long> declare BiFunction<NDArray,int[][],Long>
          """)
  void unsupportedParameterTypeSaysWhy(String type, String reason) {
    TestCompiler.underEach(
        () -> {
          JavaFileObject calculator = calculatorWith("@Global(\"calculator.Take\") void take(" + type + " value);");
          Compilation compilation = compile(calculator);
          assertThat(compilation)
              .hadErrorContaining(
                  "[P4J-TYPE-UNSUPPORTED] " + type + " is not a supported type for parameter value")
              .inFile(calculator)
              .onLineContaining("calculator.Take");
          assertThat(compilation).hadErrorContaining(reason);
        });
  }

  @Compilers
  void charArrayParameterSuggestsStringOrCodePoints() {
    JavaFileObject calculator = calculatorWith("@Global(\"calculator.SumChars\") double sumChars(char[] a);");
    Compilation compilation = compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] char[] is not a supported type for parameter a of Calculator.sumChars(char[]):"
                + " arrays other than byte[] do not cross the boundary; float[], double[], int[] and long[]"
                + " parameters are copied into a 1-D NDArray; use String for text, or List<Integer> for code"
                + " points. Supported types:")
        .inFile(calculator)
        .onLine(5)
        .atColumn(57);
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void arrayOfArraysParameterSuggestsATensorOrNestedLists() {
    JavaFileObject calculator =
        calculatorWith("@Global(\"calculator.SumMatrix\") double sumMatrix(float[][] a);");
    Compilation compilation = compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] float[][] is not a supported type for parameter a of"
                + " Calculator.sumMatrix(float[][]): arrays other than byte[] do not cross the boundary; float[],"
                + " double[], int[] and long[] parameters are copied into a 1-D NDArray; use a 2-D NDArray or"
                + " List<List<Float>>. Supported types:")
        .inFile(calculator)
        .onLine(5)
        .atColumn(62);
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void primitiveArrayInsideAContainerSuggestsTheContainerOfNDArray() {
    JavaFileObject calculator =
        calculatorWith(
            "@Global(\"calculator.Rows\") List<float[]> rowsArr(dev.packed4j.runtime.NDArray a);\n"
                + "  @Global(\"calculator.Maybe\") double maybe(Optional<float[]> a);");
    Compilation compilation = compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] List<float[]> is not a supported type for the result of"
                + " Calculator.rowsArr(NDArray): float[] crosses only as a parameter of its own (copied into a 1-D"
                + " NDArray); in List<float[]> declare List<NDArray>. Supported types:")
        .inFile(calculator)
        .onLine(5)
        .atColumn(44);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] Optional<float[]> is not a supported type for parameter a of"
                + " Calculator.maybe(Optional<float[]>): float[] crosses only as a parameter of its own (copied into"
                + " a 1-D NDArray); in Optional<float[]> declare Optional<NDArray>. Supported types:")
        .inFile(calculator)
        .onLine(6)
        .atColumn(62);
    assertThat(compilation).hadErrorCount(2);
  }

  /** Each type the array diagnostics above suggest is one the processor takes in that place. */
  @Compilers
  void typesTheArrayDiagnosticsSuggestAreAccepted() {
    JavaFileObject calculator =
        calculatorWith(
            """
            @Global("calculator.SumChars") double sumChars(String a);
              @Global("calculator.SumCodePoints") double sumCodePoints(List<Integer> a);
              @Global("calculator.SumMatrix") double sumMatrix(dev.packed4j.runtime.NDArray a);
              @Global("calculator.SumRows") double sumRows(List<List<Float>> a);
              @Global("calculator.Rows") List<dev.packed4j.runtime.NDArray> rows(dev.packed4j.runtime.NDArray a);
              @Global("calculator.Maybe") double maybe(Optional<dev.packed4j.runtime.NDArray> a);
              @Global("calculator.Named") double named(Map<String, dev.packed4j.runtime.NDArray> a);
              @Global("calculator.Nested") double nested(Map<String, List<dev.packed4j.runtime.NDArray>> a);
              @Global("calculator.Texts") double texts(List<String> a, List<List<String>> b, List<byte[]> c);
              @Global("calculator.Flags") double flags(List<Boolean> a);
              @Global("calculator.Shorts") double shorts(List<Short> a);
              @Global("calculator.Each") void each(Consumer<dev.packed4j.runtime.NDArray> each);
            """);
    assertThat(compile(calculator)).succeededWithoutWarnings();
  }

  @Compilers
  void functionalInterfacesOfSupportedTypesAreAccepted() {
    JavaFileObject calculator =
        calculatorWith(
            """
            @Global("calculator.Apply") long apply(LongBinaryOperator op, Function<String, List<Long>> parse,
                Consumer<Optional<String>> each, Runnable done, Comparator<Long> order, Mapper mapper);
            @Global("calculator.Adder") IntBinaryOperator adder(int base);
            @FunctionalInterface interface Mapper { Map<String, Long> map(byte[] data, double scale); }
            """);
    assertThat(compile(calculator)).succeededWithoutWarnings();
  }

  @Compilers
  void usersInterfaceWithoutFunctionalInterfaceStaysAnObjectCandidate() {
    JavaFileObject calculator =
        calculatorWith(
            """
            @Global("calculator.Apply") long apply(Mapper mapper);
            interface Mapper { long map(long value); }
            """);
    assertThat(compile(calculator))
        .hadErrorContaining("[P4J-TYPE-NOT-OBJECT]")
        .inFile(calculator)
        .onLineContaining("calculator.Apply");
  }

  @Compilers
  void varargsOtherThanBytesAreReported() {
    JavaFileObject calculator = calculatorWith("@Global(\"calculator.Sum\") long sum(short... values);");
    assertThat(compile(calculator))
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] short[] is not a supported type for parameter values of Calculator.sum(short[]):"
                + " arrays other than byte[] do not cross the boundary; float[], double[], int[] and long[]"
                + " parameters are copied into a 1-D NDArray; use List<Short> or an NDArray")
        .inFile(calculator)
        .onLineContaining("calculator.Sum");
  }

  @Compilers
  void numericArraysAreTensorParametersAndNeverResults() {
    JavaFileObject calculator =
        calculatorWith(
            "@Global(\"calculator.Sum\") long sum(long... values);\n"
                + "  @Global(\"calculator.Range\") float[] range(int count);");
    Compilation compilation = compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] float[] is not a supported type for the result of Calculator.range(int): a"
                + " native function returns a tensor as an NDArray; declare NDArray and copy it out with"
                + " toFloatArray()")
        .inFile(calculator)
        .onLine(6)
        .atColumn(39);
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void typeVariableOfTheInterfaceIsReported() {
    JavaFileObject box =
        source(
            "p.Box",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Box<T> {
              @Global("box.Put") void put(T value);
            }
            """);
    assertThat(compile(box))
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] T is not a supported type for parameter value of Box.put(T): T is a type"
                + " variable, which has no concrete type to convert")
        .inFile(box)
        .onLineContaining("box.Put");
  }

  @Compilers
  void unsupportedResultIsReportedOnTheMethod() {
    JavaFileObject calculator = calculatorWith("@Global(\"calculator.Letter\") char letter(int index);");
    assertThat(compile(calculator))
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] char is not a supported type for the result of Calculator.letter(int): char"
                + " has no wire type")
        .inFile(calculator)
        .onLine(5)
        .atColumn(37);
  }

  @Compilers
  void importedObjectAnnotationHidingJavaLangObjectIsExplained() {
    JavaFileObject echo =
        source(
            "p.Echo",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import dev.packed4j.annotations.Object;
            public interface Echo {
              @Global("test.Echo") Object echo(Object value);
            }
            """);
    assertThat(compile(echo))
        .hadErrorContaining(
            "[P4J-TYPE-UNSUPPORTED] Object is not a supported type for parameter value of Echo.echo(Object): this"
                + " Object is the @Object annotation, whose import hides java.lang.Object; write java.lang.Object")
        .inFile(echo)
        .onLineContaining("test.Echo");
  }

  @Compilers
  void objectMadeAmbiguousByTheAnnotationsOnDemandImportIsExplained(TestCompiler compiler) {
    JavaFileObject api =
        source(
            "p.Api",
            """
            package p;
            import dev.packed4j.annotations.*;
            public interface Api {
              @Global("shop.Name") String name(Object s, long n);
            }
            """);
    Compilation compilation = compile(api);
    if (compiler == TestCompiler.ECJ) {
      // ECJ shows the processor the parameter as java.lang.Object; its own error says what is wrong.
      assertThat(compilation).hadErrorContaining("The type Object is ambiguous").inFile(api).onLineContaining("shop");
      assertThat(compilation).hadErrorCount(1);
      return;
    }
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-AMBIGUOUS-OBJECT] Object in parameter s of Api.name(Object,long) is ambiguous: an on-demand"
                + " import (import dev.packed4j.annotations.*;) brings the annotation dev.packed4j.annotations.Object,"
                + " which clashes with java.lang.Object. Write java.lang.Object for a value of any type, or import the"
                + " annotations one by one (import dev.packed4j.annotations.Global;)")
        .inFile(api)
        .onLineContaining("shop.Name");
    assertThat(compilation).hadErrorCount(2); // the compiler's own "reference to Object is ambiguous" is the other
  }

  @Compilers
  void interfaceWithoutObjectIsReportedWhereverItIsNested() {
    JavaFileObject calculator =
        calculatorWith("@Global(\"calculator.PrintCalculators\") void print(List<Optional<Printer>> printers);");
    JavaFileObject printer =
        source(
            "p.Printer",
            """
            package p;
            public interface Printer {
              String brand();
            }
            """);
    Compilation compilation = compile(calculator, printer);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-NOT-OBJECT] Printer is not annotated @Object, so it cannot cross the boundary in parameter"
                + " printers of Calculator.print(List<Optional<Printer>>): an interface crosses as the view of a"
                + " native object type, or as a callback when it is a @FunctionalInterface. Annotate Printer with"
                + " @Object(\"<type key>\"), or use NativeObject")
        .inFile(calculator)
        .onLineContaining("calculator.PrintCalculators");
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void interfaceWithoutObjectSuggestsANearObjectInterface() {
    JavaFileObject calculator =
        calculatorWith("@Global(\"calculator.Create\") CalculatorRefs create(String brand);");
    JavaFileObject refs =
        source(
            "p.CalculatorRefs",
            """
            package p;
            public interface CalculatorRefs {}
            """);
    JavaFileObject ref =
        source(
            "p.CalculatorRef",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("Calculator")
            public interface CalculatorRef {
              String brand();
            }
            """);
    assertThat(compile(calculator, refs, ref))
        .hadErrorContaining(
            "[P4J-TYPE-NOT-OBJECT] CalculatorRefs is not annotated @Object, so it cannot cross the boundary in the"
                + " result of Calculator.create(String)")
        .inFile(calculator)
        .onLineContaining("calculator.Create");
    assertThat(compile(calculator, refs, ref)).hadErrorContaining("Did you mean CalculatorRef?");
  }

  @Compilers
  void typeThatNeverResolvesIsReportedAfterTheLastRoundWithANearName(TestCompiler compiler) {
    JavaFileObject calculator =
        calculatorWith("@Global(\"calculator.Create\") List<Calculatorref> create(String brand);");
    JavaFileObject ref =
        source(
            "p.CalculatorRef",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("Calculator")
            public interface CalculatorRef {
              String brand();
            }
            """);
    Compilation compilation = compile(calculator, ref);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNRESOLVED] Calculatorref in Calculator.create(String) could not be resolved by the last"
                + " processing round, so no class was generated for Calculator")
        .inFile(calculator)
        .onLineContaining("calculator.Create");
    assertThat(compilation).hadErrorContaining("Did you mean CalculatorRef?");
    // The compiler reports the missing symbol too, in its own words.
    assertThat(compilation)
        .hadErrorContaining(
            compiler == TestCompiler.JAVAC ? "cannot find symbol" : "Calculatorref cannot be resolved to a type");
  }
}
