package dev.packed4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;
import static dev.packed4j.processor.Compilations.source;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import javax.tools.JavaFileObject;

/** The {@code P4J-GLOBAL-*} diagnostics, each on the element (and annotation value) it is about. */
class GlobalDiagnosticsTest {

  @Compilers
  void malformedNameIsReportedOnTheStringLiteral() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator..MyAdd") int add(int a, int b);
            }
            """);
    Compilation compilation = compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-GLOBAL-NAME] \"calculator..MyAdd\" is not a valid global name: it has two dots in a row at"
                + " index 10. A global name is the string given to P4J_REGISTER_GLOBAL")
        .inFile(calculator)
        .onLine(4)
        .atColumn(11);
    assertThat(compilation).hadErrorContaining("Did you mean \"calculator.MyAdd\"?");
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void nameWithASpaceShowsTheGrammar() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.My Add") int add(int a, int b);
            }
            """);
    assertThat(compile(calculator))
        .hadErrorContaining(
            "[P4J-GLOBAL-NAME] \"calculator.My Add\" is not a valid global name: it contains a space at index 13."
                + " A global name is the string given to P4J_REGISTER_GLOBAL: one or more segments"
                + " [A-Za-z_][A-Za-z0-9_]* separated by single dots, for example \"calculator.MyAdd\". Did you mean"
                + " \"calculator.MyAdd\"?")
        .inFile(calculator)
        .onLineContaining("My Add");
  }

  @Compilers
  void emptyNameIsReported() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("") int add(int a, int b);
            }
            """);
    assertThat(compile(calculator))
        .hadErrorContaining("[P4J-GLOBAL-NAME] \"\" is not a valid global name: it is empty")
        .inFile(calculator)
        .onLine(4)
        .atColumn(11);
  }

  @Compilers
  void sameNameWithTheSameSignatureTwiceInOneInterfaceIsReportedOnTheSecond() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.Add") int add(int a, int b);
              @Global("calculator.Add") int mul(int a, int b);
            }
            """);
    Compilation compilation = compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-GLOBAL-DUPLICATE] \"calculator.Add\" is bound twice in Calculator with the same parameter and"
                + " result types: by mul(int,int), and first by p.Calculator.add(int,int)")
        .inFile(calculator)
        .onLineContaining("int mul(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void globalInAClassIsReported() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public abstract class Calculator {
              @Global("calculator.Add") public abstract int add(int a, int b);
            }
            """);
    assertThat(compile(calculator))
        .hadErrorContaining(
            "[P4J-GLOBAL-NOT-INTERFACE] @Global method Calculator.add(int,int) is declared in the class Calculator:"
                + " packed4j generates the implementation of an interface")
        .inFile(calculator)
        .onLineContaining("calculator.Add");
  }

  @Compilers
  void staticMethodsOfAClassAreExportedThroughAGeneratedRegistrar() throws IOException {
    JavaFileObject host =
        source(
            "p.Host",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import java.util.List;
            import java.util.function.LongUnaryOperator;
            public final class Host {
              @Global("host.Add") static long add(long a, long b) { return a + b; }
              @Global("host.Log") public static void log(String line) {}
              @Global("host.Sum") static long sum(List<Long> values, LongUnaryOperator each) { return 0; }
              @FunctionalInterface public interface Measure { long of(String text); }
              @Global("host.Length") static long length(Measure measure) { return 0; }
              static long notExported(long a) { return a; }
            }
            """);
    Compilation compilation = compile(host);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("p.Packed4j_Host")
        .contentsAsUtf8String()
        .contains("Callbacks.typedFunction(\"(int64, int64) -> int64\"");
    assertThat(compilation)
        .generatedSourceFile("p.Packed4j_Host")
        .contentsAsUtf8String()
        .contains("Callbacks.packedFunction(\"(list<int64>, function) -> int64\"");
    // A String reaches a typed body as a span address, read by a reader the class obtains with its own lookup
    // (gated on its native access), never by a public static read of any address.
    String registrar = compilation.generatedSourceFile("p.Packed4j_Host").orElseThrow().getCharContent(true)
        .toString().replaceAll("\\s+", " ").replace("( ", "(");
    assertTrue(registrar.contains("Callbacks.typedFunction(\"(string) -> void\", Callbacks.withStringSpans("
        + "MethodHandles.lookup(), spans -> (CallbackBodies.Wire1) a0 -> { Host.log(spans.read(a0)); return 0L; }))"),
        registrar);
    assertTrue(registrar.contains("Callbacks.withStringSpans(MethodHandles.lookup(), spans -> Callbacks."
        + "<Host.Measure>typed(Host.Measure.class"), registrar);
    assertTrue(registrar.contains("f.of(spans.read(a0))"), registrar);
  }

  @Compilers
  void privateExportedMethodIsReported() {
    JavaFileObject host =
        source(
            "p.Host",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public final class Host {
              @Global("host.Add") private static long add(long a, long b) { return a + b; }
            }
            """);
    assertThat(compile(host))
        .hadErrorContaining(
            "[P4J-GLOBAL-EXPORT-PRIVATE] @Global method Host.add(long,long) is exported as a Java function, but the"
                + " method is private: the registrar generated beside Host calls it")
        .inFile(host)
        .onLineContaining("host.Add");
  }

  @Compilers
  void aNameTwoExportedMethodsShareIsReportedOnTheSecond() {
    JavaFileObject host =
        source(
            "p.Host",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public final class Host {
              @Global("host.Add") static long add(long a, long b) { return a + b; }
              @Global("host.Add") static double addDoubles(double a, double b) { return a + b; }
            }
            """);
    Compilation compilation = compile(host);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-GLOBAL-EXPORT-DUPLICATE] @Global method Host.addDoubles(double,double) exports \"host.Add\", which"
                + " Host.add(long,long) already exports: the registry holds one function per name, so"
                + " Packed4j.register would register the first and refuse the second. Give one of them another name")
        .inFile(host)
        .onLineContaining("addDoubles");
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void exportedMethodInAPrivateClassIsReported() {
    JavaFileObject host =
        source(
            "p.Host",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public final class Host {
              private static final class Hidden {
                @Global("host.Add") static long add(long a, long b) { return a + b; }
              }
            }
            """);
    assertThat(compile(host))
        .hadErrorContaining(
            "[P4J-GLOBAL-EXPORT-PRIVATE] @Global method Host.Hidden.add(long,long) is exported as a Java function,"
                + " but the class Host.Hidden is private")
        .inFile(host)
        .onLineContaining("host.Add");
  }

  @Compilers
  void exportedMethodWithABadNameOrTypeIsReported() {
    JavaFileObject host =
        source(
            "p.Host",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public final class Host {
              @Global("host..Add") static long add(long a, long b) { return a + b; }
              @Global("host.Letter") static char letter(int index) { return 'a'; }
            }
            """);
    Compilation compilation = compile(host);
    assertThat(compilation)
        .hadErrorContaining("[P4J-GLOBAL-NAME] \"host..Add\" is not a valid global name")
        .inFile(host)
        .onLineContaining("host..Add");
    assertThat(compilation)
        .hadErrorContaining("[P4J-TYPE-UNSUPPORTED] char is not a supported type for the result of Host.letter(int)")
        .inFile(host)
        .onLineContaining("host.Letter");
  }

  @Compilers
  void globalInAnEnumIsReported() {
    JavaFileObject mode =
        source(
            "p.Mode",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public enum Mode {
              ON;
              @Global("mode.Get") int get() { return 0; }
            }
            """);
    assertThat(compile(mode))
        .hadErrorContaining("[P4J-GLOBAL-NOT-INTERFACE] @Global method Mode.get() is declared in the enum Mode")
        .inFile(mode)
        .onLineContaining("mode.Get");
  }

  @Compilers
  void globalInAnAnnotationTypeIsReported() {
    JavaFileObject marker =
        source(
            "p.Marker",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public @interface Marker {
              @Global("marker.Value") int value();
            }
            """);
    // ECJ does not show processors an annotation on an element of an annotation type (as of 3.44): the options
    // processor, which runs in every compilation, finds it and reports what javac's run of the main processor does.
    // Both processors run, as the jar's service file lists them.
    Compilation compilation =
        Compilations.compiler(new Packed4jProcessor(), new Packed4jOptionsProcessor()).compile(marker);
    assertThat(compilation).hadErrorCount(1); // once: javac shows it to the main processor, ECJ to neither
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-GLOBAL-NOT-INTERFACE] @Global method Marker.value() is declared in the annotation type Marker")
        .inFile(marker)
        .onLineContaining("marker.Value");
  }

  @Compilers
  void globalOnADefaultMethodIsReported() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.Add") default int add(int a, int b) { return a + b; }
            }
            """);
    assertThat(compile(calculator))
        .hadErrorContaining(
            "[P4J-GLOBAL-NOT-ABSTRACT] @Global method Calculator.add(int,int) is a default method: the generated"
                + " class implements abstract methods only, so this binding would never be called. Make it abstract"
                + " (remove 'default' and the body), or remove @Global")
        .inFile(calculator)
        .onLineContaining("calculator.Add");
  }

  @Compilers
  void globalOnAStaticMethodIsReported() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.Add") static int add(int a, int b) { return a + b; }
            }
            """);
    assertThat(compile(calculator))
        .hadErrorContaining("[P4J-GLOBAL-NOT-ABSTRACT] @Global method Calculator.add(int,int) is a static method")
        .inFile(calculator)
        .onLineContaining("calculator.Add");
  }

  @Compilers
  void genericMethodIsReported() {
    JavaFileObject echo =
        source(
            "p.Echo",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Echo {
              @Global("test.Echo") <T> T echo(T value);
            }
            """);
    Compilation compilation = compile(echo);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-GLOBAL-GENERIC] @Global method Echo.echo(T) declares type parameters <T>: a native function has"
                + " one signature")
        .inFile(echo)
        .onLineContaining("test.Echo");
    // Its type variables are not reported again as unsupported types.
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void abstractMethodWithoutGlobalIsReportedOnThatMethod() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.Add") int add(int a, int b);
              int mul(int a, int b);
            }
            """);
    Compilation compilation = compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-GLOBAL-UNBOUND] Calculator has @Global methods, so packed4j implements it, but the abstract"
                + " method mul(int,int) has no @Global and cannot be implemented")
        .inFile(calculator)
        .onLineContaining("int mul(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void inheritedAbstractMethodWithoutGlobalIsReportedOnTheInterface() {
    JavaFileObject session =
        source(
            "p.Session",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Session extends AutoCloseable {
              @Global("session.Open") void open();
            }
            """);
    assertThat(compile(session))
        .hadErrorContaining(
            "[P4J-GLOBAL-UNBOUND] Session has @Global methods, so packed4j implements it, but the abstract method"
                + " close() (inherited from AutoCloseable) has no @Global")
        .inFile(session)
        .onLineContaining("interface Session");
  }

  @Compilers
  void checkedExceptionIsReported() {
    JavaFileObject files =
        source(
            "p.Files",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Files {
              @Global("files.Read") byte[] read(String path) throws java.io.IOException;
            }
            """);
    assertThat(compile(files))
        .hadErrorContaining(
            "[P4J-THROWS-CHECKED] Files.read(String) declares the checked exception IOException, which the"
                + " generated code never throws")
        .inFile(files)
        .onLineContaining("files.Read");
  }

  @Compilers
  void globalInAnObjectInterfaceIsReported() {
    JavaFileObject ref =
        source(
            "p.CalculatorRef",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import dev.packed4j.annotations.Object;
            @Object("Calculator")
            public interface CalculatorRef {
              long price();
              @Global("calculator.Reset") void reset();
            }
            """);
    assertThat(compile(ref))
        .hadErrorContaining(
            "[P4J-GLOBAL-IN-OBJECT] @Global method CalculatorRef.reset() is declared in the @Object interface"
                + " CalculatorRef")
        .inFile(ref)
        .onLineContaining("calculator.Reset");
  }

  @Compilers
  void annotationsOnMethodsOfObjectAreReportedOnTheAnnotation() {
    JavaFileObject api =
        source(
            "p.Api",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Api {
              @Global("shop.Add") int hashCode();
              @Global("shop.Name") String toString();
              @Global("shop.Same") boolean equals(Object other);
              @Global("shop.Add") long add(long a, long b);
            }
            """);
    Compilation compilation = compile(api);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-BINDING-OBJECT-METHOD] @Global on Api.hashCode(), which redeclares a method of java.lang.Object:"
                + " every class, the generated one too, inherits hashCode() from Object, so packed4j never implements"
                + " it and a call would never reach the native side. Give the method another name; the annotation"
                + " keeps the native one")
        .inFile(api)
        .onLineContaining("int hashCode()");
    assertThat(compilation)
        .hadErrorContaining("[P4J-BINDING-OBJECT-METHOD] @Global on Api.toString(), which redeclares")
        .inFile(api)
        .onLineContaining("String toString()");
    assertThat(compilation)
        .hadErrorContaining("[P4J-BINDING-OBJECT-METHOD] @Global on Api.equals(Object), which redeclares")
        .inFile(api)
        .onLineContaining("boolean equals");
    assertThat(compilation).hadErrorCount(3);
  }

  @Compilers
  void tooManyParametersForTheCallRouteAreReportedOnTheMethod() {
    // 250 int parameters and a long result need 250 + 2 + 3 = 255 slots: the most a method handle holds.
    String fits = java.util.stream.IntStream.range(0, 250).mapToObj(i -> "int p" + i)
        .collect(java.util.stream.Collectors.joining(", "));
    JavaFileObject api =
        source(
            "p.Api",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Api {
              @Global("shop.Fits") long fits(%s);
              @Global("shop.Many") long many(%s, int p250);
            }
            """.formatted(fits, fits));
    JavaFileObject item =
        source(
            "p.Item",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("shop.Item")
            public interface Item {
              long take(%s);
            }
            """.formatted(fits));
    Compilation compilation = compile(api, item);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-PARAMETER-SLOTS] Api.many(int,int,")
        .inFile(api)
        .onLineContaining("shop.Many");
    assertThat(compilation)
        .hadErrorContaining(
            "int) has 251 parameters, whose call route needs 256 JVM argument slots, more than the 255 a method"
                + " handle holds (a long, double, String or NDArray parameter takes two, any other parameter and the"
                + " object of a method one, a long or double result two, another result one, and the route itself 3,"
                + " 4 with String or NDArray parameters), so its first call would fail: the first 250 fit, up to"
                + " p249. Declare fewer parameters, passing the rest in a List, a Map or an @Object");
    // The object comes first in a method's route: the same 250 parameters need one slot more there.
    assertThat(compilation)
        .hadErrorContaining("int) has 250 parameters, whose call route needs 256 JVM argument slots")
        .inFile(item)
        .onLineContaining("long take(");
    assertThat(compilation).hadErrorCount(2);
  }
}
