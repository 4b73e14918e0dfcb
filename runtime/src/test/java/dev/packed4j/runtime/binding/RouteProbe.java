package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.internal.route.FrameRoute;
import dev.packed4j.runtime.internal.route.LinkedRoute;
import dev.packed4j.runtime.internal.route.Route;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** For tests: the route a site links for a Java method type, without a generated class around it. */
public final class RouteProbe {
  private RouteProbe() {}

  /**
   * The route {@code site} links for a method of {@code javaType} whose call frame must not be reached (it throws an
   * AssertionError).
   */
  @SuppressWarnings("exports") // Route is internal; this probe is test code, patched into the module for the tests
  public static Route route(FunctionSite site, MethodType javaType) {
    MethodType wire = LinkedRoute.wireType(javaType);
    MethodHandle unreachable = MethodHandles.dropArguments(
        MethodHandles.throwException(wire.returnType(), AssertionError.class)
            .bindTo(new AssertionError(site + ": the call frame was reached")),
        0, wire.parameterList());
    return LinkedRoute.link(site.target, javaType, unreachable).route();
  }

  /** The handle of the direct route (typed entry or register call) of {@code site} for {@code javaType}, else null. */
  public static MethodHandle direct(FunctionSite site, MethodType javaType) {
    Route route = route(site, javaType);
    return route instanceof FrameRoute ? null : route.handle();
  }
}
