package dev.packed4j.remote.internal;

import dev.packed4j.runtime.ObjectRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The native objects a server holds for one client session, by the ids it gave them. A native object that comes
 * back again while held keeps its id and counts one more reference (so equal remote objects have equal ids); the
 * client releases each reference it was given once. Ending the session closes them all.
 */
final class ServerSession {
  final long id;
  final String client;
  /** The connection whose Open stream made the session ({@link CallerConnection}), the only one it is served on. */
  final CallerConnection.Identity connection;
  private final Map<Long, Held> byId = new HashMap<>();
  private final Map<ObjectRef, Long> idByObject = new HashMap<>();
  private long nextId = 1;
  private boolean ended;

  private static final class Held {
    final ObjectRef object;
    int references = 1;

    Held(ObjectRef object) {
      this.object = object;
    }
  }

  ServerSession(long id, String client, CallerConnection.Identity connection) {
    this.id = id;
    this.client = client;
    this.connection = connection;
  }

  /** Takes over {@code object} (owned by the caller until now) and returns its id. */
  synchronized long hold(ObjectRef object) {
    if (ended) {
      object.close();
      throw new IllegalStateException("session " + id + " ended while a call returned an object");
    }
    Long existing = idByObject.get(object);
    if (existing != null) {
      byId.get(existing).references++;
      object.close(); // the held reference stands for it
      return existing;
    }
    long assigned = nextId++;
    byId.put(assigned, new Held(object));
    idByObject.put(object, assigned);
    return assigned;
  }

  /** The object held under {@code objectId}, borrowed, or an error naming it. */
  synchronized ObjectRef get(long objectId) {
    Held held = byId.get(objectId);
    if (held == null) {
      throw new IllegalStateException("remote object #" + objectId + " is not held by session " + id
          + ": it was closed (released) already");
    }
    return held.object;
  }

  /** Releases one reference of each id; returns how many objects were closed. */
  int release(List<Long> objectIds) {
    List<ObjectRef> closing = new ArrayList<>();
    synchronized (this) {
      for (long objectId : objectIds) {
        Held held = byId.get(objectId);
        if (held != null && --held.references == 0) {
          byId.remove(objectId);
          idByObject.remove(held.object);
          closing.add(held.object);
        }
      }
    }
    closing.forEach(ObjectRef::close); // a call on another thread that uses one finishes first (ObjectRef.close)
    return closing.size();
  }

  /** Ends the session: closes every object it holds. */
  int end() {
    List<ObjectRef> closing;
    synchronized (this) {
      ended = true;
      closing = new ArrayList<>(idByObject.keySet());
      byId.clear();
      idByObject.clear();
    }
    closing.forEach(ObjectRef::close);
    return closing.size();
  }
}
