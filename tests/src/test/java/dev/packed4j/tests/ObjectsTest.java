package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ObjectsTest {
  private static ObjectFunctions objects;

  @BeforeAll
  static void bind() {
    TestLibrary.load();
    objects = Packed4j.bind(ObjectFunctions.class);
  }

  @Test
  void everyFieldKindReadsBack() {
    try (Node node = objects.makeNode(-7, Long.MIN_VALUE, -1L, -0.5, true, "caf\u00e9\u0000\uD83D\uDE00")) {
      assertEquals(-7, node.small());
      assertEquals(Long.MIN_VALUE, node.big());
      assertEquals(-1L, node.unsignedBig(), "uint64 max reads as the bit pattern -1");
      assertEquals(-0.5, node.ratio());
      assertTrue(node.flag());
      assertEquals("caf\u00e9\u0000\uD83D\uDE00", node.name());
      assertNull(node.child());
      assertEquals("test.Node", ((ObjectRef) node).typeKey());
    }
    try (Node node = objects.makeNode(Integer.MAX_VALUE, Long.MAX_VALUE, 0, Double.NaN, false, "")) {
      assertEquals(Integer.MAX_VALUE, node.small());
      assertEquals(Long.MAX_VALUE, node.big());
      assertTrue(Double.isNaN(node.ratio()));
      assertFalse(node.flag());
      assertEquals("", node.name());
    }
  }

  @Test
  void objectFieldsAndObjectArguments() {
    try (Node parent = objects.makeNode(1, 2, 3, 4, false, "parent");
        Node child = objects.makeNode(5, 6, 7, 8, true, "child")) {
      objects.setChild(parent, child);
      try (Node read = parent.child(); Node viaFunction = objects.getChild(parent)) {
        assertEquals("child", read.name());
        assertEquals(child, read, "equality is native identity");
        assertEquals(child.hashCode(), read.hashCode());
        assertEquals(read, viaFunction);
        assertNotEquals(parent, child);
      }
      assertEquals("parent", objects.nameOf(parent));
    }
  }

  @Test
  void toStringListsTheFields() {
    try (Node node = objects.makeNode(1, 2, 3, 0.5, true, "n")) {
      String text = node.toString();
      assertTrue(text.startsWith("test.Node{"), text);
      assertTrue(text.contains("small=1"), text);
      assertTrue(text.contains("name=n"), text);
      assertTrue(text.contains("ratio=0.5"), text);
    }
  }

  @Test
  void derivedObjectIsAnInstanceOfItsBase() {
    try (DerivedNode derived = objects.makeDerived("d", 99)) {
      assertEquals(99, derived.extra());
      assertEquals("d", derived.name());
      assertEquals(0, derived.small());
      assertTrue(((ObjectRef) derived).isInstanceOf("test.Node"));
      assertEquals("d", objects.nameOf(derived), "a derived object is accepted where the base is expected");
    }
    try (Node asBase = objects.makeDerivedAsBase("base view", 5)) {
      assertEquals("test.DerivedNode", ((ObjectRef) asBase).typeKey());
      assertInstanceOf(DerivedNode.class, asBase, "the runtime picks the most derived Java view");
      assertEquals(5, ((DerivedNode) asBase).extra());
    }
  }

  @Test
  void derivedViewIsFoundByTypeKeyBeforeItsClassIsUsed() {
    try (Node node = objects.makeLeaf("leaf")) {
      assertInstanceOf(LeafNode.class, node, "found through the processor's type index, not by prior use");
      assertEquals("leaf", ((LeafNode) node).label());
    }
  }

  @Test
  void baseObjectIsNotADerivedOne() throws InterruptedException {
    long before = TestLibrary.settledLiveObjectCount(); // objects earlier tests dropped are released first
    Packed4jException error = assertThrows(Packed4jException.class,
        () -> objects.makeNodeAsDerived(1, 2, 3, 4, true, "base"));
    assertEquals("TypeError", error.kind());
    assertTrue(error.getMessage().contains("test.Node"), error.getMessage());
    assertTrue(error.getMessage().contains("test.DerivedNode"), error.getMessage());
    assertEquals(before, TestLibrary.settledLiveObjectCount(), "the rejected result is released");
    try (Node node = objects.makeNode(1, 2, 3, 4, true, "base")) {
      assertFalse(((ObjectRef) node).isInstanceOf("test.DerivedNode"));
    }
  }

  @Test
  void unrelatedTypeIsATypeErrorNamingBothKeys() {
    Packed4jException error = assertThrows(Packed4jException.class, () -> objects.makeHiddenAsNode("s", 1));
    assertEquals("TypeError", error.kind());
    assertTrue(error.getMessage().contains("test.Hidden"), error.getMessage());
    assertTrue(error.getMessage().contains("test.Node"), error.getMessage());
  }

  @Test
  void typeWithoutAJavaInterfaceIsReadReflectively() {
    try (NativeObject hidden = objects.makeHidden("s3cr3t", 42)) {
      assertEquals("test.Hidden", hidden.typeKey());
      assertEquals(List.of("secret", "level"), hidden.fieldNames());
      assertEquals("s3cr3t", hidden.get("secret"));
      assertEquals(42L, hidden.get("level"));
      Packed4jException missing = assertThrows(Packed4jException.class, () -> hidden.get("Secret"));
      assertEquals("AttributeError", missing.kind());
      assertTrue(missing.getMessage().contains("Secret"), missing.getMessage());
      assertTrue(missing.getMessage().contains("test.Hidden"), missing.getMessage());
    }
    java.lang.Object any = objects.makeHiddenAsAny("x", 1);
    assertInstanceOf(NativeObject.class, any);
    ((NativeObject) any).close();
  }

  @Test
  void closeTwiceAndUseAfterClose() {
    Node node = objects.makeNode(1, 2, 3, 4, true, "closing");
    node.close();
    node.close();
    IllegalStateException read = assertThrows(IllegalStateException.class, node::big);
    assertTrue(read.getMessage().contains("closed"), read.getMessage());
    assertThrows(IllegalStateException.class, node::name);
    assertThrows(IllegalStateException.class, node::child);
    IllegalStateException asArgument = assertThrows(IllegalStateException.class, () -> objects.nameOf(node));
    assertTrue(asArgument.getMessage().contains("test.NodeName"), asArgument.getMessage());
  }

  @Test
  void aClosedReferenceEqualsOnlyItself() {
    Node first = objects.makeNode(1, 2, 3, 4, true, "first");
    first.close();
    try (Node second = objects.makeNode(1, 2, 3, 4, true, "second")) {
      // The allocator may give the second object the first one's address.
      assertNotEquals(first, second);
      assertNotEquals(second, first);
      assertEquals(first, first);
    }
  }

  @Test
  void oneMillionCreateCloseCyclesLeaveNoNativeObject() {
    long baseline = Packed4j.liveObjectCount();
    for (int i = 0; i < 1_000_000; i++) {
      try (Node node = objects.makeNode(i, i, i, i, true, "n")) {
        if (node.small() != i) {
          throw new AssertionError("field read " + node.small() + " at cycle " + i);
        }
      }
    }
    // Objects earlier tests left to the Cleaner may be released meanwhile, never created: a leak of one object per
    // cycle would be a million.
    long after = Packed4j.liveObjectCount();
    assertTrue(after <= baseline, after + " live native objects after the cycles, " + baseline + " before");
  }

  @Test
  void oneMillionObjectsLeftToTheCleanerAreReleased() throws InterruptedException {
    long baseline = TestLibrary.settledLiveObjectCount();
    long sum = 0;
    for (int i = 0; i < 1_000_000; i++) {
      sum += objects.makeNode(i, 1, 0, 0, false, "").big();
    }
    assertEquals(1_000_000, sum);
    assertEquals(baseline, TestLibrary.settledLiveObjectCount(), "the Cleaner released every unreachable reference");
  }
}
