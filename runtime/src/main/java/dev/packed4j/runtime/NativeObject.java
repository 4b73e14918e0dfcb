package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.objects.TypeInfos;
import dev.packed4j.runtime.internal.values.AnyCodec;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
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
 * }
 * }</pre>
 */
public final class NativeObject extends ObjectRef {
  private static final CallTarget GET = CallTarget.operation("NativeObject.get");

  NativeObject(long handle) {
    super(handle);
  }

  /**
   * The value of a field, by its exact name, converted like a {@link PackedFunction#invoke} result.
   *
   * @param field the field's name, as the C++ type visits it
   * @return the field's value: a boxed number, Boolean, String, or for an object field a new reference the caller
   *     owns
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

  /** {@return the names of the fields the native type declares (inherited ones first)} */
  public List<String> fieldNames() {
    return TypeInfos.info(typeIndex()).fieldNames();
  }
}
