package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.values.AnyCodec;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.Nesting;
import dev.packed4j.runtime.internal.objects.TypeView;
import dev.packed4j.runtime.internal.values.ObjectCodec;
import dev.packed4j.runtime.internal.values.ObjectHandles;
import dev.packed4j.runtime.internal.values.ThreadStack;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;

/**
 * The core's object-as-data functions ({@code packed4j/serialization.h}), called by name the way TVM's front ends
 * call {@code node.SaveJSON}: one implementation, in C++, for both languages, so that a graph saved by either is
 * read the same way by the other. Each function is looked up once, on first use, and kept for the process.
 */
final class ObjectData {
  private ObjectData() {}

  static final String SAVE_JSON = "packed4j.SaveJSON";
  static final String LOAD_JSON = "packed4j.LoadJSON";
  static final String STRUCTURAL_EQUAL = "packed4j.StructuralEqual";
  static final String STRUCTURAL_HASH = "packed4j.StructuralHash";
  static final String DEEP_COPY = "packed4j.DeepCopy";

  /** Lazily resolved, once per JVM: the core registers these functions itself, so they never change. */
  private static final class Functions {
    private Functions() {}

    static final PackedFunction SAVE = Registry.global(SAVE_JSON);
    static final PackedFunction LOAD = Registry.global(LOAD_JSON);
    static final PackedFunction EQUAL = Registry.global(STRUCTURAL_EQUAL);
    static final PackedFunction HASH = Registry.global(STRUCTURAL_HASH);
    static final PackedFunction COPY = Registry.global(DEEP_COPY);
  }

  static String toJson(Object value) {
    NativeLibraries.ensureLoaded(); // a core that cannot load: its LoadError each time, not a holder's failed init
    try {
      return (String) Functions.SAVE.invoke(value);
    } catch (Packed4jException e) {
      // A view built level by level gets past the argument's limit, not the document's: SaveJSON has the same one.
      String message = e.nativeMessage();
      if (message.endsWith(Nesting.VIEWS_ADVICE)) {
        throw Failures.newException(e.kind(), message.substring(0, message.length() - Nesting.VIEWS_ADVICE.length())
            + "; a packed4j-json document nests at most " + Nesting.LIMIT + " levels as well (SaveJSON and LoadJSON "
            + "refuse deeper ones)", e.nativeBacktrace(), e.functionName());
      }
      if (message.endsWith(AnyCodec.SESSION_OBJECT_ADVICE)) {
        throw Failures.newException(e.kind(), message + ", or save it there: session.global(\"packed4j.SaveJSON\")"
            + ".invoke(object)", e.nativeBacktrace(), e.functionName());
      }
      throw e;
    }
  }

  /** LoadJSON's call target: the function of {@link Functions#LOAD}, which lives as long as the process. */
  private static final class LoadCall {
    private LoadCall() {}

    static final CallTarget TARGET = CallTarget.function(Functions.LOAD.handle(), LOAD_JSON);
  }

  /**
   * Hands the text to LoadJSON as a string view of its UTF-8 bytes, written once into the call's scratch memory.
   * A document is large (100,000 small objects are 11 MB): {@link String#getBytes} checks and copies it in bulk,
   * where the general String argument path would test it char by char first. The bytes are the same (a lone
   * surrogate becomes '?' in both).
   */
  static Object fromJson(String json) {
    NativeLibraries.ensureLoaded();
    byte[] utf8 = requireText(json).getBytes(StandardCharsets.UTF_8);
    try (Frame frame = ThreadStack.current().push(LoadCall.TARGET, 1)) {
      long span = frame.scratch(16L + utf8.length + 1, 8);
      long data = span + 16;
      MemorySegment.copy(utf8, 0, NativeMemory.ALL, ValueLayout.JAVA_BYTE, data, utf8.length);
      NativeMemory.putByte(data + utf8.length, (byte) 0);
      NativeMemory.putLong(span, data);
      NativeMemory.putLong(span + 8, utf8.length);
      frame.putSpan(0, span);
      frame.invoke();
      return frame.returnValue(AnyCodec.ANY);
    }
  }

  static <T> T fromJson(String json, Class<T> type) {
    if (type == null) {
      throw new NullPointerException("type");
    }
    Class<?> expected = type.isPrimitive() ? MethodType.methodType(type).wrap().returnType() : type;
    Object value = fromJson(json);
    if (value == null && !type.isPrimitive()) {
      return null;
    }
    if (expected.isInstance(value)) {
      @SuppressWarnings("unchecked") // a primitive type's wrapper is what T stands for
      T result = (T) value;
      return result;
    }
    if (value instanceof Long number && NARROW.containsKey(expected)) {
      // JSON integers load as Long; a narrower type takes one that fits, range-checked as results are.
      long[] range = NARROW.get(expected);
      if (number < range[0] || number > range[1]) {
        throw Failures.error(ErrorKind.VALUE_ERROR, "Packed4j.fromJson: the JSON holds " + number + ", which does"
            + " not fit in " + (type.isPrimitive() ? type.getName() : expected.getSimpleName()), LOAD_JSON);
      }
      Object narrowed = expected == Integer.class ? (Object) number.intValue()
          : expected == Short.class ? (Object) number.shortValue() : (Object) number.byteValue();
      @SuppressWarnings("unchecked") // expected is T's class or its wrapper, and narrowed is of it
      T result = (T) narrowed;
      return result;
    }
    if (value instanceof ObjectRef object) {
      T reviewed = viewAs(object, type);
      if (reviewed != null) {
        return reviewed;
      }
    }
    String found = describe(value);
    if (value instanceof AutoCloseable owned) {
      closeQuietly(owned);
    }
    throw Failures.error(ErrorKind.TYPE_ERROR,
        "Packed4j.fromJson: expected " + type.getName() + ", the JSON holds " + found, LOAD_JSON);
  }

  /**
   * {@code object} as an instance of {@code type}, which it is not (the load picked the first view registered for its
   * type key), or null when its type is not one of {@code type}'s. The load viewed the object without knowing what
   * the caller declares: when two Java interfaces view one native type (two class loaders, or a generated API beside
   * a hand-written one) its first view may not be the caller's. So the object's own view, or its nearest ancestor's,
   * is chosen again among the views assignable to {@code type}, as a typed result chooses it; {@link NativeObject}
   * views any object. The new view takes over the reference and {@code object} is closed.
   */
  private static <T> T viewAs(ObjectRef object, Class<T> type) {
    TypeView.Factory factory;
    if (type == NativeObject.class) {
      factory = (ownedHandle, typeIndex) -> new NativeObject(ownedHandle);
    } else if (type.isInterface()) {
      TypeView<T> view;
      try {
        view = new ObjectCodec<>(type).view(); // loads the generated class when no view of type is registered yet
      } catch (IllegalStateException notAnObjectInterface) {
        return null;
      }
      try {
        factory = view.factoryFor(object.typeIndex());
      } catch (ConversionFailure notAnInstance) {
        return null;
      }
    } else {
      return null;
    }
    long handle = object.handle();
    CApi.P4JObjectIncRef(handle);
    Object made;
    try {
      made = factory.make(handle, object.typeIndex());
    } catch (RuntimeException | Error e) {
      CApi.P4JObjectDecRef(handle); // a failed factory leaves the new reference with its caller
      throw e;
    }
    object.close();
    return type.cast(made);
  }

  /** The integer types a JSON integer (a Long) also loads as, with their ranges. */
  private static final java.util.Map<Class<?>, long[]> NARROW = java.util.Map.of(
      Integer.class, new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE},
      Short.class, new long[] {Short.MIN_VALUE, Short.MAX_VALUE},
      Byte.class, new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE});

  static boolean structuralEquals(Object a, Object b) {
    NativeLibraries.ensureLoaded();
    return (Boolean) Functions.EQUAL.invoke(a, b);
  }

  static long structuralHash(Object value) {
    NativeLibraries.ensureLoaded();
    return (Long) Functions.HASH.invoke(value);
  }

  static <T> T deepCopy(T object) {
    if (object == null) {
      throw new NullPointerException("object");
    }
    if (!(object instanceof ObjectRef)) {
      // A TypeError, as toJson and structuralEquals give for the same value.
      String sessionObject = ObjectHandles.describeSessionObject(object);
      throw Failures.error(ErrorKind.TYPE_ERROR, "Packed4j.deepCopy takes a native object of this process (an"
          + " @Object view, NativeObject or NDArray), not " + (sessionObject != null ? sessionObject
              + "; copy it there: session.global(\"" + DEEP_COPY + "\").invoke(object)"
              : "a " + object.getClass().getName() + ": Java lists and maps are copied as part of one"), DEEP_COPY);
    }
    NativeLibraries.ensureLoaded();
    ObjectRef copy = (ObjectRef) Functions.COPY.invoke(object);
    if (object.getClass().isInstance(copy)) {
      @SuppressWarnings("unchecked") // the copy is of the original's own class
      T same = (T) copy;
      return same;
    }
    if (!(object instanceof NativeObject)) {
      // The original is another class loader's view of the type (the copy got the first view registered for its
      // key): view the copy through the original's interface, so the caller's T holds.
      for (Class<?> declared : object.getClass().getInterfaces()) {
        Object viewed = viewAs(copy, declared);
        if (viewed != null) {
          @SuppressWarnings("unchecked") // an instance of the original's @Object interface, which T is or extends
          T same = (T) viewed;
          return same;
        }
      }
    }
    // The original is a NativeObject although its type has a generated view, which the copy got: give the copy
    // the original's class, so the caller's T holds.
    long handle = copy.handle();
    CApi.P4JObjectIncRef(handle);
    copy.close();
    @SuppressWarnings("unchecked") // only a NativeObject can differ from the view the codec picks
    T view = (T) new NativeObject(handle);
    return view;
  }

  private static String requireText(String json) {
    if (json == null) {
      throw new NullPointerException("json");
    }
    return json;
  }

  private static String describe(Object value) {
    return switch (value) {
      case null -> "null";
      case ObjectRef ref -> "an object of type " + ref.typeKey();
      case NativeList<?> list -> "a list";
      case NativeMap<?, ?> map -> "a map";
      default -> "a " + value.getClass().getSimpleName();
    };
  }

  private static void closeQuietly(AutoCloseable owned) {
    try {
      owned.close();
    } catch (Exception e) {
      // The value was never handed out; a failure to release it must not hide the TypeError.
    }
  }
}
