package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.values.Registries;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RegistryTest {
  @BeforeAll
  static void core() {
    TestLibraries.requireCore();
  }

  @Test
  void listHasTheBuiltInsSorted() {
    List<String> names = Registry.list();
    assertTrue(names.containsAll(List.of("packed4j.ListSize", "packed4j.ListGetItem", "packed4j.ListAppend",
        "packed4j.MapGetItem", "packed4j.MapKeys", "packed4j.ObjectLiveCount", "packed4j.GetTypeKey")),
        names::toString);
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(null);
    assertEquals(sorted, names);
    assertThrows(UnsupportedOperationException.class, () -> names.add("x"));
  }

  @Test
  void globalReturnsANamedFunction() {
    try (PackedFunction size = Registry.global("packed4j.ListSize")) {
      assertEquals("packed4j.ListSize", size.name());
      assertEquals(3L, size.invoke(List.of(1, 2, 3)));
      assertTrue(size.signature().contains("int64"), size.signature());
      assertTrue(size.toString().startsWith("PackedFunction[packed4j.ListSize ("), size.toString());
    }
  }

  @Test
  void anUnknownNameIsAKeyErrorWithNearNames() {
    Packed4jException e = assertThrows(Packed4jException.class, () -> Registry.global("packed4j.ListSiz"));
    assertEquals("KeyError", e.kind());
    assertEquals("packed4j.ListSiz", e.functionName());
    assertTrue(e.getMessage().contains("'packed4j.ListSiz'"), e.getMessage());
    assertTrue(e.getMessage().contains("did you mean packed4j.ListSize"), e.getMessage());
    assertTrue(e.getMessage().contains("Packed4j.loadLibrary"), e.getMessage());
    Packed4jException far = assertThrows(Packed4jException.class, () -> Registry.global("zz.Nothing"));
    // Another test of this JVM may have loaded a plugin first.
    if (NativeLibraries.loadedPlugins().isEmpty()) {
      assertEquals("no global function 'zz.Nothing' is registered. Load the plugin library that registers it with"
          + " Packed4j.loadLibrary before calling it", far.nativeMessage());
    }
  }

  @Test
  void anUnknownNameWithAPluginLoadedSuggestsARenameAndDoesNotClaimTheLibraryIsNotLoaded() {
    // userK K3: ledger.FormatCents renamed in C++ to ledger.FormatAmount; the KeyError said "Load the plugin library
    // that registers it" with the library loaded, and no "did you mean".
    TestPlugin.load();
    Packed4jException e = assertThrows(Packed4jException.class, () -> Registry.global("test.TypedGreeting"));
    assertTrue(e.nativeMessage().startsWith("no global function 'test.TypedGreeting' is registered; did you mean"
        + " test.TypedGreet?"), e.nativeMessage());
    assertTrue(e.nativeMessage().contains(" not register it: correct the name (was it renamed in C++?), or load the"
        + " library that registers it with Packed4j.loadLibrary before calling it"), e.nativeMessage());
    assertTrue(e.nativeMessage().contains("The loaded plugin librar") && e.nativeMessage().contains(
        "libtest_objects.so"), e.nativeMessage());
    assertFalse(e.nativeMessage().contains("Load the plugin library that registers it"), e.nativeMessage());
  }

  @Test
  void findIsEmptyForAnUnknownName() {
    assertEquals(Optional.empty(), Registry.find("no.such.Function"));
    assertTrue(Registry.find("packed4j.MapKeys").isPresent());
  }

  @Test
  void nearNamesPreferSmallEditsAndTheSameLastSegment() {
    List<String> registered = List.of("calculator.MyAdd", "calculator.Mul", "other.MyAdd", "unrelated.Thing");
    assertEquals(List.of("calculator.MyAdd", "other.MyAdd"), Registries.nearNames("calculator.myadd", registered));
    assertEquals(List.of(), Registries.nearNames("completely.Different", registered));
    // A rename keeps most of the name: found when nothing closer is, and then alone.
    assertEquals(List.of("ledger.FormatAmount"),
        Registries.nearNames("ledger.FormatCents",
            List.of("ledger.FormatAmount", "ledger.Deposit", "ledger.Transfer")));
  }

  @Test
  void nearNamesDoNotStretchToUnrelatedNamesUnderALongNamespace() {
    List<String> billing = List.of("mycompany.billing.Refund", "mycompany.billing.Invoice");
    assertEquals(List.of(), Registries.nearNames("mycompany.billing.Credit", billing));
    assertEquals(List.of(), Registries.nearNames("mycompany.billing.Payment", billing));
    assertEquals(List.of(), Registries.nearNames("geometry.shapes.Size", List.of("geometry.shapes.Scale")));
    assertEquals(List.of("calc.Sub"), Registries.nearNames("calc.Sum", List.of("calc.Sub", "calc.Product")));
  }

  @Test
  void objectTypesListTheBuiltInsThenTheLibrariesTypesWithParentsAndFields() {
    TestPlugin.load();
    List<ObjectTypeInfo> types = Registry.objectTypes();
    List<String> keys = types.stream().map(ObjectTypeInfo::key).toList();
    assertEquals(List.of("Object", "Function", "String", "Bytes", "List", "Map", "Error", "NDArray"),
        keys.subList(0, 8));
    assertTrue(keys.indexOf("test.Shape") < keys.indexOf("test.Square"), keys::toString);
    assertEquals(Optional.empty(), types.get(0).parent());

    ObjectTypeInfo square = Registry.objectType("test.Square").orElseThrow();
    assertEquals(Optional.of("test.Shape"), square.parent());
    assertEquals("[sides: int32, id: int64, serial: uint64, area: float64, filled: bool, name: string,"
        + " child: Object, side: float64]", square.fields().toString());
    assertEquals(List.of(new ObjectTypeInfo.Field("side", "float64", "test.Square")), square.ownFields());
    assertEquals("test.Shape", square.field("sides").orElseThrow().declaredBy());
    assertEquals(Optional.empty(), square.field("radius"));
    assertEquals(Optional.empty(), Registry.objectType("test.Squar"));
  }
}
