package dev.packed4j.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * A diagnostic beside JMH for a shared, loaded machine: the object-argument, setter and list-of-16 rows of issues
 * 22 and 24 (and the typed add as a reference), each timed in thread CPU time rather than wall time, in interleaved
 * rounds, so that time the thread spends descheduled by other processes does not count. Each row runs the benchmark
 * method of the JMH class in a loop of its own; the first third of the rounds is warm-up, and the 25th percentile and
 * the median of the others are printed with each row's ratio to its raw twin. A/B comparisons of the same rows agreed
 * with quiet JMH runs within a few percent (docs/benchmarks.md, "Object arguments: where the time went").
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -Dpacked4j.bench.library=benchmarks/target/native/libp4jbench.so \
 *   -cp benchmarks/target/benchmarks.jar dev.packed4j.benchmarks.CpuTimeRows
 * </pre>
 *
 * <p>{@code -Drounds=25} and {@code -Dcalls=1000000} (per round and row) change the defaults; {@code -Drows=List}
 * runs only the rows whose name contains that text (and their raw twins).
 */
public final class CpuTimeRows {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final String[] NAMES = {"ObjectMemberBenchmark.methodGenerated", "ObjectMemberBenchmark.methodRawFfm",
      "ObjectMemberBenchmark.methodTypedEntryFfm", "ObjectFieldBenchmark.passedToTypedFunction",
      "ObjectFieldBenchmark.rawFfm", "ObjectFieldBenchmark.typedEntryFfm", "AddBenchmark.generatedTyped",
      "AddBenchmark.rawFfm", "ObjectMemberBenchmark.numericSetterGenerated",
      "ObjectMemberBenchmark.numericSetterRawFfm", "ObjectMemberBenchmark.stringSetterGenerated",
      "ObjectMemberBenchmark.stringSetterRawFfm", "ListSumBenchmark.generatedSixteenView",
      "ListSumBenchmark.rawFfmSixteen", "ObjectMemberBenchmark.constructGenerated",
      "ObjectMemberBenchmark.constructRawFfm", "ObjectCreateBenchmark.generated", "ObjectCreateBenchmark.rawFfm"};
  /** The raw twin of each row, an index into {@link #NAMES}; -1 for a raw twin itself. */
  private static final int[] TWIN = {1, -1, 1, 4, -1, 4, 7, -1, 9, -1, 11, -1, 13, -1, 15, -1, 17, -1};
  /** What the loops returned, so that the JIT keeps the calls. */
  private static long sink;

  private CpuTimeRows() {}

  /**
   * Runs the rows and prints their times.
   *
   * @param args none
   * @throws Throwable when a benchmark's setup or call fails
   */
  public static void main(String[] args) throws Throwable {
    ObjectMemberBenchmark member = new ObjectMemberBenchmark();
    member.setUp();
    ObjectFieldBenchmark field = new ObjectFieldBenchmark();
    field.setUp();
    AddBenchmark add = new AddBenchmark();
    add.setUp();
    ListSumBenchmark list = new ListSumBenchmark();
    list.setUp();
    ObjectCreateBenchmark create = new ObjectCreateBenchmark();
    create.setUp();
    String only = System.getProperty("rows", "");
    boolean[] run = new boolean[NAMES.length];
    for (int row = 0; row < NAMES.length; row++) {
      if (NAMES[row].contains(only)) {
        run[row] = true;
        if (TWIN[row] >= 0) {
          run[TWIN[row]] = true;
        }
      }
    }
    int rounds = Integer.getInteger("rounds", 25);
    int calls = Integer.getInteger("calls", 1_000_000);
    double[][] nanos = new double[NAMES.length][rounds];
    for (int round = 0; round < rounds; round++) {
      for (int row = 0; row < NAMES.length; row++) {
        if (!run[row]) {
          continue;
        }
        long start = THREADS.getCurrentThreadCpuTime();
        sink += switch (row) {
          case 0 -> methodGenerated(member, calls);
          case 1 -> methodRawFfm(member, calls);
          case 2 -> methodTypedEntryFfm(member, calls);
          case 3 -> passedToTypedFunction(field, calls);
          case 4 -> fieldRawFfm(field, calls);
          case 5 -> fieldTypedEntryFfm(field, calls);
          case 6 -> addGeneratedTyped(add, calls);
          case 7 -> addRawFfm(add, calls);
          case 8 -> numericSetterGenerated(member, calls);
          case 9 -> numericSetterRawFfm(member, calls);
          case 10 -> stringSetterGenerated(member, calls);
          case 11 -> stringSetterRawFfm(member, calls);
          case 12 -> listSixteenView(list, calls);
          case 13 -> listRawFfmSixteen(list, calls);
          case 14 -> constructGenerated(member, calls);
          case 15 -> constructRawFfm(member, calls);
          case 16 -> createGenerated(create, calls);
          default -> createRawFfm(create, calls);
        };
        nanos[row][round] = (THREADS.getCurrentThreadCpuTime() - start) / (double) calls;
      }
    }
    member.tearDown();
    field.tearDown();
    int warmup = rounds / 3;
    for (int row = 0; row < NAMES.length; row++) {
      if (!run[row]) {
        continue;
      }
      double[] sorted = Arrays.copyOfRange(nanos[row], warmup, rounds);
      Arrays.sort(sorted);
      String ratio = TWIN[row] < 0 ? ""
          : String.format("  %.2fx the raw twin (p25)", sorted[sorted.length / 4] / p25(nanos[TWIN[row]], warmup));
      System.out.printf("%-44s p25 %6.2f ns  median %6.2f ns%s%n", NAMES[row], sorted[sorted.length / 4],
          sorted[sorted.length / 2], ratio);
    }
  }

  private static double p25(double[] nanos, int warmup) {
    double[] sorted = Arrays.copyOfRange(nanos, warmup, nanos.length);
    Arrays.sort(sorted);
    return sorted[sorted.length / 4];
  }

  private static long methodGenerated(ObjectMemberBenchmark member, int calls) {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += member.methodGenerated();
    }
    return sum;
  }

  private static long methodRawFfm(ObjectMemberBenchmark member, int calls) throws Throwable {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += member.methodRawFfm();
    }
    return sum;
  }

  private static long methodTypedEntryFfm(ObjectMemberBenchmark member, int calls) throws Throwable {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += member.methodTypedEntryFfm();
    }
    return sum;
  }

  private static long passedToTypedFunction(ObjectFieldBenchmark field, int calls) {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += field.passedToTypedFunction();
    }
    return sum;
  }

  private static long fieldRawFfm(ObjectFieldBenchmark field, int calls) throws Throwable {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += field.rawFfm();
    }
    return sum;
  }

  private static long fieldTypedEntryFfm(ObjectFieldBenchmark field, int calls) throws Throwable {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += field.typedEntryFfm();
    }
    return sum;
  }

  private static long addGeneratedTyped(AddBenchmark add, int calls) {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += add.generatedTyped();
    }
    return sum;
  }

  private static long addRawFfm(AddBenchmark add, int calls) throws Throwable {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += add.rawFfm();
    }
    return sum;
  }

  private static long numericSetterGenerated(ObjectMemberBenchmark member, int calls) {
    for (int i = 0; i < calls; i++) {
      member.numericSetterGenerated();
    }
    return 0;
  }

  private static long numericSetterRawFfm(ObjectMemberBenchmark member, int calls) throws Throwable {
    for (int i = 0; i < calls; i++) {
      member.numericSetterRawFfm();
    }
    return 0;
  }

  private static long stringSetterGenerated(ObjectMemberBenchmark member, int calls) {
    for (int i = 0; i < calls; i++) {
      member.stringSetterGenerated();
    }
    return 0;
  }

  private static long listSixteenView(ListSumBenchmark list, int calls) {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += list.generatedSixteenView();
    }
    return sum;
  }

  private static long listRawFfmSixteen(ListSumBenchmark list, int calls) throws Throwable {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += list.rawFfmSixteen();
    }
    return sum;
  }

  private static long stringSetterRawFfm(ObjectMemberBenchmark member, int calls) throws Throwable {
    for (int i = 0; i < calls; i++) {
      member.stringSetterRawFfm();
    }
    return 0;
  }

  private static long constructGenerated(ObjectMemberBenchmark member, int calls) {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += member.constructGenerated() != null ? 1 : 0;
    }
    return sum;
  }

  private static long constructRawFfm(ObjectMemberBenchmark member, int calls) throws Throwable {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += member.constructRawFfm();
    }
    return sum;
  }

  private static long createGenerated(ObjectCreateBenchmark create, int calls) {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += create.generated() != null ? 1 : 0;
    }
    return sum;
  }

  private static long createRawFfm(ObjectCreateBenchmark create, int calls) throws Throwable {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += create.rawFfm();
    }
    return sum;
  }
}
