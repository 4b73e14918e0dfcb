package dev.packed4j.runtime.binding;

import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.Packed4jException;

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
 * <p>The field is looked up in the native metadata when the slot is made, at the first use of the generated
 * class's fields (an object of the type exists by then). Its offset, kind and mutability are kept as constants that
 * the JIT folds into each accessor, so a compiled getter or setter of a number is the object's checks and one load
 * or store, with no native call. {@code readString} and {@code readObject} make one call
 * ({@code P4JObjectGetField}); {@code writeString} and {@code writeObject} one call ({@code P4JObjectSetField})
 * that writes the value under the object's field lock. Only a field the type's object definition declares with
 * {@code def_rw} may be written (else a ValueError naming the type and the field). A field that is missing or of
 * another kind fails at each use: an AttributeError listing the fields, or a TypeError naming the type, the field
 * and both kinds. A slot made before its type's library was loaded resolves the field at its first use after the load.
 *
 * <p>Reading or writing a closed object throws {@link IllegalStateException}. A close on another thread during a
 * read never frees the memory under it: the plain reads go through the epoch segment of {@code ReleaseEpochs}, the
 * native reads hold a pin, and the writes hold the handle as a direct call does.
 */
public sealed interface FieldSlot permits ObjectFieldSlot {
  /** {@return the field name} */
  String name();

  /** {@return the kind the accessor expects} */
  FieldKind kind();

  /**
   * An {@code int32_t} field.
   *
   * @param self the object read (open)
   * @return the value
   */
  int readInt(ObjectRef self);

  /**
   * An {@code int64_t}, {@code int32_t} (widened) or {@code uint64_t} field. Java has no unsigned long: a uint64
   * is returned as its bit pattern (read it with {@link Long#toUnsignedString(long)},
   * {@link Long#compareUnsigned(long, long)}), which {@link #writeLong} takes back. A call converts a uint64 value
   * instead (an argument, a result, {@code NativeObject.get}): range-checked, a ValueError above 2^63-1.
   *
   * @param self the object read (open)
   * @return the value (a uint64 as its bit pattern)
   */
  long readLong(ObjectRef self);

  /**
   * A {@code double} field.
   *
   * @param self the object read (open)
   * @return the value
   */
  double readDouble(ObjectRef self);

  /**
   * A {@code bool} field.
   *
   * @param self the object read (open)
   * @return the value
   */
  boolean readBoolean(ObjectRef self);

  /**
   * A {@code std::string} field, with one native call.
   *
   * @param self the object read (open)
   * @return the value
   */
  String readString(ObjectRef self);

  /**
   * An object or container field, converted by {@code codec}, with one native call.
   *
   * @param <T> the Java type
   * @param self the object read (open)
   * @param codec the codec of the field's Java type
   * @return the converted value; an object (an {@code NDArray} of a tensor field too) is a new reference the caller
   *     owns, null when the field is unset; an unset (null) container field read as a {@code List} or {@code Map}
   *     copy is an empty one, as C++ reads it
   */
  <T> T readObject(ObjectRef self, Codec<T> codec);

  /**
   * Writes a mutable integer field from an {@code int}, a store into the object's memory with no native call: as
   * {@link #writeLong} writes the value widened to {@code long}, so through a slot of kind {@code INT64} (what a
   * generated {@code int} setter uses) an int64 or uint64 field too; a negative value sign-extends, and a uint64
   * field takes that bit pattern.
   *
   * @param self the object written (open)
   * @param value the new value
   * @throws Packed4jException ValueError naming the type and the field when it is read-only
   */
  void writeInt(ObjectRef self, int value);

  /**
   * Writes a mutable {@code int64_t}, {@code int32_t} or {@code uint64_t} field with one store into the object's
   * memory, no native call. A uint64 field takes the value's bit pattern, as {@link #readLong} returns it
   * ({@code -1} writes 2^64-1).
   *
   * @param self the object written (open)
   * @param value the new value
   * @throws Packed4jException ValueError naming the type and the field when it is read-only, or when the value
   *     does not fit an int32 field
   */
  void writeLong(ObjectRef self, long value);

  /**
   * Writes a mutable {@code double} field with one store, no native call.
   *
   * @param self the object written (open)
   * @param value the new value
   * @throws Packed4jException ValueError naming the type and the field when it is read-only
   */
  void writeDouble(ObjectRef self, double value);

  /**
   * Writes a mutable {@code bool} field with one store, no native call.
   *
   * @param self the object written (open)
   * @param value the new value
   * @throws Packed4jException ValueError naming the type and the field when it is read-only
   */
  void writeBoolean(ObjectRef self, boolean value);

  /**
   * Writes a mutable {@code std::string} field with one native call ({@code P4JObjectSetField}), which writes the
   * value under the object's field lock: a concurrent reader sees the old or the new string whole.
   *
   * @param self the object written (open)
   * @param value the new value, not null
   * @throws Packed4jException ValueError naming the type and the field when it is read-only
   * @throws NullPointerException when {@code value} is null, naming the field's setter
   */
  void writeString(ObjectRef self, String value);

  /**
   * Writes a mutable object field with one native call ({@code P4JObjectSetField}): the field takes a reference
   * of its own to the new object and releases the old one once, after the swap.
   *
   * @param <T> the Java type
   * @param self the object written (open)
   * @param codec the codec of the field's Java type
   * @param value the new object, or null for none
   * @throws Packed4jException ValueError naming the type and the field when it is read-only, or when an
   *     {@code NDArray} lies over Java memory ({@code NDArray.wrap}, or a view of one), which the object could
   *     outlive; TypeError when the object is not of the field's declared type
   */
  <T> void writeObject(ObjectRef self, Codec<T> codec, T value);
}
