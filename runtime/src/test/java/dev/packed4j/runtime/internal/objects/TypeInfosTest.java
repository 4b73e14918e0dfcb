package dev.packed4j.runtime.internal.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The cache of type metadata and its invalidation after a library's load. */
class TypeInfosTest {
  @Test
  void aReadFromBeforeAnInvalidationIsNotCached() {
    int list = TypeInfos.indexOf("List");
    assertTrue(list >= 0, "the core registers List");
    TypeInfo cached = TypeInfos.info(list);
    assertSame(cached, TypeInfos.info(list), "a second lookup is served from the cache");

    // A reader that read the metadata before a load's invalidation stores it only after: it must not be kept.
    int readIn = TypeInfos.generation();
    TypeInfo stale = TypeInfos.fresh(list);
    TypeInfos.invalidate();
    assertSame(stale, TypeInfos.store(stale, readIn), "the reader still gets what it read");
    TypeInfo after = TypeInfos.info(list);
    assertNotSame(stale, after, "the lookup after the invalidation reads the native metadata again");
    assertEquals("List", after.key());
    assertSame(after, TypeInfos.info(list), "and caches that read, made in the current generation");
  }
}
