package dev.packed4j.remote.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.packed4j.remote.internal.proto.Entry;
import dev.packed4j.remote.internal.proto.ObjectHandle;
import dev.packed4j.remote.internal.proto.Tensor;
import dev.packed4j.remote.internal.proto.Value;
import dev.packed4j.remote.internal.proto.ValueList;
import dev.packed4j.remote.internal.proto.ValueMap;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.PackedFunction;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The client's conversions: Java arguments to wire values, and wire results to the Java type a method declares (or,
 * for a dynamic call, the types {@code PackedFunction.invoke} returns locally). Every error names the call and the
 * argument.
 */
final class ClientValues {
  private ClientValues() {}

  private static final Value NONE = Value.getDefaultInstance();

  /**
   * Refuses a null argument of a declared method as the local binding does: a {@link NullPointerException} naming the
   * argument, for every parameter type but {@code Object} (whose null is None); so a null neither reaches the server
   * as None, where it would be a TypeError, nor passes for an empty {@code Optional}.
   */
  static void checkNulls(java.lang.reflect.Method method, Object[] args, String site) {
    checkNulls(method, args, site, 0);
  }

  /** As {@link #checkNulls(java.lang.reflect.Method, Object[], String)}, the first parameter numbered {@code first}. */
  static void checkNulls(java.lang.reflect.Method method, Object[] args, String site, int first) {
    if (args == null) {
      return;
    }
    Type[] types = method.getGenericParameterTypes();
    java.lang.reflect.Parameter[] parameters = method.getParameters();
    for (int i = 0; i < args.length && i < types.length; i++) {
      if (args[i] != null || types[i] == Object.class) {
        continue;
      }
      String type = typeName(types[i]);
      boolean optional = types[i] instanceof ParameterizedType parameterized
          && parameterized.getRawType() == Optional.class;
      throw new NullPointerException(site + " argument " + (first + i)
          + (parameters[i].isNamePresent() ? " (" + parameters[i].getName() + ")" : "") + " is null; "
          + (type.matches("[AEIOU].*") ? "an " : "a ") + type + " argument must not be null ("
          + (optional ? "pass Optional.empty() for None" : "declare Optional<" + type + "> to pass None") + ")");
    }
  }

  /** {@code List<Long>}, {@code String}: a declared type as a message shows it, without packages. */
  private static String typeName(Type type) {
    return type.getTypeName().replaceAll("[a-z][\\w]*\\.", "").replace('$', '.');
  }

  /** A call's arguments on the wire; {@code site} and the index name a bad one. */
  static List<Value> arguments(RemoteSession session, Connection on, Object[] args, String site, Transfer transfer,
      boolean declared) {
    if (args == null || args.length == 0) {
      return List.of();
    }
    List<Value> values = new ArrayList<>(args.length);
    for (int i = 0; i < args.length; i++) {
      Tensor array = declared ? arrayParameter(args[i], transfer) : null;
      values.add(array != null ? Value.newBuilder().setTensor(array).build()
          : toWire(session, on, args[i], site, "argument " + i, transfer));
    }
    return values;
  }

  /**
   * A declared method's {@code float[]}, {@code double[]}, {@code int[]} or {@code long[]} parameter as the 1-D
   * tensor the local binding makes of it (Codecs.FLOAT_ARRAY, ...); null for any other value. Only there: a dynamic
   * call, or an array inside a container, is refused as in this process.
   */
  private static Tensor arrayParameter(Object arg, Transfer transfer) {
    return switch (arg) {
      case float[] array -> arrayTensor("float32", MemorySegment.ofArray(array), array.length, transfer);
      case double[] array -> arrayTensor("float64", MemorySegment.ofArray(array), array.length, transfer);
      case int[] array -> arrayTensor("int32", MemorySegment.ofArray(array), array.length, transfer);
      case long[] array -> arrayTensor("int64", MemorySegment.ofArray(array), array.length, transfer);
      case null, default -> null;
    };
  }

  static Value toWire(RemoteSession session, Connection on, Object arg, String site, String what,
      Transfer transfer) {
    return toWire(session, on, arg, site, what, transfer, 0);
  }

  /**
   * The most levels of lists and maps a value crossing a session nests: protobuf refuses to parse a message nested
   * past 100 levels, and a map level takes three (value, map, entry), so 32 fit beside the call's own two. Deeper, the
   * message would fail to parse at the other end, which ended the whole session (trial userV).
   */
  static final int MAX_NESTING = 32;

  /** The error of a value nested past {@link #MAX_NESTING}, naming where it crossed the limit. */
  static String tooDeep(String where) {
    return where + " nests lists and maps deeper than " + MAX_NESTING + " levels, which no value crossing a session"
        + " may (the wire format's limit); pass the deeper part as separate values, or call in this process";
  }

  private static Value toWire(RemoteSession session, Connection on, Object arg, String site, String what,
      Transfer transfer, int nesting) {
    if ((arg instanceof List<?> || arg instanceof Map<?, ?>) && nesting == MAX_NESTING) {
      throw GrpcSessionProvider.newError("ValueError", site + ": " + tooDeep(what), "", null);
    }
    Value.Builder value = Value.newBuilder();
    switch (arg) {
      case null -> {
        return NONE;
      }
      case Boolean b -> value.setBoolean(b);
      case Long l -> value.setInteger(l);
      case Integer i -> value.setInteger(i);
      case Short s -> value.setInteger(s);
      case Byte b -> value.setInteger(b);
      case Double d -> value.setReal(d);
      case Float f -> value.setReal(f);
      case String s -> value.setText(s);
      case byte[] bytes -> value.setData(ByteString.copyFrom(bytes));
      case Optional<?> optional -> {
        return optional.isEmpty() ? NONE : toWire(session, on, optional.get(), site, what, transfer, nesting);
      }
      case NDArray array -> value.setTensor(tensor(session, array, site, what, transfer));
      case List<?> list -> {
        ValueList.Builder items = ValueList.newBuilder();
        for (int i = 0; i < list.size(); i++) {
          items.addItems(toWire(session, on, list.get(i), site, what + "[" + i + "]", transfer, nesting + 1));
        }
        value.setList(items);
      }
      case Map<?, ?> map -> {
        ValueMap.Builder entries = ValueMap.newBuilder();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          entries.addEntries(Entry.newBuilder()
              .setKey(toWire(session, on, entry.getKey(), site, what + " key", transfer, nesting + 1))
              .setValue(toWire(session, on, entry.getValue(), site, what + "[" + entry.getKey() + "]",
                  transfer, nesting + 1)));
        }
        value.setMap(entries);
      }
      case RemoteFunction function -> value.setObject(handle(session, on, function.handleOf(site), site, what));
      case PackedFunction function when RemoteClosures.remoteOf(function) != null -> {
        if (function.isClosed()) { // as a closed function argument is refused in this process
          throw new IllegalStateException(site + ": " + what + " is a closed function; it cannot be used after "
              + "close()");
        }
        value.setObject(handle(session, on, RemoteClosures.remoteOf(function).handleOf(site), site, what));
      }
      case PackedFunction function -> throw RemoteSession.typeError(site + ": " + what + " is a function ("
          + function + "): callbacks are not supported remotely; a Java function cannot be called from a server "
          + "process. Call it in this JVM, or load the library here with Packed4j.loadLibrary");
      case ObjectRef local -> throw RemoteSession.typeError(site + ": " + what + " is a native object of this JVM ("
          + local.typeKey() + "); a session's server cannot use it. Pass objects this session's calls returned");
      default -> {
        if (Proxy.isProxyClass(arg.getClass()) && Proxy.getInvocationHandler(arg) instanceof RemoteObjectHandler h) {
          value.setObject(handle(session, on, h.handleOf(site), site, what));
        } else if (RemoteClosures.remoteOf(arg) != null) {
          value.setObject(handle(session, on, RemoteClosures.remoteOf(arg).handleOf(site), site, what));
        } else if (arg.getClass().isSynthetic() || arg.getClass().isHidden()) {
          throw RemoteSession.typeError(site + ": " + what + " is a Java function (" + arg.getClass().getName()
              + "): callbacks are not supported remotely; a lambda cannot be called from a server process");
        } else {
          throw RemoteSession.typeError(site + ": " + what + " is a " + arg.getClass().getTypeName() + ", which "
              + "cannot cross a session (numbers, booleans, String, byte[], List, Map, Optional, NDArray and remote "
              + "objects of the session can, and a declared float[], double[], int[] or long[] parameter)");
        }
      }
    }
    return value.build();
  }

  private static ObjectHandle handle(RemoteSession session, Connection on, RemoteObjectHandler.Handle handle,
      String site, String what) {
    if (handle.session() != session) {
      throw RemoteSession.typeError(site + ": " + what + " is a remote object of another session ("
          + handle.typeKey() + "#" + handle.id() + "); each server holds its own objects");
    }
    if (handle.connection() != on) {
      throw handle.connection().lostError(site, what + " lived in a server session that ended");
    }
    return ObjectHandle.newBuilder().setId(handle.id()).setTypeKey(handle.typeKey()).build();
  }

  /**
   * A Java array argument as the 1-D tensor of {@code dtype} the local binding makes of it: its bytes in the message,
   * or in chunks straight from the array above the streaming threshold (the caller's for the call: a change to it
   * on another thread while the call runs may reach the server, as it may reach a local call's copy).
   */
  private static Tensor arrayTensor(String dtype, MemorySegment elements, long length, Transfer transfer) {
    Tensor.Builder tensor = Tensor.newBuilder().setDtype(dtype).addShape(length);
    if (elements.byteSize() > Chunks.STREAM_ABOVE) {
      transfer.outgoing.add(elements);
      return tensor.setStreamed(true).build();
    }
    return tensor.setData(UnsafeByteOperations.unsafeWrap(elements.toArray(ValueLayout.JAVA_BYTE))).build();
  }

  private static Tensor tensor(RemoteSession session, NDArray array, String site, String what, Transfer transfer) {
    try {
      return tensorOf(array, site, what, transfer);
    } catch (IllegalStateException unusable) { // closed, or its arena closed: named as a local call names it
      throw new IllegalStateException(site + ": " + what + ": " + unusable.getMessage(), unusable);
    } catch (WrongThreadException confined) {
      throw new WrongThreadException(site + ": " + what + ": " + confined.getMessage(), confined);
    }
  }

  private static Tensor tensorOf(NDArray array, String site, String what, Transfer transfer) {
    if (!array.device().isCpu()) {
      throw RemoteSession.typeError(site + ": " + what + " is a tensor on " + array.device() + "; "
          + TensorMessages.CPU_ONLY);
    }
    if (!array.isContiguous()) {
      throw RemoteSession.typeError(site + ": " + what + " is a tensor that is not contiguous (strides "
          + Arrays.toString(array.strides()) + "); a session sends contiguous tensors only: pass its copy()");
    }
    MemorySegment data = array.asSegment();
    if (data.byteSize() > Chunks.STREAM_ABOVE) {
      // Sent in chunks straight from this memory after the request, while the caller holds the tensor open.
      transfer.outgoing.add(data);
      return Chunks.placeholder(array);
    }
    // No copy here: the message is written to the transport before the call returns, while the tensor is the
    // caller's and open.
    return TensorMessages.of(array);
  }

  /**
   * A call's result converted to {@code type}; the tensors the reply streamed that the result did not take are
   * closed.
   */
  static Object result(RemoteSession session, Connection on, Value value, Type type, String site,
      Transfer transfer) {
    try {
      return fromWire(session, on, value, type, site, "the result", transfer);
    } finally {
      transfer.closeUnclaimed();
    }
  }

  /**
   * After a container's element failed to convert: closes what the elements before it became, and releases the
   * server's objects in those after it, which nothing would release before the session ends. The failed element's
   * own conversion released what it held.
   */
  private static void abandon(RemoteSession session, Connection on, List<Object> made, List<Value> rest) {
    for (Object value : made) {
      if (value instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception | Error ignored) {
          // already failing: the element's error is what the caller gets
        }
      }
    }
    for (Value value : rest) {
      releaseObjects(session, on, value);
    }
  }

  private static void releaseObjects(RemoteSession session, Connection on, Value value) {
    switch (value.getKindCase()) {
      case OBJECT -> session.release(on, value.getObject().getId());
      case LIST -> value.getList().getItemsList().forEach(item -> releaseObjects(session, on, item));
      case MAP -> value.getMap().getEntriesList().forEach(entry -> {
        releaseObjects(session, on, entry.getKey());
        releaseObjects(session, on, entry.getValue());
      });
      default -> { }
    }
  }

  /**
   * A result converted to {@code type}, as the local binding converts it; {@code site} names the call and
   * {@code what} the value in messages: "the result", or a place in it such as "element 3 of the result".
   */
  private static Object fromWire(RemoteSession session, Connection on, Value value, Type type, String site,
      String what, Transfer transfer) {
    Class<?> raw = raw(type);
    if (raw == void.class || raw == Void.class) {
      return null;
    }
    if (raw == Optional.class) {
      return value.getKindCase() == Value.KindCase.KIND_NOT_SET ? Optional.empty()
          : Optional.of(fromWire(session, on, value, argument(type, 0), site, what, transfer));
    }
    switch (value.getKindCase()) {
      case KIND_NOT_SET -> {
        if (raw.isPrimitive()) {
          throw RemoteSession.typeError(site + ": " + what + " is None, which is no " + raw.getName());
        }
        return null;
      }
      case BOOLEAN -> {
        return expect(raw, Boolean.class, boolean.class, value.getBoolean(), "bool", site, what);
      }
      case INTEGER -> {
        return integer(value.getInteger(), raw, site, what);
      }
      case REAL -> {
        double real = value.getReal();
        if (raw == float.class || raw == Float.class) {
          return (float) real;
        }
        return expect(raw, Double.class, double.class, real, "float64", site, what);
      }
      case TEXT -> {
        return expect(raw, String.class, String.class, value.getText(), "string", site, what);
      }
      case DATA -> {
        return expect(raw, byte[].class, byte[].class, value.getData().toByteArray(), "bytes", site, what);
      }
      case LIST -> {
        Type element = raw == List.class ? argument(type, 0) : Object.class;
        if (!raw.isAssignableFrom(List.class)) {
          throw RemoteSession.typeError(site + ": " + what + " is a list, which is no " + type.getTypeName());
        }
        List<Object> items = new ArrayList<>(value.getList().getItemsCount());
        List<Value> wire = value.getList().getItemsList();
        try {
          for (Value item : wire) {
            items.add(fromWire(session, on, item, element, site, "element " + items.size() + " of " + what,
                transfer));
          }
        } catch (RuntimeException | Error e) {
          abandon(session, on, items, wire.subList(Math.min(items.size() + 1, wire.size()), wire.size()));
          throw e;
        }
        return Collections.unmodifiableList(items);
      }
      case MAP -> {
        if (!raw.isAssignableFrom(Map.class)) {
          throw RemoteSession.typeError(site + ": " + what + " is a map, which is no " + type.getTypeName());
        }
        Type keyType = raw == Map.class ? argument(type, 0) : Object.class;
        Type valueType = raw == Map.class ? argument(type, 1) : Object.class;
        Map<Object, Object> entries = new LinkedHashMap<>();
        List<Entry> wire = value.getMap().getEntriesList();
        int done = 0;
        try {
          for (Entry entry : wire) {
            Object key = fromWire(session, on, entry.getKey(), keyType, site, "a key of " + what, transfer);
            entries.put(key, fromWire(session, on, entry.getValue(), valueType, site,
                "the value of key " + key + " of " + what, transfer));
            done++;
          }
        } catch (RuntimeException | Error e) {
          List<Object> made = new ArrayList<>(entries.keySet());
          made.addAll(entries.values());
          List<Value> rest = new ArrayList<>();
          for (Entry entry : wire.subList(Math.min(done + 1, wire.size()), wire.size())) {
            rest.add(entry.getKey());
            rest.add(entry.getValue());
          }
          abandon(session, on, made, rest);
          throw e;
        }
        return Collections.unmodifiableMap(entries);
      }
      case OBJECT -> {
        ObjectHandle object = value.getObject();
        if (isFunction(object.getTypeKey()) && RemoteClosures.converts(raw)) {
          return RemoteClosures.view(new RemoteFunction(session, null, new RemoteObjectHandler.Handle(session, on,
              object.getId(), object.getTypeKey()), site), type, site);
        }
        return RemoteObjectHandler.create(session, on, object, raw, site, what);
      }
      case TENSOR -> {
        if (!raw.isAssignableFrom(NDArray.class)) { // checked first: a tensor made here would be nobody's
          throw RemoteSession.typeError(site + ": " + what + " is a tensor, which is no " + raw.getName());
        }
        return tensor(value.getTensor(), transfer, site);
      }
      default -> throw new AssertionError(value.getKindCase());
    }
  }

  private static Object integer(long integer, Class<?> raw, String site, String what) {
    if (raw == long.class || raw == Long.class || raw == Object.class || raw == Number.class) {
      return integer;
    }
    if (raw == int.class || raw == Integer.class) {
      return (int) narrow(integer, Integer.MIN_VALUE, Integer.MAX_VALUE, "int", site, what);
    }
    if (raw == short.class || raw == Short.class) {
      return (short) narrow(integer, Short.MIN_VALUE, Short.MAX_VALUE, "short", site, what);
    }
    if (raw == byte.class || raw == Byte.class) {
      return (byte) narrow(integer, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte", site, what);
    }
    if (raw == double.class || raw == Double.class) {
      return (double) integer;
    }
    if (raw == float.class || raw == Float.class) {
      return (float) integer;
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return integer != 0;
    }
    throw RemoteSession.typeError(site + ": " + what + " is an integer, which is no " + raw.getName());
  }

  private static long narrow(long value, long min, long max, String type, String site, String what) {
    if (value < min || value > max) {
      throw GrpcSessionProvider.newError("ValueError", site + ": " + what + " is " + value + ", which does not fit in "
          + type, "", null);
    }
    return value;
  }

  private static Object expect(Class<?> raw, Class<?> boxed, Class<?> primitive, Object result, String wire,
      String site, String what) {
    if (raw == primitive || raw.isAssignableFrom(boxed)) {
      return result;
    }
    throw RemoteSession.typeError(site + ": " + what + " is a " + wire + ", which is no " + raw.getName());
  }

  /** A tensor result: streamed after the reply, or copied from it; owned by the caller. */
  private static NDArray tensor(Tensor tensor, Transfer transfer, String site) {
    if (tensor.getStreamed()) {
      NDArray streamed = transfer.claim();
      if (streamed == null) {
        throw RemoteSession.typeError(site + ": the reply announced a streamed tensor it did not send");
      }
      return streamed;
    }
    return TensorMessages.copyOf(tensor, "a tensor result", RemoteSession::typeError);
  }

  static Class<?> raw(Type type) {
    return switch (type) {
      case Class<?> c -> c;
      case ParameterizedType p -> (Class<?>) p.getRawType();
      case GenericArrayType a -> java.lang.reflect.Array.newInstance(raw(a.getGenericComponentType()), 0).getClass();
      case WildcardType w -> raw(w.getUpperBounds()[0]);
      default -> Object.class;
    };
  }

  private static Type argument(Type type, int index) {
    if (type instanceof ParameterizedType p) {
      Type argument = p.getActualTypeArguments()[index];
      return argument instanceof WildcardType w ? w.getUpperBounds()[0] : argument;
    }
    return Object.class;
  }

  /** Whether a dynamic result of this type key is a function. */
  static boolean isFunction(String typeKey) {
    return typeKey.equals("Function") || typeKey.equals("ffi.Function");
  }
}
