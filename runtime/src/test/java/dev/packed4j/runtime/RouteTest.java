package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import dev.packed4j.runtime.binding.RouteProbe;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
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
      #include <string>
      using namespace packed4j;

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
}
