package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.OwnedHandle;
import dev.packed4j.runtime.internal.objects.TypeView;
import java.util.Objects;
import java.util.function.Function;

/**
 * The Java view of a native object type, defined by the generated class of an {@code @Object} interface:
 *
 * <pre>{@code
 * public static final ObjectType<CalculatorRef> TYPE =
 *     ObjectType.define(CalculatorRef.class, "Calculator", Packed4j_CalculatorRef::new);
 * }</pre>
 *
 * <p>The runtime views a native object through the generated class of its type or of its nearest ancestor that
 * has one, after checking it against the declared type. A generated class registers when it is initialised;
 * one not initialised yet is found through the index packed4j-processor writes,
 * {@code META-INF/packed4j/object-types.properties} ({@code typeKey=generated.class.Name} per line). The native
 * type index is looked up on first use, so a generated class can be initialised before the plugin library that
 * registers the type is loaded.
 *
 * @param <T> the {@code @Object} interface
 */
public final class ObjectType<T> {
  final TypeView<T> view;

  private ObjectType(TypeView<T> view) {
    this.view = view;
  }

  /**
   * Registers the Java view of {@code typeKey}.
   *
   * @param javaType the {@code @Object} interface
   * @param typeKey the native type key, such as {@code "Calculator"}
   * @param factory makes an instance of the generated class from the owned handle it is given (its constructor
   *     passes the handle to {@code ObjectRef}'s); it must build exactly one object from each handle and keep none
   * @param <T> the interface type
   * @return the type, registered for the codecs to find
   */
  public static <T> ObjectType<T> define(Class<T> javaType, String typeKey,
      Function<OwnedHandle, ? extends ObjectRef> factory) {
    Objects.requireNonNull(javaType, "javaType");
    Objects.requireNonNull(typeKey, "typeKey");
    Objects.requireNonNull(factory, "factory");
    return new ObjectType<>(TypeView.define(javaType, typeKey, factory));
  }

  /**
   * A field of this type, resolved against the native metadata now when the type's library is loaded (else at its
   * first use after the load): a missing field is an AttributeError listing the fields, a kind that does not match
   * a TypeError naming both kinds, both thrown by the accessors that use the slot, not here.
   *
   * @param name the field's name, as the C++ type visits it
   * @param kind the kind the getter reads
   * @return the field's slot
   */
  public FieldSlot field(String name, FieldKind kind) {
    return ObjectFieldSlot.of(this, Objects.requireNonNull(name, "name"), Objects.requireNonNull(kind, "kind"));
  }

  /**
   * The {@code @Object} interface.
   *
   * @return the interface
   */
  public Class<T> javaType() {
    return view.javaType();
  }

  /** {@return the native type key} */
  public String typeKey() {
    return view.typeKey();
  }

  @Override
  public String toString() {
    return "ObjectType[" + view + "]";
  }
}
