package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.internal.errors.ConversionFailure;

/**
 * Bounds how deep the containers of one Java value may nest while they are converted to native ones, so a deep
 * (or cyclic) Java collection is a {@code ValueError} naming the limit instead of a {@link StackOverflowError}
 * thrown from the middle of a conversion. (Results need no bound: a copy recurses only as deep as its declared
 * type, and an {@code Object} element arrives as a live view.)
 *
 * <p>Conversion recurses once per level (a list's element codec converts the inner list), and a level costs a
 * few Java frames; {@link #LIMIT} levels fit comfortably in a default 1 MiB thread stack, interpreted or
 * compiled, with room left for the caller's own frames. Only containers whose elements can themselves be
 * containers count (a {@code List<Long>} never nests), so the counter is untouched on the bulk number paths.
 *
 * <p>Deeper structures can still be built and used natively: a {@code NativeList}/{@code NativeMap} view reads
 * one level at a time, and releasing a native graph of any depth uses constant native stack.
 */
public final class Nesting {
  private Nesting() {}

  /** The deepest nesting of containers converted in one value. */
  public static final int LIMIT = 512;

  /** The end of the limit's message: what an argument deeper than the limit can be instead. */
  public static final String VIEWS_ADVICE =
      "; pass deeper structures as NativeList or NativeMap views built level by level";

  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  /** Thrown past the limit through every level, and turned into a ConversionFailure by the outermost one. */
  private static final class TooDeep extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooDeep() {
      super(null, null, false, false);
    }
  }

  /** Enters one level of a container whose elements may nest; pair with {@link #exit(int[], RuntimeException)}. */
  static int[] enter() {
    int[] depth = DEPTH.get();
    if (depth[0] >= LIMIT) {
      throw new TooDeep();
    }
    depth[0]++;
    return depth;
  }

  /** Leaves a level entered with {@link #enter()}. */
  static void exit(int[] depth) {
    depth[0]--;
  }

  /**
   * What a level rethrows for {@code failure}: the outermost level turns the limit into the failure callers
   * report (kind VALUE, naming the limit); inner levels pass everything on unchanged.
   */
  static RuntimeException rethrow(int[] depth, RuntimeException failure) {
    if (failure instanceof TooDeep && depth[0] == 1) {
      return new ConversionFailure(ConversionFailure.Kind.VALUE, "containers nested deeper than " + LIMIT
          + " levels (or a collection that contains itself): packed4j converts at most " + LIMIT
          + " levels of nested lists and maps in one value" + VIEWS_ADVICE);
    }
    return failure;
  }
}
