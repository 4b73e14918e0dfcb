package dev.packed4j.runtime.internal.values;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The native function behind each closure-out object, for {@code NativeClosure}'s default methods (a lambda has no
 * fields they could read). Keys are the objects a generated lambda made, compared by identity (lambdas do not
 * override equals), held weakly. The function is held weakly too: the object itself holds it (the lambda captured
 * it), and a WeakHashMap drops a collected key's entry only at its next use, so a strong value would keep the
 * function, and the native closure, alive after its object is gone.
 */
public final class ClosureViews {
  /** Closure-out objects (each a {@code NativeClosure}) to their {@code PackedFunction}. */
  private static final Map<Object, WeakReference<Object>> FUNCTIONS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private ClosureViews() {}

  /** Records that {@code closure} calls {@code function}. */
  public static void remember(Object closure, Object function) {
    FUNCTIONS.put(closure, new WeakReference<>(function));
  }

  /** The function behind a closure-out object, or null for another implementation of the interface. */
  public static Object functionOf(Object closure) {
    WeakReference<Object> function = FUNCTIONS.get(closure);
    return function == null ? null : function.get();
  }
}
