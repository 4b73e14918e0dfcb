package dev.packed4j.remote;

import dev.packed4j.annotations.Object;
import java.util.List;
import java.util.Map;

/** The test plugin's remote.Shelf: container fields written by typed setters, locally and through sessions. */
@Object("remote.Shelf")
public interface ShelfRef extends AutoCloseable {
  List<String> tags();

  void tags(List<String> tags);

  Map<String, Long> stock();

  void stock(Map<String, Long> stock);

  String label();

  void label(String label);

  @Override
  void close();
}
