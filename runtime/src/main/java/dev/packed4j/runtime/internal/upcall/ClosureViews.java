package dev.packed4j.runtime.internal.upcall;

import dev.packed4j.runtime.NativeClosure;
import dev.packed4j.runtime.PackedFunction;
import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The native function behind each closure-out object, for {@link NativeClosure}'s default methods (a lambda has no
 * fields they could read). Keys are the objects a generated lambda made, compared by identity (lambdas do not
 * override equals), held weakly. The function is held weakly too: the object itself holds it (the lambda captured
 * it), and a WeakHashMap drops a collected key's entry only at its next use, so a strong value would keep the
 * function, and the native closure, alive after its object is gone.
 */
public final class ClosureViews {
  private static final Map<NativeClosure, WeakReference<PackedFunction>> FUNCTIONS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private ClosureViews() {}

  /** Records that {@code closure} calls {@code function}. */
  static void remember(NativeClosure closure, PackedFunction function) {
    FUNCTIONS.put(closure, new WeakReference<>(function));
  }

  /** The function behind a closure-out object, or null for another implementation of the interface. */
  public static PackedFunction functionOf(NativeClosure closure) {
    WeakReference<PackedFunction> function = FUNCTIONS.get(closure);
    return function == null ? null : function.get();
  }
}
