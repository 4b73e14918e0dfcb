package dev.packed4j.runtime.binding;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JFieldInt32;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JFieldInt64;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JFieldUInt64;

import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.Packed4jException;
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
import dev.packed4j.runtime.internal.values.Containers;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.NDArrayCodec;
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
 * The {@link FieldSlot} of a generated class: a record, because HotSpot's JIT trusts the final fields of a record
 * as it does a {@code static final} field. A slot sits in a {@code static final} field of the generated class, so
 * its {@link Layout} (resolved when the slot is made) and everything in it are constants in compiled code: the
 * accessor's kind checks, the read-only check and the type comparison fold away or into one compare with a
 * constant, and a numeric getter or setter is the object's checks and one load or store. A field of an ordinary
 * class would be loaded and tested at every access instead.
 *
 * @param type the type the field belongs to
 * @param name the field's name
 * @param kind the kind the generated accessors read and write
 * @param target the call target that names the field in a read's errors
 * @param writeTarget the call target that names the value in a write's errors
 * @param layout where the field is and what may be stored, or null when it could not be resolved when the slot
 *     was made (each use then tries again, and throws what the resolution throws, until it succeeds)
 * @param lateLayout one element: the layout resolved by a use after the slot was made without one, so that only the
 *     uses before it resolve; a race only resolves twice (a {@link Layout} is immutable, safe to publish so)
 * @param derivedType one element: the last type index other than the owner's found to derive from it, so that an
 *     object of a derived type read through its base's slot is checked natively once; a race only repeats a check
 */
record ObjectFieldSlot(ObjectType<?> type, String name, FieldKind kind, CallTarget target, CallTarget writeTarget,
    Layout layout, Layout[] lateLayout, int[] derivedType) implements FieldSlot {

  /** A {@link Layout#storeKind} of a field the type's object definition does not declare writable. */
  private static final int READ_ONLY = -1;

  /**
   * A resolved field.
   *
   * @param offset the byte offset from the object's handle
   * @param nativeKind the field's {@code P4JFieldKind}
   * @param fieldIndex the field's index for {@code P4JObjectGetField} and {@code P4JObjectSetField}
   * @param storeKind what a setter stores: {@code nativeKind} when the field is mutable (def_rw), else
   *     {@link #READ_ONLY}
   * @param ownerType the native index of the slot's type
   */
  record Layout(long offset, int nativeKind, int fieldIndex, int storeKind, int ownerType) {}

  /** A slot of {@code type}'s field {@code name}, resolved now if the type's library is loaded. */
  static ObjectFieldSlot of(ObjectType<?> type, String name, FieldKind kind) {
    Layout layout;
    try {
      layout = resolve(type, name, kind);
    } catch (RuntimeException unresolved) {
      // Not an error yet: the library may be loaded later, and a missing field fails at each use, where the
      // accessor that reads it is in the stack trace.
      layout = null;
    }
    return new ObjectFieldSlot(type, name, kind, CallTarget.operation(type.typeKey() + "." + name),
        CallTarget.operation(type.typeKey() + "." + name, "value"), layout, new Layout[1], new int[] {-1});
  }

  @Override
  public int readInt(ObjectRef self) {
    MemorySegment memory = ReleaseEpochs.memory(); // before the handle: see ReleaseEpochs
    long handle = unpinnedHandle(self); // after the epoch
    long at = handle + checked(self, kind == FieldKind.INT32, "readInt").offset;
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

  @Override
  public long readLong(ObjectRef self) {
    MemorySegment memory = ReleaseEpochs.memory();
    long handle = unpinnedHandle(self); // after the epoch
    Layout field = checked(self, kind == FieldKind.INT32 || kind == FieldKind.INT64 || kind == FieldKind.UINT64,
        "readLong");
    long at = handle + field.offset;
    boolean interrupted = Thread.currentThread().isInterrupted();
    try {
      return field.nativeKind == kP4JFieldInt32
          ? memory.get(ValueLayout.JAVA_INT_UNALIGNED, at)
          : memory.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
    } catch (IllegalStateException epochEnded) {
      ReleaseEpochs.epochEnded(interrupted);
      return readLong(self);
    } finally {
      Reference.reachabilityFence(self);
    }
  }

  @Override
  public double readDouble(ObjectRef self) {
    MemorySegment memory = ReleaseEpochs.memory();
    long handle = unpinnedHandle(self); // after the epoch
    long at = handle + checked(self, kind == FieldKind.FLOAT64, "readDouble").offset;
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

  @Override
  public boolean readBoolean(ObjectRef self) {
    MemorySegment memory = ReleaseEpochs.memory();
    long handle = unpinnedHandle(self); // after the epoch
    long at = handle + checked(self, kind == FieldKind.BOOL, "readBoolean").offset;
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

  @Override
  public String readString(ObjectRef self) {
    return read(self, kind == FieldKind.STRING, "readString", StringCodec.STRING);
  }

  @Override
  public <T> T readObject(ObjectRef self, Codec<T> codec) {
    ValueCodec<T> implementation = Codecs.implementation(codec);
    T value = read(self, kind == FieldKind.OBJECT || kind == FieldKind.STRING, "readObject", implementation);
    return value != null ? value : implementation.nullFieldValue();
  }

  private <T> T read(ObjectRef self, boolean kindMatches, String method, ValueCodec<T> codec) {
    ReleaseEpochs.Pin pin = pin(self); // a close on another thread waits for the call
    try (Frame frame = ThreadStack.current().push(target, 0)) {
      Layout field = checked(self, kindMatches, method);
      Errors.check(CApi.P4JObjectGetField(pin.pinnedHandle(), field.fieldIndex, frame.result()), null);
      frame.resultWritten();
      return frame.returnValue(codec);
    } finally {
      pin.unpin();
      Reference.reachabilityFence(self);
    }
  }

  @Override
  public void writeInt(ObjectRef self, int value) {
    writeLong(self, value);
  }

  /**
   * One store, the handle held as a direct call holds an object argument ({@link ReleaseEpochs.HeldHandles}: two
   * plain stores into the thread's holder), through {@link NativeMemory#ALL}, a constant segment whose checks the JIT
   * folds away. The epoch segment the reads go through costs a check of its class, bounds, read-only flag and
   * session at every access, about 0.3 ns more than the hold here; a read keeps it because its goal is met and a
   * getter then needs no holder.
   */
  @Override
  public void writeLong(ObjectRef self, long value) {
    ReleaseEpochs.HeldHandles held = ThreadStack.currentHeldHandles();
    int depth = held.depth();
    try {
      long handle = heldHandle(self, held);
      Layout field = checked(self, kind == FieldKind.INT32 || kind == FieldKind.INT64 || kind == FieldKind.UINT64,
          "writeLong");
      int storeKind = field.storeKind; // an int64 field takes any long unchecked, a uint64 one its bit pattern
      if (storeKind != kP4JFieldInt64 && storeKind != kP4JFieldUInt64 && !fits(storeKind, value)) {
        throw unwritable(storeKind, value);
      }
      if (storeKind == kP4JFieldInt32) {
        NativeMemory.putInt(handle + field.offset, (int) value);
      } else {
        NativeMemory.putLong(handle + field.offset, value);
      }
    } finally {
      held.restore(depth);
      Reference.reachabilityFence(self);
    }
  }

  @Override
  public void writeDouble(ObjectRef self, double value) {
    ReleaseEpochs.HeldHandles held = ThreadStack.currentHeldHandles();
    int depth = held.depth();
    try {
      long handle = heldHandle(self, held);
      long at = handle + writable(self, kind == FieldKind.FLOAT64, "writeDouble").offset;
      NativeMemory.putDouble(at, value);
    } finally {
      held.restore(depth);
      Reference.reachabilityFence(self);
    }
  }

  @Override
  public void writeBoolean(ObjectRef self, boolean value) {
    ReleaseEpochs.HeldHandles held = ThreadStack.currentHeldHandles();
    int depth = held.depth();
    try {
      long handle = heldHandle(self, held);
      long at = handle + writable(self, kind == FieldKind.BOOL, "writeBoolean").offset;
      NativeMemory.putByte(at, (byte) (value ? 1 : 0));
    } finally {
      held.restore(depth);
      Reference.reachabilityFence(self);
    }
  }

  @Override
  public void writeString(ObjectRef self, String value) {
    // No call frame: the value's UTF-8 span and its kP4JStrView argument in scratch memory inside a mark, as a
    // typed entry's String argument is passed; the object held as in write().
    ReleaseEpochs.HeldHandles held = ThreadStack.currentHeldHandles();
    int depth = held.depth();
    ThreadStack stack = ThreadStack.current();
    long mark = stack.markScratch();
    try {
      long handle = heldHandle(self, held);
      Layout field = writable(self, kind == FieldKind.STRING, "writeString");
      if (value == null) { // after the same checks
        throw FunctionSite.nullFieldValue(type.typeKey(), name, String.class);
      }
      long argument = stack.allocateScratch(16);
      stack.putStringView(argument, value);
      setField(handle, field, argument);
    } catch (ConversionFailure failure) {
      throw failure.toException(writeTarget.describeArgument(0), writeTarget.exceptionFunctionName());
    } finally {
      stack.releaseScratch(mark);
      held.restore(depth);
      Reference.reachabilityFence(self);
    }
  }

  @Override
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
      long handle = heldHandle(self, held);
      Layout field = writable(self, kindMatches, method);
      // The field keeps a tensor (also one in a List or Map it holds), and the object may outlive the Java segment
      // under it: refused, not stored.
      String overJavaMemory = value == null ? null : Containers.tensorOverJavaMemory(value, codec);
      if (overJavaMemory != null) {
        throw NDArrayCodec.storedOverJavaMemory(writeTarget.describeArgument(0)
            + (overJavaMemory.isEmpty() ? "" : ": " + overJavaMemory));
      }
      if (value == null && kind == FieldKind.OBJECT) {
        NativeMemory.putLong(frame.slot(0), 0); // None: an object field's "no object"
        NativeMemory.putLong(frame.slot(0) + 8, 0);
      } else {
        frame.put(0, codec, value);
      }
      setField(handle, field, frame.arguments());
    } finally {
      held.restore(depth);
      Reference.reachabilityFence(self);
    }
  }

  /**
   * Sets the field to the value at {@code argument} by {@code P4JObjectSetField}. The native core refuses a value of
   * the wrong kind (an object where a container field's {@code Map} belongs); its error names the C function and
   * the field, and is rethrown naming this member as Java calls it, as every other setter error does
   * ({@code [TypeError] life.Node.tags(value): expected Map, got life.Node object}).
   */
  private void setField(long handle, Layout field, long argument) {
    if (CApi.P4JObjectSetField(handle, field.fieldIndex, argument) != 0) {
      Packed4jException error = Errors.takeRaised(null);
      String message = withoutPrefix(error.nativeMessage(), "P4JObjectSetField: ");
      // "field "x" of <the object's own type>: ", which is a subtype's key when the object is one.
      String fieldOf = "field \"" + name + "\" of ";
      int typeEnd = message.startsWith(fieldOf) ? message.indexOf(": ", fieldOf.length()) : -1;
      message = typeEnd < 0 ? message : message.substring(typeEnd + 2);
      throw Failures.newException(error.kind(), writeTarget.describeArgument(0) + ": " + message,
          error.nativeBacktrace(), null);
    }
  }

  private static String withoutPrefix(String message, String prefix) {
    return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
  }

  /** The handle for a read without a pin (see ObjectRef), or the closed object's error naming this member. */
  private long unpinnedHandle(ObjectRef self) {
    try {
      return RuntimeAccess.get().handleForUnpinnedRead(self);
    } catch (IllegalStateException closed) {
      throw closedMember(closed);
    }
  }

  /** The handle held for a write (see ReleaseEpochs.HeldHandles), or the closed object's error naming this member. */
  private long heldHandle(ObjectRef self, ReleaseEpochs.HeldHandles held) {
    try {
      return RuntimeAccess.get().heldHandle(self, held);
    } catch (IllegalStateException closed) {
      throw closedMember(closed);
    }
  }

  /** A pin for a native read, or the closed object's error naming this member. */
  private ReleaseEpochs.Pin pin(ObjectRef self) {
    try {
      return RuntimeAccess.get().pinObject(self);
    } catch (IllegalStateException closed) {
      throw closedMember(closed);
    }
  }

  /**
   * {@code closed}, the object's "is closed" error, with this member in front ({@code kv.Store.name: the kv.Store
   * object is closed; ...}), as a method's error names the method; a separate method keeps the accessors small.
   */
  private IllegalStateException closedMember(IllegalStateException closed) {
    return new IllegalStateException(type.typeKey() + "." + name + ": " + closed.getMessage(), closed);
  }

  /** Whether {@code value} fits a writable field of {@code storeKind} (false for a read-only field, -1). */
  private static boolean fits(int storeKind, long value) {
    return storeKind == kP4JFieldInt32 ? (int) value == value : storeKind != READ_ONLY;
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

  /** The layout of a field this slot may write: checked as a read checks it, and declared mutable natively. */
  private Layout writable(ObjectRef self, boolean kindMatches, String method) {
    Layout field = checked(self, kindMatches, method);
    if (field.storeKind == READ_ONLY) {
      throw readOnlyError();
    }
    return field;
  }

  /**
   * The field's layout, once {@code self} is known to be an object of this slot's type or of a type derived from
   * it: an offset is only meaningful in the memory of such an object.
   */
  private Layout checked(ObjectRef self, boolean kindMatches, String method) {
    if (!kindMatches) {
      throw new IllegalStateException(method + " cannot read field " + name + " of " + type.typeKey()
          + ", which the accessor declares as " + kind);
    }
    Layout field = layout;
    if (field == null) {
      field = resolveLate();
    }
    int selfType = RuntimeAccess.get().typeIndex(self);
    if (selfType != field.ownerType && selfType != derivedType[0]) {
      checkDerived(self, selfType, field.ownerType, method);
    }
    return field;
  }

  /** The layout of a slot made before its field could be resolved: resolved now, once, or the resolution's error. */
  private Layout resolveLate() {
    Layout field = lateLayout[0];
    if (field == null) {
      field = resolve(type, name, kind); // throws what kept it unresolved, unless the library is loaded now
      lateLayout[0] = field;
    }
    return field;
  }

  private void checkDerived(ObjectRef self, int selfType, int ownerType, String method) {
    if (!TypeInfos.isInstanceOf(selfType, ownerType)) {
      throw new IllegalArgumentException(method + " of field " + name + " of " + type.typeKey() + " was given a "
          + self.typeKey() + " object, which is not a " + type.typeKey());
    }
    derivedType[0] = selfType;
  }

  /** Looks {@code name} up in the native metadata of {@code type}, or throws the error its accessors report. */
  private static Layout resolve(ObjectType<?> type, String name, FieldKind kind) {
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
    return new Layout(field.offset(), field.kind(), field.index(), field.mutable() ? field.kind() : READ_ONLY,
        typeIndex);
  }

  @Override
  public String toString() {
    return type.typeKey() + "." + name + " (" + kind + ")";
  }
}
