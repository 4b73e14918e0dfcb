package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeMap;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 23's objects as data, from Java: JSON save and load, structural equality and hash, deep copy, over the
 * test plugin's types, with the errors a user meets. The property test builds seeded random object graphs (seed
 * 23, {@code -Dpacked4j.data.seed=N} for another), with shared nodes, and checks that every round trip keeps the
 * structure and the sharing.
 */
class ObjectsAsDataTest {
  private static final long SEED = Long.getLong("packed4j.data.seed", 23);

  private static ObjectFunctions objects;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    objects = Packed4j.bind(ObjectFunctions.class);
  }

  @Test
  void everyValueKindRoundTrips() {
    assertNull(Packed4j.fromJson(Packed4j.toJson(null)));
    assertEquals(true, Packed4j.fromJson(Packed4j.toJson(true)));
    assertEquals(-42L, Packed4j.fromJson(Packed4j.toJson(-42L)));
    assertEquals(Long.MIN_VALUE, Packed4j.fromJson(Packed4j.toJson(Long.MIN_VALUE)));
    assertEquals(2.5, Packed4j.fromJson(Packed4j.toJson(2.5)));
    assertEquals("h\u00e9llo \"w\"\n\u0001\uD83D\uDE00", Packed4j.fromJson(
        Packed4j.toJson("h\u00e9llo \"w\"\n\u0001\uD83D\uDE00")));
    assertArrayEquals(new byte[] {0, -1, 7, 127, -128},
        (byte[]) Packed4j.fromJson(Packed4j.toJson(new byte[] {0, -1, 7, 127, -128})));
    // Integers load as Long, and as a narrower type that the value fits.
    assertEquals(5, Packed4j.fromJson(Packed4j.toJson(5L), int.class));
    assertEquals(Short.valueOf((short) -7), Packed4j.fromJson(Packed4j.toJson(-7L), Short.class));
    Packed4jException tooBig = assertThrows(Packed4jException.class,
        () -> Packed4j.fromJson(Packed4j.toJson(1L << 40), Integer.class));
    assertEquals("ValueError", tooBig.kind());
    assertTrue(tooBig.getMessage().contains("1099511627776, which does not fit in Integer"), tooBig.getMessage());
    try (NativeList<?> list = Packed4j.fromJson(Packed4j.toJson(List.of(1L, "two", 3.0)), NativeList.class)) {
      assertEquals(List.of(1L, "two", 3.0), List.copyOf(list));
    }
    try (NativeMap<?, ?> map = Packed4j.fromJson(Packed4j.toJson(Map.of("k", 1L)), NativeMap.class)) {
      assertEquals(Map.of("k", 1L), Map.copyOf(map));
    }
    try (NDArray tensor = NDArray.fromArray(new double[] {1.5, -2, 3, 4, 5, 6}, 2, 3);
        NDArray back = Packed4j.fromJson(Packed4j.toJson(tensor), NDArray.class)) {
      assertArrayEquals(new long[] {2, 3}, back.shape());
      assertEquals(tensor.dtype(), back.dtype());
      assertArrayEquals(tensor.toDoubleArray(), back.toDoubleArray());
    }
    // Past the nesting limit: the error says that a document has the limit too (views get past an argument's only).
    List<Object> deep = new ArrayList<>();
    List<Object> innermost = deep;
    for (int i = 0; i < 600; i++) {
      List<Object> next = new ArrayList<>();
      innermost.add(next);
      innermost = next;
    }
    Packed4jException tooDeep = assertThrows(Packed4jException.class, () -> Packed4j.toJson(deep));
    assertEquals("ValueError", tooDeep.kind());
    assertTrue(tooDeep.nativeMessage().endsWith("levels of nested lists and maps in one value; a packed4j-json "
        + "document nests at most 512 levels as well (SaveJSON and LoadJSON refuse deeper ones)"),
        tooDeep.nativeMessage());
  }

  @Test
  void anObjectComesBackWithEveryFieldAndItsView() {
    try (Node parent = objects.makeNode(-3, 1L << 40, -1L, 0.25, true, "parent");
        Node child = objects.makeNode(4, 5, 6, -0.5, false, "child")) {
      objects.setChild(parent, child);
      String json = Packed4j.toJson(parent);
      assertTrue(json.contains("\"packed4j-json\""), json);
      assertTrue(json.contains("test.Node"), json);
      try (Node back = Packed4j.fromJson(json, Node.class)) {
        assertEquals(-3, back.small());
        assertEquals(1L << 40, back.big());
        assertEquals(-1L, back.unsignedBig());
        assertEquals(0.25, back.ratio());
        assertTrue(back.flag());
        assertEquals("parent", back.name());
        try (Node backChild = back.child()) {
          assertEquals("child", backChild.name());
          assertEquals(-0.5, backChild.ratio());
        }
        assertNotEquals(parent, back, "a loaded object is a new object: equals stays identity");
        assertTrue(Packed4j.structuralEquals(parent, back));
        assertEquals(Packed4j.structuralHash(parent), Packed4j.structuralHash(back));
      }
    }
  }

  @Test
  void fieldsNoJavaInterfaceReadsAreSavedToo() {
    try (NativeObject hidden = objects.makeHidden("s3cret", 9);
        NativeObject back = Packed4j.fromJson(Packed4j.toJson(hidden), NativeObject.class)) {
      assertEquals("s3cret", back.get("secret"));
      assertEquals(9L, ((Number) back.get("level")).longValue());
      assertTrue(Packed4j.structuralEquals(hidden, back));
    }
  }

  @Test
  void aChildTypeLoadsAsItsOwnView() {
    try (DerivedNode derived = objects.makeDerived("d", 77);
        Node back = Packed4j.fromJson(Packed4j.toJson(derived), Node.class)) {
      DerivedNode asDerived = assertInstanceOf(DerivedNode.class, back);
      assertEquals(77, asDerived.extra());
      assertEquals("d", asDerived.name());
    }
  }

  /**
   * Two Java interfaces of one native type, as two class loaders (or a generated API beside a hand-written one) make:
   * a load asked for one gets its view, whichever view was registered first.
   */
  @Test
  void aLoadAskedForAnotherLoadersInterfaceGetsThatLoadersView() throws Exception {
    try (DerivedNode derived = objects.makeDerived("d", 77); // this loader's views of test.DerivedNode come first
        ChildFirstLoader other = new ChildFirstLoader()) {
      Class<?> otherNode = Class.forName(Node.class.getName(), true, other);
      Class<?> otherDerived = Class.forName(DerivedNode.class.getName(), true, other);
      assertNotEquals(Node.class, otherNode);
      String json = Packed4j.toJson(derived);
      try (AutoCloseable back = (AutoCloseable) Packed4j.fromJson(json, otherNode)) {
        assertInstanceOf(otherDerived, back, "the other loader's view of the object's own type");
        assertEquals(77L, otherDerived.getMethod("extra").invoke(back));
        assertTrue(Packed4j.structuralEquals(derived, back));
        // A copy keeps the original's class, whichever loader's view was registered first.
        try (AutoCloseable copy = Packed4j.deepCopy(back)) {
          assertSame(back.getClass(), copy.getClass());
          assertTrue(Packed4j.structuralEquals(back, copy));
        }
      }
      // And this loader's interface still gets this loader's view.
      try (Node back = Packed4j.fromJson(json, Node.class)) {
        assertInstanceOf(DerivedNode.class, back);
      }
      // An interface of another type is a TypeError.
      Packed4jException wrong = assertThrows(Packed4jException.class, () -> Packed4j.fromJson(json, ShelfRef.class));
      assertEquals("TypeError", wrong.kind());
      assertTrue(wrong.getMessage().endsWith("Packed4j.fromJson: expected dev.packed4j.tests.ShelfRef, the JSON holds"
          + " an object of type test.DerivedNode"), wrong.getMessage());
      // NativeObject views any object, though its type has a generated view.
      try (NativeObject back = Packed4j.fromJson(json, NativeObject.class)) {
        assertEquals(77L, ((Number) back.get("extra")).longValue());
      }
    }
  }

  /** Loads this package's classes itself (the tests' interfaces and generated classes), others from its parent. */
  private static final class ChildFirstLoader extends java.net.URLClassLoader {
    ChildFirstLoader() {
      super("other-views", new java.net.URL[] {
          ObjectsAsDataTest.class.getProtectionDomain().getCodeSource().getLocation()},
          ObjectsAsDataTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith(ObjectsAsDataTest.class.getPackageName() + ".")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        return loaded != null ? loaded : findClass(name);
      }
    }
  }

  @Test
  void aNodeReferencedTwiceIsWrittenOnceAndLoadsAsOneObject() {
    try (Node shared = objects.makeNode(1, 2, 3, 4, true, "shared");
        Node other = objects.makeNode(1, 2, 3, 4, true, "shared")) {
      String json = Packed4j.toJson(List.of(shared, shared, other));
      assertEquals(2, occurrences(json, "\"shared\""), "the shared node is written once: " + json);
      try (NativeList<?> back = Packed4j.fromJson(json, NativeList.class)) {
        List<ObjectRef> nodes = refs(back);
        assertEquals(nodes.get(0), nodes.get(1), "both references load as one object");
        assertNotEquals(nodes.get(0), nodes.get(2), "a structurally equal but distinct object stays distinct");
        assertTrue(Packed4j.structuralEquals(nodes.get(0), nodes.get(2)));
        nodes.forEach(ObjectRef::close);
      }
    }
  }

  /** C++ builds and saves, Java loads; Java saves, C++ loads and checks: one format, sharing kept both ways. */
  @Test
  void aGraphSavedInCppLoadsInJavaAndTheReverse() {
    try (PackedFunction saveInCpp = Registry.global("test.data.SaveSharedGraph");
        PackedFunction checkInCpp = Registry.global("test.data.CheckSharedGraph")) {
      String fromCpp = (String) saveInCpp.invoke("cpp");
      try (NativeList<?> graph = Packed4j.fromJson(fromCpp, NativeList.class)) {
        List<ObjectRef> nodes = refs(graph);
        Node a = (Node) nodes.get(0);
        assertEquals(nodes.get(0), nodes.get(2), "a, referenced twice, loads as one object");
        try (Node child = a.child()) {
          assertEquals(nodes.get(1), child, "a's child is the list's b");
        }
        assertEquals("cpp.a", a.name());
        assertEquals(1 << 20, a.big());
        assertEquals("cpp.b", ((Node) nodes.get(1)).name());
        assertEquals("", checkInCpp.invoke(Packed4j.toJson(graph), "cpp"), "C++ reads back what Java saved");
        nodes.forEach(ObjectRef::close);
      }
      try (Node a = objects.makeNode(0, 1 << 20, 0, 0, false, "java.a");
          Node b = objects.makeNode(0, 0, 0, 0.25, false, "java.b")) {
        objects.setChild(a, b);
        assertEquals("", checkInCpp.invoke(Packed4j.toJson(List.of(a, b, a)), "java"),
            "C++ loads a graph Java built and saved");
        try (Node copy = Packed4j.deepCopy(a)) {
          assertEquals("items 0 and 2 are not one object",
              checkInCpp.invoke(Packed4j.toJson(List.of(a, b, copy)), "java"));
        }
      }
    }
  }

  @Test
  void deepCopyKeepsStructureAndSharingWithNewObjects() {
    try (Node leafShared = objects.makeNode(8, 8, 8, 8, false, "leaf");
        Node a = objects.makeNode(1, 1, 1, 1, true, "a")) {
      objects.setChild(a, leafShared);
      try (Node copy = Packed4j.deepCopy(a); Node copyChild = copy.child(); Node originalChild = a.child()) {
        assertNotEquals(a, copy);
        assertNotEquals(originalChild, copyChild, "the child is copied too");
        assertTrue(Packed4j.structuralEquals(a, copy));
        assertEquals(Packed4j.structuralHash(a), Packed4j.structuralHash(copy));
        assertSame(a.getClass(), copy.getClass());
      }
    }
    try (NativeObject hidden = objects.makeHidden("x", 1); NativeObject copy = Packed4j.deepCopy(hidden)) {
      assertSame(NativeObject.class, copy.getClass());
      assertTrue(Packed4j.structuralEquals(hidden, copy));
    }
  }

  @Test
  void structuralEqualityLooksAtEveryField() {
    try (Node a = objects.makeNode(1, 2, 3, 0.5, true, "n");
        Node b = objects.makeNode(1, 2, 3, 0.5, true, "n");
        Node c = objects.makeNode(1, 2, 3, 0.5, true, "m");
        DerivedNode d = objects.makeDerived("n", 0)) {
      assertTrue(Packed4j.structuralEquals(a, b));
      assertEquals(Packed4j.structuralHash(a), Packed4j.structuralHash(b));
      assertFalse(Packed4j.structuralEquals(a, c));
      assertFalse(Packed4j.structuralEquals(a, d), "another type key is another structure");
      assertTrue(Packed4j.structuralEquals(List.of(a, 1L), List.of(b, 1L)));
      assertFalse(Packed4j.structuralEquals(List.of(a, 1L), List.of(b, 2L)));
    }
  }

  @Test
  void printingIsBoundedInDepthAndLength() {
    List<Node> chain = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        Node node = objects.makeNode(i, i, i, i, true, "level" + i);
        if (!chain.isEmpty()) {
          objects.setChild(node, chain.get(chain.size() - 1));
        }
        chain.add(node);
      }
      String deep = chain.get(chain.size() - 1).toString();
      assertTrue(deep.contains("level7") && deep.contains("level5") && !deep.contains("level2"), deep);
      assertTrue(deep.contains("{...}"), "a deep graph ends in {...}: " + deep);
      List<Long> numbers = new ArrayList<>();
      for (long i = 0; i < 1_000; i++) {
        numbers.add(i);
      }
      try (NativeList<?> list = Packed4j.fromJson(Packed4j.toJson(numbers), NativeList.class)) {
        String text = list.toString();
        assertTrue(text.contains("... (1000 values)") && text.length() < 200, text);
      }
    } finally {
      chain.forEach(Node::close);
    }
  }

  /** The property test: random graphs, shared nodes, every round trip equal in structure and in sharing. */
  @Test
  void randomGraphsRoundTripWithTheirSharing() throws InterruptedException {
    long baseline = TestLibrary.settledLiveObjectCount();
    SplittableRandom random = new SplittableRandom(SEED);
    PackedFunction saveInCpp = Registry.global("packed4j.SaveJSON");
    PackedFunction loadInCpp = Registry.global("packed4j.LoadJSON");
    for (int round = 0; round < 200; round++) {
      List<Node> pool = new ArrayList<>();
      try {
        Object graph = randomGraph(random, pool, 4);
        String context = "seed " + SEED + ", round " + round;
        String json = Packed4j.toJson(graph);
        // C++ saves what Java built and Java loads it, and the reverse: the same graph either way.
        assertEquals(json, saveInCpp.invoke(graph), context);
        Object loaded = Packed4j.fromJson(json);
        Object loadedByCpp = loadInCpp.invoke(json);
        Object copy = Packed4j.fromJson(Packed4j.toJson(loaded));
        try {
          for (Object back : List.of(orNull(loaded), orNull(loadedByCpp), orNull(copy))) {
            Object value = back == NULL ? null : back;
            assertTrue(Packed4j.structuralEquals(graph, value), context + ": " + json);
            assertEquals(Packed4j.structuralHash(graph), Packed4j.structuralHash(value), context);
            assertEquals(sharingPattern(graph), sharingPattern(value), context + ": sharing differs");
            assertEquals(json, Packed4j.toJson(value), context + ": saving the loaded graph writes the same JSON");
          }
        } finally {
          closeAll(loaded);
          closeAll(loadedByCpp);
          closeAll(copy);
        }
      } finally {
        pool.forEach(Node::close);
      }
    }
    saveInCpp.close();
    loadInCpp.close();
    assertEquals(baseline, TestLibrary.settledLiveObjectCount(), "the round trips leak no native object");
  }

  @Test
  void aCycleIsAnErrorNamingItsPathNeverAStackOverflow() {
    try (Node a = objects.makeNode(1, 1, 1, 1, true, "a"); Node b = objects.makeNode(2, 2, 2, 2, true, "b");
        Node end = objects.makeNode(3, 3, 3, 3, true, "end")) {
      objects.setChild(a, b);
      objects.setChild(b, a);
      try {
        Packed4jException e = assertThrows(Packed4jException.class, () -> Packed4j.toJson(a));
        assertEquals("ValueError", e.kind());
        assertTrue(e.getMessage().contains("cycle"), e.getMessage());
        assertTrue(e.getMessage().contains("child"), "the path names the field: " + e.getMessage());
        assertThrows(Packed4jException.class, () -> Packed4j.deepCopy(a));
        assertThrows(Packed4jException.class, () -> Packed4j.structuralHash(a));
      } finally {
        objects.setChild(b, end); // break the cycle, or the two nodes would keep each other alive
      }
    }
  }

  @Test
  void badDocumentsAreValueErrorsThatSayWhatIsWrong() {
    assertLoadFails("{", "");
    assertLoadFails("[1, 2", "");
    assertLoadFails("{\"format\":\"other\",\"version\":1,\"root\":0,\"nodes\":[]}", "other");
    assertLoadFails("{\"format\":\"packed4j-json\",\"version\":99,\"root\":0,\"nodes\":[]}", "99");
    assertLoadFails("{\"format\":\"packed4j-json\",\"version\":1,\"root\":{\"ref\":0},\"nodes\":[{\"type\":\"no.such.Type\","
        + "\"fields\":{}}]}", "no.such.Type");
    String deep = "[".repeat(600) + "]".repeat(600);
    assertLoadFails(deep, "");
    Packed4jException notNode = assertThrows(Packed4jException.class,
        () -> Packed4j.fromJson(Packed4j.toJson("text"), Node.class));
    assertEquals("TypeError", notNode.kind());
    assertTrue(notNode.getMessage().contains(Node.class.getName()), notNode.getMessage());
    assertThrows(NullPointerException.class, () -> Packed4j.fromJson(null));
  }

  @Test
  void aClosedObjectCannotBeSaved() {
    Node closed = objects.makeNode(1, 1, 1, 1, true, "c");
    closed.close();
    assertThrows(IllegalStateException.class, () -> Packed4j.toJson(closed));
    assertThrows(IllegalStateException.class, () -> Packed4j.structuralEquals(closed, closed));
  }

  /**
   * A fuzzer of the loader from Java: seeded mutations of valid documents (cut, a byte changed, a token inserted,
   * a number grown) either load or fail with a Packed4jException, never anything else, and leak nothing.
   */
  @Test
  void mutatedDocumentsLoadOrFailCleanly() throws InterruptedException {
    long baseline = TestLibrary.settledLiveObjectCount();
    SplittableRandom random = new SplittableRandom(SEED * 31);
    List<String> seeds = new ArrayList<>();
    List<Node> pool = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Object graph = randomGraph(random, pool, 3);
      seeds.add(Packed4j.toJson(graph));
    }
    pool.forEach(Node::close);
    String[] tokens = {"{", "}", "[", "]", ",", ":", "\"", "null", "1e999", "-", "99999999999999999999", "\\u",
        "\"type\"", "\"fields\"", "\"ref\"", "true", "0.5", "\"nodes\"", " "};
    int loaded = 0;
    for (int i = 0; i < 5_000; i++) {
      StringBuilder text = new StringBuilder(seeds.get(random.nextInt(seeds.size())));
      for (int m = 1 + random.nextInt(3); m > 0 && !text.isEmpty(); m--) {
        int at = random.nextInt(text.length());
        switch (random.nextInt(4)) {
          case 0 -> text.setLength(at);
          case 1 -> text.setCharAt(at, (char) (32 + random.nextInt(95)));
          case 2 -> text.insert(at, tokens[random.nextInt(tokens.length)]);
          default -> text.deleteCharAt(at);
        }
      }
      try {
        closeAll(Packed4j.fromJson(text.toString()));
        loaded++;
      } catch (Packed4jException e) {
        assertTrue(e.kind().equals("ValueError") || e.kind().equals("TypeError"),
            "input " + i + " failed with " + e.kind() + ": " + e.getMessage());
      }
    }
    assertTrue(loaded < 5_000, "mutations must reach the error paths");
    assertEquals(baseline, TestLibrary.settledLiveObjectCount(), "the fuzzer's inputs leak no native object");
  }

  private static void assertLoadFails(String json, String named) {
    Packed4jException e = assertThrows(Packed4jException.class, () -> closeAll(Packed4j.fromJson(json)));
    assertEquals("ValueError", e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains(named), "the message names " + named + ": " + e.getMessage());
  }

  /**
   * A random value: numbers, strings, bytes, nodes (fresh or taken again from {@code pool}, so that some are
   * shared, with child links to earlier nodes only), and lists and maps of them, at most {@code depth} deep.
   */
  private static Object randomGraph(SplittableRandom random, List<Node> pool, int depth) {
    int pick = random.nextInt(depth <= 0 ? 6 : 9);
    return switch (pick) {
      case 0 -> random.nextLong();
      case 1 -> random.nextInt(3) == 0 ? random.nextDouble() * 1e6 - 5e5 : (double) random.nextInt(100) / 4;
      case 2 -> "s" + Long.toString(random.nextLong(), 36) + (random.nextBoolean() ? "\u00e9\"\\" : "");
      case 3 -> randomBytes(random);
      case 4 -> random.nextBoolean();
      case 5 -> randomNode(random, pool);
      case 6 -> {
        List<Object> list = new ArrayList<>();
        for (int n = random.nextInt(6); n > 0; n--) {
          list.add(randomGraph(random, pool, depth - 1));
        }
        yield list;
      }
      case 7 -> {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int n = random.nextInt(5); n > 0; n--) {
          map.put("k" + random.nextInt(10), randomGraph(random, pool, depth - 1));
        }
        yield map;
      }
      default -> randomNode(random, pool);
    };
  }

  private static Node randomNode(SplittableRandom random, List<Node> pool) {
    if (!pool.isEmpty() && random.nextInt(3) == 0) {
      return pool.get(random.nextInt(pool.size())); // shared
    }
    Node node = objects.makeNode(random.nextInt(), random.nextLong(), random.nextLong(),
        random.nextInt(1000) / 8.0, random.nextBoolean(), "n" + pool.size());
    if (!pool.isEmpty() && random.nextBoolean()) {
      objects.setChild(node, pool.get(random.nextInt(pool.size())));
    }
    pool.add(node);
    return node;
  }

  private static byte[] randomBytes(SplittableRandom random) {
    byte[] bytes = new byte[random.nextInt(20)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) random.nextInt(256);
    }
    return bytes;
  }

  private static final Object NULL = new Object();

  private static Object orNull(Object value) {
    return value == null ? NULL : value;
  }

  /**
   * Which positions of a value (in depth-first order, following lists, maps and child fields) hold the same node
   * as an earlier position: equal for two graphs exactly when they share the same way.
   */
  private static List<Integer> sharingPattern(Object value) {
    List<Integer> pattern = new ArrayList<>();
    List<Object> seen = new ArrayList<>();
    List<Object> opened = new ArrayList<>();
    try {
      walk(value, seen, opened, pattern);
    } finally {
      opened.forEach(ObjectsAsDataTest::closeAll);
    }
    return pattern;
  }

  private static void walk(Object value, List<Object> seen, List<Object> opened, List<Integer> pattern) {
    switch (value) {
      case Node node -> {
        int earlier = seen.indexOf(node); // ObjectRef.equals: the same native object
        pattern.add(earlier);
        if (earlier < 0) {
          seen.add(node);
          Node child = node.child();
          if (child != null) {
            opened.add(child);
            walk(child, seen, opened, pattern);
          }
        }
      }
      case List<?> list -> {
        for (int i = 0; i < list.size(); i++) {
          Object element = list.get(i);
          if (element instanceof ObjectRef ref && list instanceof NativeList<?>) {
            opened.add(ref);
          }
          walk(element, seen, opened, pattern);
        }
      }
      case Map<?, ?> map -> {
        Map<String, Object> sorted = new java.util.TreeMap<>();
        map.forEach((k, v) -> sorted.put((String) k, v));
        sorted.values().forEach(v -> {
          if (v instanceof ObjectRef ref && map instanceof NativeMap<?, ?>) {
            opened.add(ref);
          }
          walk(v, seen, opened, pattern);
        });
      }
      default -> {
        // numbers, strings and bytes share nothing
      }
    }
  }

  private static List<ObjectRef> refs(NativeList<?> list) {
    List<ObjectRef> refs = new ArrayList<>();
    for (Object element : list) {
      refs.add((ObjectRef) element);
    }
    return refs;
  }

  /** Releases a loaded value: its objects, lists and maps, and the objects its containers handed out. */
  private static void closeAll(Object value) {
    closeAll(value, new IdentityHashMap<>());
  }

  private static void closeAll(Object value, Map<Object, Boolean> done) {
    if (value == null || done.put(value, Boolean.TRUE) != null) {
      return;
    }
    switch (value) {
      case NativeList<?> list -> list.close();
      case NativeMap<?, ?> map -> map.close();
      case AutoCloseable closeable -> {
        try {
          closeable.close();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
      default -> {
        // plain values own nothing
      }
    }
  }

  private static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
      count++;
    }
    return count;
  }
}
