package dev.packed4j.tests;

import dev.packed4j.annotations.Field;
import dev.packed4j.annotations.Method;
import dev.packed4j.annotations.Object;
import dev.packed4j.runtime.NativeObject;
import java.util.List;
import java.util.Map;

/** test.Shelf of tests/native/accounts.cc: container fields read and written as typed Java containers. */
@Object("test.Shelf")
public interface ShelfRef extends AutoCloseable {
  List<String> titles();

  void titles(List<String> titles);

  Map<String, Long> counts();

  void counts(Map<String, Long> counts);

  List<Double> weights();

  /** Writes the read-only weights: the runtime refuses it (a manifest check would refuse it at compile time). */
  void weights(List<Double> weights);

  List<AccountRef> accounts();

  void accounts(List<AccountRef> accounts);

  /** The titles as a native object, as before fields had declared types. */
  @Field("titles")
  NativeObject titlesObject();

  /** Writes the titles as a native object: any object compiles, and the core refuses one that is not a list. */
  @Field("titles")
  void titlesObject(NativeObject titles);

  /** The titles read as numbers: the field is list<string>, so the read fails naming it. */
  @Field("titles")
  List<Long> titlesAsNumbers();

  @Method
  String describe();

  /** Sets the copies of a title in C++, swapping in a new map while other threads may read {@link #counts()}. */
  @Method
  void stock(String title, long copies);

  @Override
  void close();
}
