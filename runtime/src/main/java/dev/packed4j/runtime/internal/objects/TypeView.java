package dev.packed4j.runtime.internal.objects;

import dev.packed4j.runtime.OwnedHandle;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The Java view of a native type key: the Java interface, the key, and the factory of the generated class.
 *
 * <p>All views are registered here (by {@code ObjectType.define}). For a native object the runtime picks the
 * view of the object's own type or of its nearest ancestor that has one, among the views assignable to what
 * the caller declared; the choice is cached per native type index.
 */
public final class TypeView<T> {
  private static final Map<Class<?>, TypeView<?>> BY_JAVA_TYPE = new ConcurrentHashMap<>();
  private static final Map<String, List<TypeView<?>>> BY_KEY = new ConcurrentHashMap<>();
  private static volatile int definitions;

  /** Marks a cache slot whose type is not an instance of the declared one. */
  private static final Object NOT_AN_INSTANCE = new Object();
  /** Marks a cache slot for which no view exists (a NativeObject then). */
  private static final Object NO_VIEW = new Object();

  private final Class<T> javaType;
  private final String typeKey;
  private final Factory factory;
  private volatile int typeIndex = -1;
  private volatile Cache cache = new Cache(-1, -1, new Object[0]);

  private record Cache(int definitions, int typeGeneration, Object[] choices) {}

  private TypeView(Class<T> javaType, String typeKey, Factory factory) {
    this.javaType = javaType;
    this.typeKey = typeKey;
    this.factory = factory;
  }

  /**
   * Registers the view of {@code typeKey} for {@code javaType}, whose generated class's {@code factory} builds an
   * object from an {@link OwnedHandle}; a later definition for the same class wins.
   */
  public static synchronized <T> TypeView<T> define(Class<T> javaType, String typeKey,
      Function<OwnedHandle, ?> factory) {
    TypeView<T> view = new TypeView<>(javaType, typeKey, new Builder(javaType, typeKey, factory));
    TypeView<?> previous = BY_JAVA_TYPE.put(javaType, view);
    List<TypeView<?>> sameKey = BY_KEY.computeIfAbsent(typeKey, key -> new CopyOnWriteArrayList<>());
    if (previous != null) {
      BY_KEY.getOrDefault(previous.typeKey, List.of()).remove(previous);
    }
    sameKey.add(view);
    definitions++;
    return view;
  }

  /**
   * Builds the Java object of a view from an owned handle: what {@link #factoryFor} and {@link #forAnyObject} return.
   * When it fails, the caller still holds the reference it passed.
   */
  @FunctionalInterface
  public interface Factory {
    /**
     * The view's object, which takes over {@code ownedHandle}.
     *
     * @param ownedHandle an owned object handle
     * @param typeIndex the type index in that object's header, which the caller read to choose this factory
     * @return the object
     */
    Object make(long ownedHandle, int typeIndex);
  }

  /**
   * A view's factory: the object built from an owned handle. When it fails, the caller still holds the reference it
   * passed (as a codec's {@code decode} promises its caller): an IllegalStateException when the factory returned
   * without an object taking the handle, an IllegalArgumentException, after closing the object, when it does not
   * implement the view's Java type, or what the factory threw. An object that took the handle before the failure keeps
   * its own reference (taken for it here), released by its close or, unreachable, by the cleaner.
   *
   * <p>Every object result goes through {@link #make}, so it is kept small enough for the JIT to inline into the
   * result filter (a lambda calling one method with the checks' messages inline was not): the checks' failures are
   * in methods of their own, and the class of an object found to implement the Java type is remembered, so the next
   * object of that class is checked by one class compare instead of an interface subtype search.
   */
  private static final class Builder implements Factory {
    private final Class<?> javaType;
    private final String typeKey;
    private final Function<OwnedHandle, ?> factory;
    /** The class of an object this factory built that implements {@link #javaType}; null before the first. */
    private volatile Class<?> checkedClass;

    Builder(Class<?> javaType, String typeKey, Function<OwnedHandle, ?> factory) {
      this.javaType = javaType;
      this.typeKey = typeKey;
      this.factory = factory;
    }

    @Override
    public Object make(long ownedHandle, int typeIndex) {
      OwnedHandle token = OwnedHandles.of(ownedHandle, typeIndex);
      Object made;
      try {
        made = factory.apply(token);
      } catch (RuntimeException | Error e) {
        OwnedHandles.giveBack(token, ownedHandle);
        throw e;
      }
      if (made == null || !OwnedHandles.isTaken(token) || made.getClass() != checkedClass) {
        return check(made, token, ownedHandle);
      }
      return made;
    }

    /** The checks of {@link #make} for a factory result that is not yet known good. */
    private Object check(Object made, OwnedHandle token, long ownedHandle) {
      if (made == null || !OwnedHandles.isTaken(token)) {
        OwnedHandles.giveBack(token, ownedHandle);
        throw new IllegalStateException("the factory of " + javaType.getName() + " given to ObjectType.define "
            + "returned " + made + " without building it from the OwnedHandle it was given");
      }
      if (!javaType.isInstance(made)) {
        OwnedHandles.giveBack(token, ownedHandle); // before the close: the object still holds its reference
        if (made instanceof AutoCloseable object) {
          try {
            object.close(); // an ObjectRef: releases the reference it took
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
        throw new IllegalArgumentException(made.getClass().getName() + " does not implement " + javaType.getName()
            + ", the Java type of " + typeKey + ": the factory given to ObjectType.define must build the generated "
            + "class of that interface");
      }
      checkedClass = made.getClass();
      return made;
    }
  }

  /** The view registered for a Java interface, or null. */
  @SuppressWarnings("unchecked")
  public static <T> TypeView<T> forJavaType(Class<T> javaType) {
    return (TypeView<T>) BY_JAVA_TYPE.get(javaType);
  }

  public Class<T> javaType() {
    return javaType;
  }

  public String typeKey() {
    return typeKey;
  }

  /** The native index of the key; KeyError naming the key when no loaded library registered it. */
  public int typeIndex() {
    int index = typeIndex;
    if (index < 0) {
      index = TypeInfos.indexOf(typeKey);
      if (index < 0) {
        throw Failures.error(ErrorKind.KEY_ERROR, "no loaded native library registers the object type '" + typeKey
            + "' (the type of " + javaType.getName() + "): load the plugin library that declares it with "
            + "Packed4j.loadLibrary first", null);
      }
      typeIndex = index;
    }
    return index;
  }

  /**
   * The factory of the generated class to view an object of native type {@code objectTypeIndex} as this type:
   * the class of the object's type or of its nearest ancestor that has one and is assignable to this view's
   * Java type, else this view's own.
   *
   * @throws ConversionFailure (TYPE) naming both type keys when the object is not an instance of this type
   */
  @SuppressWarnings("unchecked")
  public Factory factoryFor(int objectTypeIndex) {
    Object choice = choice(objectTypeIndex);
    if (choice == NOT_AN_INSTANCE) {
      throw ConversionFailure.typeMismatch(TypeInfos.keyOrIndex(objectTypeIndex) + " object", typeKey
          + " object (" + javaType.getSimpleName() + ")");
    }
    return (Factory) choice;
  }

  private Object choice(int objectTypeIndex) {
    Cache current = cache;
    if (current.definitions != definitions || current.typeGeneration != TypeInfos.generation()) {
      current = new Cache(definitions, TypeInfos.generation(), new Object[0]);
      cache = current;
    }
    Object[] choices = current.choices;
    if (objectTypeIndex >= 0 && objectTypeIndex < choices.length && choices[objectTypeIndex] != null) {
      return choices[objectTypeIndex];
    }
    Object choice = TypeInfos.isInstanceOf(objectTypeIndex, typeIndex())
        ? nearestView(objectTypeIndex, javaType, factory)
        : NOT_AN_INSTANCE;
    Object[] grown = Arrays.copyOf(choices, Math.max(choices.length, objectTypeIndex + 1));
    grown[objectTypeIndex] = choice;
    cache = new Cache(current.definitions, current.typeGeneration, grown);
    return choice;
  }

  /**
   * The factory of the view of {@code objectTypeIndex} or of its nearest ancestor that has one, among the views
   * assignable to {@code declared}; {@code fallback} when there is none.
   */
  private static Object nearestView(int objectTypeIndex, Class<?> declared, Object fallback) {
    for (TypeInfo info : TypeInfos.lineage(objectTypeIndex)) {
      Object factory = registeredView(info.key(), declared);
      if (factory == null && loadIndexed(info.key(), declared)) {
        factory = registeredView(info.key(), declared);
      }
      if (factory != null) {
        return factory;
      }
    }
    return fallback;
  }

  private static Object registeredView(String typeKey, Class<?> declared) {
    for (TypeView<?> view : BY_KEY.getOrDefault(typeKey, List.of())) {
      if (declared.isAssignableFrom(view.javaType)) {
        return view.factory;
      }
    }
    return null;
  }

  /** Loads the generated class the processor's index lists for the key, from the declared type's loader. */
  private static boolean loadIndexed(String typeKey, Class<?> declared) {
    ClassLoader declaring = declared.getClassLoader();
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    boolean loaded = declaring != null && ObjectTypeIndex.load(typeKey, declaring);
    if (!loaded && context != null && context != declaring) {
      loaded = ObjectTypeIndex.load(typeKey, context);
    }
    return loaded;
  }

  private static volatile Cache anyCache = new Cache(-1, -1, new Object[0]);

  /**
   * For a value declared as {@code Object}: the factory of the generated class of the object's type or of its
   * nearest ancestor that has one, or null when none was loaded (the caller makes a NativeObject).
   */
  @SuppressWarnings("unchecked")
  public static Factory forAnyObject(int objectTypeIndex) {
    Cache current = anyCache;
    if (current.definitions != definitions || current.typeGeneration != TypeInfos.generation()) {
      current = new Cache(definitions, TypeInfos.generation(), new Object[0]);
      anyCache = current;
    }
    Object[] choices = current.choices;
    Object choice = objectTypeIndex < choices.length ? choices[objectTypeIndex] : null;
    if (choice == null) {
      choice = nearestView(objectTypeIndex, Object.class, NO_VIEW);
      Object[] grown = Arrays.copyOf(choices, Math.max(choices.length, objectTypeIndex + 1));
      grown[objectTypeIndex] = choice;
      anyCache = new Cache(current.definitions, current.typeGeneration, grown);
    }
    return choice == NO_VIEW ? null : (Factory) choice;
  }

  @Override
  public String toString() {
    return typeKey + " (" + javaType.getName() + ")";
  }
}
