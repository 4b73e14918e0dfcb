package dev.packed4j.processor;

import com.google.testing.compile.Compiler;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import javax.tools.DiagnosticListener;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import org.eclipse.jdt.internal.compiler.tool.EclipseCompiler;

/**
 * The compilers the processor's tests run under: javac, and Eclipse's compiler (ECJ), which Eclipse and VS Code's
 * Java tooling compile with while the user types. Each runs with its strictest warnings that make sense for user
 * code, so a test asserting no warnings also proves the generated code clean under it.
 */
enum TestCompiler {
  /** The JDK's compiler, every lint on ({@code -Xlint:all}). */
  JAVAC {
    @Override
    Compiler base() {
      return Compiler.javac();
    }

    @Override
    JavaCompiler tool() {
      return ToolProvider.getSystemJavaCompiler();
    }

    @Override
    List<String> strictOptions() {
      return List.of("-Xlint:all");
    }
  },
  /**
   * Eclipse's compiler through its {@code javax.tools} entry point, at release 25, with its default warnings (the
   * ones an Eclipse project starts with, among them "never used locally" and "unnecessary @SuppressWarnings") and
   * more that generated code should not raise: redundant casts and type arguments, missing {@code @Override}, dead
   * code, static access through an instance, redundant super-interfaces, unnecessary {@code else}.
   */
  ECJ {
    @Override
    Compiler base() {
      return Compiler.compiler(new QuietEclipseCompiler());
    }

    @Override
    JavaCompiler tool() {
      return new QuietEclipseCompiler();
    }

    @Override
    List<String> strictOptions() {
      return List.of(
          "--release",
          "25",
          "-warn:+uselessTypeCheck,allOver-ann,allDeadCode,semicolon,static-access,finalBound,hashCode,"
              + "intfRedundant,unnecessaryElse,unusedAllocation,unusedExceptionParam");
    }
  };

  /**
   * ECJ, with nothing printed: given no writer, as compile-testing gives none, ECJ prints every diagnostic to the
   * console besides reporting it to the listener, which filled the build's log with the tests' intended mistakes.
   */
  private static final class QuietEclipseCompiler extends EclipseCompiler {
    @Override
    public CompilationTask getTask(Writer out, JavaFileManager fileManager,
        DiagnosticListener<? super JavaFileObject> diagnosticListener, Iterable<String> options,
        Iterable<String> classes, Iterable<? extends JavaFileObject> compilationUnits) {
      return super.getTask(out != null ? out : Writer.nullWriter(), fileManager, diagnosticListener, options, classes,
          compilationUnits);
    }
  }

  /** The compiler, without processors, options or class path. */
  abstract Compiler base();

  /** The compiler itself, for compilations into directories (as a build tool runs it). */
  abstract JavaCompiler tool();

  /** The options every test compilation passes: the compiler's strictest warnings. */
  abstract List<String> strictOptions();

  /** {@link #strictOptions()} followed by {@code extra}. */
  List<String> options(String... extra) {
    List<String> options = new ArrayList<>(strictOptions());
    options.addAll(List.of(extra));
    return options;
  }

  /** The compiler a test runs under now (set by {@link Compilers} for each invocation). */
  static TestCompiler current() {
    TestCompiler compiler = CURRENT.get();
    if (compiler == null) {
      throw new IllegalStateException(
          "TestCompiler.current(): no compiler chosen; annotate the test with @Compilers instead of @Test");
    }
    return compiler;
  }

  static final ThreadLocal<TestCompiler> CURRENT = new ThreadLocal<>();

  /**
   * Runs {@code body} once under each compiler, for a test whose invocations are already parameterized otherwise
   * (a {@code @ParameterizedTest}); a failure names the compiler it happened under.
   */
  static void underEach(Runnable body) {
    for (TestCompiler compiler : values()) {
      CURRENT.set(compiler);
      try {
        body.run();
      } catch (AssertionError failure) {
        throw new AssertionError("under " + compiler + ": " + failure.getMessage(), failure);
      } finally {
        CURRENT.remove();
      }
    }
  }
}
