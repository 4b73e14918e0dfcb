package dev.packed4j.runtime.internal.codec;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.internal.ConversionFailure;
import dev.packed4j.runtime.internal.Frame;
import dev.packed4j.runtime.internal.GeneratedClasses;
import dev.packed4j.runtime.internal.NativeMemory;
import dev.packed4j.runtime.internal.TypeView;
import dev.packed4j.runtime.internal.Values;
import java.util.function.LongFunction;

/**
 * An {@code @Object} interface: the handle of the generated class's instance as an argument; as a result, an
 * instance of the generated class of the object's type or nearest ancestor, checked against the declared type.
 */
public final class ObjectCodec<T> extends ValueCodec<T> {
  private final Class<T> javaType;
  private volatile TypeView<T> view;

  public ObjectCodec(Class<T> javaType) {
    super(javaType.getSimpleName());
    this.javaType = javaType;
    this.view = TypeView.forJavaType(javaType);
  }

  /** The view, loading the generated class on first use (its static TYPE registers it). */
  public TypeView<T> view() {
    TypeView<T> resolved = view;
    if (resolved == null) {
      resolved = TypeView.forJavaType(javaType);
      if (resolved == null) {
        GeneratedClasses.load(javaType, "@Object");
        resolved = TypeView.forJavaType(javaType);
      }
      if (resolved == null) {
        throw new IllegalStateException(GeneratedClasses.nameFor(javaType) + " did not define the object type of "
            + javaType.getName() + " (no ObjectType.define in its static TYPE): recompile it with packed4j-processor");
      }
      view = resolved;
    }
    return resolved;
  }

  @Override
  public String wireType() {
    TypeView<T> resolved = view;
    return resolved == null ? javaType.getSimpleName() : resolved.typeKey();
  }

  @Override
  public void encode(T value, long slot, Frame frame) {
    if (!(value instanceof ObjectRef ref)) {
      throw new ConversionFailure(ConversionFailure.Kind.TYPE, "a " + value.getClass().getName()
          + ", which is not a native object: only objects packed4j returned (generated classes) can be passed as "
          + javaType.getSimpleName());
    }
    ObjectHandles.encode(ref, slot, frame);
  }

  @Override
  public T decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (!Values.isObject(type)) {
      throw mismatch(any);
    }
    TypeView<T> resolved = view();
    LongFunction<? extends ObjectRef> factory = resolved.factoryFor(type);
    ObjectRef object = factory.apply(keep(NativeMemory.anyPayload(any), owned));
    return javaType.cast(object);
  }
}
