package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A close on one thread while other threads use the same object, function, live list or tensor: every use gets its
 * correct result or an IllegalStateException that says the thing is closed, never freed memory (a wrong value here;
 * under {@code -Psanitize}, AddressSanitizer's heap-use-after-free in the core or the plugin), and everything closed
 * is released in the end.
 */
class CloseWhileInUseTest {
  private static final int ROUNDS = Integer.getInteger("packed4j.closeRaceRounds", 300);
  private static final int USERS = 3;

  private static ObjectFunctions objects;
  private static Containers containers;
  private static Tensors tensors;
  private static Accounts accounts;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    objects = Packed4j.bind(ObjectFunctions.class);
    containers = Packed4j.bind(Containers.class);
    tensors = Packed4j.bind(Tensors.class);
    accounts = Packed4j.bind(Accounts.class);
  }

  @Test
  void anObjectClosedDuringALongCallIsKeptWithoutAHandshakeEveryMillisecond() throws Exception {
    try (AccountRef first = accounts.open(6, "first")) { // links the global (its function stays referenced)
      assertEquals(0L, accounts.balanceAfter(first, ignored -> 0));
    }
    long baseline = TestLibrary.settledLiveObjectCount();
    AccountRef account = accounts.open(7, "held");
    account.balance(1234);
    CountDownLatch inCall = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    try (ExecutorService caller = Executors.newSingleThreadExecutor()) {
      Future<Long> balance = caller.submit(() -> accounts.balanceAfter(account, ignored -> {
        inCall.countDown();
        try {
          closed.await(); // C++ holds the account, borrowed, while Java closes it
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return 0;
      }));
      assertTrue(inCall.await(30, TimeUnit.SECONDS), "C++ called back");
      account.close();
      long flipsBefore = ReleaseEpochs.flips();
      Thread.sleep(500);
      long flipsWhileHeld = ReleaseEpochs.flips() - flipsBefore;
      closed.countDown();
      assertEquals(1234L, balance.get(30, TimeUnit.SECONDS), "the held object stayed alive for the call");
      // Retired, not pinned: the flipper ran and kept it. Flipping every millisecond would end ~400 epochs (a
      // handshake with every thread each); pausing, about 8.
      assertTrue(flipsWhileHeld >= 1, "the closed object waited for an epoch end");
      assertTrue(flipsWhileHeld < 40, flipsWhileHeld + " epochs ended in 500 ms while only a held object waited");
    }
    assertEquals(baseline, TestLibrary.settledLiveObjectCount(), "released once the call let go of it");
  }

  /** One thing to race: made fresh each round, used by {@link #USERS} threads, closed by the test thread. */
  private interface Subject extends AutoCloseable {
    /** One use, checked: throws AssertionError for a wrong result, IllegalStateException once closed. */
    void use(int step);

    @Override
    void close();
  }

  @Test
  void objectGettersCallsAndToStringRaceClose() throws Exception {
    race(() -> {
      Node node = objects.makeNode(7, 1L << 40, -1, 0.25, true, "racer");
      return new Subject() {
        @Override
        public void use(int step) {
          switch (step % 5) {
            case 0 -> check(node.big() == 1L << 40 && node.small() == 7, "a field read through the object's memory");
            case 1 -> check(node.ratio() == 0.25 && node.flag(), "a double and a bool field");
            case 2 -> check(node.name().equals("racer"), "a string field (a native call)");
            case 3 -> check(objects.nameOf(node).equals("racer"), "the object passed to a function");
            default -> {
              String text = node.toString();
              check(text.equals("test.Node{closed}") || text.contains("racer"), "toString: " + text);
            }
          }
        }

        @Override
        public void close() {
          node.close();
        }
      };
    });
  }

  /**
   * The object passed to typed entries, which hold it instead of pinning it: its methods ({@code this} first) and a
   * typed global taking it; and its setters (a String setter's native write holds it the same way). A release while
   * a call holds it would be a read of freed memory in the method's body.
   */
  @Test
  void objectMethodsAndTypedEntriesRaceClose() throws Exception {
    race(() -> {
      AccountRef account = accounts.open(9, "racer");
      return new Subject() {
        @Override
        public void use(int step) {
          switch (step % 5) {
            case 0 -> check(account.label().equals("account racer"), "a method reading a string field");
            case 1 -> check(accounts.balanceOf(account) == 0, "the object passed to a typed global");
            case 2 -> { // a native write, which holds the object as a typed entry does
              account.owner("racer");
              check(account.owner().equals("racer"), "a String setter, then its getter");
            }
            case 3 -> { // a store into the object's memory, through the epoch's segment as a getter reads
              account.balance(0);
              check(account.balance() == 0, "a numeric setter, then its getter");
            }
            default -> check(account.deposit(0) == 0, "a method with an argument");
          }
        }

        @Override
        public void close() {
          account.close();
        }
      };
    });
  }

  @Test
  void liveListReadsAndPassesRaceClose() throws Exception {
    race(() -> {
      NativeList<Long> list = containers.rangeLive(64);
      return new Subject() {
        @Override
        public void use(int step) {
          switch (step % 4) {
            case 0 -> check(list.size() == 64, "size of the live list");
            case 1 -> check(list.get(step % 64) == step % 64, "an element of the live list");
            case 2 -> check(containers.sum(list) == 64 * 63 / 2, "the live list passed to a function");
            default -> {
              String text = list.toString();
              check(text.endsWith("[closed]") || text.startsWith("["), "toString: " + text);
            }
          }
        }

        @Override
        public void close() {
          list.close();
        }
      };
    });
  }

  @Test
  void tensorReadsViewsAndPassesRaceClose() throws Exception {
    float[] values = new float[256];
    for (int i = 0; i < values.length; i++) {
      values[i] = i;
    }
    double sum = 255 * 256 / 2;
    race(() -> {
      NDArray tensor = NDArray.fromArray(values, 16, 16);
      MemorySegment view = tensor.asSegment();
      return new Subject() {
        @Override
        public void use(int step) {
          switch (step % 4) {
            case 0 -> check(tensor.toFloatArray()[255] == 255f, "a copy of the elements");
            case 1 -> check(tensors.sumFloat32(tensor) == sum, "the tensor passed to a direct call");
            case 2 -> check(view.getAtIndex(ValueLayout.JAVA_FLOAT, 17) == 17f, "a read through asSegment()");
            default -> check(tensors.shape(tensor).equals(List.of(16L, 16L)), "the tensor passed in a frame");
          }
        }

        @Override
        public void close() {
          tensor.close();
        }
      };
    });
  }

  @Test
  void functionInvokedWhileClosed() throws Exception {
    try (Node node = objects.makeNode(1, 2, 3, 4, false, "callee")) {
      race(() -> {
        PackedFunction function = Registry.global("test.NodeName");
        return new Subject() {
          @Override
          public void use(int step) {
            check("callee".equals(function.invoke(node)), "invoke of a function being closed");
          }

          @Override
          public void close() {
            function.close();
          }
        };
      });
    }
  }

  /**
   * A getter caught inside its read by the end of an epoch reads again, and leaves its thread as it found it: JDK
   * 25's HotSpot sets the interrupt status of a thread it stops inside a shared arena's access (JDK-8306324), and
   * before the getter cleared it, the reader's next sleep threw InterruptedException (seen in LeakTest).
   */
  @Test
  void aGetterCaughtByTheEndOfAnEpochKeepsItsThreadUninterrupted() throws Exception {
    try (Node read = objects.makeNode(3, 42, 0, 0, false, "read")) {
      AtomicLong reads = new AtomicLong();
      AtomicLong interrupted = new AtomicLong();
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      Thread reader = Thread.ofPlatform().start(() -> {
        long sum = 0;
        while (!stop.get()) {
          for (int i = 0; i < 1_000; i++) {
            sum += read.big();
          }
          reads.addAndGet(1_000);
          if (Thread.interrupted()) {
            interrupted.incrementAndGet();
          }
        }
        if (sum != 42 * reads.get()) {
          interrupted.set(Long.MIN_VALUE); // a wrong value read: fails the assertion below with a number no count has
        }
      });
      for (int flip = 0; flip < 2_000; flip++) {
        try (Node closed = objects.makeNode(1, flip, 0, 0, false, "closed")) {
          check(closed.big() == flip, "a field of the object closed"); // read without a pin: its close waits an epoch
        }
        Packed4j.liveObjectCount(); // ends the epoch now
      }
      stop.set(true);
      reader.join();
      assertTrue(reads.get() > 0, "the reader read");
      assertEquals(0, interrupted.get(), "times the reader found itself interrupted over " + reads.get() + " reads");
    }
  }

  private static void check(boolean correct, String what) {
    if (!correct) {
      throw new AssertionError("wrong result: " + what);
    }
  }

  private interface SubjectFactory {
    Subject make();
  }

  /**
   * {@link #ROUNDS} rounds: a fresh subject, {@link #USERS} platform and virtual threads using it as fast as they
   * can, and a close after a random spin; every use after the close must fail with the closed message, and at the
   * end nothing is left alive natively.
   */
  private static void race(SubjectFactory factory) throws Exception {
    long before = TestLibrary.settledLiveObjectCount();
    AtomicLong uses = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    try (ExecutorService platform = Executors.newFixedThreadPool(USERS);
        ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int round = 0; round < ROUNDS && failures.isEmpty(); round++) {
        Subject subject = factory.make();
        CountDownLatch started = new CountDownLatch(USERS);
        List<Future<?>> users = new ArrayList<>();
        for (int user = 0; user < USERS; user++) {
          ExecutorService executor = (round + user) % 2 == 0 ? platform : virtual;
          int offset = user;
          users.add(executor.submit(() -> {
            started.countDown();
            for (int step = offset; ; step++) {
              try {
                subject.use(step);
                uses.incrementAndGet();
              } catch (IllegalStateException closed) {
                if (!String.valueOf(closed.getMessage()).contains("closed")) {
                  failures.add(closed);
                }
                refused.incrementAndGet();
                return;
              } catch (Throwable wrong) {
                failures.add(wrong);
                return;
              }
            }
          }));
        }
        started.await();
        long spin = ThreadLocalRandom.current().nextLong(20_000);
        for (long i = 0; i < spin; i++) {
          Thread.onSpinWait();
        }
        subject.close();
        for (Future<?> user : users) {
          user.get();
        }
      }
    }
    if (!failures.isEmpty()) {
      Throwable first = failures.peek();
      AssertionError error = new AssertionError(failures.size() + " uses failed; the first: " + first, first);
      failures.stream().skip(1).limit(5).forEach(error::addSuppressed);
      throw error;
    }
    assertEquals(ROUNDS * (long) USERS, refused.get(), "every user ends on the closed subject");
    assertTrue(uses.get() > 0, "the users made uses before the close");
    assertEquals(before, TestLibrary.settledLiveObjectCount(), "everything closed is released natively");
  }
}
