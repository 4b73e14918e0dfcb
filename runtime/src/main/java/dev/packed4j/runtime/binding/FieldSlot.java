package dev.packed4j.runtime.binding;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JFieldInt32;

import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.objects.TypeInfo;
import dev.packed4j.runtime.internal.objects.TypeInfos;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.Registries;
import dev.packed4j.runtime.internal.values.RuntimeAccess;
import dev.packed4j.runtime.internal.values.StringCodec;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.ValueCodec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.util.List;

/**
 * A field of an {@link ObjectType}, read by generated accessors:
 *
 * <pre>{@code
 * private static final class Fields {
 *   static final FieldSlot PRICE = TYPE.field("price", FieldKind.INT64);
 * }
 * @Override public long price() { return Fields.PRICE.readLong(this); }
 * }</pre>
 *
 * <p>On the first read the field is looked up in the native metadata and its kind checked (an AttributeError
 * listing the fields when there is none, a TypeError naming type, field and both kinds when the kind differs).
 * Then {@code readInt}, {@code readLong}, {@code readDouble} and {@code readBoolean} read the object's memory at
 * the recorded offset, with no native call; {@code readString} and {@code readObject} make one call
 * ({@code P4JObjectGetField}). Reading a closed object throws {@link IllegalStateException}; a close on another
 * thread during a read never frees the memory under it (the plain reads go through the epoch segment of
 * {@code ReleaseEpochs}, the native calls hold a pin).
 */
public final class FieldSlot {
  private final ObjectType<?> type;
  private final String name;
  private final FieldKind kind;
  private final CallTarget target;
  /** Byte offset from the handle; -1 until resolved. Written last, after the two fields below. */
  private volatile long offset = -1;
  private int nativeKind;
  private int fieldIndex;
  /** The native index of {@link #type}, written before {@link #offset}. */
  private int ownerType = -1;
  /**
   * The last type index other than {@link #ownerType} found to derive from it: a derived type read through the
   * slot of its base checks natively once, not at every read. A race only costs a repeated check.
   */
  private int derivedType = -1;

  FieldSlot(ObjectType<?> type, String name, FieldKind kind) {
    this.type = type;
    this.name = name;
    this.kind = kind;
    this.target = CallTarget.operation(type.typeKey() + "." + name);
  }

  /** {@return the field name} */
  public String name() {
    return name;
  }

  /** {@return the kind the accessor expects} */
  public FieldKind kind() {
    return kind;
  }

  /**
   * An {@code int32_t} field.
   *
   * @param self the object read (open)
   * @return the value
   */
  public int readInt(ObjectRef self) {
    MemorySegment memory = ReleaseEpochs.memory(); // before the handle: see ReleaseEpochs
    long handle = RuntimeAccess.get().handleForUnpinnedRead(self); // after the epoch
    long at = handle + resolvedOffset(self, kind == FieldKind.INT32, "readInt");
    boolean interrupted = Thread.currentThread().isInterrupted(); // see ReleaseEpochs.epochEnded
    try {
      return memory.get(ValueLayout.JAVA_INT_UNALIGNED, at);
    } catch (IllegalStateException epochEnded) {
      ReleaseEpochs.epochEnded(interrupted);
      return readInt(self); // the epoch ended during the read: read again, or throw if self was closed meanwhile
    } finally {
      Reference.reachabilityFence(self);
    }
  }

  /**
   * An {@code int64_t}, {@code int32_t} (widened) or {@code uint64_t} field. Java has no unsigned long: a uint64
   * is returned as its bit pattern (read it with {@link Long#toUnsignedString(long)},
   * {@link Long#compareUnsigned(long, long)}), the convention the C++ side uses for uint64 arguments too.
   *
   * @param self the object read (open)
   * @return the value (a uint64 as its bit pattern)
   */
  public long readLong(ObjectRef self) {
    MemorySegment memory = ReleaseEpochs.memory();
    long handle = RuntimeAccess.get().handleForUnpinnedRead(self); // after the epoch
    long at = handle + resolvedOffset(self,
        kind == FieldKind.INT32 || kind == FieldKind.INT64 || kind == FieldKind.UINT64, "readLong");
    boolean interrupted = Thread.currentThread().isInterrupted();
    try {
      return nativeKind == kP4JFieldInt32
          ? memory.get(ValueLayout.JAVA_INT_UNALIGNED, at)
          : memory.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
    } catch (IllegalStateException epochEnded) {
      ReleaseEpochs.epochEnded(interrupted);
      return readLong(self);
    } finally {
      Reference.reachabilityFence(self);
    }
  }

  /**
   * A {@code double} field.
   *
   * @param self the object read (open)
   * @return the value
   */
  public double readDouble(ObjectRef self) {
    MemorySegment memory = ReleaseEpochs.memory();
    long handle = RuntimeAccess.get().handleForUnpinnedRead(self); // after the epoch
    long at = handle + resolvedOffset(self, kind == FieldKind.FLOAT64, "readDouble");
    boolean interrupted = Thread.currentThread().isInterrupted(); // see ReleaseEpochs.epochEnded
    try {
      return memory.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at);
    } catch (IllegalStateException epochEnded) {
      ReleaseEpochs.epochEnded(interrupted);
      return readDouble(self);
    } finally {
      Reference.reachabilityFence(self);
    }
  }

  /**
   * A {@code bool} field.
   *
   * @param self the object read (open)
   * @return the value
   */
  public boolean readBoolean(ObjectRef self) {
    MemorySegment memory = ReleaseEpochs.memory();
    long handle = RuntimeAccess.get().handleForUnpinnedRead(self); // after the epoch
    long at = handle + resolvedOffset(self, kind == FieldKind.BOOL, "readBoolean");
    boolean interrupted = Thread.currentThread().isInterrupted();
    try {
      return memory.get(ValueLayout.JAVA_BYTE, at) != 0;
    } catch (IllegalStateException epochEnded) {
      ReleaseEpochs.epochEnded(interrupted);
      return readBoolean(self);
    } finally {
      Reference.reachabilityFence(self);
    }
  }

  /**
   * A {@code std::string} field, with one native call.
   *
   * @param self the object read (open)
   * @return the value
   */
  public String readString(ObjectRef self) {
    return read(self, kind == FieldKind.STRING, "readString", StringCodec.STRING);
  }

  /**
   * An object or container field, converted by {@code codec}, with one native call.
   *
   * @param <T> the Java type
   * @param self the object read (open)
   * @param codec the codec of the field's Java type
   * @return the converted value; an object is a new reference the caller owns
   */
  public <T> T readObject(ObjectRef self, Codec<T> codec) {
    return read(self, kind == FieldKind.OBJECT || kind == FieldKind.STRING, "readObject",
        Codecs.implementation(codec));
  }

  private <T> T read(ObjectRef self, boolean kindMatches, String method, ValueCodec<T> codec) {
    ReleaseEpochs.Pin pin = RuntimeAccess.get().pinObject(self); // a close on another thread waits for the call
    try (Frame frame = ThreadStack.current().push(target, 0)) {
      resolvedOffset(self, kindMatches, method);
      Errors.check(CApi.P4JObjectGetField(pin.pinnedHandle(), fieldIndex, frame.result()), null);
      frame.resultWritten();
      return frame.returnValue(codec);
    } finally {
      pin.unpin();
      Reference.reachabilityFence(self);
    }
  }

  /**
   * The field's offset, once {@code self} is known to be an object of this slot's type or of a type derived from
   * it: an offset is only meaningful in the memory of such an object.
   */
  private long resolvedOffset(ObjectRef self, boolean kindMatches, String method) {
    if (!kindMatches) {
      throw new IllegalStateException(method + " cannot read field " + name + " of " + type.typeKey()
          + ", which the accessor declares as " + kind);
    }
    long resolved = offset;
    if (resolved < 0) {
      resolved = resolve();
    }
    int selfType = RuntimeAccess.get().typeIndex(self);
    if (selfType != ownerType && selfType != derivedType) {
      checkDerived(self, selfType, method);
    }
    return resolved;
  }

  private void checkDerived(ObjectRef self, int selfType, String method) {
    if (!TypeInfos.isInstanceOf(selfType, ownerType)) {
      throw new IllegalArgumentException(method + " of field " + name + " of " + type.typeKey() + " was given a "
          + self.typeKey() + " object, which is not a " + type.typeKey());
    }
    derivedType = selfType;
  }

  private synchronized long resolve() {
    if (offset >= 0) {
      return offset;
    }
    int typeIndex = type.view.typeIndex();
    TypeInfo info = TypeInfos.info(typeIndex);
    TypeInfo.FieldInfo field = info.field(name);
    if (field == null) {
      info = TypeInfos.fresh(typeIndex);
      field = info.field(name);
    }
    if (field == null) {
      List<String> near = Registries.nearNames(name, info.fieldNames());
      throw Failures.error(ErrorKind.ATTRIBUTE_ERROR, "type " + info.key() + " has no field '" + name
          + "' (read by " + type.javaType().getSimpleName() + "); its fields are " + info.fieldNames()
          + (near.isEmpty() ? "" : "; did you mean " + String.join(", ", near) + "?"), null);
    }
    if (!kind.accepts(field.kind())) {
      throw Failures.error(ErrorKind.TYPE_ERROR, "field '" + name + "' of type " + info.key() + " is "
          + field.kindName() + " natively, but " + type.javaType().getSimpleName() + " reads it as "
          + TypeInfo.FieldInfo.kindName(kind.nativeKind()) + ": change the accessor's return type", null);
    }
    nativeKind = field.kind();
    fieldIndex = field.index();
    ownerType = typeIndex;
    offset = field.offset();
    return field.offset();
  }

  @Override
  public String toString() {
    return type.typeKey() + "." + name + " (" + kind + ")";
  }
}
