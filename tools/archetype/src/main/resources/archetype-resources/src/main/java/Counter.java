package ${package};

import dev.packed4j.annotations.Object;

/** A native greeter.Counter: its getters read the fields CounterObject::VisitAttrs declares. */
@Object("greeter.Counter")
public interface Counter extends AutoCloseable {
  String label();

  long count();

  @Override
  void close();
}
