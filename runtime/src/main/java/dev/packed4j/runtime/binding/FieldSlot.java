package dev.packed4j.runtime.binding;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JFieldInt32;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JFieldInt64;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JFieldUInt64;

import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
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
 * A field of an {@link ObjectType}, read by generated getters and written by generated setters:
 *
 * <pre>{@code
 * private static final class Fields {
 *   static final FieldSlot PRICE = TYPE.field("price", FieldKind.INT64);
 * }
 * @Override public long price() { return Fields.PRICE.readLong(this); }
 * @Override public void price(long price) { Fields.PRICE.writeLong(this, price); }
 * }</pre>
 *
 * <p>On the first read the field is looked up in the native metadata and its kind checked (an AttributeError
 * listing the fields when there is none, a TypeError naming type, field and both kinds when the kind differs).
 * Then {@code readInt}, {@code readLong}, {@code readDouble} and {@code readBoolean} read the object's memory at
 * the recorded offset, with no native call; {@code readString} and {@code readObject} make one call
 * ({@code P4JObjectGetField}). The writes mirror them: a number is one store at the offset, a string or an object
 * one call ({@code P4JObjectSetField}) that writes the value under the object's field lock; only a field the type's
 * object definition declares with {@code def_rw} may be written (else a ValueError naming the type and the field).
 * Reading or writing a closed object throws {@link IllegalStateException}; a close on another
 * thread during a read never frees the memory under it (the plain reads go through the epoch segment of
 * {@code ReleaseEpochs}, the native reads hold a pin, the native writes hold the handle as a direct call does).
 */
public final class FieldSlot {
  private final ObjectType<?> type;
  private final String name;
  private final FieldKind kind;
  private final CallTarget target;
  private final CallTarget writeTarget;
  /** Byte offset from the handle; -1 until resolved. Written last, after the two fields below. */
  private volatile long offset = -1;
  private int nativeKind;
  private int fieldIndex;
  /**
   * What a setter stores: the native kind of a field the type's object definition declares writable (def_rw), or
   * {@link #READ_ONLY}; written before {@link #offset}, so a setter decides with one comparison.
   */
  private int storeKind = READ_ONLY;

  private static final int READ_ONLY = -1;
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
    this.writeTarget = CallTarget.operation(type.typeKey() + "." + name, "value");
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
   * Writes an {@code int32_t} field of a mutable field, a store into the object's memory with no native call.
   *
   * @param self the object written (open)
   * @param value the new value
   * @throws dev.packed4j.runtime.Packed4jException ValueError naming the type and the field when it is read-only
   */
  public void writeInt(ObjectRef self, int value) {
    writeLong(self, value);
  }

  /**
   * Writes a mutable {@code int64_t}, {@code int32_t} or {@code uint64_t} field with one store into the object's
   * memory, no native call. A uint64 takes the bit pattern of a non-negative {@code long}.
   *
   * @param self the object written (open)
   * @param value the new value
   * @throws dev.packed4j.runtime.Packed4jException ValueError naming the type and the field when it is read-only, or when the value
   *     does not fit an int32 field or is negative for a uint64 field
   */
  public void writeLong(ObjectRef self, long value) {
    MemorySegment memory = ReleaseEpochs.memory();
    long handle = RuntimeAccess.get().handleForUnpinnedRead(self); // after the epoch
    long at = handle + resolvedOffset(self,
        kind == FieldKind.INT32 || kind == FieldKind.INT64 || kind == FieldKind.UINT64, "writeLong");
    int fieldKind = storeKind; // decided once, when the field was resolved: an int64 field takes any long unchecked
    if (fieldKind != kP4JFieldInt64 && !fits(fieldKind, value)) {
      throw unwritable(fieldKind, value);
    }
    boolean interrupted = Thread.currentThread().isInterrupted();
    try {
      if (fieldKind == kP4JFieldInt32) {
        memory.set(ValueLayout.JAVA_INT_UNALIGNED, at, (int) value);
      } else {
        memory.set(ValueLayout.JAVA_LONG_UNALIGNED, at, value);
      }
    } catch (IllegalStateException epochEnded) {
      ReleaseEpochs.epochEnded(interrupted);
      writeLong(self, value); // the epoch ended during the store: store again, or throw if self was closed
    } finally {
      Reference.reachabilityFence(self);
    }
  }

  /**
   * Writes a mutable {@code double} field with one store, no native call.
   *
   * @param self the object written (open)
   * @param value the new value
   * @throws dev.packed4j.runtime.Packed4jException ValueError naming the type and the field when it is read-only
   */
  public void writeDouble(ObjectRef self, double value) {
    MemorySegment memory = ReleaseEpochs.memory();
    long handle = RuntimeAccess.get().handleForUnpinnedRead(self); // after the epoch
    long at = handle + writableOffset(self, kind == FieldKind.FLOAT64, "writeDouble");
    boolean interrupted = Thread.currentThread().isInterrupted();
    try {
      memory.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, value);
    } catch (IllegalStateException epochEnded) {
      ReleaseEpochs.epochEnded(interrupted);
      writeDouble(self, value);
    } finally {
      Reference.reachabilityFence(self);
    }
  }

  /**
   * Writes a mutable {@code bool} field with one store, no native call.
   *
   * @param self the object written (open)
   * @param value the new value
   * @throws dev.packed4j.runtime.Packed4jException ValueError naming the type and the field when it is read-only
   */
  public void writeBoolean(ObjectRef self, boolean value) {
    MemorySegment memory = ReleaseEpochs.memory();
    long handle = RuntimeAccess.get().handleForUnpinnedRead(self); // after the epoch
    long at = handle + writableOffset(self, kind == FieldKind.BOOL, "writeBoolean");
    boolean interrupted = Thread.currentThread().isInterrupted();
    try {
      memory.set(ValueLayout.JAVA_BYTE, at, (byte) (value ? 1 : 0));
    } catch (IllegalStateException epochEnded) {
      ReleaseEpochs.epochEnded(interrupted);
      writeBoolean(self, value);
    } finally {
      Reference.reachabilityFence(self);
    }
  }

  /**
   * Writes a mutable {@code std::string} field with one native call ({@code P4JObjectSetField}), which writes the
   * value under the object's field lock: a concurrent reader sees the old or the new string whole.
   *
   * @param self the object written (open)
   * @param value the new value, not null
   * @throws dev.packed4j.runtime.Packed4jException ValueError naming the type and the field when it is read-only or the value is null
   */
  public void writeString(ObjectRef self, String value) {
    // No call frame: the value's UTF-8 span and its kP4JStrView argument in scratch memory inside a mark, as a
    // typed entry's String argument is passed; the object held as in write().
    ReleaseEpochs.HeldHandles held = ThreadStack.currentHeldHandles();
    int depth = held.depth();
    ThreadStack stack = ThreadStack.current();
    long mark = stack.markScratch();
    try {
      long handle = RuntimeAccess.get().heldHandle(self, held);
      writableOffset(self, kind == FieldKind.STRING, "writeString");
      if (value == null) { // the call frame's message (Frame.put), after the same checks
        throw new NullPointerException(writeTarget.describeArgument(0) + " is null; a String argument must not be"
            + " null (" + StringCodec.STRING.nullHint() + ")");
      }
      long argument = stack.allocateScratch(16);
      stack.putStringView(argument, value);
      Errors.check(CApi.P4JObjectSetField(handle, fieldIndex, argument), null);
    } catch (ConversionFailure failure) {
      throw failure.toException(writeTarget.describeArgument(0), writeTarget.exceptionFunctionName());
    } finally {
      stack.releaseScratch(mark);
      held.restore(depth);
      Reference.reachabilityFence(self);
    }
  }

  /**
   * Writes a mutable object field with one native call ({@code P4JObjectSetField}): the field takes a reference
   * of its own to the new object and releases the old one once, after the swap.
   *
   * @param <T> the Java type
   * @param self the object written (open)
   * @param codec the codec of the field's Java type
   * @param value the new object, or null for none
   * @throws dev.packed4j.runtime.Packed4jException ValueError naming the type and the field when it is read-only; TypeError when the
   *     object is not of the field's declared type
   */
  public <T> void writeObject(ObjectRef self, Codec<T> codec, T value) {
    write(self, kind == FieldKind.OBJECT || kind == FieldKind.STRING, "writeObject", Codecs.implementation(codec),
        value);
  }

  private <T> void write(ObjectRef self, boolean kindMatches, String method, ValueCodec<T> codec, T value) {
    // Held, not pinned (two plain stores instead of two atomic operations): a close on another thread defers the
    // release until the call has returned, as for an object passed to a typed entry (ReleaseEpochs.HeldHandles).
    ReleaseEpochs.HeldHandles held = ThreadStack.currentHeldHandles();
    int depth = held.depth();
    try (Frame frame = ThreadStack.current().push(writeTarget, 1)) {
      long handle = RuntimeAccess.get().heldHandle(self, held);
      writableOffset(self, kindMatches, method);
      if (value == null && kind == FieldKind.OBJECT) {
        NativeMemory.putLong(frame.slot(0), 0); // None: an object field's "no object"
        NativeMemory.putLong(frame.slot(0) + 8, 0);
      } else {
        frame.put(0, codec, value);
      }
      Errors.check(CApi.P4JObjectSetField(handle, fieldIndex, frame.arguments()), null);
    } finally {
      held.restore(depth);
      Reference.reachabilityFence(self);
    }
  }

  /** Whether {@code value} fits a writable field of {@code storeKind} (false for a read-only field, -1). */
  private static boolean fits(int storeKind, long value) {
    return storeKind == kP4JFieldInt32 ? (int) value == value : storeKind == kP4JFieldUInt64 && value >= 0;
  }

  /** The error of a write {@link #fits} refused: a read-only field, or a value out of the field's range. */
  private RuntimeException unwritable(int storeKind, long value) {
    if (storeKind == READ_ONLY) {
      return readOnlyError();
    }
    return Failures.error(ErrorKind.VALUE_ERROR, type.typeKey() + "." + name + ": " + value + " does not fit in "
        + TypeInfo.FieldInfo.kindName(storeKind) + " (written by " + type.javaType().getSimpleName() + ")", null);
  }

  private RuntimeException readOnlyError() {
    return Failures.error(ErrorKind.VALUE_ERROR, "field '" + name + "' of type " + type.typeKey()
        + " is read-only (written by " + type.javaType().getSimpleName() + "): declare it with def_rw in the"
        + " type's object definition (P4J_REGISTER_OBJECT_DEF) to make it writable", null);
  }

  /** The offset of a field this slot may write: resolved as a read resolves it, and declared mutable natively. */
  private long writableOffset(ObjectRef self, boolean kindMatches, String method) {
    long offset = resolvedOffset(self, kindMatches, method);
    if (storeKind == READ_ONLY) {
      throw readOnlyError();
    }
    return offset;
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
    storeKind = field.mutable() ? field.kind() : READ_ONLY;
    ownerType = typeIndex;
    offset = field.offset();
    return field.offset();
  }

  @Override
  public String toString() {
    return type.typeKey() + "." + name + " (" + kind + ")";
  }
}
