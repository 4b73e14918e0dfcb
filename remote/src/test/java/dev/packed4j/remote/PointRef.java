package dev.packed4j.remote;

import dev.packed4j.annotations.Method;
import dev.packed4j.annotations.Object;

/** The test plugin's remote.Point: stays on the server, its getters are calls through a session. */
@Object("remote.Point")
public interface PointRef extends AutoCloseable {
  long x();

  long y();

  String label();

  /** Writes x: the field is def_rw. */
  void x(long x);

  @Method
  long norm2();

  PointRef moved(long dx);

  long distance2To(PointRef other);

  @Override
  void close();
}
