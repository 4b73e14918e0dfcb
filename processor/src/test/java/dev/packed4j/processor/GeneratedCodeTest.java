package dev.packed4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;
import static dev.packed4j.processor.Compilations.source;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.OwnedHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;

/**
 * What the processor generates for valid interfaces: the shapes of docs/architecture.md ("Generated code and the
 * runtime"), compiled against the runtime with every lint on and no warning.
 */
class GeneratedCodeTest {
  private static final JavaFileObject CALCULATOR =
      source(
          "p.Calculator",
          """
          package p;
          import dev.packed4j.annotations.Global;
          import java.util.List;
          public interface Calculator {
            @Global("calculator.MyAdd") int add(int a, int b);
            @Global("calculator.CreateCalculator") CalculatorRef create(String brand, long price);
            @Global("calculator.Sum") long sum(List<Long> values);
            @Global("calculator.PrintCalculators") void print(List<CalculatorRef> calculators);
          }
          """);

  private static final JavaFileObject CALCULATOR_REF =
      source(
          "p.CalculatorRef",
          """
          package p;
          import dev.packed4j.annotations.Object;
          @Object("Calculator")
          public interface CalculatorRef extends AutoCloseable {
            String brand();
            long price();
            @Override void close();
          }
          """);

  /** Asserts on the text of a generated file, whitespace-insensitively: JavaPoet decides where lines wrap. */
  private static GeneratedSource assertGenerated(Compilation compilation, String qualifiedName) {
    JavaFileObject file =
        compilation
            .generatedSourceFile(qualifiedName)
            .orElseThrow(() -> new AssertionError("no generated source " + qualifiedName));
    try {
      return new GeneratedSource(file.getCharContent(true).toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private record GeneratedSource(String code) {
    GeneratedSource contains(String expected) {
      assertWithMessage(code).that(normalize(code)).contains(normalize(expected));
      return this;
    }

    GeneratedSource doesNotContain(String unexpected) {
      assertWithMessage(code).that(normalize(code)).doesNotContain(normalize(unexpected));
      return this;
    }

    /** One space for each run of whitespace, none after an opening or before a closing bracket. */
    private static String normalize(String text) {
      return text.replaceAll("\\s+", " ").replaceAll("([({\\[]) ", "$1").replaceAll(" ([)}\\]])", "$1");
    }
  }

  @Compilers
  void bindingHasTheShapeOfTheContract() {
    Compilation compilation = compile(CALCULATOR, CALCULATOR_REF);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("p.Packed4j_Calculator")
        .hasSourceEquivalentTo(
            source(
                "p.Packed4j_Calculator",
                """
                package p;

                import dev.packed4j.runtime.binding.Codec;
                import dev.packed4j.runtime.binding.Codecs;
                import dev.packed4j.runtime.binding.FunctionSite;
                import java.lang.invoke.MethodHandle;
                import java.lang.invoke.MethodType;
                import java.util.List;
                import java.util.Map;
                import javax.annotation.processing.Generated;

                @Generated("dev.packed4j.processor.Packed4jProcessor")
                public final class Packed4j_Calculator implements Calculator {
                  private static final FunctionSite ADD =
                      new FunctionSite("calculator.MyAdd", "Calculator.add", new String[] {"a", "b"});
                  private static final FunctionSite CREATE =
                      new FunctionSite("calculator.CreateCalculator", "Calculator.create",
                          new String[] {"brand", "price"});
                  private static final Codec<CalculatorRef> CREATE_RESULT = Codecs.object(CalculatorRef.class);
                  private static final FunctionSite SUM =
                      new FunctionSite("calculator.Sum", "Calculator.sum", new String[] {"values"});
                  private static final Codec<List<Long>> SUM_ARG_0 = Codecs.list(Codecs.LONG);
                  private static final FunctionSite PRINT =
                      new FunctionSite("calculator.PrintCalculators", "Calculator.print",
                          new String[] {"calculators"});
                  private static final Codec<List<CalculatorRef>> PRINT_ARG_0 =
                      Codecs.list(Codecs.object(CalculatorRef.class));

                  /** The global each method binds, by name and erased parameter types: what {@code Packed4j.bindChecked} checks. */
                  public static final Map<String, String> GLOBALS = Map.ofEntries(
                      Map.entry("add(int,int)", "calculator.MyAdd"),
                      Map.entry("create(java.lang.String,long)", "calculator.CreateCalculator"),
                      Map.entry("sum(java.util.List)", "calculator.Sum"),
                      Map.entry("print(java.util.List)", "calculator.PrintCalculators"));

                  /** The type member each constructor and static method calls. */
                  public static final Map<String, String> MEMBERS = Map.of();

                  public Packed4j_Calculator() {}

                  @Override public int add(int a, int b) {
                    try {
                      return (int) AddRoute.HANDLE.invokeExact(a, b);
                    } catch (Throwable e) {
                      throw FunctionSite.rethrow(e);
                    }
                  }

                  @Override public CalculatorRef create(String brand, long price) {
                    try {
                      return (CalculatorRef) CreateRoute.HANDLE.invokeExact(brand, price);
                    } catch (Throwable e) {
                      throw FunctionSite.rethrow(e);
                    }
                  }

                  @Override public long sum(List<Long> values) {
                    try {
                      return (long) SumRoute.HANDLE.invokeExact(values);
                    } catch (Throwable e) {
                      throw FunctionSite.rethrow(e);
                    }
                  }

                  @Override public void print(List<CalculatorRef> calculators) {
                    try {
                      PrintRoute.HANDLE.invokeExact(calculators);
                    } catch (Throwable e) {
                      throw FunctionSite.rethrow(e);
                    }
                  }

                  /** The call of {@code add} to {@code calculator.MyAdd}: linked at its first call, relinked when a library loads. */
                  private static final class AddRoute {
                    static final MethodHandle HANDLE = ADD.link(MethodType.methodType(int.class, int.class, int.class),
                        Codecs.INT, Codecs.INT, Codecs.INT);
                  }

                  private static final class CreateRoute {
                    static final MethodHandle HANDLE = CREATE.link(
                        MethodType.methodType(CalculatorRef.class, String.class, long.class),
                        Codecs.STRING, Codecs.LONG, CREATE_RESULT);
                  }

                  private static final class SumRoute {
                    static final MethodHandle HANDLE = SUM.link(MethodType.methodType(long.class, List.class),
                        SUM_ARG_0, Codecs.LONG);
                  }

                  private static final class PrintRoute {
                    static final MethodHandle HANDLE = PRINT.link(MethodType.methodType(void.class, List.class),
                        PRINT_ARG_0);
                  }
                }
                """));
  }

  @Compilers
  void everyMethodCallsTheHandleTheRuntimeLinksFromItsTypeAndCodecs() {
    JavaFileObject scalars =
        source(
            "p.Scalars",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Scalars {
              @Global("s.Set") void set(boolean flag, byte b, short s, float f);
              @Global("s.Half") double half(double value);
              @Global("s.IsEven") boolean isEven(long value);
              @Global("s.Half") float half(float value);
              @Global("s.Boxed") long boxed(Long value);
              @Global("s.Text") long length(String text);
            }
            """);
    Compilation compilation = compile(scalars);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Scalars")
        .contains(
            """
            public void set(boolean flag, byte b, short s, float f) {
              try {
                SetRoute.HANDLE.invokeExact(flag, b, s, f);
              } catch (Throwable e) {
                throw FunctionSite.rethrow(e);
              }
            }
            """)
        .contains(
            "static final MethodHandle HANDLE = SET.link(MethodType.methodType(void.class, boolean.class, byte.class,"
                + " short.class, float.class), Codecs.BOOLEAN, Codecs.BYTE, Codecs.SHORT, Codecs.FLOAT);")
        .contains("return (boolean) IsEvenRoute.HANDLE.invokeExact(value);")
        .contains("private static final class HalfRoute {")
        .contains(
            "private static final class Half2Route { static final MethodHandle HANDLE ="
                + " HALF_2.link(MethodType.methodType(float.class, float.class), Codecs.FLOAT, Codecs.FLOAT); }")
        .contains("private static final class LengthRoute {")
        .contains(
            "BOXED.link(MethodType.methodType(long.class, Long.class), Codecs.LONG, Codecs.LONG)")
        .doesNotContain("ThroughFrame")
        .doesNotContain("CallFrame");
  }

  @Compilers
  void stringsAndBytesPassAsThemselves() {
    JavaFileObject texts =
        source(
            "p.Texts",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import java.util.Optional;
            public interface Texts {
              @Global("t.Weigh") long weigh(String text, int mark, String scratch);
              @Global("t.Log") void log(String line);
              @Global("t.Echo") String echo(String text);
              @Global("t.Maybe") long maybe(Optional<String> text);
              @Global("t.Bytes") long size(byte[] data);
            }
            """);
    Compilation compilation = compile(texts);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Texts")
        .contains(
            """
            public long weigh(String text, int mark, String scratch) {
              try {
                return (long) WeighRoute.HANDLE.invokeExact(text, mark, scratch);
              } catch (Throwable e) {
                throw FunctionSite.rethrow(e);
              }
            }
            """)
        .contains(
            "static final MethodHandle HANDLE = WEIGH.link(MethodType.methodType(long.class, String.class, int.class,"
                + " String.class), Codecs.STRING, Codecs.INT, Codecs.STRING, Codecs.LONG);")
        .contains("LogRoute.HANDLE.invokeExact(line);")
        .contains("return (String) EchoRoute.HANDLE.invokeExact(text);")
        .contains(
            "MAYBE.link(MethodType.methodType(long.class, Optional.class), MAYBE_ARG_0, Codecs.LONG)")
        .contains("SIZE.link(MethodType.methodType(long.class, byte[].class), Codecs.BYTES, Codecs.LONG)")
        .doesNotContain("Scratch");
  }

  @Compilers
  void tensorsAndPrimitiveArraysTakeTheirCodecs() {
    JavaFileObject tensors =
        source(
            "p.Tensors",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import dev.packed4j.runtime.NDArray;
            public interface Tensors {
              @Global("t.MatMul") NDArray matmul(NDArray a, NDArray b);
              @Global("t.Sum") double sum(double[] values);
              @Global("t.Count") long count(float[] a, int[] b, long[] c);
            }
            """);
    Compilation compilation = compile(tensors);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Tensors")
        .contains(
            """
            public NDArray matmul(NDArray a, NDArray b) {
              try {
                return (NDArray) MatmulRoute.HANDLE.invokeExact(a, b);
              } catch (Throwable e) {
                throw FunctionSite.rethrow(e);
              }
            }
            """)
        .contains(
            "MATMUL.link(MethodType.methodType(NDArray.class, NDArray.class, NDArray.class), Codecs.NDARRAY,"
                + " Codecs.NDARRAY, Codecs.NDARRAY)")
        .contains(
            "SUM.link(MethodType.methodType(double.class, double[].class), Codecs.DOUBLE_ARRAY, Codecs.DOUBLE)")
        .contains(
            "COUNT.link(MethodType.methodType(long.class, float[].class, int[].class, long[].class),"
                + " Codecs.FLOAT_ARRAY, Codecs.INT_ARRAY, Codecs.LONG_ARRAY, Codecs.LONG)")
        .contains("Map.entry(\"sum(double[])\", \"t.Sum\")");
  }

  @Compilers
  void routeNamesDoNotClashWithParametersMemberTypesOrMethods() {
    JavaFileObject clashing =
        source(
            "p.Clashing",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Clashing {
              interface AddRoute {}
              @Global("c.Add") long add(long HANDLE, long e);
              @Global("c.Sub") long sub(long SubRoute, long b);
              @Global("c.Other") long addRoute(long a);
              @Global("c.Handle") long handle(long a);
            }
            """);
    Compilation compilation = compile(clashing);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Clashing")
        .contains("return (long) AddRoute_2.HANDLE.invokeExact(HANDLE, e);")
        .contains("} catch (Throwable e2) { throw FunctionSite.rethrow(e2); }")
        .contains("return (long) Packed4j_Clashing.SubRoute.HANDLE.invokeExact(SubRoute, b);")
        .contains("return (long) AddRouteRoute.HANDLE.invokeExact(a);")
        .contains("static final MethodHandle HANDLE = HANDLE_2.link(");
  }

  @Compilers
  void objectClassHasTheShapeOfTheContract() {
    Compilation compilation = compile(CALCULATOR, CALCULATOR_REF);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("p.Packed4j_CalculatorRef")
        .hasSourceEquivalentTo(
            source(
                "p.Packed4j_CalculatorRef",
                """
                package p;

                import dev.packed4j.runtime.ObjectRef;
                import dev.packed4j.runtime.OwnedHandle;
                import dev.packed4j.runtime.binding.FieldKind;
                import dev.packed4j.runtime.binding.FieldSlot;
                import dev.packed4j.runtime.binding.ObjectType;
                import java.util.Map;
                import javax.annotation.processing.Generated;

                @Generated("dev.packed4j.processor.Packed4jProcessor")
                public final class Packed4j_CalculatorRef extends ObjectRef implements CalculatorRef {
                  public static final ObjectType<CalculatorRef> TYPE =
                      ObjectType.define(CalculatorRef.class, "Calculator", Packed4j_CalculatorRef::new);

                  public static final String TYPE_KEY = "Calculator";

                  public static final Map<String, String> MEMBERS =
                      Map.ofEntries(Map.entry("brand()", "get brand"), Map.entry("price()", "get price"));

                  private Packed4j_CalculatorRef(OwnedHandle handle) { super(handle); }

                  @Override public String brand() { return Fields.BRAND.readString(this); }
                  @Override public long price() { return Fields.PRICE.readLong(this); }

                  private static final class Fields {
                    static final FieldSlot BRAND = TYPE.field("brand", FieldKind.STRING);
                    static final FieldSlot PRICE = TYPE.field("price", FieldKind.INT64);
                  }
                }
                """));
  }

  @Compilers
  void objectTypeIndexListsTheGeneratedClassOfEachTypeKey() {
    JavaFileObject shapes =
        source(
            "p.Shapes",
            """
            package p;
            import dev.packed4j.annotations.Object;
            public interface Shapes {
              @Object("test.Shape") interface Shape { double area(); }
              @Object("test.Square") interface Square extends Shape { double side(); }
            }
            """);
    Compilation compilation = compile(CALCULATOR, CALCULATOR_REF, shapes);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/packed4j/object-types.properties")
        .contentsAsUtf8String()
        .isEqualTo(
            """
            # Generated by packed4j-processor: native type key = generated class.
            Calculator=p.Packed4j_CalculatorRef
            test.Shape=p.Packed4j_Shapes_Shape
            test.Square=p.Packed4j_Shapes_Square
            """);
  }

  @Compilers
  void closuresOutAreNativeClosuresUnlessTheInterfaceHasItsOwnClose() {
    JavaFileObject factories =
        source(
            "p.Factories",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import java.util.function.Function;
            import java.util.function.LongUnaryOperator;
            public interface Factories {
              /** Has a close() of its own, which NativeClosure's default close() would clash with. */
              @FunctionalInterface interface Step { long step(long x); default void close() {} }
              /** Has a packedFunction() of its own: the same clash. */
              @FunctionalInterface interface Tagged { long tag(long x); default long packedFunction() { return 0; } }
              /** A static close() is not inherited, so it does not clash. */
              @FunctionalInterface interface Pure { long apply(long x); static void close() {} }
              @Global("test.MakeCounter") LongUnaryOperator counter(long start);
              @Global("test.MakeStep") Step step(long start);
              @Global("test.MakeTagged") Tagged tagged(long start);
              @Global("test.MakePure") Pure pure(long start);
              @Global("test.MakeMapper") Function<String, String> mapper(String suffix);
            }
            """);
    Compilation compilation = compile(factories);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Factories")
        .contains("function -> (LongUnaryOperator & NativeClosure) a0 ->")
        .contains("function -> (Factories.Pure & NativeClosure) a0 ->")
        .contains("function -> (Function<String, String> & NativeClosure) a0 ->")
        .contains("function -> a0 -> Callbacks.call(function, Codecs.LONG, a0)")
        .doesNotContain("(Factories.Step & NativeClosure)")
        .doesNotContain("(Factories.Tagged & NativeClosure)");
  }

  @Compilers
  void noObjectTypeIndexWithoutObjectInterfaces() {
    JavaFileObject echo =
        source(
            "p.Echo",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Echo {
              @Global("test.EchoString") String echo(String value);
            }
            """);
    Compilation compilation = compile(echo);
    assertThat(compilation).succeededWithoutWarnings();
    // The processor looks for an earlier index to prune, and javac's Filer looks up an output file through
    // getFileForOutput, which compile-testing answers with a file object it lists even though nothing is written
    // to it (reading it fails as for a missing file).
    Optional<JavaFileObject> index =
        compilation.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/packed4j/object-types.properties");
    if (index.isPresent()) {
      assertThrows(IOException.class, () -> index.get().getCharContent(true));
    }
  }

  @Compilers
  void generatedClassesHaveWhatTheRuntimeLoadsThemBy() throws Exception {
    CompiledClasses classes = new CompiledClasses(compile(CALCULATOR, CALCULATOR_REF));

    Class<?> binding = classes.load("p.Packed4j_Calculator");
    assertThat(Modifier.isPublic(binding.getModifiers()) && Modifier.isFinal(binding.getModifiers())).isTrue();
    assertThat(binding.getInterfaces()).asList().containsExactly(classes.load("p.Calculator"));
    Constructor<?> constructor = binding.getConstructor();
    assertThat(Modifier.isPublic(constructor.getModifiers())).isTrue();

    Class<?> object = classes.load("p.Packed4j_CalculatorRef");
    assertThat(object.getSuperclass()).isEqualTo(ObjectRef.class);
    assertThat(Modifier.isFinal(object.getModifiers())).isTrue();
    Field type = object.getField("TYPE");
    assertThat(Modifier.isStatic(type.getModifiers()) && Modifier.isFinal(type.getModifiers())).isTrue();
    // Built only from the runtime's unforgeable token, never from an address.
    assertThat(Modifier.isPrivate(object.getDeclaredConstructor(OwnedHandle.class).getModifiers())).isTrue();
  }

  @Compilers
  void globalsNameEveryMethodAsReflectionSpellsIt() throws Exception {
    JavaFileObject outer =
        source(
            "p.Outer",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import dev.packed4j.annotations.Object;
            import java.util.List;
            public interface Outer {
              @Object("Inner") interface InnerRef { long id(); }
              interface Functions {
                @Global("o.Take") void take(InnerRef inner, List<InnerRef> all, byte... bytes);
                @Global("o.Take") void take(long id);
              }
            }
            """);
    CompiledClasses classes = new CompiledClasses(compile(outer));
    Class<?> functions = classes.load("p.Outer$Functions");
    @SuppressWarnings("unchecked")
    Map<String, String> globals =
        (Map<String, String>) classes.load("p.Packed4j_Outer_Functions").getField("GLOBALS").get(null);
    // The key Packed4j.bindChecked builds for each method by reflection.
    Set<String> keys = new HashSet<>();
    for (Method method : functions.getMethods()) {
      keys.add(
          method.getName()
              + Arrays.stream(method.getParameterTypes())
                  .map(Class::getTypeName)
                  .collect(Collectors.joining(",", "(", ")")));
    }
    assertThat(globals.keySet()).containsExactlyElementsIn(keys);
    assertThat(globals)
        .containsEntry("take(p.Outer$InnerRef,java.util.List,byte[])", "o.Take");
  }

  @Compilers
  void everySupportedTypeCompilesWithoutWarnings() {
    JavaFileObject everything =
        source(
            "p.Everything",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import dev.packed4j.runtime.NativeList;
            import dev.packed4j.runtime.NativeMap;
            import dev.packed4j.runtime.NativeObject;
            import dev.packed4j.runtime.PackedFunction;
            import java.util.List;
            import java.util.Map;
            import java.util.Optional;
            public interface Everything {
              @Global("all.Primitives")
              double primitives(boolean z, byte b, short s, int i, long l, float f, double d);
              @Global("all.Boxes")
              Double boxes(Boolean z, Byte b, Short s, Integer i, Long l, Float f, Double d);
              @Global("all.Bool") boolean bool();
              @Global("all.Byte") byte oneByte();
              @Global("all.Short") short oneShort();
              @Global("all.Float") float oneFloat();
              @Global("all.Text") String text(String value, byte[] bytes);
              @Global("all.Bytes") byte[] bytes(byte... chunk);
              @Global("all.Any") Object any(Object value);
              @Global("all.Native") NativeObject nativeObject(NativeObject value);
              @Global("all.Function") PackedFunction function(PackedFunction callback);
              @Global("all.Nested")
              Map<String, List<Map<Long, Optional<CalculatorRef>>>> nested(
                  List<List<Double>> matrix, Map<CalculatorRef, List<String>> byObject, Map<Integer, byte[]> blobs);
              @Global("all.Live") NativeList<NativeMap<Short, Object>> live(NativeMap<Byte, NativeList<Boolean>> in);
              @Global("all.Maybe") Optional<List<CalculatorRef>> maybe(Optional<String> name);
              @Global("all.Nothing") void nothing();
            }
            """);
    Compilation compilation = compile(everything, CALCULATOR_REF);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Everything").contains(
            "private static final Codec<Map<String, List<Map<Long, Optional<CalculatorRef>>>>> NESTED_RESULT ="
                + " Codecs.map(Codecs.STRING, Codecs.list(Codecs.map(Codecs.LONG,"
                + " Codecs.optional(Codecs.object(CalculatorRef.class)))));");
    assertGenerated(compilation, "p.Packed4j_Everything")
        .contains("Codecs.nativeList(Codecs.nativeMap(Codecs.SHORT, Codecs.ANY))")
        .contains("public byte[] bytes(byte... chunk)");
  }

  @Compilers
  void objectInheritanceReadsInheritedFields() {
    JavaFileObject node =
        source(
            "p.Node",
            """
            package p;
            import dev.packed4j.annotations.Field;
            import dev.packed4j.annotations.Object;
            import dev.packed4j.runtime.NativeObject;
            @Object("test.Node")
            public interface Node extends AutoCloseable {
              int small();
              long big();
              @Field("unsigned_big") long unsignedBig();
              double ratio();
              boolean flag();
              String name();
              Node child();
              NativeObject payload();
              boolean isClosed();
              String typeKey();
              @Override void close();
              default String describe() { return name() + small(); }
              static String key() { return "test.Node"; }
            }
            """);
    JavaFileObject derived =
        source(
            "p.DerivedNode",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("test.DerivedNode")
            public interface DerivedNode extends Node, java.io.Closeable {
              long extra();
              @Override DerivedNode child();
            }
            """);
    Compilation compilation = compile(node, derived);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_DerivedNode")
        .contains(
            "@Override public DerivedNode child() { return Fields.CHILD.readObject(this, Fields.CHILD_CODEC); }");
    for (String expected :
        new String[] {
          "static final FieldSlot SMALL = TYPE.field(\"small\", FieldKind.INT32);",
          "static final FieldSlot UNSIGNED_BIG = TYPE.field(\"unsigned_big\", FieldKind.INT64);",
          "static final FieldSlot RATIO = TYPE.field(\"ratio\", FieldKind.FLOAT64);",
          "static final FieldSlot FLAG = TYPE.field(\"flag\", FieldKind.BOOL);",
          "static final FieldSlot PAYLOAD = TYPE.field(\"payload\", FieldKind.OBJECT);",
          "static final Codec<DerivedNode> CHILD_CODEC = Codecs.object(DerivedNode.class);",
          "static final FieldSlot EXTRA = TYPE.field(\"extra\", FieldKind.INT64);",
          "return Fields.PAYLOAD.readObject(this, Fields.PAYLOAD_CODEC);",
          "return Fields.SMALL.readInt(this);",
          "return Fields.FLAG.readBoolean(this);",
          "return Fields.RATIO.readDouble(this);",
        }) {
      assertGenerated(compilation, "p.Packed4j_DerivedNode").contains(expected);
    }
    assertGenerated(compilation, "p.Packed4j_Node").doesNotContain("isClosed");
  }

  @Compilers
  void nestedInterfacesAreNamedAfterTheirOuterTypes() {
    JavaFileObject api =
        source(
            "p.Api",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import dev.packed4j.annotations.Object;
            public final class Api {
              private Api() {}
              public interface Geometry {
                @Global("geometry.Origin") Point origin();
                @Global("geometry.Distance") double distance(Point a, Point b);
              }
              @Object("geometry.Point")
              public interface Point {
                double x();
                double y();
              }
            }
            """);
    Compilation compilation = compile(api);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Api_Geometry")
        .contains("public final class Packed4j_Api_Geometry implements Api.Geometry {")
        .contains("new FunctionSite(\"geometry.Origin\", \"Api.Geometry.origin\"")
        .contains("public Api.Point origin()");
    assertGenerated(compilation, "p.Packed4j_Api_Point")
        .contains("ObjectType.define(Api.Point.class, \"geometry.Point\", Packed4j_Api_Point::new)");
  }

  @Compilers
  void oneFunctionMayBeBoundWithDifferentJavaTypesAndInSeveralInterfaces() {
    JavaFileObject values =
        source(
            "p.Values",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Values {
              @Global("test.EchoInt64") long echoLong(long value);
              @Global("test.EchoInt64") int echoLongAsInt(long value);
              @Global("test.EchoInt64") Long echoBoxed(Long value);
              @Global("test.EchoString") String echo(String value);
              @Global("test.EchoFloat64") double echo(double value);
            }
            """);
    JavaFileObject more =
        source(
            "p.More",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface More {
              @Global("test.EchoInt64") long echoLong(long value);
            }
            """);
    Compilation compilation = compile(values, more);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Values").contains("private static final FunctionSite ECHO_2 =");
  }

  @Compilers
  void namesOfTheInterfaceDoNotShadowTheGeneratedCode() {
    JavaFileObject shadowing =
        source(
            "p.Shadowing",
            """
            package p;
            import dev.packed4j.annotations.Global;
            import java.util.List;
            public interface Shadowing {
              int ADD = 1;
              interface CallFrame {}
              interface Codecs {}
              class FunctionSite {}
              @Global("shadow.Add") long add(long frame, long ADD);
              @Global("shadow.Sum") long sum(List<Long> SUM_ARG_0, List<Long> frame2);
            }
            """);
    Compilation compilation = compile(shadowing);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Shadowing")
        .contains("return (long) AddRoute.HANDLE.invokeExact(frame, ADD);")
        .contains(
            "static final MethodHandle HANDLE = ADD.link(MethodType.methodType(long.class, long.class, long.class),"
                + " dev.packed4j.runtime.binding.Codecs.LONG, dev.packed4j.runtime.binding.Codecs.LONG,"
                + " dev.packed4j.runtime.binding.Codecs.LONG);")
        .contains(
            "SUM.link(MethodType.methodType(long.class, List.class, List.class), SUM_ARG_0, SUM_ARG_1,"
                + " dev.packed4j.runtime.binding.Codecs.LONG)")
        .contains("throw dev.packed4j.runtime.binding.FunctionSite.rethrow(e);");
  }

  @Compilers
  void parametersNamedLikeWhatTheBodyNamesAreRenamedInTheImplementation() {
    JavaFileObject api =
        source(
            "p.Api",
            """
            package p;
            import dev.packed4j.annotations.Constructor;
            import dev.packed4j.annotations.Global;
            import dev.packed4j.annotations.Method;
            import java.util.List;
            public interface Api {
              @Global("shop.Add") long add(long Codecs, long FunctionSite);
              @Global("shop.Sum") long sum(List<Long> Packed4j_Api, long ReleaseEpochs, long FunctionSite2);
              @Global("shop.Sub") long sub(long SubRoute, long e);
              @Constructor Item make(String FunctionSite, long MethodHandle);
              @Method(of = Item.class, value = "blank") Item blank(long FunctionSite);
            }
            """);
    JavaFileObject item =
        source(
            "p.Item",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("shop.Item")
            public interface Item {
              long qty();
              void qty(long Fields);
              String name();
              void name(String FunctionSite);
              long take(long FunctionSite, long Fields, long TakeRoute, long TAKE, long Packed4j_Item);
            }
            """);
    JavaFileObject book =
        source(
            "p.Book",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Object("shop.Book")
            public interface Book extends Item {
              String author();
              long lend(long FunctionSite, long override);
            }
            """);
    // A member type named FunctionSite makes JavaPoet qualify it from its package's first segment, "dev".
    JavaFileObject shadowed =
        source(
            "p.Shadowed",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Shadowed {
              class FunctionSite {}
              @Global("shop.Add") long add(long dev, long packed4j);
            }
            """);
    Compilation compilation = compile(api, item, book, shadowed);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Api")
        .contains("public long add(long Codecs, long FunctionSite2) {")
        .contains("return (long) AddRoute.HANDLE.invokeExact(Codecs, FunctionSite2);")
        .contains("} catch (Throwable e) { throw FunctionSite.rethrow(e); }")
        .contains("public long sum(List<Long> Packed4j_Api2, long ReleaseEpochs, long FunctionSite2) {")
        .contains("return (long) SumRoute.HANDLE.invokeExact(Packed4j_Api2, ReleaseEpochs, FunctionSite2);")
        .contains("return (long) Packed4j_Api.SubRoute.HANDLE.invokeExact(SubRoute, e);")
        .contains("public Item make(String FunctionSite2, long MethodHandle) {")
        .contains("public Item blank(long FunctionSite2) {");
    assertGenerated(compilation, "p.Packed4j_Item")
        .contains("public void qty(long Fields2) { Fields.QTY.writeLong(this, Fields2); }")
        .contains("public void name(String FunctionSite2) { Fields.NAME.writeString(this, FunctionSite2); }")
        .contains(
            "public long take(long FunctionSite2, long Fields, long TakeRoute, long TAKE, long Packed4j_Item2) {");
    assertGenerated(compilation, "p.Packed4j_Book")
        .contains("public void qty(long Fields2) { Fields.QTY.writeLong(this, Fields2); }")
        .contains("public long lend(long FunctionSite2, long override) {");
    assertGenerated(compilation, "p.Packed4j_Shadowed")
        .contains("public long add(long dev2, long packed4j) {")
        .contains("throw dev.packed4j.runtime.binding.FunctionSite.rethrow(e);");
  }

  @Compilers
  void inheritedGlobalMethodsAreImplementedToo() {
    JavaFileObject base =
        source(
            "p.Base",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Base {
              @Global("base.Version") String version();
              @Global("base.Ping") void ping();
            }
            """);
    JavaFileObject sub =
        source(
            "p.Sub",
            """
            package p;
            import dev.packed4j.annotations.Global;
            public interface Sub extends Base {
              @Global("sub.Work") long work(long units);
              @Override default void ping() {}
              @Override String toString();
            }
            """);
    Compilation compilation = compile(base, sub);
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(compilation, "p.Packed4j_Sub")
        .contains("new FunctionSite(\"base.Version\", \"Base.version\", new String[] {})")
        .doesNotContain("ping");
  }

  @Compilers
  void deprecatedInterfacesAndTypesCompileWithoutWarnings() {
    JavaFileObject legacy =
        source(
            "p.Legacy",
            """
            package p;
            import dev.packed4j.annotations.Global;
            @Deprecated
            public interface Legacy {
              @Deprecated(forRemoval = true) @Global("legacy.Old") OldRef old();
            }
            """);
    JavaFileObject oldRef =
        source(
            "p.OldRef",
            """
            package p;
            import dev.packed4j.annotations.Object;
            @Deprecated
            @Object("legacy.Old")
            public interface OldRef {
              @Deprecated long id();
            }
            """);
    Compilation compilation = compile(legacy, oldRef);
    assertThat(compilation).succeededWithoutWarnings();
    // Only what each class names: ECJ warns about a suppression that suppresses nothing. Overriding a method
    // deprecated for removal warns under javac only, whatever the override says; ECJ does not check the tokens of
    // a suppression holding "all", which javac ignores.
    assertGenerated(compilation, "p.Packed4j_Legacy")
        .contains(
            """
            @SuppressWarnings("deprecation")
            public final class Packed4j_Legacy""");
    assertGenerated(compilation, "p.Packed4j_Legacy")
        .contains(
            """
              @Override
              @Deprecated(
                  forRemoval = true
              )
              @SuppressWarnings({"all", "removal"})
              public OldRef old() {""");
    assertGenerated(compilation, "p.Packed4j_OldRef")
        .contains(
            """
              @Override
              @Deprecated
              public long id() {""");
  }
}
