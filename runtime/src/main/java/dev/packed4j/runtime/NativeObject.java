package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.objects.TypeInfos;
import dev.packed4j.runtime.internal.values.AnyCodec;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Containers;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.MemberCalls;
import dev.packed4j.runtime.internal.values.NDArrayCodec;
import dev.packed4j.runtime.internal.values.ObjectHandles;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.lang.ref.Reference;
import java.util.List;
import java.util.Objects;

/**
 * A native object of a type Java has no {@code @Object} interface for, read by field name.
 *
 * <pre>{@code
 * try (NativeObject calc = (NativeObject) Registry.global("calculator.CreateCalculator").invoke("casio", 100)) {
 *   calc.fieldNames();   // [brand, price]
 *   calc.get("price");   // 100L
 *   calc.set("price", 120);
 *   calc.call("add", 1, 2); // 3L
 * }
 * }</pre>
 */
public final class NativeObject extends ObjectRef {
  private static final CallTarget GET = CallTarget.operation("NativeObject.get");
  private static final CallTarget SET = CallTarget.operation("NativeObject.set", "value");
  private static final String CONSTRUCTOR = "__init__";

  NativeObject(long handle) {
    super(handle);
  }

  /**
   * The value of a field, by its exact name, converted like a {@link PackedFunction#invoke} result.
   *
   * @param field the field's name, as the C++ type visits it
   * @return the field's value: a boxed number, Boolean, String, or for an object field a new reference the caller
   *     owns (an {@link NDArray} for a tensor field), null when the object field is unset
   * @throws Packed4jException AttributeError (from native) when the type has no such field
   * @throws IllegalStateException after close
   */
  public Object get(String field) {
    Objects.requireNonNull(field, "field");
    ReleaseEpochs.Pin pin = pin(); // a close on another thread waits for the read
    try (Frame frame = ThreadStack.current().push(GET, 0)) {
      Errors.check(CApi.P4JObjectGetAttr(pin.pinnedHandle(), frame.stringSpan(field), frame.result()), null);
      frame.resultWritten();
      return frame.returnValue(AnyCodec.ANY);
    } finally {
      pin.unpin();
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Writes a mutable field (one an object definition declares with {@code def_rw}), by its exact name,
   * thread-safely: a concurrent reader sees the old or the new value whole, and an old string or object is released
   * once.
   *
   * <pre>{@code
   * calc.set("price", 120);
   * }</pre>
   *
   * @param field the field's name
   * @param value the new value: a number, Boolean, String, an object of the field's declared type, or null for
   *     an object field; for a container field a {@code List} or {@code Map} whose elements are of its declared
   *     element types ({@code list<string>}: Strings), checked by the native core before anything is written; for
   *     a tensor field an {@link NDArray} of native memory, which the field keeps a reference to
   * @throws Packed4jException AttributeError when the type has no such field; ValueError naming the type and the
   *     field when it is read-only or the value is out of the field's range, or for a tensor over Java memory
   *     ({@link NDArray#wrap}, or a view of one), which the object could outlive; TypeError for a value of another
   *     type, or a container with an element of another type (naming its index or key); the field keeps its old
   *     value
   * @throws NullPointerException for null written to a list or map field, as its typed setter refuses it
   * @throws IllegalStateException after close
   */
  public void set(String field, Object value) {
    Objects.requireNonNull(field, "field");
    if (value == null) {
      refuseNullContainer(field);
    }
    ReleaseEpochs.Pin pin = pin();
    // A field keeps what it is set to, beyond the arena of a Java segment: refused as a typed setter refuses it.
    String overJavaMemory = Containers.tensorOverJavaMemory(value, AnyCodec.ANY);
    if (overJavaMemory != null) {
      pin.unpin();
      throw NDArrayCodec.storedOverJavaMemory(typeKey() + "." + field + "(value)"
          + (overJavaMemory.isEmpty() ? "" : ": " + overJavaMemory));
    }
    try (Frame frame = ThreadStack.current().push(SET, 1)) {
      frame.put(0, AnyCodec.ANY, value);
      if (CApi.P4JObjectSetAttr(pin.pinnedHandle(), frame.stringSpan(field), frame.arguments()) != 0) {
        // The core names its C function ("P4JObjectSetField: field ..."); a Java caller called this method.
        Packed4jException error = Errors.takeRaised(null);
        String message = error.nativeMessage();
        String cName = "P4JObjectSetField: ";
        throw message.startsWith(cName) ? Failures.newException(error.kind(), "NativeObject.set: "
            + message.substring(cName.length()), error.nativeBacktrace(), null) : error;
      }
    } finally {
      pin.unpin();
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Refuses null for a list or map field, as a typed setter does: C++ code that filled such a field may rely on it
   * staying filled (guide, "Objects"). A string field refuses it in the core (None is no string); an object or tensor
   * field takes it ("no object").
   */
  private void refuseNullContainer(String field) {
    for (var info : TypeInfos.info(typeIndex()).fields()) {
      if (info.name().equals(field) && (info.objectTypeIndex() == CApi.kP4JList
          || info.objectTypeIndex() == CApi.kP4JMap)) {
        boolean list = info.objectTypeIndex() == CApi.kP4JList;
        throw new NullPointerException("NativeObject.set: the " + (list ? "list" : "map") + " field \"" + field
            + "\" of " + typeKey() + " is never set to null, as its typed setter refuses it (set "
            + (list ? "List.of()" : "Map.of()") + " to empty it)");
      }
    }
  }

  /**
   * Calls a method (or a static method) the object's type registers, or inherits from a parent, by name; a
   * method the type overrides is the type's own.
   *
   * <pre>{@code
   * calc.call("add", 1, 2);     // 3L
   * }</pre>
   *
   * @param method the member's registered name
   * @param args the arguments after the object, converted as {@link PackedFunction#invoke} converts them
   * @return the result, converted as {@link PackedFunction#invoke} converts it
   * @throws Packed4jException AttributeError listing the type's members when it has none of that name; the
   *     method's own errors, naming the member and the argument
   * @throws IllegalStateException after close
   */
  public Object call(String method, Object... args) {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(args, "args");
    if (isClosed()) {
      throw new IllegalStateException("NativeObject.call(" + method + ") on a closed " + typeKey() + " object");
    }
    try {
      return MemberCalls.invoke(typeIndex(), this, method, args, "NativeObject.call");
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * A {@code NativeObject} view of the native object {@code object} refers to, for access by name to any object,
   * also one Java has an {@code @Object} interface for: it holds a reference of its own (close it when done), and
   * {@code object} stays open.
   *
   * <pre>{@code
   * try (NativeObject dynamic = NativeObject.of(calc)) {
   *   dynamic.call("add", 1, 2);
   * }
   * }</pre>
   *
   * @param object an open object
   * @return a new view of the same native object
   * @throws IllegalStateException when {@code object} is closed
   * @throws IllegalArgumentException when {@code object} is a tensor over Java memory ({@code NDArray.wrap}, or a
   *     view of one): only the {@code NDArray} checks its segment's arena before each use, and a
   *     {@code NativeObject} could hand the tensor to native code, or to a field, after the arena is closed
   */
  public static NativeObject of(ObjectRef object) {
    Objects.requireNonNull(object, "object");
    if (object instanceof NDArray array && array.overJavaMemory()) {
      throw new IllegalArgumentException("NativeObject.of: a tensor over Java memory (NDArray.wrap, or a view of one)"
          + " has no NativeObject view, which would not check its segment's arena; expected a tensor of native"
          + " memory: pass the NDArray itself, or a copy (NDArray.copy())");
    }
    ReleaseEpochs.Pin pin = object.pin();
    try {
      CApi.P4JObjectIncRef(pin.pinnedHandle());
      return new NativeObject(pin.pinnedHandle());
    } finally {
      pin.unpin();
      Reference.reachabilityFence(object);
    }
  }

  /**
   * {@link #of(ObjectRef)} for an object held as its {@code @Object} interface, which Java's types do not know to be
   * an {@code ObjectRef}: {@code NativeObject.of(calc)} with {@code CalculatorRef calc}.
   *
   * @param object an open native object: a generated {@code @Object} view, a {@code NativeObject}, an
   *     {@code NDArray}
   * @return a new view of the same native object
   * @throws IllegalArgumentException when {@code object} is no native object of this process (a session's object
   *     lives in the session's process), or a tensor over Java memory (see {@link #of(ObjectRef)})
   * @throws IllegalStateException when {@code object} is closed
   */
  public static NativeObject of(Object object) {
    Objects.requireNonNull(object, "object");
    if (object instanceof ObjectRef ref) {
      return of(ref);
    }
    String sessionObject = ObjectHandles.describeSessionObject(object);
    throw new IllegalArgumentException("NativeObject.of takes a native object of this process (an @Object view,"
        + " NativeObject or NDArray), not " + (sessionObject != null ? sessionObject
            : "a " + object.getClass().getName()));
  }

  /**
   * Constructs an object of a registered type with the constructor its object definition registers
   * ({@code def(init<Args...>())}), or calls one of its static methods.
   *
   * <pre>{@code
   * try (var calc = (ObjectRef) NativeObject.construct("Calculator", "casio", 100)) { ... }
   * }</pre>
   *
   * @param typeKey the type's key
   * @param args the constructor's arguments, converted as {@link PackedFunction#invoke} converts them
   * @return the new object as its Java view (a {@code NativeObject} when Java declares no {@code @Object}
   *     interface for the type), owned by the caller
   * @throws Packed4jException KeyError when no loaded library registers the type; AttributeError when it
   *     registers no constructor; the constructor's own errors
   */
  public static Object construct(String typeKey, Object... args) {
    return callStatic(typeKey, CONSTRUCTOR, args);
  }

  /**
   * Calls a static method ({@code def_static}) of a registered type, or one its parents register.
   *
   * @param typeKey the type's key
   * @param method the static method's registered name
   * @param args the arguments, converted as {@link PackedFunction#invoke} converts them
   * @return the result, converted as {@link PackedFunction#invoke} converts it
   * @throws Packed4jException KeyError when no loaded library registers the type; AttributeError when it has no
   *     member of that name; TypeError when the member is a method (call it on an object); the member's own errors
   */
  public static Object callStatic(String typeKey, String method, Object... args) {
    Objects.requireNonNull(typeKey, "typeKey");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(args, "args");
    int typeIndex = TypeInfos.indexOf(typeKey);
    if (typeIndex < 0) {
      throw Failures.error(ErrorKind.KEY_ERROR, "no object type '" + typeKey + "' is registered; load the plugin"
          + " library that registers it with Packed4j.loadLibrary", typeKey + "." + method);
    }
    return MemberCalls.invoke(typeIndex, null, method, args, "NativeObject." + (method.equals(CONSTRUCTOR)
        ? "construct" : "callStatic"));
  }

  /** {@return the names of the fields the native type declares (inherited ones first)} */
  public List<String> fieldNames() {
    return TypeInfos.info(typeIndex()).fieldNames();
  }
}
