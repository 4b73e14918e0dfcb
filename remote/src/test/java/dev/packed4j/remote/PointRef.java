package dev.packed4j.remote;

import dev.packed4j.annotations.Object;

/** The test plugin's remote.Point: stays on the server, its getters are calls through a session. */
@Object("remote.Point")
public interface PointRef extends AutoCloseable {
  long x();

  long y();

  String label();

  @Override
  void close();
}
