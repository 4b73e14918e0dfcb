package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 14's leak run: over 10 million mixed calls and one million lifecycles each of strings, containers, objects,
 * callbacks and tensors, the live native object count comes back to where it was and the resident set stays within
 * 5%.
 *
 * <p>Runs in a JVM of its own (tests/pom.xml, execution leak-test) whose heap is fixed and touched up front, so
 * the resident set measures native memory and code rather than how far the Java heap has grown.
 */
class LeakTest {
  private static final long MIXED_CALLS = StressSizes.of(10_000_000);
  private static final long LIFECYCLES = StressSizes.of(1_000_000);

  private static Values values;
  private static ObjectFunctions objects;
  private static Containers containers;
  private static Callbacks callbacks;
  private static Tensors tensors;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    values = Packed4j.bind(Values.class);
    objects = Packed4j.bind(ObjectFunctions.class);
    containers = Packed4j.bind(Containers.class);
    callbacks = Packed4j.bind(Callbacks.class);
    tensors = Packed4j.bind(Tensors.class);
  }

  @Test
  void liveObjectsAndResidentMemoryStayFlat() throws Exception {
    try (Node shared = objects.makeNode(1, 2, 0, 0.5, true, "shared")) {
      // A warm-up of the same work first: the JIT's code, the per-thread stacks and the allocator's arenas grow
      // to their working size there, not in the measured run.
      run(shared, Math.max(MIXED_CALLS / 10, 200_000), Math.max(LIFECYCLES / 10, 20_000));
      long liveBefore = TestLibrary.settledLiveObjectCount();
      long residentBefore = StressSizes.residentBytes();
      run(shared, MIXED_CALLS, LIFECYCLES);
      long liveAfter = TestLibrary.settledLiveObjectCount();
      long residentAfter = StressSizes.residentBytes();
      System.out.printf("LeakTest: %,d mixed calls and %,d lifecycles each: live objects %,d -> %,d, resident "
          + "%,d KiB -> %,d KiB (%+.2f%%)%n", MIXED_CALLS, LIFECYCLES, liveBefore, liveAfter, residentBefore / 1024,
          residentAfter / 1024, 100.0 * (residentAfter - residentBefore) / residentBefore);
      assertEquals(liveBefore, liveAfter, "live native objects");
      assertTrue(residentAfter <= residentBefore * 1.05, "resident memory grew from " + residentBefore + " to "
          + residentAfter + " bytes, more than 5%");
    }
  }

  private static void run(Node shared, long mixedCalls, long lifecycles) {
    long checksum = 0;
    for (long i = 0; i < mixedCalls; i++) {
      switch ((int) (i % 8)) {
        case 0 -> checksum += values.addInt32(1, i);
        case 1 -> checksum += values.echoLong(i);
        case 2 -> checksum += (long) values.echoDouble(i);
        case 3 -> checksum += values.utf8Length("caf\u00e9");
        case 4 -> checksum += containers.sum(List.of(i, 1L));
        case 5 -> checksum += objects.nameOf(shared).length();
        case 6 -> checksum += shared.big();
        default -> {
          // An error: a native error object made, turned into an exception and released.
          try {
            values.raise("KeyError", "missing");
          } catch (Packed4jException e) {
            checksum++;
          }
        }
      }
    }
    try (Arena arena = Arena.ofConfined()) {
      // The memory wrapped tensors borrow: allocated once, so that each lifecycle is the tensor's own.
      MemorySegment borrowed = arena.allocate(ValueLayout.JAVA_FLOAT, 4);
      for (int k = 0; k < 4; k++) {
        borrowed.setAtIndex(ValueLayout.JAVA_FLOAT, k, k + 1);
      }
      for (long i = 0; i < lifecycles; i++) {
        checksum += lifecycle(borrowed, i);
      }
    }
    assertTrue(checksum != 0);
  }

  /** One lifecycle of each kind; returns a checksum of what was read, so that nothing is optimized away. */
  private static long lifecycle(MemorySegment borrowed, long i) {
    long checksum = 0;
    // A string: a native String object made for the result and released once read.
    checksum += values.echoString("lifecycle " + i).length();
    // Containers: a temporary list and map for the arguments, a result copied and released, and a live view
    // closed.
    checksum += containers.echoLongs(List.of(i, i + 1)).size();
    checksum += containers.echoStringMap(Map.of("k", i)).size();
    try (NativeList<Long> live = containers.rangeLive(4)) {
      checksum += live.size();
    }
    // An object with a string field, read and closed.
    try (Node node = objects.makeNode(1, i, 0, 0.5, false, "node")) {
      checksum += node.big() + node.name().length();
    }
    // Callbacks: a Java function object made, called from C++ and closed; a lambda that becomes a native function
    // for one call (its typed entry) and is dropped by C++ when the call ends; a native closure over a Java
    // callback, returned to Java, called and closed.
    try (PackedFunction plusOne = PackedFunction.of(args -> (Long) args[0] + 1)) {
      checksum += (Long) callbacks.apply(plusOne, i);
      try (PackedFunction composed = callbacks.compose(plusOne, plusOne)) {
        checksum += (Long) composed.invoke(i);
      }
    }
    checksum += callbacks.sumTyped((a, b) -> a + b, 3);
    // Tensors: allocated, written by C++ and read back; copied in from an array, passed, a new tensor returned;
    // borrowed memory wrapped, passed and closed; exported through DLPack to a C++ consumer that releases it; a
    // Java array copied in for one call.
    try (NDArray counted = NDArray.allocate(DType.INT16, 8)) {
      tensors.fillIota(counted);
      checksum += counted.toShortArray()[7];
    }
    try (NDArray copied = NDArray.fromArray(new float[] {1, 2, 3, i});
        NDArray scaled = tensors.scale(copied, 2)) {
      checksum += (long) tensors.sumFloat32(scaled);
    }
    try (NDArray wrapped = NDArray.wrap(borrowed, DType.FLOAT32, 4)) {
      checksum += (long) tensors.sumFloat32(wrapped);
      checksum += (long) tensors.consumeFirstFloat(wrapped.toDLPack().address());
    }
    checksum += tensors.sum(new int[] {1, 2}, new long[] {i});
    return checksum;
  }
}
