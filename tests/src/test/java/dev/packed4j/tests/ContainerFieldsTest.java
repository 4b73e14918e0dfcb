package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Registry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Container fields typed in Java: a {@code List<std::string>} or {@code Map<std::string, int64_t>} field of an object
 * definition is read as {@code List<String>} or {@code Map<String, Long>} (a copy) and written whole, because the
 * library records each object field's declared type (ABI 2.10); describe, the registry and bindChecked see it.
 */
class ContainerFieldsTest {
  private static Shelves shelves;
  private static Accounts accounts;

  @BeforeAll
  static void load() {
    TestLibrary.load();
    shelves = Packed4j.bind(Shelves.class);
    accounts = Packed4j.bind(Accounts.class);
  }

  @Test
  void gettersReadCopiesOfTheContainers() {
    try (ShelfRef shelf = shelves.make()) {
      assertEquals(List.of("Dune", "Emma"), shelf.titles());
      assertEquals(Map.of("Dune", 2L, "Emma", 1L), shelf.counts());
      assertEquals(List.of(0.5, 0.25), shelf.weights());
      assertEquals(List.of(), shelf.accounts());
      List<String> titles = shelf.titles();
      assertThrows(UnsupportedOperationException.class, () -> titles.add("Ulysses"));
      shelf.titles(List.of("Ulysses"));
      assertEquals(List.of("Dune", "Emma"), titles, "a copy, not a view");
      // The same field as a native object still reads, as before declared types.
      NativeObject object = shelf.titlesObject();
      assertEquals("List", object.typeKey());
      object.close();
    }
  }

  @Test
  void aContainerFieldLoadedFromJsonNullReadsEmptyAsInCpp() {
    // C++ reads a null List or Map as empty (docs/cpp-api.md); the typed getters returned null, so that
    // shelf.titles().size() was a NullPointerException where C++'s size() is 0. The field itself stays null: saved
    // again it is null, and the dynamic read still tells it from an empty list.
    String json;
    try (ShelfRef shelf = shelves.make()) {
      json = Packed4j.toJson(shelf);
    }
    String nulls = json.replaceFirst("\"titles\":\\{\"ref\":\\d+}", "\"titles\":null")
        .replaceFirst("\"counts\":\\{\"ref\":\\d+}", "\"counts\":null");
    assertTrue(nulls.contains("\"titles\":null") && nulls.contains("\"counts\":null"), nulls);
    try (ShelfRef loaded = Packed4j.fromJson(nulls, ShelfRef.class)) {
      assertEquals(List.of(), loaded.titles());
      assertEquals(Map.of(), loaded.counts());
      assertEquals("/0/0", loaded.describe(), "C++ reads both as empty too");
      try (NativeObject dynamic = NativeObject.of(loaded)) {
        assertEquals(null, dynamic.get("titles"));
      }
      assertTrue(Packed4j.toJson(loaded).contains("\"titles\":null"), "the field stays null");
    }
    // The dynamic setter refuses null for a list or map field, as the typed setters do (trial userS: it unset
    // them, breaking the guide's promise that C++ code may rely on such a field staying filled).
    try (ShelfRef shelf = shelves.make(); NativeObject dynamic = NativeObject.of(shelf)) {
      NullPointerException list = assertThrows(NullPointerException.class, () -> dynamic.set("titles", null));
      assertEquals("NativeObject.set: the list field \"titles\" of test.Shelf is never set to null, as its typed"
          + " setter refuses it (set List.of() to empty it)", list.getMessage());
      NullPointerException map = assertThrows(NullPointerException.class, () -> dynamic.set("counts", null));
      assertTrue(map.getMessage().endsWith("(set Map.of() to empty it)"), map.getMessage());
      assertEquals(List.of("Dune", "Emma"), shelf.titles(), "unchanged");
      dynamic.set("titles", List.of());
      assertEquals("/3/0", shelf.describe());
    }
  }

  @Test
  void settersReplaceTheContainersCppSees() {
    AccountRef ann = accounts.open(7, "ann"); // closed below, while the shelf still holds it
    try (ShelfRef shelf = shelves.make()) {
      shelf.titles(List.of("A", "B", "C"));
      shelf.counts(Map.of("A", 3L, "B", 4L));
      shelf.accounts(List.of(ann));
      assertEquals("A,B,C/7/1", shelf.describe());
      assertEquals(List.of("A", "B", "C"), shelf.titles());
      assertEquals(Map.of("A", 3L, "B", 4L), shelf.counts());
      List<AccountRef> borrowers = shelf.accounts();
      assertEquals(1, borrowers.size());
      try (AccountRef first = borrowers.get(0)) {
        assertEquals(7, first.id());
      }
      // The field holds its own reference: closing Java's leaves the element alive in C++.
      ann.close();
      assertEquals("A,B,C/7/1", shelf.describe());
      List<AccountRef> again = shelf.accounts();
      try (AccountRef first = again.get(0)) {
        assertEquals("ann", first.owner());
      }
      shelf.titles(List.of());
      assertEquals(List.of(), shelf.titles());
      assertEquals("/7/1", shelf.describe());
    }
  }

  @Test
  void badWritesAndReadsNameTheTypeTheFieldAndTheValue() {
    try (ShelfRef shelf = shelves.make()) {
      Packed4jException readOnly = assertThrows(Packed4jException.class, () -> shelf.weights(List.of(1.0)));
      assertTrue(readOnly.getMessage().contains("weights") && readOnly.getMessage().contains("read-only"),
          readOnly.getMessage());
      NullPointerException nullList = assertThrows(NullPointerException.class, () -> shelf.titles(null));
      assertEquals("test.Shelf.titles(value) is null; a typed setter writes a List to a list field, never null (set"
          + " List.of() to empty it)", nullList.getMessage());
      List<String> withNull = new ArrayList<>(Arrays.asList("A", null));
      Exception nullElement = assertThrows(Exception.class, () -> shelf.titles(withNull));
      assertTrue(nullElement.getMessage().contains("titles"), nullElement.getMessage());
      assertEquals(List.of("Dune", "Emma"), shelf.titles(), "a failed write leaves the field as it was");
      Packed4jException wrongElement = assertThrows(Packed4jException.class, shelf::titlesAsNumbers);
      assertTrue(wrongElement.getMessage().contains("titles"), wrongElement.getMessage());
    }
    ShelfRef closed = shelves.make();
    closed.close();
    assertTrue(assertThrows(IllegalStateException.class, closed::titles).getMessage().contains("titles"));
    assertTrue(assertThrows(IllegalStateException.class, () -> closed.titles(List.of("x"))).getMessage()
        .contains("titles"));
  }

  @Test
  void theRegistryReportsTheDeclaredTypes() {
    ObjectTypeInfo shelf = Registry.objectType("test.Shelf").orElseThrow();
    assertEquals("list<string>", shelf.field("titles").orElseThrow().type());
    assertEquals("map<string, int64>", shelf.field("counts").orElseThrow().type());
    assertEquals("list<float64>", shelf.field("weights").orElseThrow().type());
    assertEquals("list<test.Account>", shelf.field("accounts").orElseThrow().type());
    assertEquals("list<any>", shelf.field("mixed").orElseThrow().type());
    // Object fields no getter reads typed (GenerateTest compiles their NativeObject accessors against the manifest).
    assertEquals("function", shelf.field("on_change").orElseThrow().type());
    assertEquals("bytes", shelf.field("cover").orElseThrow().type());
    assertEquals("NDArray", shelf.field("scan").orElseThrow().type());
    // An object field names its type key, as before.
    assertEquals("Object", Registry.objectType("test.Account").orElseThrow().field("partner").orElseThrow().type());
  }

  @Test
  void bindCheckedComparesTheElementTypes() {
    // ShelfRef reads the list<string> titles as List<Long> and writes the read-only weights, on purpose (the tests
    // above call them for their run-time errors).
    Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.bindChecked(Shelves.class));
    // (AccountRef, which ShelfRef's accounts reach, has its own deliberate problems: see BindCheckedTest.)
    List<String> lines = e.getMessage().lines().skip(1).map(String::strip).filter(line -> line.startsWith("ShelfRef"))
        .sorted().toList();
    assertEquals(2, lines.size(), e.getMessage());
    assertTrue(lines.get(0).startsWith("ShelfRef.titlesAsNumbers(): reads field 'titles' (list<string>) of test.Shelf"
        + " as java.util.List<java.lang.Long>: "), e.getMessage());
    assertTrue(lines.get(1).startsWith("ShelfRef.weights(java.util.List): field 'weights' of test.Shelf is read-only"),
        e.getMessage());
  }

  @Test
  void aWrongValueForAContainerFieldNamesTheJavaMemberNotTheCFunction() {
    // The core's message names the field and the object's own type; the setter's names the member as Java calls it
    // instead, once, also for a subtype's object seen through the interface of its parent (test.Bookcase, which has
    // no interface of its own, through ShelfRef).
    try (ShelfRef shelf = shelves.make(); ShelfRef bookcase = shelves.makeBookcase();
        AccountRef ann = accounts.open(7, "ann"); NativeObject notAList = NativeObject.of(ann)) {
      for (ShelfRef each : List.of(shelf, bookcase)) {
        Packed4jException error = assertThrows(Packed4jException.class, () -> each.titlesObject(notAList));
        assertEquals("TypeError", error.kind());
        assertEquals("test.Shelf.titles(value): expected List, got test.Account object", error.nativeMessage(),
            ((ObjectRef) each).typeKey());
        assertEquals(List.of("Dune", "Emma"), each.titles(), "nothing was written");
      }
    }
  }

  @Test
  void aDynamicWriteOfWrongElementsNamesTheFirstAndLeavesTheFieldAsItWas() {
    try (ShelfRef shelf = shelves.make(); NativeObject dynamic = NativeObject.of(shelf);
        AccountRef ann = accounts.open(7, "ann"); ShelfRef notAnAccount = shelves.make()) {
      // The core checks the elements against the field's declared type, as a typed C++ argument of that type would
      // be checked, instead of leaving the error to the C++ code that reads the field later.
      assertRefused(() -> dynamic.set("titles", List.of(1L, 2L)),
          "field \"titles\" of test.Shelf: declared list<string>, list element at index 0 expected string, got int 1");
      assertRefused(() -> dynamic.set("titles", Arrays.asList("A", "B", 3.5)),
          "field \"titles\" of test.Shelf: declared list<string>, list element at index 2 expected string, got"
              + " float 3.5");
      assertRefused(() -> dynamic.set("titles", Arrays.asList("A", null)),
          "field \"titles\" of test.Shelf: declared list<string>, list element at index 1 expected string, got None");
      assertRefused(() -> dynamic.set("counts", Map.of(3L, 1L)),
          "field \"counts\" of test.Shelf: declared map<string, int64>, map key expected string, got int 3");
      assertRefused(() -> dynamic.set("counts", Map.of("A", "many")),
          "field \"counts\" of test.Shelf: declared map<string, int64>, map value for key string \"A\" expected"
              + " int64, got string \"many\"");
      assertRefused(() -> dynamic.set("accounts", List.of(ann, notAnAccount)),
          "field \"accounts\" of test.Shelf: declared list<test.Account>, list element at index 1 expected"
              + " test.Account, got test.Shelf object");

      // Nothing was written: Java and C++ read the old values.
      assertEquals(List.of("Dune", "Emma"), shelf.titles());
      assertEquals(Map.of("Dune", 2L, "Emma", 1L), shelf.counts());
      assertEquals(List.of(), shelf.accounts());
      assertEquals("Dune,Emma/3/0", shelf.describe());

      // Refused lists are released with the call, and with them their references to the elements.
      long before = liveObjects();
      for (int i = 0; i < 1000; i++) {
        assertThrows(Packed4jException.class, () -> dynamic.set("accounts", List.of(ann, notAnAccount)));
      }
      assertTrue(liveObjects() <= before, "refused writes leaked " + (liveObjects() - before) + " objects");

      // Right elements are written, and a list<any> field takes any.
      dynamic.set("titles", List.of("Ulysses"));
      dynamic.set("counts", Map.of("Ulysses", 4L));
      dynamic.set("accounts", List.of(ann));
      dynamic.set("mixed", Arrays.asList(1L, "two", null, ann));
      assertEquals("Ulysses/4/1", shelf.describe());
      assertEquals(List.of("Ulysses"), shelf.titles());
    }
  }

  @Test
  void aGeneratedSetterOfANativeListChecksItsElementsToo() {
    try (ShelfRef shelf = shelves.make(); ShelfRef other = shelves.make(); NativeObject list = other.titlesObject()) {
      // A list changed in place holds whatever its container takes; the field it is then written to checks it.
      Registry.global("packed4j.ListAppend").invoke(list, 2L);
      Packed4jException error = assertThrows(Packed4jException.class, () -> shelf.titlesObject(list));
      assertEquals("TypeError", error.kind());
      assertEquals("test.Shelf.titles(value): declared list<string>, list element at index 2 expected string, got"
          + " int 2", error.nativeMessage());
      assertEquals(List.of("Dune", "Emma"), shelf.titles(), "nothing was written");
    }
  }

  /** Runs a write the core refuses and checks its TypeError's message, after "NativeObject.set: ". */
  private static void assertRefused(Executable write, String message) {
    Packed4jException error = assertThrows(Packed4jException.class, write);
    assertEquals("TypeError", error.kind(), error.getMessage());
    assertEquals("NativeObject.set: " + message, error.nativeMessage());
  }

  /**
   * A C++ method that changes a container field while Java threads read it: it swaps in a changed copy under the
   * fields' lock (the guide's pattern; changing the map in place would free memory the getters are reading).
   */
  @Test
  void cppSwappingInAChangedCopyRacesSafelyWithJavaReaders() throws Exception {
    int writes = 1000;
    try (ShelfRef shelf = shelves.make()) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Future<?>> tasks = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
          String prefix = "w" + w + "-";
          tasks.add(pool.submit(() -> {
            for (int i = 0; i < writes; i++) {
              shelf.stock(prefix + i, i);
            }
          }));
        }
        List<Future<Integer>> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
          readers.add(pool.submit(() -> {
            int reads = 0;
            int lastSize = 0;
            while (writing.get()) {
              Map<String, Long> counts = shelf.counts();
              assertTrue(counts.size() >= lastSize, "a reader never sees entries disappear");
              assertEquals(2L, counts.get("Dune"));
              lastSize = counts.size();
              reads++;
            }
            return reads;
          }));
        }
        for (Future<?> task : tasks) {
          task.get();
        }
        writing.set(false);
        for (Future<Integer> reader : readers) {
          assertTrue(reader.get() > 0);
        }
      } finally {
        pool.shutdownNow();
      }
      Map<String, Long> counts = shelf.counts();
      assertEquals(2 + 2 * writes, counts.size(), "no writer lost another's entry");
      assertEquals(writes - 1L, counts.get("w1-" + (writes - 1)));
    }
  }

  private static long liveObjects() {
    return (Long) Registry.global("packed4j.ObjectLiveCount").invoke();
  }
}
