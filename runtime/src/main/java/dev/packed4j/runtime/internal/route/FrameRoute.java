package dev.packed4j.runtime.internal.route;

import java.lang.invoke.MethodHandle;

/**
 * The call frame: the generated method's own {@code ...ThroughFrame} method, which opens a {@code CallFrame}, puts
 * each argument as a {@code P4JAny}, calls the function's packed {@code safe_call} and converts the result.
 *
 * <p>Selection rule: taken when neither direct route applies: the function is not registered yet (the site relinks
 * when a library loads), or it has no typed entry that fits the method and the method has a String parameter or more
 * than four parameters. Methods with other parameter or result types (objects, containers, boxes, String results)
 * always use a call frame and link no route.
 */
public record FrameRoute(MethodHandle handle, String reason) implements Route {
  @Override
  public String describe() {
    return "call frame (" + reason + ")";
  }
}
