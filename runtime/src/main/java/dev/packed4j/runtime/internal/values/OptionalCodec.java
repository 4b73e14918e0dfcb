package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import java.util.Optional;

/** {@code Optional<T>}: empty is None, a present value is converted by the inner codec. */
public final class OptionalCodec<T> extends ValueCodec<Optional<T>> {
  private final ValueCodec<T> inner;

  public OptionalCodec(ValueCodec<T> inner) {
    super("Optional<" + inner.javaType() + ">");
    this.inner = inner;
  }

  /**
   * The codec of a present value.
   *
   * @return the codec
   */
  public ValueCodec<T> inner() {
    return inner;
  }

  @Override
  public String wireType() {
    return "optional " + inner.wireType();
  }

  @Override
  public boolean nests() {
    return inner.nests();
  }

  @Override
  public String nullHint() {
    return "pass Optional.empty() for None";
  }

  @Override
  public void encode(Optional<T> value, long slot, Frame frame) {
    if (value.isEmpty()) {
      NativeMemory.putAny(slot, kP4JNone, 0, 0);
    } else {
      try {
        inner.encode(value.get(), slot, frame);
      } catch (ClassCastException unchecked) { // an unchecked Optional holding another class
        throw ConversionFailure.wrongClass(value.get(), inner.javaType()).within("the Optional's value");
      }
    }
  }

  @Override
  public Optional<T> decode(long any, boolean owned) {
    if (NativeMemory.anyTypeIndex(any) == kP4JNone) {
      return Optional.empty();
    }
    return Optional.ofNullable(inner.decode(any, owned));
  }
}
