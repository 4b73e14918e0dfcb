package dev.packed4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;
import static dev.packed4j.processor.Compilations.source;

import javax.tools.JavaFileObject;

/** {@code P4J-INTERFACE-*}: interfaces a generated class in the same package cannot implement. */
class InterfaceDiagnosticsTest {

  @Compilers
  void privateNestedInterfaceIsReported() {
    JavaFileObject outer =
        source(
            "p.Outer",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public class Outer {
              private interface Calculator {
                @Global("calculator.Add") int add(int a, int b);
              }
            }
            """);
    assertThat(compile(outer))
        .hadErrorContaining(
            "[P4J-INTERFACE-PRIVATE] Outer.Calculator is private, so the generated class Packed4j_Outer_Calculator"
                + " (in the same package) cannot implement it")
        .inFile(outer)
        .onLineContaining("private interface Calculator");
  }

  @Compilers
  void interfaceNestedInAPrivateClassIsReported() {
    JavaFileObject outer =
        source(
            "p.Outer",
            """
            package p;
            import dev.packed4j.annotations.Object;
            public class Outer {
              private static class Hidden {
                @Object("test.Node") interface NodeRef { long id(); }
              }
            }
            """);
    assertThat(compile(outer))
        .hadErrorContaining(
            "[P4J-INTERFACE-PRIVATE] Outer.Hidden.NodeRef is nested in the private type Outer.Hidden, so the"
                + " generated class Packed4j_Outer_Hidden_NodeRef")
        .inFile(outer)
        .onLineContaining("test.Node");
  }

  @Compilers
  void genericInterfaceIsReported() {
    JavaFileObject store =
        source(
            "p.Store",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Store<K> {
              @Global("store.Size") long size();
            }
            """);
    assertThat(compile(store))
        .hadErrorContaining(
            "[P4J-INTERFACE-GENERIC] Store declares type parameters <K>: the generated class needs concrete types")
        .inFile(store)
        .onLineContaining("interface Store");
  }

  @Compilers
  void sealedInterfaceIsReported() {
    JavaFileObject store =
        source(
            "p.Store",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public sealed interface Store permits Store.Local {
              @Global("store.Size") long size();
              final class Local implements Store { public long size() { return 0; } }
            }
            """);
    assertThat(compile(store))
        .hadErrorContaining(
            "[P4J-INTERFACE-SEALED] Store is sealed, so the generated class Packed4j_Store cannot implement it")
        .inFile(store)
        .onLineContaining("sealed interface Store");
  }
}
