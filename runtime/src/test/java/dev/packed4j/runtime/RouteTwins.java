package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.binding.FunctionSite;
import dev.packed4j.runtime.binding.RouteProbe;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * One method linked twice, as generated code links it ({@code typed}, whose route is checked) and held to its call
 * frame ({@code frame}), for the tests that hold each direct route to the frame's values and failures.
 *
 * @param typed the handle on the route the runtime chose
 * @param frame the handle of the same method on its call frame
 */
record RouteTwins(MethodHandle typed, MethodHandle frame) {
  /** A call of one handle. */
  interface Call {
    Object call(MethodHandle handle) throws Throwable;
  }

  /**
   * Links {@code function} as the method {@code owner.<name>} of {@code type} with parameters {@code p0, p1, ...},
   * checks that it took {@code expectedRoute}, and links the same method to its call frame.
   */
  static RouteTwins link(String owner, String function, String expectedRoute, MethodType type, Codec<?>... codecs) {
    String[] names = new String[type.parameterCount()];
    for (int i = 0; i < names.length; i++) {
      names[i] = "p" + i;
    }
    String method = owner + "." + function.substring(function.indexOf('.') + 1);
    FunctionSite site = new FunctionSite(function, method, names);
    MethodHandle typed = RouteProbe.link(site, type, codecs);
    assertEquals(expectedRoute, site.route(), site.toString());
    return new RouteTwins(typed, RouteProbe.frame(new FunctionSite(function, method, names), type, codecs));
  }

  /** Both handles, the direct one first. */
  List<MethodHandle> both() {
    return List.of(typed, frame);
  }

  /** Calls each route; both throw the same exception: class, message and, for a native one, kind. */
  static Throwable assertSameFailure(RouteTwins routes, Call call) {
    Throwable typed = assertThrows(Throwable.class, () -> call.call(routes.typed), "typed entry");
    Throwable frame = assertThrows(Throwable.class, () -> call.call(routes.frame), "call frame");
    assertEquals(frame.getClass(), typed.getClass(), typed.toString());
    assertEquals(frame.getMessage(), typed.getMessage());
    if (frame instanceof Packed4jException framed) {
      assertEquals(framed.kind(), ((Packed4jException) typed).kind());
    }
    return typed;
  }
}
