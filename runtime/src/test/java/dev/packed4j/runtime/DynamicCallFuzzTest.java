package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A seeded fuzzer of dynamic calls ({@code Registry.global(name).invoke(...)}): random functions of the core, random
 * argument counts and random values of every kind the runtime converts (and some it does not), reusing results as
 * arguments. Every failure must be a typed exception that names the function, the JVM must survive, and no native
 * object may be left alive. Bounded in calls and in time; {@code -Dpacked4j.fuzz.seed=N} replays another run.
 */
class DynamicCallFuzzTest {
  private static final long SEED = Long.getLong("packed4j.fuzz.seed", 14);
  private static final int MAX_CALLS = Integer.getInteger("packed4j.fuzz.calls", 50_000);
  private static final long MAX_MILLIS = 20_000;
  private static final int MAX_POOL = 16;

  private static final List<String> STORES_INTO_FIRST =
      List.of("packed4j.ListSetItem", "packed4j.ListAppend", "packed4j.MapSetItem");

  private final Random random = new Random(SEED);
  private final List<AutoCloseable> pool = new ArrayList<>();

  @Test
  void randomDynamicCallsFailOnlyWithTypedExceptionsAndLeakNothing() throws Exception {
    TestLibraries.requireCore();
    List<String> names = new ArrayList<>(Registry.list().stream().filter(name -> name.startsWith("packed4j.")).toList());
    names.sort(null);
    names.add("packed4j.NoSuchFunction");
    long before = TestLibraries.settledLiveObjectCount();
    long deadline = System.nanoTime() + MAX_MILLIS * 1_000_000;
    int calls = 0;
    int failures = 0;
    for (; calls < MAX_CALLS && System.nanoTime() < deadline; calls++) {
      String name = names.get(random.nextInt(names.size()));
      // Half the calls look like a real use (a container first, then an index, key or item) so that more of them
      // get past argument checking; the rest are anything.
      boolean shaped = random.nextBoolean();
      Object[] args = new Object[shaped ? 1 + random.nextInt(3) : random.nextInt(5)];
      for (int i = 0; i < args.length; i++) {
        args[i] = shaped && i == 0 ? container() : shaped && i == 1 && random.nextBoolean()
            ? (long) random.nextInt(4) : value(3);
        if (i > 0 && STORES_INTO_FIRST.contains(name) && holdsNative(args[i])) {
          // Storing a native container into another could close a cycle, which reference counting cannot free
          // (by design, as in TVM): the leak check below would then blame the runtime.
          args[i] = text();
        }
      }
      try {
        keep(call(name, args));
      } catch (Packed4jException e) {
        failures++;
        assertTrue(e.getMessage() != null && e.getMessage().contains(name), () -> "call " + name
            + " with " + describe(args) + " (seed " + SEED + "): the message does not name the function: "
            + e.getMessage());
      } catch (IllegalStateException e) {
        failures++; // a closed native value used as an argument
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
      } catch (Throwable e) {
        fail("call " + name + " with " + describe(args) + " (seed " + SEED + ") threw " + e, e);
      }
    }
    for (AutoCloseable value : pool) {
      value.close();
    }
    pool.clear();
    System.out.printf("DynamicCallFuzzTest: seed %d, %,d calls, %,d typed failures%n", SEED, calls, failures);
    assertTrue(calls >= Math.min(MAX_CALLS, 1_000), "too few calls in the time allowed: " + calls);
    assertEquals(before, TestLibraries.settledLiveObjectCount(), "live native objects after the run");
  }

  private static Object call(String name, Object[] args) {
    try (PackedFunction function = Registry.global(name)) {
      return function.invoke(args);
    }
  }

  /** Keeps a native result to pass again later, or closes it. */
  private void keep(Object result) throws Exception {
    if (result instanceof AutoCloseable closeable) {
      if (pool.size() < MAX_POOL && random.nextInt(3) != 0) {
        pool.add(closeable);
      } else {
        closeable.close();
      }
    }
  }

  private Object value(int depth) throws Exception {
    switch (random.nextInt(depth > 0 ? 16 : 12)) {
      case 0: return null;
      case 1: return random.nextBoolean();
      case 2: return pick(new Object[] {(byte) random.nextInt(), (short) random.nextInt(), random.nextInt()});
      case 3: return pick(new Object[] {random.nextLong(), Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L,
          (long) random.nextInt(8)});
      case 4: return pick(new Object[] {random.nextDouble(), Double.NaN, Double.NEGATIVE_INFINITY, -0.0,
          Double.MIN_VALUE, (float) random.nextGaussian()});
      case 5: return text();
      case 6: {
        byte[] bytes = new byte[random.nextInt(24)];
        random.nextBytes(bytes);
        return bytes;
      }
      case 7: return pool.isEmpty() ? text() : pool.get(random.nextInt(pool.size()));
      case 8: {
        // A native value closed by now: an IllegalStateException when passed, never a crash.
        if (pool.isEmpty()) {
          return new Object();
        }
        AutoCloseable closed = pool.remove(random.nextInt(pool.size()));
        closed.close();
        return closed;
      }
      case 9: return MemorySegment.ofAddress(random.nextLong() & 0x7fff_ffff_fff8L);
      case 10: return pick(new Object[] {new Object(), new int[] {1}, 'c', Thread.State.NEW});
      case 11: return random.nextBoolean() ? Optional.empty() : Optional.of((long) random.nextInt(8));
      case 12, 13: {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(6); i > 0; i--) {
          list.add(value(depth - 1));
        }
        return random.nextBoolean() ? list : List.copyOf(list.stream().filter(v -> v != null).toList());
      }
      default: {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = random.nextInt(5); i > 0; i--) {
          // The value first: making it may close a pooled value, which must not be a key by then.
          Object entryValue = value(depth - 1);
          // Keys the Java map can hash: not a native list or map, whose hashCode, like ArrayList's, reads every element
          // and never ends for one that holds itself (ListAppend(list, list) makes one).
          Object key = switch (random.nextInt(5)) {
            case 0 -> text();
            case 1 -> (long) random.nextInt(4);
            case 2 -> random.nextInt(4);
            case 3 -> random.nextBoolean() ? null : random.nextDouble();
            default -> pool.isEmpty() ? text() : pool.get(random.nextInt(pool.size())) instanceof ObjectRef ref
                ? ref : text();
          };
          map.put(key, entryValue);
        }
        return map;
      }
    }
  }

  /** A pooled native list or map when there is one, else a Java list or map of small numbers and strings. */
  private Object container() throws Exception {
    for (AutoCloseable value : pool) {
      if ((value instanceof NativeList<?> || value instanceof NativeMap<?, ?>) && random.nextInt(3) != 0) {
        return value;
      }
    }
    if (random.nextBoolean()) {
      return new ArrayList<>(List.of((long) random.nextInt(9), text()));
    }
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put(text(), (long) random.nextInt(9));
    map.put((long) random.nextInt(4), text());
    return map;
  }

  private static boolean holdsNative(Object value) {
    return switch (value) {
      case AutoCloseable closeable -> true;
      case List<?> list -> list.stream().anyMatch(DynamicCallFuzzTest::holdsNative);
      case Map<?, ?> map -> map.keySet().stream().anyMatch(DynamicCallFuzzTest::holdsNative)
          || map.values().stream().anyMatch(DynamicCallFuzzTest::holdsNative);
      case Optional<?> optional -> optional.isPresent() && holdsNative(optional.get());
      case null, default -> false;
    };
  }

  private Object pick(Object[] choices) {
    return choices[random.nextInt(choices.length)];
  }

  /** ASCII, non-ASCII, lone surrogates (not encodable as UTF-8) and NUL. */
  private String text() {
    StringBuilder text = new StringBuilder();
    for (int i = random.nextInt(12); i > 0; i--) {
      text.append(switch (random.nextInt(5)) {
        case 0 -> (char) ('a' + random.nextInt(26));
        case 1 -> '\u00e9';
        case 2 -> '\0';
        case 3 -> (char) (0xd800 + random.nextInt(0x800));
        default -> (char) random.nextInt(0x10000);
      });
    }
    return text.toString();
  }

  private static String describe(Object[] args) {
    try {
      return Arrays.deepToString(args);
    } catch (RuntimeException | StackOverflowError e) {
      // A closed native value, or a native list that holds itself.
      return args.length + " arguments (" + e + " describing them)";
    }
  }
}
