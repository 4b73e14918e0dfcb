package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.annotations.Method;
import dev.packed4j.annotations.Object;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Registry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * One type key in several plugins: two built from one object definition (tests/native/shared_pet.cc, twice) load
 * side by side and share the type, and a third that defines the key with other fields (conflicting_pet.cc) is
 * refused at load without ever handing Java an object the first layout would misread.
 */
class SharedTypesTest {
  /** test.shared.Pet as both shared_pet.cc builds define it. */
  @Object("test.shared.Pet")
  public interface Pet extends AutoCloseable {
    String name();

    long legs();

    void legs(long legs);

    @Method
    String describe();

    @Override
    void close();
  }

  private static Path plugin(String name) {
    Path library = Path.of(System.getProperty("packed4j.test.abiPluginDirectory"), "lib" + name + ".so");
    assertTrue(Files.isRegularFile(library), "test plugin not built: " + library);
    return library;
  }

  private static synchronized void loadSharedPlugins() {
    TestLibrary.load();
    Packed4j.loadLibrary(plugin("p4jpeta"));
    Packed4j.loadLibrary(plugin("p4jpetb")); // the same definition again: no error
  }

  @Test
  void twoLibrariesBuiltFromOneDefinitionShareTheType() {
    loadSharedPlugins();
    try (Pet fromA = (Pet) Registry.global("test.shared.a.Make").invoke("tom");
        Pet fromB = (Pet) Registry.global("test.shared.b.Make").invoke("kit")) {
      assertEquals("tom of a", fromA.name());
      assertEquals("kit of b on 2", fromB.describe());
      fromB.legs(3);
      assertEquals("kit of b on 3", fromB.describe());
    }
    try (ObjectRef parsed = (ObjectRef) NativeObject.callStatic("test.shared.Pet", "parse", "rex")) {
      assertEquals("rex on 4", ((Pet) parsed).describe());
    }
  }

  @Test
  void aLibraryWithOtherElementTypesForTheKeyMakesNoObjectOfIt() {
    loadSharedPlugins();
    Path other = plugin("p4jpettags"); // the same layout, but List<int64_t> tags where a and b have List<std::string>
    Packed4jException refused = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(other));
    assertEquals("LoadError", refused.kind());
    assertTrue(refused.getMessage().contains("field \"tags\" of type key \"test.shared.Pet\" is declared list<string>"
        + " by "), refused.getMessage());
    assertTrue(refused.getMessage().contains(other.getFileName() + " declares it list<int64>"), refused.getMessage());
    Packed4jException made = assertThrows(Packed4jException.class,
        () -> Registry.global("test.shared.c.Make").invoke("max"));
    assertEquals("LoadError", made.kind(), made.getMessage());
    assertEquals("list<string>",
        Registry.objectType("test.shared.Pet").orElseThrow().field("tags").orElseThrow().type());
    try (Pet pet = (Pet) Registry.global("test.shared.b.Make").invoke("kit")) {
      assertEquals("kit of b on 2", pet.describe());
    }
  }

  @Test
  void classesOfOneNameInTwoLibrariesKeepTheirOwnTypes() {
    loadSharedPlugins();
    try (ObjectRef a = (ObjectRef) Registry.global("test.shared.a.MakeThing").invoke();
        ObjectRef b = (ObjectRef) Registry.global("test.shared.b.MakeThing").invoke()) {
      assertEquals("test.shared.a.Thing", a.typeKey());
      assertEquals("test.shared.b.Thing", b.typeKey());
    }
  }

  @Test
  void aLibraryWithAnotherLayoutForTheKeyMakesNoObjectOfIt() {
    loadSharedPlugins();
    Path conflicting = plugin("p4jpetconflict");
    Packed4jException refused = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(conflicting));
    assertEquals("LoadError", refused.kind());
    assertTrue(refused.getMessage().contains("type key \"test.shared.Pet\" is registered by"), refused.getMessage());
    assertTrue(refused.getMessage().contains(conflicting.getFileName().toString()), refused.getMessage());

    // Its functions that would make its own Pet, or a type derived from it, fail instead of handing Java an object
    // laid out otherwise than the registry says (reading its fields crashed the JVM).
    for (String maker : new String[] {"test.conflict.MakePet", "test.conflict.MakePuppy"}) {
      Packed4jException made = assertThrows(Packed4jException.class, () -> Registry.global(maker).invoke());
      assertEquals("LoadError", made.kind(), made.getMessage());
      assertTrue(made.getMessage().contains("cannot make an object of type \""), made.getMessage());
      assertTrue(made.getMessage().contains("registry refused this library's definition"), made.getMessage());
    }
    // Its other types are its own, and the shared type still works.
    try (NativeObject bone = (NativeObject) Registry.global("test.conflict.MakeBone").invoke()) {
      assertEquals(7L, bone.get("length"));
    }
    try (Pet pet = (Pet) Registry.global("test.shared.a.Make").invoke("ann")) {
      assertEquals("ann of a", pet.name());
    }
  }
}
