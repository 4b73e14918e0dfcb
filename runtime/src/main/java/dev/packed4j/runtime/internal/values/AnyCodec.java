package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.*;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.objects.TypeView;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code Object}: converts by the runtime type of the value.
 *
 * <p>Arguments: null, Boolean, Byte/Short/Integer/Long, Float/Double, String, byte[], any native object (generated
 * {@code @Object} classes, NativeObject, PackedFunction, NativeList, NativeMap), java.util.List and Map (as
 * temporary native containers), Optional, and native MemorySegments (as opaque pointers).
 *
 * <p>Results: null, Boolean, Long, Double, String, byte[], PackedFunction, {@code NativeList<Object>} and
 * {@code NativeMap<Object, Object>} (live views), a MemorySegment for an opaque pointer, and for any other object
 * the generated class of its type or nearest ancestor, else NativeObject.
 */
public final class AnyCodec extends ValueCodec<Object> {
  /** The end of the error for an object of a session, which this process cannot convert. */
  public static final String SESSION_OBJECT_ADVICE =
      ", which only that session's process can convert: pass it to an interface the session bound";

  public static final AnyCodec ANY = new AnyCodec();

  private AnyCodec() {
    super("Object");
  }

  @Override
  public String wireType() {
    return "any value";
  }

  @Override
  public boolean nests() {
    return true;
  }

  @Override
  public boolean acceptsNull() {
    return true;
  }

  @Override
  public void encode(Object value, long slot, Frame frame) {
    switch (value) {
      case null -> NativeMemory.putAny(slot, kP4JNone, 0, 0);
      case Boolean b -> NativeMemory.putAny(slot, kP4JBool, 0, b ? 1 : 0);
      case Long l -> NativeMemory.putAny(slot, kP4JInt, 0, l);
      case Integer i -> NativeMemory.putAny(slot, kP4JInt, 0, i);
      case Short s -> NativeMemory.putAny(slot, kP4JInt, 0, s);
      case Byte b -> NativeMemory.putAny(slot, kP4JInt, 0, b);
      case Double d -> NativeMemory.putAnyDouble(slot, kP4JFloat, d);
      case Float f -> NativeMemory.putAnyDouble(slot, kP4JFloat, f);
      case String s -> frame.encodeString(slot, s);
      case byte[] bytes -> frame.encodeBytes(slot, bytes);
      default -> {
        // A native view first: a NativeList is also a List. The Java containers stay in this frame, so a nested
        // value costs the same stack per level as before the views were told apart here (DeepNestingTest).
        RuntimeAccess.ViewKind kind = RuntimeAccess.get().kindOf(value);
        if (kind != RuntimeAccess.ViewKind.NONE && encodeView(kind, value, slot, frame)) {
          return;
        }
        switch (value) {
          case List<?> list -> {
            long handle = Containers.buildList(list, this, "List<Object>", frame);
            frame.ownTemporary(handle);
            NativeMemory.putAny(slot, kP4JList, 0, handle);
          }
          case Map<?, ?> map -> {
            long handle = Containers.buildMap(map, this, this, "Map<Object, Object>", frame);
            frame.ownTemporary(handle);
            NativeMemory.putAny(slot, kP4JMap, 0, handle);
          }
          case Optional<?> optional -> {
            // Unwrapped in a loop: an Optional of an Optional ... is one value, whatever the depth.
            Object inner = optional.orElse(null);
            while (inner instanceof Optional<?> nested) {
              inner = nested.orElse(null);
            }
            encode(inner, slot, frame);
          }
          case MemorySegment segment when segment.isNative() ->
              NativeMemory.putAny(slot, kP4JOpaquePtr, 0, segment.address());
          default -> {
            String sessionObject = ObjectHandles.describeSessionObject(value);
            throw new ConversionFailure(ConversionFailure.Kind.TYPE, sessionObject != null
                ? sessionObject + SESSION_OBJECT_ADVICE
                : "a " + value.getClass().getTypeName() + ", which has no native representation"
                    + " (supported: null, Boolean, Byte, Short, Integer, Long, Float, Double, String, byte[], native"
                    + " objects, List, Map, Optional, native MemorySegment)");
          }
        }
      }
    }
  }

  /** Writes a native view; false for a closure that is not a view of a native function (a Java value, then). */
  private static boolean encodeView(RuntimeAccess.ViewKind kind, Object value, long slot, Frame frame) {
    switch (kind) {
      case NDARRAY -> NDArrayCodec.NDARRAY.encode(value, slot, frame);
      case FUNCTION, OBJECT -> ObjectHandles.encode(value, "Object", slot, frame);
      case LIST, MAP -> ObjectHandles.encodeContainer(value, slot, frame);
      case CLOSURE -> {
        Object function = ClosureViews.functionOf(value);
        if (function == null) {
          return false;
        }
        ObjectHandles.encode(function, "Object", slot, frame);
      }
      case NONE -> {
        return false;
      }
    }
    return true;
  }

  @Override
  public Object decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    return switch (type) {
      case kP4JNone -> null;
      case kP4JInt -> NativeMemory.anyPayload(any);
      case kP4JBool -> NativeMemory.anyPayload(any) != 0;
      case kP4JFloat -> NativeMemory.anyDouble(any);
      case kP4JOpaquePtr -> MemorySegment.ofAddress(NativeMemory.anyPayload(any));
      case kP4JStrView, kP4JString -> StringCodec.STRING.decode(any, owned);
      case kP4JBytesView, kP4JBytes -> BytesCodec.BYTES.decode(any, owned);
      case kP4JFunction -> FunctionCodec.PACKED_FUNCTION.decode(any, owned);
      case kP4JList -> RuntimeAccess.get().newNativeList(keep(NativeMemory.anyPayload(any), owned), this);
      case kP4JMap -> RuntimeAccess.get().newNativeMap(keep(NativeMemory.anyPayload(any), owned), this, this);
      case kP4JNDArray, kP4JDLTensorPtr -> NDArrayCodec.NDARRAY.decode(any, owned);
      default -> {
        if (!Values.isObject(type)) {
          throw new ConversionFailure(ConversionFailure.Kind.TYPE, "a " + Values.typeName(type)
              + " value, which has no Java representation as Object");
        }
        TypeView.Factory factory = TypeView.forAnyObject(type);
        long handle = keep(NativeMemory.anyPayload(any), owned);
        if (factory == null) {
          yield RuntimeAccess.get().newNativeObject(handle);
        }
        try {
          yield factory.make(handle, handle != 0 ? NativeMemory.objectTypeIndex(handle) : 0);
        } catch (RuntimeException | Error e) {
          releaseIfOwned(handle, !owned); // a failed factory leaves the reference with us: the caller keeps its own
          throw e;
        }
      }
    };
  }
}
