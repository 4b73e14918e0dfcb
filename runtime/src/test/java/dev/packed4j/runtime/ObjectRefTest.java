package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.binding.CallFrame;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import dev.packed4j.runtime.internal.capi.CApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Ownership of native objects: close, use after close, identity and the release of unreachable ones. */
class ObjectRefTest {
  private static final FunctionSite MAP_KEYS =
      new FunctionSite("packed4j.MapKeys", "Maps.keys", new String[] {"map"});
  private static final FunctionSite TYPE_KEY =
      new FunctionSite("packed4j.GetTypeKey", "Objects.typeKey", new String[] {"object"});

  @BeforeAll
  static void core() {
    TestLibraries.requireCore();
  }

  /** A native list (MapKeys of a one-entry map) viewed as a NativeObject. */
  private static NativeObject newObject() {
    try (CallFrame frame = CallFrame.open(MAP_KEYS, 1)) {
      frame.put(0, Codecs.map(Codecs.STRING, Codecs.LONG), Map.of("key", 1L));
      frame.invoke();
      return frame.returnValue(Codecs.NATIVE_OBJECT);
    }
  }

  @Test
  void closeReleasesTheReferenceOnceAndUseAfterCloseThrows() throws InterruptedException {
    long before = TestLibraries.settledLiveObjectCount();
    NativeObject object = newObject();
    assertEquals(before + 2, Packed4j.liveObjectCount(), "the list and its string element");
    String key = object.typeKey();
    object.close();
    object.close();
    assertTrue(object.isClosed());
    assertEquals(before, Packed4j.liveObjectCount());
    IllegalStateException e = assertThrows(IllegalStateException.class, object::handle);
    assertTrue(e.getMessage().contains(key) && e.getMessage().contains("closed"), e.getMessage());
    assertEquals(key + "{closed}", object.toString());
    assertEquals(key, object.typeKey(), "the type key stays known");
  }

  @Test
  void typeKeyMatchesTheNativeOne() {
    try (NativeObject object = newObject()) {
      try (CallFrame frame = CallFrame.open(TYPE_KEY, 1)) {
        frame.put(0, Codecs.NATIVE_OBJECT, object);
        frame.invoke();
        assertEquals(frame.returnString(), object.typeKey());
      }
      assertTrue(object.isInstanceOf(object.typeKey()));
      assertTrue(object.isInstanceOf("Object"), "every object derives from the root");
      assertFalse(object.isInstanceOf("no.such.Type"));
      assertEquals(List.of(), object.fieldNames());
      assertEquals("[key]", object.toString());
    }
  }

  @Test
  void equalityIsNativeIdentity() {
    try (NativeObject a = newObject(); NativeObject b = newObject()) {
      CApi.P4JObjectIncRef(a.handle());
      try (NativeObject sameAsA = new NativeObject(a.handle())) {
        assertEquals(a, sameAsA);
        assertEquals(a.hashCode(), sameAsA.hashCode());
        assertNotEquals(a, b);
      }
      assertFalse(a.isClosed(), "closing one reference leaves the other");
    }
  }

  @Test
  void closingFromManyThreadsReleasesExactlyOnce() throws Exception {
    long before = TestLibraries.settledLiveObjectCount();
    NativeObject object = newObject();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> closes = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        closes.add(pool.submit(() -> {
          start.await();
          object.close();
          return null;
        }));
      }
      start.countDown();
      for (Future<?> close : closes) {
        close.get();
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(before, Packed4j.liveObjectCount());
  }

  @Test
  void theCleanerReleasesObjectsThatWereNeverClosed() throws InterruptedException {
    long before = TestLibraries.settledLiveObjectCount();
    for (int i = 0; i < 1_000; i++) {
      newObject();
    }
    assertTrue(Packed4j.liveObjectCount() > before + 1_000, "most are still referenced natively");
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (Packed4j.liveObjectCount() > before && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertTrue(Packed4j.liveObjectCount() <= before, "left " + (Packed4j.liveObjectCount() - before));
  }

  /**
   * The references made on a thread stay watched after it ended (its array of references is a root of its own),
   * through the pruning of ended threads' arrays that every 64th new thread's first object runs: objects kept from
   * ended threads stay open and usable, and are released once unreachable, unclosed ones as closed ones.
   */
  @Test
  void objectsMadeOnThreadsThatEndedStayOpenAndAreReleasedWhenUnreachable() throws Exception {
    long before = TestLibraries.settledLiveObjectCount();
    List<NativeObject> kept = new ArrayList<>();
    for (int thread = 0; thread < 130; thread++) { // past two prunings
      List<NativeObject> made = new ArrayList<>();
      Thread maker = Thread.ofVirtual().start(() -> {
        for (int i = 0; i < 20; i++) {
          NativeObject object = newObject();
          if (i % 2 == 0) {
            object.close(); // closed ones leave the arrays
          } else {
            made.add(object);
          }
        }
      });
      maker.join();
      kept.add(made.get(thread % made.size()));
    }
    for (NativeObject object : kept) {
      assertFalse(object.isClosed());
      assertNotEquals(0L, object.handle(), "usable after its thread ended");
      assertFalse(object.toString().contains("closed"), object.toString());
    }
    assertTrue(Packed4j.liveObjectCount() >= before + 2L * kept.size(), "the kept ones are open");
    kept.get(0).close();
    kept.clear();
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (Packed4j.liveObjectCount() > before && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertEquals(before, Packed4j.liveObjectCount(), "every object of the ended threads released once");
  }

  @Test
  void aGetOfAMissingFieldIsTheNativeAttributeError() {
    try (NativeObject object = newObject()) {
      Packed4jException e = assertThrows(Packed4jException.class, () -> object.get("size"));
      assertEquals("AttributeError", e.kind());
      assertTrue(e.getMessage().contains("size"), e.getMessage());
    }
  }
}
