package dev.packed4j.runtime;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap bytes a round of calls allocates on this thread once the JIT has compiled it. Until C2 has compiled a call
 * path, escape analysis has not removed its temporaries, and on a loaded machine that takes a while: rounds run
 * until one allocates less than the limit, or the round budget is spent.
 */
final class SteadyStateAllocation {
  private SteadyStateAllocation() {}

  /** The bytes each round allocated, the last one under {@code limit} unless every round was over it. */
  static List<Long> measure(Runnable round, long limit, int maxRounds) {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    List<Long> perRound = new ArrayList<>();
    for (int i = 0; i < maxRounds; i++) {
      long before = threads.getCurrentThreadAllocatedBytes();
      round.run();
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      perRound.add(allocated);
      if (allocated < limit) {
        break;
      }
    }
    return perRound;
  }
}
