package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.Report;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.TypeModel;
import java.util.List;
import javax.lang.model.element.ExecutableElement;

/**
 * The JVM argument slots of a generated method's call route. The runtime links each method ({@code FunctionSite.link})
 * to a chain of method handles, and a handle's type may hold at most {@value #MAX} slots ({@code MethodType}'s
 * limit): past it, the route holder's initializer fails at the first call with "bad parameter count". The chain's
 * widest handle holds the parameters as the route passes them (a String as the long address of its span), the object
 * of a method, the result and {@value #ROUTE} slots of the route's own (one more with String or NDArray parameters,
 * for the scratch memory they are copied into). Measured against packed4j-runtime's call frame route for each
 * parameter and result type; the count errs by a slot on the safe side where the route needs one less.
 */
final class RouteSlots {
  /** The most slots a method handle's type holds. */
  static final int MAX = 255;
  /** The slots the route adds to the parameters and the result. */
  static final int ROUTE = 3;

  private RouteSlots() {}

  /**
   * Reports {@code method} when its route needs more than {@value #MAX} slots; {@code object} says whether the route
   * passes an object first (a method of an {@code @Object} interface).
   */
  static void check(
      ExecutableElement method, List<Parameter> parameters, boolean object, TypeModel result, Report report) {
    int total = slots(parameters.size(), parameters, object, result);
    if (total <= MAX) {
      return;
    }
    int fit = 0;
    while (fit < parameters.size() && slots(fit + 1, parameters, object, result) <= MAX) {
      fit++;
    }
    String fitting = fit == 0 ? "none of them fits"
        : "the first " + fit + " fit, up to " + parameters.get(fit - 1).name();
    report.on(method, Diagnostic.PARAMETER_SLOTS, Display.method(method), parameters.size(), total, MAX, fitting);
  }

  /** The slots of a route passing the first {@code count} of {@code parameters}. */
  private static int slots(int count, List<Parameter> parameters, boolean object, TypeModel result) {
    int total = ROUTE + (object ? 1 : 0) + resultSlots(result);
    boolean scratch = false;
    for (Parameter parameter : parameters.subList(0, count)) {
      TypeModel type = parameter.type();
      total += wide(type) || type instanceof TypeModel.StringType || type instanceof TypeModel.NDArrayType ? 2 : 1;
      scratch |= type instanceof TypeModel.StringType || type instanceof TypeModel.NDArrayType;
    }
    return total + (scratch ? 1 : 0);
  }

  private static int resultSlots(TypeModel result) {
    return result instanceof TypeModel.VoidType ? 0 : wide(result) ? 2 : 1;
  }

  /** A long or double: two slots. */
  private static boolean wide(TypeModel type) {
    return type instanceof TypeModel.Primitive p
        && (p.kind() == TypeModel.PrimitiveKind.LONG || p.kind() == TypeModel.PrimitiveKind.DOUBLE);
  }
}
