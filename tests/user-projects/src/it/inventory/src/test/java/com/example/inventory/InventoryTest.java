package com.example.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.PackedFunction;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Calls the C++ of src/main/native through the interfaces the generate goal wrote: no Java API by hand. */
class InventoryTest {
  private static Inventory inventory;

  @BeforeAll
  static void load() {
    Packed4j.loadLibrary("inventory"); // from target/classes, where build-native put it
    inventory = Packed4j.bind(Inventory.class);
  }

  @Test
  void functions() {
    assertEquals(6L, inventory.total(List.of(1L, 2L, 3L)));
    assertEquals("apples x3", inventory.label("apples", 3));
  }

  @Test
  void objectsWithTheirParentsGetters() {
    try (Item pears = inventory.makeItem("pears", 4); Perishable milk = inventory.makePerishable("milk", 5)) {
      assertEquals("pears", pears.name());
      assertEquals(4L, pears.count());
      assertEquals("milk", milk.name());
      assertEquals(5L, milk.daysLeft());
      assertEquals(5L, inventory.countAll(List.of(pears, milk)));
    }
  }

  @Test
  void aConstructorASetterAndAMethodInheritedByTheChild() {
    try (Item apples = inventory.newItem("apples", 10); Perishable milk = inventory.makePerishable("milk", 5)) {
      assertEquals(3L, apples.take(3));
      assertEquals(7L, apples.count());
      apples.count(20);
      assertEquals(20L, apples.take(25));
      assertEquals(1L, milk.take(1), "Item's method, called on a Perishable");
      assertEquals(0L, milk.count());
    }
  }

  @Test
  void callbacksInAndClosuresOut() {
    try (PackedFunction supplier = PackedFunction.of(args -> ((String) args[0]).length())) {
      assertEquals(7L, inventory.restock(supplier, "apples"));
    }
    try (PackedFunction counter = inventory.counter(10)) {
      assertEquals(12L, counter.invoke(2L));
      assertEquals(15L, counter.invoke(3L));
    }
  }

  @Test
  void anUntypedFunctionTakesObjects() {
    Object described = inventory.describe("a", "b");
    assertTrue(described instanceof String);
    assertEquals("a,b", described);
  }
}
