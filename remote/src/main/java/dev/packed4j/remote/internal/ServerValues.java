package dev.packed4j.remote.internal;

import com.google.protobuf.UnsafeByteOperations;
import dev.packed4j.remote.internal.proto.Entry;
import dev.packed4j.remote.internal.proto.ObjectHandle;
import dev.packed4j.remote.internal.proto.Tensor;
import dev.packed4j.remote.internal.proto.Value;
import dev.packed4j.remote.internal.proto.ValueList;
import dev.packed4j.remote.internal.proto.ValueMap;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeMap;
import dev.packed4j.runtime.ObjectRef;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The server's conversions: wire values to the Java values {@code PackedFunction.invoke} takes, and its results
 * back. Objects in results are held by the session; tensors are copied in both directions.
 */
final class ServerValues {
  private final ServerSession session;
  private final long maxTensorBytes;
  /** Tensors made for arguments, and tensor results, closed once the reply is written. */
  final List<AutoCloseable> temporaries = new ArrayList<>();
  /** The ids {@link #toWire(Object)} took a reference of, for the result it is converting now. */
  private final List<Long> heldForResult = new ArrayList<>();
  /** The objects of that result handed to the session (held, or closed as a second reference), by identity. */
  private final Set<Object> takenForResult = Collections.newSetFromMap(new IdentityHashMap<>());

  /** On CallStream: the streamed tensor arguments, filled from the chunks, in order. */
  private final Deque<NDArray> streamedArguments = new ArrayDeque<>();
  /** On CallStream: the memory of the result's large tensors, sent in chunks after the reply; else null. */
  final List<MemorySegment> streamedResults;

  ServerValues(ServerSession session, long maxTensorBytes) {
    this(session, maxTensorBytes, false);
  }

  ServerValues(ServerSession session, long maxTensorBytes, boolean streaming) {
    this.session = session;
    this.maxTensorBytes = maxTensorBytes;
    this.streamedResults = streaming ? new ArrayList<>() : null;
  }

  /** Takes the streamed tensor arguments (already filled); they are closed with the other temporaries. */
  void streamedArguments(List<NDArray> arrays) {
    temporaries.addAll(arrays);
    streamedArguments.addAll(arrays);
  }

  Object[] arguments(List<Value> values) {
    Object[] args = new Object[values.size()];
    for (int i = 0; i < args.length; i++) {
      args[i] = toJava(values.get(i));
    }
    return args;
  }

  Object toJava(Value value) {
    return switch (value.getKindCase()) {
      case KIND_NOT_SET -> null;
      case BOOLEAN -> value.getBoolean();
      case INTEGER -> value.getInteger();
      case REAL -> value.getReal();
      case TEXT -> value.getText();
      case DATA -> value.getData().toByteArray();
      case LIST -> {
        List<Object> items = new ArrayList<>(value.getList().getItemsCount());
        for (Value item : value.getList().getItemsList()) {
          items.add(toJava(item));
        }
        yield items;
      }
      case MAP -> {
        Map<Object, Object> entries = new LinkedHashMap<>();
        for (Entry entry : value.getMap().getEntriesList()) {
          entries.put(toJava(entry.getKey()), toJava(entry.getValue()));
        }
        yield entries;
      }
      case OBJECT -> session.get(value.getObject().getId());
      case TENSOR -> tensor(value.getTensor());
    };
  }

  private NDArray tensor(Tensor tensor) {
    if (tensor.getStreamed()) {
      NDArray array = streamedArguments.poll();
      if (array == null) {
        throw new IllegalArgumentException("a streamed tensor argument arrived without its chunks (streamed "
            + "tensors cross on CallStream only)");
      }
      return array;
    }
    NDArray array = TensorMessages.copyOf(tensor, "a tensor argument", IllegalArgumentException::new);
    temporaries.add(array);
    return array;
  }

  /**
   * The wire value of a result; takes over (holds or closes) every native object in it. A result that cannot cross
   * (nested too deep, a Java class no session carries) leaves the session as it was: the objects it held for this
   * result are released again and the rest of the result's objects closed, since the client never hears their ids.
   */
  Value toWire(Object result) {
    heldForResult.clear();
    takenForResult.clear();
    try {
      return toWire(result, "the result", 0);
    } catch (RuntimeException | Error e) {
      session.release(heldForResult); // settles every object handed over: closed, or back to its earlier count
      closeObjectsIn(result, takenForResult);
      throw e;
    } finally {
      heldForResult.clear();
      takenForResult.clear();
    }
  }

  /**
   * Closes every {@link ObjectRef} in a Java list or map result but those in {@code taken}, at any depth (a walk with its own stack: the result
   * may nest deeper than this thread's stack allows), and every native list or map view, which releases its elements
   * with it. Closing an object or a view twice does nothing.
   */
  private static void closeObjectsIn(Object result, Set<Object> taken) {
    Deque<Object> pending = new ArrayDeque<>();
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Consumer<Object> visit = value -> {
      if (value != null && seen.add(value)) {
        pending.push(value);
      }
    };
    visit.accept(result);
    while (!pending.isEmpty()) {
      switch (pending.pop()) {
        case ObjectRef object -> {
          if (!taken.contains(object)) { // a taken one may be the very reference the session holds for another call
            object.close();
          }
        }
        case NativeList<?> list -> list.close(); // with the elements the conversion did not reach
        case NativeMap<?, ?> map -> map.close();
        case List<?> list -> list.forEach(visit);
        case Map<?, ?> map -> map.forEach((key, item) -> {
          visit.accept(key);
          visit.accept(item);
        });
        default -> { }
      }
    }
  }

  /**
   * {@link #toWire(Object)} of a value {@code nesting} lists and maps deep: past {@link ClientValues#MAX_NESTING} a
   * ValueError reply, where the client could not parse the message and lost the session (and a list nested
   * thousands deep natively would overflow this thread's stack).
   */
  private Value toWire(Object result, String where, int nesting) {
    if ((result instanceof List<?> || result instanceof Map<?, ?>) && nesting == ClientValues.MAX_NESTING) {
      if (result instanceof AutoCloseable view) { // a NativeList or NativeMap element: its view is this call's
        temporaries.add(view);
      }
      throw new KindedError("ValueError", ClientValues.tooDeep(where));
    }
    Value.Builder value = Value.newBuilder();
    switch (result) {
      case null -> { }
      case Boolean b -> value.setBoolean(b);
      case Long l -> value.setInteger(l);
      case Integer i -> value.setInteger(i);
      case Short s -> value.setInteger(s);
      case Byte b -> value.setInteger(b);
      case Double d -> value.setReal(d);
      case Float f -> value.setReal(f);
      case String s -> value.setText(s);
      case byte[] bytes -> value.setData(UnsafeByteOperations.unsafeWrap(bytes));
      case NDArray array -> {
        // Kept open until the reply is written: the message refers to the tensor's memory without a copy.
        temporaries.add(array);
        value.setTensor(tensorToWire(array));
      }
      case NativeList<?> list -> {
        try (list) {
          value.setList(listToWire(list, where, nesting));
        }
      }
      case NativeMap<?, ?> map -> {
        try (map) {
          value.setMap(mapToWire(map, where, nesting));
        }
      }
      case List<?> list -> value.setList(listToWire(list, where, nesting));
      case Map<?, ?> map -> value.setMap(mapToWire(map, where, nesting));
      case ObjectRef object -> {
        String typeKey = object.typeKey();
        takenForResult.add(object); // before hold, which closes it when it throws
        long id = session.hold(object);
        heldForResult.add(id);
        value.setObject(ObjectHandle.newBuilder().setId(id).setTypeKey(typeKey));
      }
      default -> throw new IllegalArgumentException("a result of Java class " + result.getClass().getName()
          + " cannot cross a session");
    }
    return value.build();
  }

  private ValueList listToWire(List<?> list, String where, int nesting) {
    ValueList.Builder items = ValueList.newBuilder();
    int index = 0;
    for (Object item : list) {
      items.addItems(toWire(item, where + "[" + index++ + "]", nesting + 1));
    }
    return items.build();
  }

  private ValueMap mapToWire(Map<?, ?> map, String where, int nesting) {
    ValueMap.Builder entries = ValueMap.newBuilder();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      entries.addEntries(Entry.newBuilder().setKey(toWire(entry.getKey(), where + " key", nesting + 1))
          .setValue(toWire(entry.getValue(), where + "[" + entry.getKey() + "]", nesting + 1)));
    }
    return entries.build();
  }

  private Tensor tensorToWire(NDArray result) {
    if (!result.device().isCpu()) {
      throw new IllegalArgumentException("a tensor result on " + result.device() + " cannot cross: "
          + TensorMessages.CPU_ONLY);
    }
    // What crosses: the elements in row-major order, one block (checked before a strided result is copied into it).
    long bytes = Math.multiplyExact(result.elementCount(), result.dtype().byteSize());
    if (streamedResults == null && bytes > maxTensorBytes) {
      throw new IllegalArgumentException("a tensor result of " + bytes + " bytes is larger than the "
          + maxTensorBytes + " a unary call carries (the server's --max-message-mib, less 1 MiB); a method declared "
          + "to return NDArray (or Object) streams it in chunks instead");
    }
    NDArray array = result;
    if (!array.isContiguous()) {
      // A view native code returned (a transpose, a crop): its elements cross as one block, in row-major order.
      array = result.copy();
      temporaries.add(array);
    }
    MemorySegment data = array.asSegment();
    if (streamedResults != null && data.byteSize() > Chunks.STREAM_ABOVE) {
      streamedResults.add(data);
      return Chunks.placeholder(array);
    }
    return TensorMessages.of(array);
  }

  void closeTemporaries() {
    for (AutoCloseable temporary : temporaries) {
      try {
        temporary.close();
      } catch (Exception ignored) {
        // NDArray.close does not throw
      }
    }
    temporaries.clear();
  }
}
