package dev.packed4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;
import static dev.packed4j.processor.Compilations.compiler;
import static dev.packed4j.processor.Compilations.source;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/** The processor across rounds, and when something goes wrong outside validation. */
class ProcessorTest {
  private static final JavaFileObject FACTORY =
      source(
          "p.Factory",
          """
          package p;
          import dev.packed4j.annotations.Global;
          import java.util.List;
          public interface Factory {
            @Global("test.Make") GeneratedRef make(long id);
            @Global("test.MakeMany") List<GeneratedRef> makeMany(long count);
          }
          """);

  private static final JavaFileObject DERIVED =
      source(
          "p.DerivedRef",
          """
          package p;
          import dev.packed4j.annotations.Object;
          @Object("test.Derived")
          public interface DerivedRef extends GeneratedRef {
            long extra();
          }
          """);

  @Compilers
  void interfaceUsingATypeGeneratedInALaterRoundWaitsForIt() {
    // The late processor runs first: packed4j claims its annotations, so javac would not offer a round holding
    // only those to a "*" processor after it.
    Compilation compilation =
        compiler(new LateTypeProcessor(), new Packed4jProcessor()).compile(FACTORY, DERIVED);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("p.Packed4j_Factory")
        .contentsAsUtf8String()
        .contains("Codecs.list(Codecs.object(GeneratedRef.class))");
    assertThat(compilation).generatedSourceFile("p.Packed4j_GeneratedRef");
    assertThat(compilation)
        .generatedSourceFile("p.Packed4j_DerivedRef")
        .contentsAsUtf8String()
        .contains("TYPE.field(\"id\", FieldKind.INT64)");
    assertThat(compilation)
        .generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/packed4j/object-types.properties")
        .contentsAsUtf8String()
        .contains("test.Derived=p.Packed4j_DerivedRef\ntest.Generated=p.Packed4j_GeneratedRef\n");
  }

  @Compilers
  void globalNameFromAConstantGeneratedInALaterRoundIsWaitedFor() {
    JavaFileObject maker =
        source(
            "p.Maker",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Maker {
              @Global(Names.MAKE) long make(long id);
            }
            """);
    Compilation compilation = compiler(new LateTypeProcessor(), new Packed4jProcessor()).compile(maker);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("p.Packed4j_Maker")
        .contentsAsUtf8String()
        .contains("\"test.Make\"");
  }

  @Compilers
  void globalNameFromAConstantThatNeverResolvesIsReportedAfterTheLastRound() {
    JavaFileObject maker =
        source(
            "p.Maker",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Maker {
              @Global(Names.MAKE) long make(long id);
            }
            """);
    assertThat(compile(maker))
        .hadErrorContaining(
            "[P4J-TYPE-UNRESOLVED] the value of @Global in Maker.make(long) could not be resolved by the last"
                + " processing round, so no class was generated for Maker")
        .inFile(maker)
        .onLineContaining("Names.MAKE");
  }

  @Compilers
  void annotationWithoutItsValueIsLeftToJavac(TestCompiler compiler) {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global() int add(int a, int b);
            }
            """);
    Compilation compilation = compile(calculator);
    // The compiler's own error, in its own words; packed4j adds none.
    assertThat(compilation)
        .hadErrorContaining(
            compiler == TestCompiler.JAVAC
                ? "is missing a default value for the element 'value'"
                : "The annotation @dev.packed4j.annotations.Global must define the attribute value");
    assertThat(compilation).hadErrorCount(1);
  }

  @Compilers
  void typeThatIsNeverGeneratedIsReportedOnceAfterTheLastRound() {
    Compilation compilation = compile(FACTORY, DERIVED);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNRESOLVED] GeneratedRef in Factory.make(long) could not be resolved by the last processing"
                + " round, so no class was generated for Factory")
        .inFile(FACTORY)
        .onLineContaining("test.Make\"");
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-TYPE-UNRESOLVED] GeneratedRef in the super-interfaces of DerivedRef could not be resolved")
        .inFile(DERIVED)
        .onLineContaining("interface DerivedRef");
    assertThat(compilation.errors().stream().filter(e -> e.getMessage(null).contains("P4J-")).count())
        .isEqualTo(2);
  }

  @Compilers
  void compilationWithoutThePacked4jAnnotationsIsLeftAlone() {
    // The processor also claims @Generated, so javac runs it for other processors' output.
    JavaFileObject generated =
        source(
            "p.Generated",
            """
            package p;
            @javax.annotation.processing.Generated("some.OtherProcessor")
            final class Generated {}
            """);
    assertThat(Compilations.compilerWithout("packed4j-annotations").compile(generated))
        .succeededWithoutWarnings();
  }

  @Compilers
  void packed4jOptionsAreRecognizedInACompilationWithoutPacked4jAnnotations(TestCompiler compiler) {
    // Maven's compiler plugin passes compilerArgs to the test sources too, which rarely hold @Global or @Object.
    JavaFileObject plain =
        source(
            "p.Plain",
            """
            package p;
            final class Plain {}
            """);
    List<String> options = List.of("-Apacked4j.manifest=unused.json", "-Apacked4j.verbose=true");
    assertThat(
            Compilations.compiler(options, new Packed4jProcessor(), new Packed4jOptionsProcessor()).compile(plain))
        .succeededWithoutWarnings();
    if (compiler == TestCompiler.JAVAC) {
      // What the options processor prevents: javac counts only the options of processors that ran.
      assertThat(Compilations.compiler(options, new Packed4jProcessor()).compile(plain))
          .hadWarningContaining("The following options were not recognized by any processor");
    }
  }

  @Compilers
  void theOptionsProcessorLeavesTheAnnotationsToOthers() {
    // After packed4j, as the service file lists it: claims nothing, so packed4j still generates, and a processor
    // after it still gets the rounds.
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.MyAdd") int add(int a, int b);
            }
            """);
    Compilation compilation =
        Compilations.compiler(List.of(), new Packed4jProcessor(), new Packed4jOptionsProcessor())
            .compile(calculator);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("p.Packed4j_Calculator");
  }

  @Compilers
  void anAnnotationNoProcessorClaimsIsStillWarnedAbout(TestCompiler compiler) {
    // The options processor supports "*" but claims nothing, so javac's -Xlint:processing warning about
    // annotations that no processor claimed comes as it would without packed4j.
    JavaFileObject marked =
        source(
            "p.Marked",
            """
            package p;
            import java.lang.annotation.Retention;
            import java.lang.annotation.RetentionPolicy;
            @Marked.Mark
            final class Marked {
              @Retention(RetentionPolicy.CLASS)
              @interface Mark {}
            }
            """);
    Compilation compilation =
        Compilations.compiler(List.of(), new Packed4jProcessor(), new Packed4jOptionsProcessor()).compile(marked);
    if (compiler == TestCompiler.JAVAC) {
      assertThat(compilation).hadWarningContaining("No processor claimed any of these annotations");
      assertThat(compilation).hadWarningContaining("p.Marked.Mark");
    } else {
      assertThat(compilation).succeededWithoutWarnings();
    }
  }

  @Test
  void theServiceFileListsBothProcessors() throws IOException {
    try (InputStream in =
        Packed4jProcessor.class.getResourceAsStream("/META-INF/services/javax.annotation.processing.Processor")) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList())
          .containsExactly(Packed4jProcessor.class.getName(), Packed4jOptionsProcessor.class.getName())
          .inOrder();
    }
  }

  @Compilers
  void exceptionWhileGeneratingIsReportedOnTheInterfaceAndDoesNotCrashJavac() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.MyAdd") int add(int a, int b);
            }
            """);
    Compilation compilation =
        compiler(new FailingEnvironmentProcessor(FailingEnvironmentProcessor.Failure.FILER)).compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-INTERNAL] packed4j failed while processing p.Calculator; this is a bug in packed4j, please report"
                + " it with this trace:")
        .inFile(calculator)
        .onLineContaining("interface Calculator");
    assertThat(compilation).hadErrorContaining("java.lang.IllegalStateException: disk on fire");
    assertThat(compilation).hadErrorContaining("at dev.packed4j.processor.Packed4jProcessor.write");
  }

  @Compilers
  void exceptionOutsideAnyInterfaceIsReportedWithItsTrace() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.MyAdd") int add(int a, int b);
            }
            """);
    Compilation compilation =
        compiler(new FailingEnvironmentProcessor(FailingEnvironmentProcessor.Failure.ROUND)).compile(calculator);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-INTERNAL] packed4j failed while processing a processing round; this is a bug in packed4j");
    assertThat(compilation).hadErrorContaining("java.lang.IllegalStateException: disk on fire");
  }

  @Compilers
  void generatedNameTakenByAnotherTypeIsReported() {
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.MyAdd") int add(int a, int b);
            }
            """);
    JavaFileObject clash =
        source(
            "p.Packed4j_Calculator",
            """
            package p;
            public final class Packed4j_Calculator {}
            """);
    Compilation compilation = compile(calculator, clash);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-GENERATED-WRITE] cannot write p.Packed4j_Calculator, generated for p.Calculator:")
        .inFile(calculator)
        .onLineContaining("interface Calculator");
    assertThat(compilation)
        .hadErrorContaining(
            "If another type has that name, rename it: packed4j names the class generated for Outer.Inner"
                + " Packed4j_Outer_Inner");
  }

  @Compilers
  void staleGeneratedClassOfAnEarlierBuildIsNamedAsTheCause() {
    // An incremental build that compiles the generated sources directory again, with packed4j's old output in it.
    JavaFileObject calculator =
        source(
            "p.Calculator",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Calculator {
              @Global("calculator.MyAdd") int add(int a, int b);
            }
            """);
    JavaFileObject stale =
        source(
            "p.Packed4j_Calculator",
            """
            package p;
            @javax.annotation.processing.Generated("dev.packed4j.processor.Packed4jProcessor")
            public final class Packed4j_Calculator {}
            """);
    Compilation compilation = compile(calculator, stale);
    assertThat(compilation)
        .hadErrorContaining(
            "[P4J-GENERATED-WRITE] cannot write p.Packed4j_Calculator, generated for p.Calculator:")
        .inFile(calculator)
        .onLineContaining("interface Calculator");
    assertThat(compilation)
        .hadErrorContaining(
            "The class there is packed4j's own output of an earlier build: a stale generated file, compiled again"
                + " as a source, or (ECJ, which does not replace it) a class an earlier build left in the output"
                + " directory on the class path. Delete the generated sources and build again (mvn clean; in Eclipse"
                + " Project > Clean; in IntelliJ Build > Rebuild Project; with Gradle, clean), or remove"
                + " p.Packed4j_Calculator from the generated sources directory (Maven:"
                + " target/generated-sources/annotations) and its class from the output");
    assertThat(compilation.errors().stream().filter(e -> e.getMessage(null).contains("P4J-")).count())
        .isEqualTo(1);
  }
}
