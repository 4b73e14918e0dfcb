package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.CallbackBodies;
import dev.packed4j.runtime.binding.Callbacks;
import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import dev.packed4j.runtime.binding.RouteProbe;
import dev.packed4j.runtime.internal.upcall.JavaFunctions;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The call routes of generated methods (typed entry, register call, call frame): which one a method takes, the
 * relink when a library loads, and the same error for the same failure on every route.
 */
class RouteTest {
  /** Functions this test registers from a plugin of its own, loaded by the first test that needs it. */
  private static final String PLUGIN = """
      #include <packed4j/packed4j.h>
      #include <optional>
      #include <string>
      #include <vector>
      using namespace packed4j;

      // Lists and optionals (issue 24): each list form set_body_typed takes, and optionals both ways.
      P4J_REGISTER_GLOBAL("route.VectorSum").set_body_typed([](const std::vector<int64_t>& values) {
        if (values.empty()) throw ValueError("no values");
        int64_t sum = 0;
        for (int64_t value : values) sum += value;
        return sum;
      });
      P4J_REGISTER_GLOBAL("route.ViewSum").set_body_typed([](ListView<int32_t> values) {
        int64_t sum = 0;
        for (int32_t value : values) sum += value;
        return sum;
      });
      P4J_REGISTER_GLOBAL("route.VectorNarrowSum").set_body_typed([](std::vector<int32_t> values) {
        int64_t sum = 0;
        for (int32_t value : values) sum += value;
        return sum;
      });
      P4J_REGISTER_GLOBAL("route.ListSum").set_body_typed([](List<int64_t> values) {
        int64_t sum = 0;
        for (int64_t value : values) sum += value;
        return sum;
      });
      P4J_REGISTER_GLOBAL("route.Mean").set_body_typed([](std::vector<double> values) {
        if (values.empty()) throw ValueError("no values");
        double sum = 0;
        for (double value : values) sum += value;
        return sum / static_cast<double>(values.size());
      });
      P4J_REGISTER_GLOBAL("route.Joined").set_body_typed([](std::vector<std::string> parts, std::string separator) {
        std::string joined;
        for (size_t i = 0; i < parts.size(); ++i) joined += (i == 0 ? "" : separator) + parts[i];
        return joined;
      });
      P4J_REGISTER_GLOBAL("route.Range").set_body_typed([](int64_t n) {
        List<int64_t> values;
        for (int64_t i = 0; i < n; ++i) values.push_back(i);
        return values;
      });
      P4J_REGISTER_GLOBAL("route.OrDefault").set_body_typed([](std::optional<int64_t> value, int64_t fallback) {
        return value.value_or(fallback);
      });
      P4J_REGISTER_GLOBAL("route.NarrowOptional").set_body_typed([](std::optional<int32_t> value) -> int64_t {
        return value ? *value : -1;
      });
      P4J_REGISTER_GLOBAL("route.Half").set_body_typed([](int64_t value) -> std::optional<int64_t> {
        if (value < 0) throw ValueError("negative " + std::to_string(value));
        if (value % 2 != 0) return std::nullopt;
        return value / 2;
      });
      P4J_REGISTER_GLOBAL("route.MaybeScale").set_body_typed(
          [](std::optional<double> value, double factor) -> std::optional<double> {
            if (!value) return std::nullopt;
            return *value * factor;
          });
      P4J_REGISTER_GLOBAL("route.MaybeNot").set_body_typed([](std::optional<bool> value) -> std::optional<bool> {
        if (!value) return std::nullopt;
        return !*value;
      });
      // A function of a plugin built with ABI 2.5 headers: a typed entry for (list<int64>) whose cell (four fields)
      // does not say it takes a borrowed list cell, so the runtime must not hand it one.
      static const int kOldVectorSum = [] {
        static PackedFunc sum = PackedFunc::FromTyped([](const std::vector<int64_t>& values) {
          int64_t total = 0;
          for (int64_t value : values) total += value;
          return total;
        }, "route.OldVectorSum");
        P4JFunctionCell cell = *details::CellOf<P4JFunctionCell>(sum.handle());
        std::string signature = sum.signature();
        P4JByteArray signature_span = details::ByteArrayOf(signature);
        P4JObjectHandle function = nullptr;
        P4JFunctionCreateFromCell(&cell, 4 * sizeof(void*), nullptr, &signature_span, &function);
        P4JByteArray name{"route.OldVectorSum", 18};
        P4JFunctionSetGlobal(&name, function, 0);
        P4JObjectDecRef(function);
        return 0;
      }();

      // Typed entries written against the C ABI alone, on the cell of a (list<int64>) function: one that takes
      // nothing but a dense list word (ABI 2.7), and one of a plugin built with 2.6 headers, which takes a borrowed
      // list cell of P4JAny values but no dense word, so the runtime must not hand it one.
      static int64_t ListWordFailure(const char* message) {
        P4JErrorSetRaisedFromCStr("TypeError", message);
        return P4J_TYPED_ERROR_I64;
      }
      static int64_t DenseOnlySum(P4JObjectHandle, int64_t word) {
        if ((word & P4J_LIST_WORD_TAG_MASK) != P4J_LIST_WORD_DENSE_I64) return ListWordFailure("not a dense word");
        const int64_t* block =
            reinterpret_cast<const int64_t*>(static_cast<uintptr_t>(word & ~int64_t{P4J_LIST_WORD_TAG_MASK}));
        int64_t sum = 0;
        for (int64_t i = 0; i < block[0]; ++i) sum += block[1 + i];
        return sum;
      }
      static int64_t BorrowedOnlySum(P4JObjectHandle, int64_t word) {
        if ((word & P4J_LIST_WORD_TAG_MASK) != P4J_LIST_WORD_BORROWED) return ListWordFailure("not a borrowed cell");
        const P4JListCell* cell =
            reinterpret_cast<const P4JListCell*>(static_cast<uintptr_t>(word & ~int64_t{P4J_LIST_WORD_TAG_MASK}));
        int64_t sum = 0;
        for (int64_t i = 0; i < cell->size; ++i) {
          if (cell->data[i].type_index != kP4JInt) return ListWordFailure("not an int");
          sum += cell->data[i].v_int64;
        }
        return sum;
      }
      static void RegisterListEntry(const char* name, int64_t (*entry)(P4JObjectHandle, int64_t), int64_t forms) {
        static PackedFunc sum = PackedFunc::FromTyped([](const std::vector<int64_t>& values) {
          int64_t total = 0;
          for (int64_t value : values) total += value;
          return total;
        }, "route.ListEntry");
        P4JFunctionCell cell = *details::CellOf<P4JFunctionCell>(sum.handle());
        cell.typed_entry = reinterpret_cast<void*>(entry);
        cell.typed_forms = forms;
        std::string signature = sum.signature();
        P4JByteArray signature_span = details::ByteArrayOf(signature);
        P4JObjectHandle function = nullptr;
        P4JFunctionCreateFromCell(&cell, sizeof(cell), nullptr, &signature_span, &function);
        P4JByteArray global{name, static_cast<int64_t>(std::string(name).size())};
        P4JFunctionSetGlobal(&global, function, 0);
        P4JObjectDecRef(function);
      }
      static const int kListEntries = [] {
        RegisterListEntry("route.DenseOnlySum", &DenseOnlySum,
                          P4J_TYPED_FORM_BORROWED_LIST | P4J_TYPED_FORM_DENSE_LIST);
        RegisterListEntry("route.Abi26Sum", &BorrowedOnlySum, P4J_TYPED_FORM_BORROWED_LIST);
        return 0;
      }();

      P4J_REGISTER_GLOBAL("route.TypedTwice").set_body_typed([](int64_t a) { return a * 2; });
      P4J_REGISTER_GLOBAL("route.PackedTwice").set_body([](Args args, RetValue* rv) {
        int64_t a = args[0];
        *rv = a * 2;
      });
      P4J_REGISTER_GLOBAL("route.TypedFail").set_body_typed([](int64_t a) -> int64_t {
        throw ValueError("refused " + std::to_string(a));
      });
      P4J_REGISTER_GLOBAL("route.PackedFail").set_body([](Args args, RetValue*) {
        int64_t a = args[0];
        throw ValueError("refused " + std::to_string(a));
      });
      P4J_REGISTER_GLOBAL("route.PackedText").set_body([](Args, RetValue* rv) { *rv = std::string("text"); });

      // A function of another language's making: its safe_call reports a failure without raising an error.
      static int FailSilently(void*, const P4JAny*, int32_t, P4JAny*) { return -1; }
      static const int kSilentFail = [] {
        P4JObjectHandle function = nullptr;
        P4JFunctionCreate(nullptr, &FailSilently, nullptr, &function);
        P4JByteArray name{"route.SilentFail", 16};
        P4JFunctionSetGlobal(&name, function, 0);
        P4JObjectDecRef(function);
        return 0;
      }();
      """;

  /** Functions loaded only by the relink test, after its methods were called. */
  private static final String LATE_PLUGIN = """
      #include <packed4j/packed4j.h>
      using namespace packed4j;

      P4J_REGISTER_GLOBAL("route.LateTyped").set_body_typed([](int64_t a, int64_t b) { return a * 10 + b; });
      P4J_REGISTER_GLOBAL("route.LatePacked").set_body([](Args args, RetValue* rv) {
        int64_t a = args[0];
        *rv = a + 1;
      });
      """;

  private static Path pluginFile;
  private static Path latePluginFile;

  private static final FunctionSite LATE_TYPED = site("route.LateTyped", "Late.typed", "a", "b");
  private static final FunctionSite LATE_PACKED = site("route.LatePacked", "Late.packed", "a");

  @BeforeAll
  static void compilePlugin() throws Exception {
    TestLibraries.requireCore();
    Path directory = Files.createTempDirectory("packed4j-route-test");
    pluginFile = TestLibraries.plugin(directory, "routes.cc", PLUGIN, "libroutes.so");
    latePluginFile = TestLibraries.plugin(directory, "late_routes.cc", LATE_PLUGIN, "liblate_routes.so");
  }

  private static synchronized void loadPlugin() {
    Packed4j.loadLibrary(pluginFile); // loading again does nothing
  }

  private static FunctionSite site(String name, String javaMethod, String... parameters) {
    return new FunctionSite(name, javaMethod, parameters);
  }

  // ------------------------------------------------------------------ relink on load

  // The shape the processor generates for two methods called before their plugin is loaded.
  private static final class LateTypedRoute {
    static final MethodHandle HANDLE = LATE_TYPED.link(MethodType.methodType(long.class, long.class, long.class),
        Codecs.LONG, Codecs.LONG, Codecs.LONG);
  }

  private static final class LatePackedRoute {
    static final MethodHandle HANDLE = LATE_PACKED.link(MethodType.methodType(int.class, int.class), Codecs.INT,
        Codecs.INT);
  }

  private static long lateTyped(long a, long b) {
    try {
      return (long) LateTypedRoute.HANDLE.invokeExact(a, b);
    } catch (Throwable e) {
      throw FunctionSite.rethrow(e);
    }
  }

  private static int latePacked(int a) {
    try {
      return (int) LatePackedRoute.HANDLE.invokeExact(a);
    } catch (Throwable e) {
      throw FunctionSite.rethrow(e);
    }
  }

  @Test
  void aMethodCalledBeforeItsPluginLoadsTakesItsDirectEntryOnceItLoads() {
    Packed4jException unknown = assertThrows(Packed4jException.class, () -> lateTyped(1, 2));
    assertEquals("KeyError", unknown.kind());
    assertThrows(Packed4jException.class, () -> latePacked(1));
    assertEquals("call frame (no loaded library registers it yet)", LATE_TYPED.route());
    assertEquals("route.LatePacked (Late.packed) via call frame (no loaded library registers it yet)",
        LATE_PACKED.toString());

    Packed4j.loadLibrary(latePluginFile);

    assertEquals("typed entry (int64, int64) -> int64", LATE_TYPED.route());
    assertEquals("register call", LATE_PACKED.route());
    assertEquals(12, lateTyped(1, 2));
    assertEquals(8, latePacked(7));
  }

  // ------------------------------------------------------------------ one failure, one error, every route

  /** A call of a method {@code (long) -> long} or {@code (int) -> int} on one route. */
  private record Call(String route, Executable call) {}

  /**
   * The handle a site links for a method type, checked to take the expected route (its site says so), so that each
   * route is driven into each failure.
   */
  private static MethodHandle routed(FunctionSite site, MethodType type, String expected) {
    loadPlugin();
    MethodHandle handle = RouteProbe.link(site, type);
    assertTrue(site.route().startsWith(expected), site + " " + type);
    return handle;
  }

  private static long framedLong(FunctionSite site, long argument) {
    try (CallFrame frame = CallFrame.open(site, 1)) {
      frame.putLong(0, argument);
      frame.invoke();
      return frame.returnLong();
    }
  }

  private static int framedInt(FunctionSite site, long argument) {
    try (CallFrame frame = CallFrame.open(site, 1)) {
      frame.putLong(0, argument);
      frame.invoke();
      return frame.returnInt();
    }
  }

  private static void assertSameFailure(String kind, String message, Call... calls) {
    for (Call call : calls) {
      Packed4jException e = assertThrows(Packed4jException.class, call.call(), call.route());
      assertEquals(kind, e.kind(), call.route() + ": " + e.getMessage());
      assertEquals(message, e.getMessage(), call.route());
    }
  }

  @Test
  void aRaisedErrorIsTheSameExceptionOnEveryRoute() {
    FunctionSite typed = site("route.TypedFail", "Fail.typed", "a");
    FunctionSite packed = site("route.PackedFail", "Fail.packed", "a");
    MethodHandle typedEntry = routed(typed, MethodType.methodType(long.class, long.class), "typed entry");
    MethodHandle register = routed(packed, MethodType.methodType(long.class, long.class), "register call");
    assertSameFailure("ValueError", "[ValueError] route.TypedFail: refused 3",
        new Call("typed entry", () -> { long unused = (long) typedEntry.invokeExact(3L); }),
        new Call("call frame", () -> framedLong(typed, 3)));
    assertSameFailure("ValueError", "[ValueError] route.PackedFail: refused 3",
        new Call("register call", () -> { long unused = (long) register.invokeExact(3L); }),
        new Call("call frame", () -> framedLong(packed, 3)));
  }

  @Test
  void aResultOutOfRangeIsTheSameValueErrorOnEveryRoute() {
    FunctionSite typed = site("route.TypedTwice", "Twice.typed", "a");
    FunctionSite packed = site("route.PackedTwice", "Twice.packed", "a");
    MethodHandle typedEntry = routed(typed, MethodType.methodType(int.class, int.class), "typed entry");
    MethodHandle register = routed(packed, MethodType.methodType(int.class, int.class), "register call");
    int big = Integer.MAX_VALUE;
    assertSameFailure("ValueError",
        "[ValueError] route.TypedTwice (Twice.typed) returned 4294967294, which does not fit in int",
        new Call("typed entry", () -> { int unused = (int) typedEntry.invokeExact(big); }),
        new Call("call frame", () -> framedInt(typed, big)));
    assertSameFailure("ValueError",
        "[ValueError] route.PackedTwice (Twice.packed) returned 4294967294, which does not fit in int",
        new Call("register call", () -> { int unused = (int) register.invokeExact(big); }),
        new Call("call frame", () -> framedInt(packed, big)));
  }

  @Test
  void aResultOfAnotherKindIsTheSameTypeErrorOnEveryRoute() {
    FunctionSite text = site("route.PackedText", "Text.asLong", "a");
    MethodHandle register = routed(text, MethodType.methodType(long.class, long.class), "register call");
    Packed4jException framed = assertThrows(Packed4jException.class, () -> framedLong(text, 1));
    assertEquals("TypeError", framed.kind());
    assertTrue(framed.getMessage().contains("string"), framed.getMessage());
    assertSameFailure("TypeError", framed.getMessage(),
        new Call("register call", () -> { long unused = (long) register.invokeExact(1L); }),
        new Call("call frame", () -> framedLong(text, 1)));
  }

  @Test
  void aFailureWithoutARaisedErrorIsTheSameRuntimeErrorOnEveryRoute() {
    FunctionSite silent = site("route.SilentFail", "Silent.call", "a");
    MethodHandle register = routed(silent, MethodType.methodType(long.class, long.class), "register call");
    assertSameFailure("RuntimeError", "[RuntimeError] route.SilentFail: a function returned -1 without raising an error",
        new Call("register call", () -> { long unused = (long) register.invokeExact(1L); }),
        new Call("call frame", () -> framedLong(silent, 1)),
        new Call("PackedFunction", () -> Registry.global("route.SilentFail").invoke(1L)));
  }

  @Test
  void aMethodWithMoreArgumentsThanRegistersTakesTheCallFrame() {
    loadPlugin();
    FunctionSite five = site("route.PackedTwice", "Twice.five", "a", "b", "c", "d", "e");
    MethodHandle handle = RouteProbe.link(five,
        MethodType.methodType(long.class, long.class, long.class, long.class, long.class, long.class));
    try {
      assertEquals(6L, (long) handle.invokeExact(3L, 4L, 5L, 6L, 7L));
    } catch (Throwable e) {
      throw new AssertionError(e);
    }
    assertEquals("call frame (no typed entry fits and the method has more than 4 parameters)", five.route());
  }

  // ------------------------------------------------------------------ functions in and out (issue 24)

  /**
   * Functional-interface and {@code PackedFunction} arguments (callbacks in) and function results (closures out) on
   * the typed entry, each held to the call frame: values, failures (null, native error, a Java exception thrown in
   * the callback, an argument of the wrong type for the callback) and the Java functions alive afterwards.
   */
  @Nested
  class Functions {
    private static final String FUNCTIONS_PLUGIN = """
        #include <packed4j/packed4j.h>
        #include <string>
        using namespace packed4j;

        P4J_REGISTER_GLOBAL("route.fn.Apply").set_body_typed([](PackedFunc f, int64_t a) -> int64_t {
          return TypedPackedFunc<int64_t(int64_t)>(f)(a);
        });
        P4J_REGISTER_GLOBAL("route.fn.ApplyPacked").set_body_typed([](PackedFunc f, int64_t a) -> int64_t {
          return static_cast<int64_t>(f(a));
        });
        // TypedPackedFunc parameters and results: "function" in the signature, so an object word on the typed
        // entry like PackedFunc (they were read as a P4JAny pointer: the JVM crashed on the first call).
        P4J_REGISTER_GLOBAL("route.fn.ApplyTyped").set_body_typed([](TypedPackedFunc<int64_t(int64_t)> f, int64_t a) {
          return f(a);
        });
        P4J_REGISTER_GLOBAL("route.fn.ApplyTypedRef").set_body_typed(
            [](const TypedPackedFunc<int64_t(int64_t)>& f, int64_t a) { return f(a); });
        P4J_REGISTER_GLOBAL("route.fn.TypedAdder").set_body_typed([](int64_t k) {
          return TypedPackedFunc<int64_t(int64_t)>(PackedFunc::FromTyped([k](int64_t x) { return x + k; }, "adder"));
        });
        P4J_REGISTER_GLOBAL("route.fn.NoTypedAdder").set_body_typed([](int64_t) {
          return TypedPackedFunc<int64_t(int64_t)>();
        });
        P4J_REGISTER_GLOBAL("route.fn.ApplyText").set_body_typed([](PackedFunc f) -> int64_t {
          return static_cast<int64_t>(f(std::string("not a number")));
        });
        P4J_REGISTER_GLOBAL("route.fn.Refuse").set_body_typed([](PackedFunc, int64_t a) -> int64_t {
          throw ValueError("refused " + std::to_string(a));
        });
        P4J_REGISTER_GLOBAL("route.fn.Adder").set_body_typed([](int64_t k) {
          return PackedFunc::FromTyped([k](int64_t x) { return x + k; }, "adder");
        });
        P4J_REGISTER_GLOBAL("route.fn.RefuseAdder").set_body_typed([](int64_t k) -> PackedFunc {
          throw ValueError("no adder " + std::to_string(k));
        });
        P4J_REGISTER_GLOBAL("route.fn.NoAdder").set_body_typed([](int64_t) { return PackedFunc(); });
        P4J_REGISTER_GLOBAL("route.fn.Echo").set_body_typed([](PackedFunc f) { return f; });
        static PackedFunc held;
        P4J_REGISTER_GLOBAL("route.fn.Hold").set_body_typed([](PackedFunc f) { held = f; });
        P4J_REGISTER_GLOBAL("route.fn.CallHeld").set_body_typed([](int64_t a) {
          return TypedPackedFunc<int64_t(int64_t)>(held)(a);
        });
        P4J_REGISTER_GLOBAL("route.fn.Drop").set_body_typed([]() { held = PackedFunc(); });
        """;

    /** {@code LongUnaryOperator} as the processor writes its codec: a typed entry of (int64) -> int64. */
    private static final Codec<LongUnaryOperator> UNARY = Callbacks.typed(LongUnaryOperator.class,
        "(int64) -> int64", f -> (CallbackBodies.Wire1) a0 -> f.applyAsLong(a0),
        function -> (LongUnaryOperator & NativeClosure) a0 -> Callbacks.call(function, Codecs.LONG, a0));

    private static final MethodType APPLY = MethodType.methodType(long.class, LongUnaryOperator.class, long.class);
    private static final MethodType MAKE = MethodType.methodType(LongUnaryOperator.class, long.class);
    private static final MethodType ECHO = MethodType.methodType(LongUnaryOperator.class, LongUnaryOperator.class);
    private static final String APPLY_ROUTE = "typed entry (function, int64) -> int64";

    private static Path functionsPlugin;

    @BeforeAll
    static void compileFunctions() throws Exception {
      TestLibraries.requireCore();
      functionsPlugin = TestLibraries.plugin(Files.createTempDirectory("packed4j-route-fn"), "route_fn.cc",
          FUNCTIONS_PLUGIN, "libroute_fn.so");
    }

    private RouteTwins twins(String function, String route, MethodType type, Codec<?>... codecs) {
      Packed4j.loadLibrary(functionsPlugin);
      return RouteTwins.link("Fn", function, route, type, codecs);
    }

    @Test
    void aCallbackInTakesTheTypedEntryAndLeavesNoJavaFunctionBehind() throws Throwable {
      for (String function : List.of("route.fn.Apply", "route.fn.ApplyPacked", "route.fn.ApplyTyped",
          "route.fn.ApplyTypedRef")) {
        RouteTwins routes = twins(function, APPLY_ROUTE, APPLY, UNARY, Codecs.LONG, Codecs.LONG);
        int before = JavaFunctions.liveCount();
        for (MethodHandle handle : routes.both()) {
          for (long i = 0; i < 100; i++) {
            long k = i;
            assertEquals(3 * i + k, (long) handle.invokeExact((LongUnaryOperator) x -> 3 * x + k, i));
          }
        }
        assertEquals(before, JavaFunctions.liveCount(), function + ": every Java function made for a call is freed");
      }
    }

    @Test
    @SuppressWarnings("try") // closes the function inside its block on purpose: the calls after that must fail alike
    void aPackedFunctionArgumentTakesTheTypedEntry() throws Throwable {
      RouteTwins routes = twins("route.fn.ApplyPacked", APPLY_ROUTE,
          MethodType.methodType(long.class, PackedFunction.class, long.class), Codecs.PACKED_FUNCTION, Codecs.LONG,
          Codecs.LONG);
      try (PackedFunction add = PackedFunction.of(args -> (Long) args[0] + 1)) {
        for (MethodHandle handle : routes.both()) {
          assertEquals(8L, (long) handle.invokeExact(add, 7L));
        }
        add.close();
        RouteTwins.assertSameFailure(routes, handle -> (long) handle.invokeExact(add, 7L));
      }
      // A function whose result the C++ body cannot convert: the error says it was the result of the call.
      try (PackedFunction none = PackedFunction.of(args -> null)) {
        assertEquals("[TypeError] route.fn.ApplyPacked: the result of a called function expected int64, got None",
            RouteTwins.assertSameFailure(routes, handle -> (long) handle.invokeExact(none, 7L)).getMessage());
      }
      RouteTwins.assertSameFailure(routes, handle -> (long) handle.invokeExact((PackedFunction) null, 7L));
    }

    @Test
    void aNullCallbackIsTheSameNullPointerExceptionOnEveryRoute() {
      for (String function : List.of("route.fn.Apply", "route.fn.ApplyTyped", "route.fn.ApplyTypedRef")) {
        RouteTwins routes = twins(function, APPLY_ROUTE, APPLY, UNARY, Codecs.LONG, Codecs.LONG);
        Throwable thrown = RouteTwins.assertSameFailure(routes,
            handle -> (long) handle.invokeExact((LongUnaryOperator) null, 1L));
        assertInstanceOf(NullPointerException.class, thrown);
      }
    }

    @Test
    void aTypedPackedFuncResultIsAClosureOnEveryRouteAndAnEmptyOneIsNull() throws Throwable {
      RouteTwins make = twins("route.fn.TypedAdder", "typed entry (int64) -> function", MAKE, Codecs.LONG, UNARY);
      RouteTwins apply = twins("route.fn.ApplyTyped", APPLY_ROUTE, APPLY, UNARY, Codecs.LONG, Codecs.LONG);
      for (MethodHandle handle : make.both()) {
        LongUnaryOperator adder = (LongUnaryOperator) handle.invokeExact(10L);
        assertEquals(15L, adder.applyAsLong(5));
        for (MethodHandle applying : apply.both()) {
          assertEquals(17L, (long) applying.invokeExact(adder, 7L));
        }
        ((NativeClosure) adder).close();
      }
      RouteTwins none = twins("route.fn.NoTypedAdder", "typed entry (int64) -> function", MAKE, Codecs.LONG, UNARY);
      for (MethodHandle handle : none.both()) {
        assertNull((LongUnaryOperator) handle.invokeExact(3L));
      }
    }

    @Test
    void aNativeErrorIsTheSameExceptionOnEveryRouteAndFreesTheCallback() {
      RouteTwins routes = twins("route.fn.Refuse", APPLY_ROUTE, APPLY, UNARY, Codecs.LONG, Codecs.LONG);
      int before = JavaFunctions.liveCount();
      Throwable thrown = RouteTwins.assertSameFailure(routes,
          handle -> (long) handle.invokeExact((LongUnaryOperator) x -> x, 4L));
      assertEquals("[ValueError] route.fn.Refuse: refused 4", thrown.getMessage());
      assertEquals(before, JavaFunctions.liveCount());
    }

    @Test
    void anExceptionThrownInTheCallbackIsRethrownAsItselfOnEveryRoute() {
      RouteTwins routes = twins("route.fn.Apply", APPLY_ROUTE, APPLY, UNARY, Codecs.LONG, Codecs.LONG);
      int before = JavaFunctions.liveCount();
      for (MethodHandle handle : routes.both()) {
        IllegalStateException boom = new IllegalStateException("boom");
        Throwable caught = assertThrows(Throwable.class,
            () -> { long unused = (long) handle.invokeExact((LongUnaryOperator) x -> { throw boom; }, 1L); });
        assertSame(boom, caught);
      }
      assertEquals(before, JavaFunctions.liveCount());
    }

    @Test
    void anArgumentOfTheWrongTypeForTheCallbackIsTheSameTypeErrorOnEveryRoute() {
      RouteTwins routes = twins("route.fn.ApplyText", "typed entry (function) -> int64",
          MethodType.methodType(long.class, LongUnaryOperator.class), UNARY, Codecs.LONG);
      Throwable thrown = RouteTwins.assertSameFailure(routes,
          handle -> (long) handle.invokeExact((LongUnaryOperator) x -> x));
      assertEquals("TypeError", ((Packed4jException) thrown).kind(), thrown.getMessage());
    }

    @Test
    void aClosureOutIsWrappedOnceOnEveryRouteAndCanBePassedBack() throws Throwable {
      RouteTwins make = twins("route.fn.Adder", "typed entry (int64) -> function", MAKE, Codecs.LONG, UNARY);
      RouteTwins apply = twins("route.fn.Apply", APPLY_ROUTE, APPLY, UNARY, Codecs.LONG, Codecs.LONG);
      for (MethodHandle handle : make.both()) {
        LongUnaryOperator adder = (LongUnaryOperator) handle.invokeExact(10L);
        assertEquals(15L, adder.applyAsLong(5));
        int before = JavaFunctions.liveCount();
        for (MethodHandle applying : apply.both()) {
          // passed back: its native function itself, no Java function around it
          assertEquals(17L, (long) applying.invokeExact(adder, 7L));
        }
        assertEquals(before, JavaFunctions.liveCount());
        ((NativeClosure) adder).close();
      }
      LongUnaryOperator closed = (LongUnaryOperator) make.typed().invokeExact(1L);
      ((NativeClosure) closed).close();
      RouteTwins.assertSameFailure(apply, handle -> (long) handle.invokeExact(closed, 1L));
    }

    @Test
    void aFailedOrMissingClosureIsTheSameOnEveryRoute() throws Throwable {
      RouteTwins refuse = twins("route.fn.RefuseAdder", "typed entry (int64) -> function", MAKE, Codecs.LONG, UNARY);
      Throwable thrown = RouteTwins.assertSameFailure(refuse,
          handle -> (LongUnaryOperator) handle.invokeExact(3L));
      assertEquals("[ValueError] route.fn.RefuseAdder: no adder 3", thrown.getMessage());
      RouteTwins none = twins("route.fn.NoAdder", "typed entry (int64) -> function", MAKE, Codecs.LONG, UNARY);
      for (MethodHandle handle : none.both()) {
        assertNull((LongUnaryOperator) handle.invokeExact(3L));
      }
    }

    @Test
    void aCallbackNativeCodeKeptIsNeverReusedAndOneNobodyKeptStaysUnreachable() throws Throwable {
      RouteTwins hold = twins("route.fn.Hold", "typed entry (function) -> void",
          MethodType.methodType(void.class, LongUnaryOperator.class), UNARY);
      RouteTwins apply = twins("route.fn.Apply", APPLY_ROUTE, APPLY, UNARY, Codecs.LONG, Codecs.LONG);
      RouteTwins callHeld = twins("route.fn.CallHeld", "typed entry (int64) -> int64",
          MethodType.methodType(long.class, long.class), Codecs.LONG, Codecs.LONG);
      RouteTwins drop = twins("route.fn.Drop", "typed entry () -> void", MethodType.methodType(void.class));
      int before = JavaFunctions.liveCount();
      for (MethodHandle holding : hold.both()) {
        holding.invokeExact((LongUnaryOperator) x -> x + 1);
        assertEquals(before + 1, JavaFunctions.liveCount());
        for (MethodHandle applying : apply.both()) {
          assertEquals(6L, (long) applying.invokeExact((LongUnaryOperator) x -> x * 2, 3L));
        }
        assertEquals(6L, (long) callHeld.typed().invokeExact(5L), "the kept callback is still itself");
        drop.typed().invokeExact();
        assertEquals(before, JavaFunctions.liveCount());
      }
      WeakReference<Object> captured = callOnceWithCapturedObject(apply.typed());
      for (int i = 0; i < 50 && captured.get() != null; i++) {
        System.gc();
        Thread.sleep(20);
      }
      assertNull(captured.get(), "a callback's pooled function keeps nothing of it reachable");
    }

    private WeakReference<Object> callOnceWithCapturedObject(MethodHandle apply) throws Throwable {
      Object state = new Object();
      assertEquals(4L, (long) apply.invokeExact((LongUnaryOperator) x -> state.hashCode() == 0 ? x : x + 1, 3L));
      return new WeakReference<>(state);
    }

    @Test
    void aCallbackEchoedBackIsTheSameObjectOnEveryRoute() throws Throwable {
      RouteTwins echo = twins("route.fn.Echo", "typed entry (function) -> function", ECHO, UNARY, UNARY);
      int before = JavaFunctions.liveCount();
      for (MethodHandle handle : echo.both()) {
        LongUnaryOperator mine = x -> x + 1;
        assertSame(mine, (LongUnaryOperator) handle.invokeExact(mine));
      }
      assertEquals(before, JavaFunctions.liveCount());
    }
  }
  // ------------------------------------------------------------------ lists and optionals (issue 24)

  /** The method {@code Shapes.<name>} of {@code type} on the route the runtime chose, checked, and on its frame. */
  private static RouteTwins shapes(String function, String expectedRoute, MethodType type, Codec<?>... codecs) {
    loadPlugin();
    return RouteTwins.link("Shapes", function, expectedRoute, type, codecs);
  }

  private static final MethodType LIST_TO_LONG = MethodType.methodType(long.class, List.class);

  @Test
  void listsOfNumbersAndStringsTakeTheTypedEntryWithTheFramesValues() throws Throwable {
    List<Long> sixteen = new ArrayList<>();
    for (long i = 0; i < 16; i++) {
      sixteen.add(i);
    }
    for (String function : List.of("route.VectorSum", "route.ListSum")) {
      RouteTwins sum = shapes(function, "typed entry (list<int64>) -> int64", LIST_TO_LONG,
          Codecs.list(Codecs.LONG), Codecs.LONG);
      for (MethodHandle handle : sum.both()) {
        assertEquals(120L, (long) handle.invokeExact(sixteen));
        assertEquals(-3L, (long) handle.invokeExact((List) List.of(-1L, -2L)));
        assertEquals(Long.MIN_VALUE, (long) handle.invokeExact((List) Arrays.asList(Long.MAX_VALUE, 1L)));
      }
    }
    // List<Integer> for list<int32>, read in place: no list object.
    RouteTwins view = shapes("route.ViewSum", "typed entry (list<int32>) -> int64", LIST_TO_LONG,
        Codecs.list(Codecs.INT), Codecs.LONG);
    RouteTwins mean = shapes("route.Mean", "typed entry (list<float64>) -> float64",
        MethodType.methodType(double.class, List.class), Codecs.list(Codecs.DOUBLE), Codecs.DOUBLE);
    RouteTwins joined = shapes("route.Joined", "typed entry (list<string>, string) -> string",
        MethodType.methodType(String.class, List.class, String.class), Codecs.list(Codecs.STRING), Codecs.STRING,
        Codecs.STRING);
    for (int i = 0; i < 2; i++) {
      assertEquals(0L, (long) view.both().get(i).invokeExact((List) List.of()));
      assertEquals(6L, (long) view.both().get(i).invokeExact((List) List.of(1, 2, 3)));
      assertEquals(2.5, (double) mean.both().get(i).invokeExact((List) List.of(1.0, 4.0)));
      assertEquals("a, h\u00e9, , z", (String) joined.both().get(i).invokeExact((List) List.of("a", "h\u00e9", "", "z"),
          ", "));
    }
  }

  @Test
  void aListArgumentFailsTheSameWayOnEveryRoute() {
    RouteTwins sum = shapes("route.VectorSum", "typed entry (list<int64>) -> int64", LIST_TO_LONG,
        Codecs.list(Codecs.LONG), Codecs.LONG);
    // null: the frame's NullPointerException; a null element: its ValueError-less NullPointerException.
    assertInstanceOf(NullPointerException.class, RouteTwins.assertSameFailure(sum,
        h -> (long) h.invokeExact((List) null)));
    Throwable element = RouteTwins.assertSameFailure(sum, h -> (long) h.invokeExact((List) Arrays.asList(1L, null)));
    assertTrue(element.getMessage().contains("element 1"), element.getMessage());
    // A native error.
    Packed4jException empty = (Packed4jException) RouteTwins.assertSameFailure(sum,
        h -> (long) h.invokeExact((List) List.of()));
    assertEquals("[ValueError] route.VectorSum: no values", empty.getMessage());
    // Out of range: a Long element beyond the native int32 element, checked by the entry as by the packed call.
    RouteTwins view = shapes("route.ViewSum", "typed entry (list<int32>) -> int64", LIST_TO_LONG,
        Codecs.list(Codecs.LONG), Codecs.LONG);
    Packed4jException wide = (Packed4jException) RouteTwins.assertSameFailure(view,
        h -> (long) h.invokeExact((List) List.of(1L, 1L << 40)));
    assertEquals("ValueError", wide.kind());
    // Wrong type: a String in a List<Long> (an unchecked cast), refused in Java on both routes.
    // A TypeError naming the element, its class and what the list holds, for each way a list is read.
    for (List<Object> polluted : List.<List<Object>>of(new ArrayList<>(List.of(1L, "two")), List.of(1L, "two"),
        new java.util.LinkedList<>(List.of(1L, "two")), new ArrayList<>(List.of(1L, 2.5)))) {
      Packed4jException wrong = (Packed4jException) RouteTwins.assertSameFailure(sum,
          h -> (long) h.invokeExact((List) polluted));
      assertEquals("TypeError", wrong.kind());
      assertEquals("[TypeError] route.VectorSum argument 0 (p0): element 1: a "
          + polluted.get(1).getClass().getName() + ", expected an integer (Long, Integer, Short or Byte) of "
          + "List<Long>", wrong.getMessage());
    }
    RouteTwins joined = shapes("route.Joined", "typed entry (list<string>, string) -> string",
        MethodType.methodType(String.class, List.class, String.class), Codecs.list(Codecs.STRING), Codecs.STRING,
        Codecs.STRING);
    assertTrue(RouteTwins.assertSameFailure(joined, h -> (String) h.invokeExact((List) Arrays.asList("a", null), ""))
        .getMessage().contains("element 1"));
    assertEquals("TypeError", ((Packed4jException) RouteTwins.assertSameFailure(joined,
        h -> (String) h.invokeExact((List) Arrays.asList("a", 2L), ""))).kind());
    RouteTwins mean = shapes("route.Mean", "typed entry (list<float64>) -> float64",
        MethodType.methodType(double.class, List.class), Codecs.list(Codecs.DOUBLE), Codecs.DOUBLE);
    assertTrue(RouteTwins.assertSameFailure(mean, h -> (double) h.invokeExact((List) List.of(0.5, "x")))
        .getMessage().endsWith("element 1: a java.lang.String, expected a Double or Float of List<Double>"));
  }

  @Test
  void aNativeListIsPassedByItsHandleAndAClosedOneFailsTheSameWay() throws Throwable {
    loadPlugin();
    NativeList<Long> range;
    try (CallFrame frame = CallFrame.open(site("route.Range", "Shapes.range", "n"), 1)) {
      frame.putLong(0, 5);
      frame.invoke();
      range = frame.returnValue(Codecs.nativeList(Codecs.LONG));
    }
    RouteTwins sum = shapes("route.ListSum", "typed entry (list<int64>) -> int64", LIST_TO_LONG,
        Codecs.list(Codecs.LONG), Codecs.LONG);
    for (MethodHandle handle : sum.both()) {
      assertEquals(10L, (long) handle.invokeExact((List) range));
    }
    range.close();
    Throwable closed = RouteTwins.assertSameFailure(sum, h -> (long) h.invokeExact((List) range));
    assertInstanceOf(IllegalStateException.class, closed);
  }

  @Test
  void aPluginWithoutBorrowedListCellsKeepsTheCallFrame() throws Throwable {
    loadPlugin();
    FunctionSite old = site("route.OldVectorSum", "Shapes.old", "values");
    MethodHandle handle = RouteProbe.link(old, LIST_TO_LONG, Codecs.list(Codecs.LONG), Codecs.LONG);
    assertTrue(old.route().startsWith("call frame"), old.route());
    assertEquals(6L, (long) handle.invokeExact((List) List.of(1L, 2L, 3L)));
  }

  @Test
  void listsOfNumbersCrossAsDenseWordsOfEveryKindOfList() throws Throwable {
    List<Long> large = new ArrayList<>();
    long largeSum = 0;
    for (long i = 0; i < 100_000; i++) {
      large.add(i % 7 - 3);
      largeSum += i % 7 - 3;
    }
    List<Long> sixteen = new ArrayList<>(large.subList(0, 16));
    long sixteenSum = sixteen.stream().mapToLong(Long::longValue).sum();
    // An entry that takes nothing but a dense word (else it raises): every kind of list reaches it as one.
    loadPlugin();
    FunctionSite denseOnly = site("route.DenseOnlySum", "Shapes.denseOnly", "values");
    MethodHandle dense = RouteProbe.link(denseOnly, LIST_TO_LONG, Codecs.list(Codecs.LONG), Codecs.LONG);
    assertEquals("typed entry (list<int64>) -> int64", denseOnly.route());
    List<List<Long>> kinds = List.of(new ArrayList<>(), sixteen, large, List.of(), List.of(5L), List.of(5L, 6L),
        List.of(1L, 2L, 3L), Arrays.asList(7L, 8L), new java.util.LinkedList<>(sixteen),
        java.util.Collections.unmodifiableList(sixteen), sixteen.subList(2, 5));
    for (List<Long> kind : kinds) {
      long expected = kind.stream().mapToLong(Long::longValue).sum();
      assertEquals(expected, (long) dense.invokeExact((List) kind), kind.getClass().getName());
    }
    // List<Integer> too: its values as int64.
    MethodHandle denseInts = RouteProbe.link(site("route.DenseOnlySum", "Shapes.denseInts", "values"), LIST_TO_LONG,
        Codecs.list(Codecs.INT), Codecs.LONG);
    List<Integer> extremes = new ArrayList<>(List.of(Integer.MIN_VALUE, Integer.MAX_VALUE));
    assertEquals(-1L, (long) denseInts.invokeExact((List) extremes));
    // The C++ list forms over dense words, against their call frames.
    for (String function : List.of("route.VectorSum", "route.ListSum")) {
      RouteTwins sum = shapes(function, "typed entry (list<int64>) -> int64", LIST_TO_LONG,
          Codecs.list(Codecs.LONG), Codecs.LONG);
      for (MethodHandle handle : sum.both()) {
        assertEquals(sixteenSum, (long) handle.invokeExact((List) sixteen));
        assertEquals(largeSum, (long) handle.invokeExact((List) large));
        assertEquals(sixteenSum, (long) handle.invokeExact((List) new java.util.LinkedList<>(sixteen)));
      }
    }
    RouteTwins view = shapes("route.ViewSum", "typed entry (list<int32>) -> int64", LIST_TO_LONG,
        Codecs.list(Codecs.LONG), Codecs.LONG);
    for (MethodHandle handle : view.both()) {
      assertEquals(0L, (long) handle.invokeExact((List) new ArrayList<Long>()));
      assertEquals(sixteenSum, (long) handle.invokeExact((List) sixteen));
      assertEquals(largeSum, (long) handle.invokeExact((List) large));
    }
    // Out of an int32 element's range, at index 16 of an ArrayList: the same ValueError naming the element.
    List<Long> wide = new ArrayList<>(sixteen);
    wide.add(1L << 40);
    Packed4jException failure = (Packed4jException) RouteTwins.assertSameFailure(view,
        h -> (long) h.invokeExact((List) wide));
    assertEquals("ValueError", failure.kind());
    assertTrue(failure.getMessage().contains("index 16"), failure.getMessage());
    // A std::vector<int32_t> converts every element up front, from the dense words as from the frame's cell, and
    // names the argument with the element.
    RouteTwins narrow = shapes("route.VectorNarrowSum", "typed entry (list<int32>) -> int64", LIST_TO_LONG,
        Codecs.list(Codecs.LONG), Codecs.LONG);
    assertEquals(sixteenSum, (long) narrow.both().get(0).invokeExact((List) sixteen));
    Packed4jException vectorFailure = (Packed4jException) RouteTwins.assertSameFailure(narrow,
        h -> (long) h.invokeExact((List) wide));
    assertEquals("[ValueError] route.VectorNarrowSum: argument 0, list element at index 16 value 1099511627776 is out "
        + "of range for int32", vectorFailure.getMessage());
    // A null element of an ArrayList: the frame's NullPointerException naming its index.
    List<Long> holed = new ArrayList<>(sixteen);
    holed.set(9, null);
    Throwable hole = RouteTwins.assertSameFailure(view, h -> (long) h.invokeExact((List) holed));
    assertInstanceOf(NullPointerException.class, hole);
    assertTrue(hole.getMessage().contains("element 9 is null"), hole.getMessage());
    RouteTwins mean = shapes("route.Mean", "typed entry (list<float64>) -> float64",
        MethodType.methodType(double.class, List.class), Codecs.list(Codecs.DOUBLE), Codecs.DOUBLE);
    List<Double> doubles = new ArrayList<>(List.of(0.5, -1.5, 4.0));
    for (MethodHandle handle : mean.both()) {
      assertEquals(1.0, (double) handle.invokeExact((List) doubles));
      assertEquals(2.5, (double) handle.invokeExact((List) List.of(1.0, 4.0)));
    }
    doubles.set(1, null);
    assertTrue(RouteTwins.assertSameFailure(mean, h -> (double) h.invokeExact((List) doubles)).getMessage()
        .contains("element 1 is null"));
    // ArrayLists are written by blocks of 8 and then one by one (Containers.writeDenseLongs): two blocks and a
    // remainder of 3, a null in the second block, and numbers of another class (Integer) through the same blocks.
    List<Double> nineteen = new ArrayList<>();
    for (int i = 0; i < 19; i++) {
      nineteen.add((double) i);
    }
    for (MethodHandle handle : mean.both()) {
      assertEquals(9.0, (double) handle.invokeExact((List) nineteen));
    }
    nineteen.set(12, null);
    assertTrue(RouteTwins.assertSameFailure(mean, h -> (double) h.invokeExact((List) nineteen)).getMessage()
        .contains("element 12 is null"));
    List<Integer> ints = new ArrayList<>();
    for (int i = 0; i < 19; i++) {
      ints.add(i % 2 == 0 ? Integer.MAX_VALUE : Integer.MIN_VALUE);
    }
    assertEquals(Integer.MAX_VALUE - 9L, (long) denseInts.invokeExact((List) ints));
  }

  @Test
  void aPluginOfAbi26KeepsBorrowedListCells() throws Throwable {
    // Its entry takes only a borrowed list cell of P4JAny values (it raises on a dense word) and its cell says
    // P4J_TYPED_FORM_BORROWED_LIST alone: the typed entry, given the cell it knows.
    loadPlugin();
    FunctionSite old = site("route.Abi26Sum", "Shapes.abi26", "values");
    MethodHandle handle = RouteProbe.link(old, LIST_TO_LONG, Codecs.list(Codecs.LONG), Codecs.LONG);
    assertEquals("typed entry (list<int64>) -> int64", old.route());
    assertEquals(6L, (long) handle.invokeExact((List) new ArrayList<>(List.of(1L, 2L, 3L))));
    assertEquals(6L, (long) handle.invokeExact((List) List.of(1L, 2L, 3L)));
    assertEquals(0L, (long) handle.invokeExact((List) List.of()));
  }

  @Test
  void optionalsOfNumbersTakeTheTypedEntryBothWays() throws Throwable {
    RouteTwins orDefault = shapes("route.OrDefault", "typed entry (optional<int64>, int64) -> int64",
        MethodType.methodType(long.class, Optional.class, long.class), Codecs.optional(Codecs.LONG), Codecs.LONG,
        Codecs.LONG);
    RouteTwins half = shapes("route.Half", "typed entry (int64) -> optional<int64>",
        MethodType.methodType(Optional.class, long.class), Codecs.LONG, Codecs.optional(Codecs.LONG));
    RouteTwins scale = shapes("route.MaybeScale", "typed entry (optional<float64>, float64) -> optional<float64>",
        MethodType.methodType(Optional.class, Optional.class, double.class), Codecs.optional(Codecs.DOUBLE),
        Codecs.DOUBLE, Codecs.optional(Codecs.DOUBLE));
    RouteTwins not = shapes("route.MaybeNot", "typed entry (optional<bool>) -> optional<bool>",
        MethodType.methodType(Optional.class, Optional.class), Codecs.optional(Codecs.BOOLEAN),
        Codecs.optional(Codecs.BOOLEAN));
    for (int i = 0; i < 2; i++) {
      assertEquals(7L, (long) orDefault.both().get(i).invokeExact(Optional.of(7L), 9L));
      assertEquals(9L, (long) orDefault.both().get(i).invokeExact(Optional.empty(), 9L));
      assertEquals(Optional.of(5L), (Optional) half.both().get(i).invokeExact(10L));
      assertEquals(Optional.empty(), (Optional) half.both().get(i).invokeExact(3L));
      assertEquals(Optional.of(3.0), (Optional) scale.both().get(i).invokeExact(Optional.of(1.5), 2.0));
      assertEquals(Optional.empty(), (Optional) scale.both().get(i).invokeExact(Optional.empty(), 2.0));
      assertEquals(Optional.of(false), (Optional) not.both().get(i).invokeExact(Optional.of(true)));
      assertEquals(Optional.empty(), (Optional) not.both().get(i).invokeExact(Optional.empty()));
    }
  }

  @Test
  void anOptionalFailsTheSameWayOnEveryRoute() {
    RouteTwins orDefault = shapes("route.OrDefault", "typed entry (optional<int64>, int64) -> int64",
        MethodType.methodType(long.class, Optional.class, long.class), Codecs.optional(Codecs.LONG), Codecs.LONG,
        Codecs.LONG);
    Throwable nullOptional = RouteTwins.assertSameFailure(orDefault, h -> (long) h.invokeExact((Optional) null, 1L));
    assertInstanceOf(NullPointerException.class, nullOptional);
    assertTrue(nullOptional.getMessage().contains("Optional.empty()"), nullOptional.getMessage());
    // Out of range both ways: an argument beyond optional<int32>, a result beyond Integer.
    RouteTwins narrow = shapes("route.NarrowOptional", "typed entry (optional<int32>) -> int64",
        MethodType.methodType(long.class, Optional.class), Codecs.optional(Codecs.LONG), Codecs.LONG);
    assertEquals("ValueError", ((Packed4jException) RouteTwins.assertSameFailure(narrow,
        h -> (long) h.invokeExact(Optional.of(1L << 40)))).kind());
    RouteTwins halfAsInt = shapes("route.Half", "typed entry (int64) -> optional<int64>",
        MethodType.methodType(Optional.class, long.class), Codecs.LONG, Codecs.optional(Codecs.INT));
    assertEquals("ValueError", ((Packed4jException) RouteTwins.assertSameFailure(halfAsInt,
        h -> (Optional) h.invokeExact(1L << 40))).kind());
    // A native error behind an optional result.
    assertEquals("[ValueError] route.Half: negative -4", RouteTwins.assertSameFailure(halfAsInt,
        h -> (Optional) h.invokeExact(-4L)).getMessage());
    // Wrong type: an Optional<Double> for optional<int64> is no typed entry's: the frame's TypeError.
    FunctionSite mismatched = site("route.OrDefault", "Shapes.mismatched", "value", "fallback");
    MethodHandle handle = RouteProbe.link(mismatched, MethodType.methodType(long.class, Optional.class, long.class),
        Codecs.optional(Codecs.DOUBLE), Codecs.LONG, Codecs.LONG);
    assertTrue(mismatched.route().startsWith("call frame"), mismatched.route());
    Packed4jException typeError = assertThrows(Packed4jException.class,
        () -> { long unused = (long) handle.invokeExact(Optional.of(1.5), 1L); });
    assertEquals("TypeError", typeError.kind());
  }
}
