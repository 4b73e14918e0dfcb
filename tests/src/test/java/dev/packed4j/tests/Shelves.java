package dev.packed4j.tests;

import dev.packed4j.annotations.Global;

/** The globals of test.Shelf (tests/native/accounts.cc). */
public interface Shelves {
  @Global("test.shelves.Make")
  ShelfRef make();

  /** A test.Bookcase, a subtype of test.Shelf with no fields of its own. */
  @Global("test.shelves.MakeBookcase")
  ShelfRef makeBookcase();
}
