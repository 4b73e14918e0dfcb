package dev.packed4j.runtime.internal.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-thread argument stack, without native calls. */
class ThreadStackTest {
  private static final CallTarget TARGET = CallTarget.operation("test", "first", "second");

  @Test
  void everyThreadHasItsOwnStackAlsoWhenTheirCacheSlotsCollide() throws Exception {
    ThreadStack mine = ThreadStack.current();
    assertSame(mine, ThreadStack.current());
    // 130 threads: with 64 cache slots, many share one; each must still find its own stack, every time.
    List<Thread> threads = new ArrayList<>();
    Map<Thread, ThreadStack> first = new ConcurrentHashMap<>();
    AtomicInteger wrong = new AtomicInteger();
    CyclicBarrier barrier = new CyclicBarrier(130);
    for (int i = 0; i < 130; i++) {
      threads.add(Thread.ofPlatform().start(() -> {
        first.put(Thread.currentThread(), ThreadStack.current());
        try {
          barrier.await();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        for (int round = 0; round < 1000; round++) {
          if (ThreadStack.current() != first.get(Thread.currentThread())) {
            wrong.incrementAndGet();
          }
        }
      }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(0, wrong.get());
    assertEquals(130, new HashSet<>(first.values()).size());
    assertFalse(first.containsValue(mine));
    assertSame(mine, ThreadStack.current());
  }

  @Test
  void framesStackAndRestoreTheirMemory() {
    ThreadStack stack = ThreadStack.current();
    int depth = stack.depth();
    long outerSlot;
    try (Frame outer = stack.push(TARGET, 2)) {
      outerSlot = outer.slot(0);
      assertEquals(outer.slot(0) + P4JAny.SIZE, outer.slot(1));
      assertEquals(outer.slot(1) + P4JAny.SIZE, outer.result());
      // Slots are written by their put, or set to None by invoke() (CallFrameTest): not at open.
      outer.putLong(0, 41);
      long innerSlot;
      try (Frame inner = stack.push(TARGET, 1)) {
        assertEquals(depth + 2, stack.depth());
        innerSlot = inner.slot(0);
        assertTrue(innerSlot > outer.result(), "the inner frame stacks above the outer one");
        inner.putLong(0, 7);
      }
      assertEquals(41, NativeMemory.anyPayload(outer.slot(0)), "the outer frame is untouched");
      try (Frame again = stack.push(TARGET, 1)) {
        assertEquals(innerSlot, again.slot(0), "memory of a closed frame is reused");
      }
    }
    assertEquals(depth, stack.depth());
    try (Frame next = stack.push(TARGET, 1)) {
      assertEquals(outerSlot, next.slot(0));
    }
  }

  @Test
  void scratchBeyondAChunkMovesToANewChunkWithoutMovingEarlierMemory() {
    ThreadStack stack = ThreadStack.current();
    try (Frame outer = stack.push(TARGET, 1)) {
      outer.encodeString(outer.slot(0), "kept");
      long kept = NativeMemory.anyPayload(outer.slot(0));
      try (Frame inner = stack.push(TARGET, 1)) {
        String large = "x".repeat(3 * (int) ThreadStack.FIRST_CHUNK_SIZE);
        inner.encodeString(inner.slot(0), large);
        long data = NativeMemory.anyPayload(inner.slot(0));
        assertEquals(large, new String(NativeMemory.copyBytes(data, large.length()), StandardCharsets.UTF_8));
        assertTrue(stack.reservedBytes() > 3 * ThreadStack.FIRST_CHUNK_SIZE);
      }
      assertEquals("kept", new String(NativeMemory.copyBytes(kept, 4), StandardCharsets.UTF_8));
    }
    try (Frame huge = stack.push(TARGET, 1)) {
      huge.scratch(2 * ThreadStack.REUSED_CHUNK_LIMIT, 16);
    }
    assertTrue(stack.reservedBytes() < 2 * ThreadStack.RETAINED_CHUNK_LIMIT,
        "chunks above the reused limit are dropped when the outermost frame closes: " + stack.reservedBytes());
  }

  /** The stack's top, read through a mark taken and released at once. */
  private static long top(ThreadStack stack) {
    long mark = stack.markScratch();
    stack.releaseScratch(mark);
    return mark;
  }

  @Test
  void scratchMarksNestWithFramesAndGiveBackTheirMemory() {
    ThreadStack stack = ThreadStack.current();
    long start = top(stack);
    long outer = stack.markScratch();
    assertEquals(start, outer);
    long first = stack.putStringSpan("first");
    assertEquals("first", NativeMemory.spanString(first));
    try (Frame frame = stack.push(TARGET, 1)) {
      assertTrue(frame.slot(0) > first, "a frame opened inside stacks above the scratch");
      long inner = stack.markScratch();
      long second = stack.putStringSpan("second");
      assertTrue(second > frame.result());
      stack.releaseScratch(inner);
      assertEquals(second, stack.putStringSpan("again"), "released memory is reused");
    }
    assertEquals("first", NativeMemory.spanString(first), "memory below the inner calls is untouched");
    stack.releaseScratch(outer);
    assertEquals(start, top(stack));
    assertEquals(0, stack.depth());
    // Deeper than the marks' first array: each still goes back to its own place.
    long[] marks = new long[40];
    for (int i = 0; i < marks.length; i++) {
      marks[i] = stack.markScratch();
      stack.putStringSpan("level " + i);
    }
    for (int i = marks.length - 1; i >= 0; i--) {
      stack.releaseScratch(marks[i]);
      assertEquals(marks[i], top(stack));
    }
  }

  @Test
  void scratchThatMovedToALaterChunkGoesBackToTheMarksChunk() {
    ThreadStack stack = ThreadStack.current();
    long start = top(stack);
    long mark = stack.markScratch();
    long kept = stack.putStringSpan("kept");
    String large = "y".repeat(3 * (int) ThreadStack.FIRST_CHUNK_SIZE);
    long span = stack.putStringSpan(large);
    assertEquals(large, NativeMemory.spanString(span));
    assertEquals("kept", NativeMemory.spanString(kept), "the earlier chunk did not move");
    try (Frame frame = stack.push(TARGET, 1)) {
      assertTrue(frame.slot(0) > span, "a frame opened inside stacks above, in the later chunk");
    }
    stack.releaseScratch(mark);
    assertEquals(start, top(stack));
    // A mark taken exactly at the end of a full chunk: allocate up to the end, then move on.
    long filled = stack.markScratch();
    long room = ThreadStack.FIRST_CHUNK_SIZE - (top(stack) - start) - (start & 15);
    stack.allocate(room, 1);
    long atEnd = stack.markScratch();
    stack.allocate(64, 8);
    stack.releaseScratch(atEnd);
    stack.releaseScratch(filled);
    assertEquals(start, top(stack));
  }

  @Test
  void aHugeChunkUnderAnOpenScratchMarkOutlivesOutermostFramesInside() {
    ThreadStack stack = ThreadStack.current();
    long mark = stack.markScratch();
    long huge = stack.allocate(2 * ThreadStack.REUSED_CHUNK_LIMIT, 16);
    NativeMemory.putLong(huge, 42);
    // A callback's call inside the direct entry's call: an outermost frame, but not the outermost use.
    try (Frame frame = stack.push(TARGET, 0)) {
      frame.scratch(64, 8);
    }
    assertTrue(stack.reservedBytes() > 2 * ThreadStack.REUSED_CHUNK_LIMIT, "kept while the mark is open");
    assertEquals(42, NativeMemory.getLong(huge));
    stack.releaseScratch(mark);
    assertTrue(stack.reservedBytes() < 2 * ThreadStack.RETAINED_CHUNK_LIMIT,
        "dropped when the mark is released: " + stack.reservedBytes());
  }

  @Test
  void aMarkFromElsewhereIsRejectedAndLeavesTheStackUsable() {
    ThreadStack stack = ThreadStack.current();
    long start = top(stack);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> stack.releaseScratch(start));
    assertTrue(e.getMessage().contains("not the innermost open mark"), e.getMessage());
    long mark = stack.markScratch();
    assertThrows(IllegalStateException.class, () -> stack.releaseScratch(16), "an address outside the mark's chunk");
    stack.releaseScratch(mark);
    assertThrows(IllegalStateException.class, () -> stack.releaseScratch(mark), "released twice");
    assertEquals(start, top(stack));
    try (Frame frame = stack.push(TARGET, 1)) {
      frame.putLong(0, 1);
    }
    assertEquals(start, top(stack));
  }

  @Test
  void anInnerMarkReleasedTwiceIsRejectedBeforeTheOuterMarksMemoryIsGivenBack() {
    // A callback's mark released twice inside a direct call: the second release would close the last open mark and
    // let a virtual thread give back the memory the outer call is still using.
    ThreadStack stack = ThreadStack.current();
    long outer = stack.markScratch();
    long span = stack.putStringSpan("in use by the outer call");
    long inner = stack.markScratch();
    stack.putStringSpan("the callback's");
    stack.releaseScratch(inner);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> stack.releaseScratch(inner));
    assertTrue(e.getMessage().contains("not the innermost open mark"), e.getMessage());
    assertEquals("in use by the outer call", NativeMemory.spanString(span));
    stack.releaseScratch(outer);
    assertEquals(outer, top(stack));
  }

  @Test
  void largeChunksAreReusedWhileCallsNeedThemThenDropped() {
    ThreadStack stack = ThreadStack.current();
    long large = 4 * ThreadStack.RETAINED_CHUNK_LIMIT;
    long first;
    try (Frame frame = stack.push(TARGET, 0)) {
      first = frame.scratch(large, 16);
    }
    long reserved = stack.reservedBytes();
    assertTrue(reserved > large, "kept after the call: " + reserved);
    for (int call = 0; call < 3 * ThreadStack.LARGE_CHUNK_IDLE_CALLS; call++) {
      if (call % (ThreadStack.LARGE_CHUNK_IDLE_CALLS / 2) == 0) {
        try (Frame frame = stack.push(TARGET, 0)) {
          assertEquals(first, frame.scratch(large, 16), "the same memory again, not a new chunk");
        }
      } else {
        try (Frame frame = stack.push(TARGET, 0)) {
          frame.scratch(64, 8);
        }
      }
      assertEquals(reserved, stack.reservedBytes());
    }
    for (int call = 0; call <= ThreadStack.LARGE_CHUNK_IDLE_CALLS; call++) {
      try (Frame frame = stack.push(TARGET, 0)) {
        frame.scratch(64, 8);
      }
    }
    assertTrue(stack.reservedBytes() < 2 * ThreadStack.RETAINED_CHUNK_LIMIT,
        "dropped once calls stopped needing it: " + stack.reservedBytes());
  }

  @Test
  void aFrameLeftOpenIsClosedWithTheFrameBelowIt() {
    ThreadStack stack = ThreadStack.current();
    int depth = stack.depth();
    Frame outer = stack.push(TARGET, 0);
    Frame leaked = stack.push(TARGET, 0);
    outer.close();
    assertFalse(leaked.isOpen());
    assertEquals(depth, stack.depth());
  }

  @Test
  void aFrameThatMovedToALaterChunkGoesBackToItsOwnWhenItCloses() {
    ThreadStack stack = ThreadStack.current();
    assertEquals(0, stack.depth());
    long firstSlot;
    try (Frame frame = stack.push(TARGET, 1)) {
      firstSlot = frame.slot(0);
    }
    try (Frame outer = stack.push(TARGET, 1)) {
      assertEquals(firstSlot, outer.slot(0));
      outer.scratch(2 * ThreadStack.FIRST_CHUNK_SIZE, 16);
      try (Frame inner = stack.push(TARGET, 1)) {
        inner.scratch(8 * ThreadStack.FIRST_CHUNK_SIZE, 16);
      }
    }
    try (Frame frame = stack.push(TARGET, 1)) {
      assertEquals(firstSlot, frame.slot(0), "back in the first chunk, where the stack was");
    }
    // A frame whose own slots do not fit in the chunk.
    try (Frame wide = stack.push(TARGET, (int) (2 * ThreadStack.FIRST_CHUNK_SIZE / P4JAny.SIZE))) {
      assertTrue(wide.slot(0) != firstSlot);
    }
    try (Frame frame = stack.push(TARGET, 1)) {
      assertEquals(firstSlot, frame.slot(0));
    }
    // A frame left open in a later chunk, closed by the frame below it.
    Frame outer = stack.push(TARGET, 1);
    Frame leaked = stack.push(TARGET, 1);
    leaked.scratch(2 * ThreadStack.FIRST_CHUNK_SIZE, 16);
    outer.close();
    assertFalse(leaked.isOpen());
    assertEquals(0, stack.depth());
    try (Frame frame = stack.push(TARGET, 1)) {
      assertEquals(firstSlot, frame.slot(0));
    }
  }

  @Test
  void eachLevelReusesItsFrameAndOnlyTheNextFrameOpens() {
    ThreadStack stack = ThreadStack.current();
    Frame first;
    Frame second;
    try (Frame outer = stack.push(TARGET, 0)) {
      first = outer;
      try (Frame inner = stack.push(TARGET, 0)) {
        second = inner;
        assertEquals(outer.level() + 1, inner.level());
        assertEquals(2, stack.depth());
      }
      Frame next = stack.next();
      assertSame(second, next);
      assertThrows(IllegalStateException.class, () -> stack.push(outer, TARGET, 0),
          "an open frame is not the next one");
      assertEquals(1, stack.depth());
    }
    try (Frame outer = stack.push(TARGET, 0); Frame inner = stack.push(TARGET, 0)) {
      assertSame(first, outer);
      assertSame(second, inner);
    }
    assertEquals(0, stack.depth());
  }

  @Test
  void aNegativeArgumentCountIsRejectedAndLeavesTheStackAsItWas() {
    ThreadStack stack = ThreadStack.current();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> stack.push(TARGET, -1));
    assertTrue(e.getMessage().contains("negative argument count -1 for test"), e.getMessage());
    assertEquals(0, stack.depth());
  }

  @Test
  void aClosedFrameRefusesACallAndClosesOnlyOnce() {
    ThreadStack stack = ThreadStack.current();
    Frame frame = stack.push(TARGET, 0);
    frame.close();
    frame.close();
    assertEquals(0, stack.depth());
    IllegalStateException e = assertThrows(IllegalStateException.class, frame::invoke);
    assertTrue(e.getMessage().contains("the call frame of test is closed"), e.getMessage());
  }

  @Test
  void slotIndexesAreChecked() {
    try (Frame frame = ThreadStack.current().push(TARGET, 1)) {
      IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> frame.putLong(1, 0));
      assertTrue(e.getMessage().contains("argument index 1 of test, which takes 1 argument"), e.getMessage());
    }
  }

  @Test
  void eachThreadHasItsOwnStack() throws InterruptedException {
    AtomicLong other = new AtomicLong();
    Thread thread = Thread.ofVirtual().start(() -> {
      try (Frame frame = ThreadStack.current().push(TARGET, 1)) {
        other.set(frame.slot(0));
      }
    });
    thread.join();
    try (Frame frame = ThreadStack.current().push(TARGET, 1)) {
      assertTrue(other.get() != 0 && other.get() != frame.slot(0));
    }
  }
}
