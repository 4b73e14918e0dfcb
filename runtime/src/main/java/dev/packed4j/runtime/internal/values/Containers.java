package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
import dev.packed4j.runtime.internal.capi.P4JListCell;
import dev.packed4j.runtime.internal.capi.P4JMapCell;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds native lists and maps from Java collections, and copies native ones into immutable Java ones. */
public final class Containers {
  private Containers() {}

  /**
   * A new native list holding {@code values} (an owned handle). The values are written straight into the new
   * list's storage ({@code P4JListCreateWithCapacity}, then {@code P4JListAppendWritten}): no copy in between, and
   * for integers and floats, which need no owning, the native side does not read them again.
   */
  public static <E> long buildList(Collection<? extends E> values, ValueCodec<E> element, String javaType,
      Frame frame) {
    if (!element.nests()) {
      return buildListLevel(values, element, javaType, frame);
    }
    int[] depth = Nesting.enter();
    try {
      return buildListLevel(values, element, javaType, frame);
    } catch (RuntimeException failure) {
      throw Nesting.rethrow(depth, failure);
    } finally {
      Nesting.exit(depth);
    }
  }

  private static <E> long buildListLevel(Collection<? extends E> values, ValueCodec<E> element, String javaType,
      Frame frame) {
    int count = values.size();
    long out = frame.scratch(8, 8);
    Errors.check(CApi.P4JListCreateWithCapacity(count, out), frame.target().exceptionFunctionName());
    long handle = NativeMemory.getLong(out);
    try {
      long data = NativeMemory.getLong(NativeMemory.cell(handle) + P4JListCell.DATA);
      int written;
      boolean allPods;
      if (element instanceof IntegerCodec<?>) {
        written = writeNumbers(values, count, data, false, javaType);
        allPods = true;
      } else if (element instanceof FloatCodec<?>) {
        written = writeNumbers(values, count, data, true, javaType);
        allPods = true;
      } else {
        written = 0;
        allPods = true;
        boolean dynamic = element == AnyCodec.ANY;
        for (E value : values) {
          if (written == count) {
            break;
          }
          long slot = data + P4JAny.SIZE * written;
          if (dynamic && value instanceof Long number) {
            // What AnyCodec.encode writes for the commonest dynamic element, without its type switch.
            NativeMemory.putAny(slot, CApi.kP4JInt, 0, number);
          } else if (dynamic && value instanceof Double number) {
            NativeMemory.putAnyDouble(slot, CApi.kP4JFloat, number);
          } else {
            NativeMemory.putAny(slot, CApi.kP4JNone, 0, 0);
            if (value == null && !element.acceptsNull()) {
              throw nullElement(written, javaType);
            }
            try {
              element.encode(value, slot, frame);
            } catch (ConversionFailure failure) {
              throw failure.within("element " + written);
            } catch (ClassCastException unchecked) {
              throw ConversionFailure.wrongClass(value, element.javaType()).within("element " + written);
            }
            allPods &= NativeMemory.anyTypeIndex(slot) < CApi.kP4JDLTensorPtr;
          }
          written++;
        }
      }
      Errors.check(CApi.P4JListAppendWritten(handle, written, allPods ? 1 : 0),
          frame.target().exceptionFunctionName());
      return handle;
    } catch (Throwable failure) {
      // Nothing written became an element: the list holds no reference to anything the values point at.
      CApi.P4JObjectDecRef(handle);
      throw failure;
    }
  }

  /**
   * {@code values} as a typed entry's borrowed list word ({@code P4J_LIST_WORD_BORROWED}): a {@code P4JListCell} in
   * the scratch memory of {@code stack} (the caller holds a mark) over the values written after it, numbers as the
   * native list of {@link #buildList} holds them and Strings as {@code kP4JStrView}s of their UTF-8 bytes, also in
   * scratch memory. One pass over the values and no native call: the entry reads them during the call. The
   * failures are {@link #buildList}'s (a null element, a String too long for a view).
   *
   * @param <E> the element type
   * @param values the list's values
   * @param element an {@link IntegerCodec}, {@link FloatCodec} or {@link StringCodec}
   * @param javaType the list's Java type, for messages
   * @param stack the calling thread's stack, holding a scratch mark
   * @return the cell's address with the low bit set
   * @throws ConversionFailure as {@link #buildList}
   */
  public static <E> long borrowedList(Collection<? extends E> values, ValueCodec<E> element, String javaType,
      ThreadStack stack) {
    int count = values.size();
    long cell = stack.allocateScratch(P4JListCell.LAYOUT.byteSize() + P4JAny.SIZE * count);
    long data = cell + P4JListCell.LAYOUT.byteSize();
    int written;
    if (element instanceof IntegerCodec<?> && values.getClass() == ArrayList.class) {
      written = writeLongs((ArrayList<?>) values, count, data, javaType);
    } else if (element instanceof IntegerCodec<?>) {
      written = writeNumbers(values, count, data, false, javaType);
    } else if (element instanceof FloatCodec<?>) {
      written = writeNumbers(values, count, data, true, javaType);
    } else {
      written = 0;
      for (E value : values) {
        if (written == count) {
          break;
        }
        if (value == null) {
          throw nullElement(written, javaType);
        }
        if (!(value instanceof String)) {
          throw ConversionFailure.wrongClass(value, "String").within("element " + written);
        }
        try {
          long span = stack.putStringSpan((String) value);
          long length = NativeMemory.getLong(span + 8);
          Utf8.checkViewLength(length);
          NativeMemory.putAny(data + P4JAny.SIZE * written, CApi.kP4JStrView, (int) length,
              NativeMemory.getLong(span));
        } catch (ConversionFailure failure) {
          throw failure.within("element " + written);
        }
        written++;
      }
    }
    NativeMemory.putLong(cell + P4JListCell.DATA, data);
    NativeMemory.putLong(cell + P4JListCell.COUNT, written);
    NativeMemory.putLong(cell + P4JListCell.CAPACITY, written);
    return cell | CApi.P4J_LIST_WORD_BORROWED;
  }

  /** The classes of {@code List.of}'s lists (one or two elements, and more), read by index without an iterator. */
  private static final Class<?> LIST_12 = List.of(1).getClass();
  private static final Class<?> LIST_N = List.of(1, 2, 3).getClass();

  /**
   * Whether {@code values} is an {@code ArrayList} or a list of {@code List.of}: one of the JDK's own lists, never a
   * {@code NativeList} (a final class of its own), found by one class comparison each.
   *
   * @param values a list
   * @return true for those lists, false for any other
   */
  public static boolean isPlainList(List<?> values) {
    Class<?> type = values.getClass();
    return type == ArrayList.class || type == LIST_N || type == LIST_12;
  }

  /**
   * {@code values}, numbers, as a typed entry's dense list word ({@code P4J_LIST_WORD_DENSE_I64} or {@code _F64}):
   * in the scratch memory of {@code stack} (the caller holds a mark), the count and then each value as a plain 8-byte
   * {@code long}, or the bits of a {@code double} for {@code _F64}. One pass over the values and no native call; the
   * entry checks each value against its element type as it would a borrowed list cell's. The failures are
   * {@link #borrowedList}'s (a null element, naming its index).
   *
   * <p>The values are written through a segment of exactly the block's size, not {@link NativeMemory#putLong}: the
   * JIT then proves the loop's accesses in bounds once, instead of checking each store against the whole address
   * space (about 1.5 ns of the 27 for a list of 16, by CPU time).
   *
   * @param values the list's values: {@code Number}s
   * @param tag {@code P4J_LIST_WORD_DENSE_I64} (integers, by {@code longValue}) or {@code _F64} (by
   *     {@code doubleValue})
   * @param javaType the list's Java type, for messages
   * @param stack the calling thread's stack, holding a scratch mark
   * @return the block's address with {@code tag} in its low bits
   * @throws ConversionFailure for a null element
   */
  @SuppressWarnings("restricted") // the segment covers the scratch block just allocated for the values, no more
  public static long denseList(List<?> values, int tag, String javaType, ThreadStack stack) {
    int count = values.size();
    long address = stack.allocateScratch(8L + 8L * count);
    MemorySegment data = MemorySegment.ofAddress(address + 8).reinterpret(8L * count);
    boolean floats = tag == CApi.P4J_LIST_WORD_DENSE_F64;
    Class<?> type = values.getClass();
    int written;
    if (type == ArrayList.class) {
      written = floats ? writeDenseDoubles((ArrayList<?>) values, count, data, javaType)
          : writeDenseLongs((ArrayList<?>) values, count, data, javaType);
    } else if (type == LIST_N || type == LIST_12) {
      written = writeDenseImmutable(values, count, data, floats, javaType);
    } else {
      written = writeDenseIterated(values, count, data, floats, javaType);
    }
    NativeMemory.putLong(address, written);
    return address | tag;
  }

  /**
   * How many values {@link #writeDenseLongs} and {@link #writeDenseDoubles} write through one slice of constant size:
   * the JIT unrolls the inner loop of a block fully and proves its stores in bounds from the slice's constant size,
   * where a loop over the whole block keeps a loop nest of long range checks, costly for a short list (about 2 ns of
   * 25 for a list of 16, by CPU time; docs/benchmarks.md, "A list of 16 by blocks of 8").
   */
  private static final int DENSE_BLOCK = 8;

  /**
   * The integers of an {@code ArrayList} as 8-byte values: the commonest argument in a loop of its own, a
   * {@code Long} unboxed without a virtual call, by blocks of {@link #DENSE_BLOCK} and then one by one; how many
   * there were (fewer if the list shrank since its size was read).
   */
  private static int writeDenseLongs(ArrayList<?> values, int count, MemorySegment data, String javaType) {
    int size = Math.min(count, values.size());
    int index = 0;
    for (; index + DENSE_BLOCK <= size; index += DENSE_BLOCK) {
      MemorySegment block = data.asSlice(8L * index, 8L * DENSE_BLOCK);
      for (int offset = 0; offset < DENSE_BLOCK; offset++) {
        block.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, offset,
            longElement(values.get(index + offset), index + offset, javaType));
      }
    }
    for (; index < size; index++) {
      data.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, index, longElement(values.get(index), index, javaType));
    }
    return size;
  }

  /** {@link #writeDenseLongs} for floats: each value's {@code double} bits. */
  private static int writeDenseDoubles(ArrayList<?> values, int count, MemorySegment data, String javaType) {
    int size = Math.min(count, values.size());
    int index = 0;
    for (; index + DENSE_BLOCK <= size; index += DENSE_BLOCK) {
      MemorySegment block = data.asSlice(8L * index, 8L * DENSE_BLOCK);
      for (int offset = 0; offset < DENSE_BLOCK; offset++) {
        block.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset,
            doubleElement(values.get(index + offset), index + offset, javaType));
      }
    }
    for (; index < size; index++) {
      data.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, index, doubleElement(values.get(index), index, javaType));
    }
    return size;
  }

  /** Element {@code index} of an integer list as a {@code long}: a {@code Long} unboxed without a virtual call. */
  private static long longElement(Object value, int index, String javaType) {
    if (value instanceof Long number) {
      return number;
    }
    return otherInteger(value, index, javaType);
  }

  /**
   * Element {@code index} of an integer list that is not a {@code Long}: another integer class widened, else (a raw
   * or unchecked list) a failure; a {@code Double} in a {@code List<Long>} is an error, not a truncation.
   */
  private static long otherInteger(Object value, int index, String javaType) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value == null) {
      throw nullElement(index, javaType);
    }
    throw ConversionFailure.wrongClass(value, "an integer (Long, Integer, Short or Byte) of " + javaType)
        .within("element " + index);
  }

  /** Element {@code index} of a float list as a {@code double}: a {@code Double} unboxed without a virtual call. */
  private static double doubleElement(Object value, int index, String javaType) {
    if (value instanceof Double number) {
      return number;
    }
    if (value instanceof Float number) {
      return number;
    }
    if (value == null) {
      throw nullElement(index, javaType);
    }
    throw ConversionFailure.wrongClass(value, "a Double or Float of " + javaType).within("element " + index);
  }

  /**
   * {@link #writeDenseLongs} for the lists of {@code List.of}, by index: its own call site of {@code get}, which sees
   * only those two classes, so the JIT inlines it.
   */
  private static int writeDenseImmutable(List<?> values, int count, MemorySegment data, boolean floats,
      String javaType) {
    int size = Math.min(count, values.size());
    for (int index = 0; index < size; index++) {
      writeDense(values.get(index), index, data, floats, javaType);
    }
    return size;
  }

  /** {@link #writeDenseLongs} for any other list, through its iterator. */
  private static int writeDenseIterated(List<?> values, int count, MemorySegment data, boolean floats,
      String javaType) {
    int index = 0;
    for (Object value : values) {
      if (index == count) {
        break;
      }
      writeDense(value, index, data, floats, javaType);
      index++;
    }
    return index;
  }

  private static void writeDense(Object value, int index, MemorySegment data, boolean floats, String javaType) {
    if (floats) {
      data.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, index, doubleElement(value, index, javaType));
    } else {
      data.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, index, longElement(value, index, javaType));
    }
  }

  /**
   * {@link #writeNumbers} for integers of an {@code ArrayList}, the commonest argument, in a loop of its own: a
   * {@code Long} is unboxed without a virtual call, and the loop is this method's alone, so its profile is not
   * the frame's (which also sees floats and other collections).
   */
  private static int writeLongs(ArrayList<?> values, int count, long data, String javaType) {
    int size = Math.min(count, values.size());
    for (int index = 0; index < size; index++) {
      Object value = values.get(index);
      long bits;
      if (value instanceof Long number) {
        bits = number;
      } else {
        bits = otherInteger(value, index, javaType);
      }
      NativeMemory.putAny(data + P4JAny.SIZE * index, CApi.kP4JInt, 0, bits);
    }
    return size;
  }

  /**
   * Writes up to {@code count} numbers of {@code values} from {@code data} on (a list's storage), as
   * {@code kP4JFloat} values when {@code floats}, else as {@code kP4JInt}; returns how many there were (fewer if the
   * collection shrank since its size was read).
   *
   * <p>An {@code ArrayList}, the common case, is read by index with its exact class known, so the JIT inlines
   * {@code get} and allocates nothing even when this method has seen many kinds of collections; through the
   * iterator, a call site that has seen several kinds does not inline {@code iterator()} and allocates one per call.
   */
  private static int writeNumbers(Collection<?> values, int count, long data, boolean floats, String javaType) {
    if (values.getClass() == ArrayList.class) {
      ArrayList<?> list = (ArrayList<?>) values;
      int size = Math.min(count, list.size());
      for (int index = 0; index < size; index++) {
        writeNumber(list.get(index), index, data, floats, javaType);
      }
      return size;
    }
    int index = 0;
    for (Object value : values) {
      if (index == count) {
        break;
      }
      writeNumber(value, index, data, floats, javaType);
      index++;
    }
    return index;
  }

  private static void writeNumber(Object value, int index, long data, boolean floats, String javaType) {
    long slot = data + P4JAny.SIZE * index;
    if (floats) {
      NativeMemory.putAnyDouble(slot, CApi.kP4JFloat, doubleElement(value, index, javaType));
    } else {
      NativeMemory.putAny(slot, CApi.kP4JInt, 0, longElement(value, index, javaType));
    }
  }

  private static ConversionFailure nullElement(int index, String javaType) {
    return new ConversionFailure(ConversionFailure.Kind.NULL, "element " + index + " is null; " + javaType
        + " elements must not be null");
  }

  private static ConversionFailure nullKey(String javaType) {
    return new ConversionFailure(ConversionFailure.Kind.NULL, "a key is null; " + javaType + " keys must not be null");
  }

  private static ConversionFailure nullValue(Object key, String javaType) {
    return new ConversionFailure(ConversionFailure.Kind.NULL, "the value of key " + key + " is null; " + javaType
        + " values must not be null");
  }

  /**
   * Where {@code value}, converted by {@code codec} for a native field to keep, is or holds a tensor over Java memory
   * ({@code NDArray.wrap}, or a view of one), which the field would keep beyond the segment's arena: {@code ""} for
   * the value itself, {@code "element 2"} or {@code "the value of key w"} inside a Java {@code List} or {@code Map}
   * ({@code "element 0: element 2"} deeper), null when nowhere. Only a codec that can carry a tensor is walked (an
   * NDArray, an Object, or a container or Optional of them); a live view ({@code NativeList}, {@code NativeMap}) holds
   * native objects already.
   *
   * @param value the value, of the codec's Java type
   * @param codec the codec the write converts it with
   * @return where the first such tensor is, or null
   */
  public static String tensorOverJavaMemory(Object value, ValueCodec<?> codec) {
    if (!carriesTensors(codec)) {
      return null;
    }
    String at = tensorOverJavaMemory(value, 0);
    return at == TOO_DEEP ? null : at; // deeper than a value crosses: the encoding refuses it, naming the depth
  }

  /**
   * What {@link #tensorOverJavaMemory(Object, int)} returns, compared by identity, once it is deeper than
   * {@link Nesting#LIMIT}: the walk stops there, so a collection that holds itself ends it at once.
   */
  private static final String TOO_DEEP = new String("too deep");

  /** Whether a value of {@code codec}'s type can be or hold an NDArray. */
  private static boolean carriesTensors(ValueCodec<?> codec) {
    return switch (codec) {
      case NDArrayCodec n -> true;
      case AnyCodec a -> true;
      case ListCodec<?, ?> list -> carriesTensors(list.element());
      case MapCodec<?, ?, ?> map -> carriesTensors(map.keys()) || carriesTensors(map.values());
      case OptionalCodec<?> optional -> carriesTensors(optional.inner());
      default -> false;
    };
  }

  private static String tensorOverJavaMemory(Object value, int depth) {
    if (value == null) {
      return null;
    }
    if (depth > Nesting.LIMIT) {
      return TOO_DEEP;
    }
    RuntimeAccess access = RuntimeAccess.get();
    RuntimeAccess.ViewKind kind = access.kindOf(value);
    if (kind == RuntimeAccess.ViewKind.NDARRAY) {
      return access.ndarrayOverJavaMemory(value) ? "" : null;
    }
    if (kind != RuntimeAccess.ViewKind.NONE) {
      return null; // a native view (a live list or map included) holds native objects already
    }
    switch (value) {
      case java.util.Optional<?> optional when optional.isPresent() -> {
        return tensorOverJavaMemory(optional.get(), depth + 1);
      }
      case Collection<?> values -> {
        int index = 0;
        for (Object item : values) {
          String at = tensorOverJavaMemory(item, depth + 1);
          if (at != null) {
            return at == TOO_DEEP ? at : within("element " + index, at);
          }
          index++;
        }
      }
      case Map<?, ?> entries -> {
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
          String at = tensorOverJavaMemory(entry.getKey(), depth + 1);
          if (at != null) {
            return at == TOO_DEEP ? at : within("key " + entry.getKey(), at);
          }
          at = tensorOverJavaMemory(entry.getValue(), depth + 1);
          if (at != null) {
            return at == TOO_DEEP ? at : within("the value of key " + entry.getKey(), at);
          }
        }
      }
      default -> {
        // a Java value of another kind holds no tensor
      }
    }
    return null;
  }

  private static String within(String where, String inside) {
    return inside.isEmpty() ? where : where + ": " + inside;
  }

  /**
   * Finds the first null in {@code value} that converting it with {@code codec} refuses: an element of a list, a key
   * or a value of a map, at any depth and inside an {@code Optional}; the failure is the one {@link #buildList} and
   * {@link #buildMap} throw for it, and nothing is built. A session's client runs it before it sends a value to
   * another process, so that a null fails there as it does in this one. A null {@code value} itself is the caller's.
   *
   * @param value the value, of the codec's Java type
   * @param codec the codec a call would convert it with
   * @throws ConversionFailure of kind {@link ConversionFailure.Kind#NULL} for the first null refused
   */
  public static void checkNulls(Object value, ValueCodec<?> codec) {
    switch (codec) {
      case OptionalCodec<?> optional when value instanceof java.util.Optional<?> present && present.isPresent() ->
          checkNulls(present.get(), optional.inner());
      case ListCodec<?, ?> list when value instanceof Collection<?> values -> {
        ValueCodec<?> element = list.element();
        int index = 0;
        for (Object item : values) {
          if (item == null && !element.acceptsNull()) {
            throw nullElement(index, codec.javaType());
          }
          try {
            checkNulls(item, element);
          } catch (ConversionFailure failure) {
            throw failure.within("element " + index);
          }
          index++;
        }
      }
      case MapCodec<?, ?, ?> map when value instanceof Map<?, ?> entries -> {
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
          Object key = entry.getKey();
          if (key == null && !map.keys().acceptsNull()) {
            throw nullKey(codec.javaType());
          }
          try {
            checkNulls(key, map.keys());
          } catch (ConversionFailure failure) {
            throw failure.within("key " + key);
          }
          if (entry.getValue() == null && !map.values().acceptsNull()) {
            throw nullValue(key, codec.javaType());
          }
          try {
            checkNulls(entry.getValue(), map.values());
          } catch (ConversionFailure failure) {
            throw failure.within("the value of key " + key);
          }
        }
      }
      default -> {
        // not a container: nothing inside it to refuse
      }
    }
  }

  /** A new native map holding the entries of {@code map} (an owned handle). */
  public static <K, V> long buildMap(Map<? extends K, ? extends V> map, ValueCodec<K> keys, ValueCodec<V> values,
      String javaType, Frame frame) {
    if (!keys.nests() && !values.nests()) {
      return buildMapLevel(map, keys, values, javaType, frame);
    }
    int[] depth = Nesting.enter();
    try {
      return buildMapLevel(map, keys, values, javaType, frame);
    } catch (RuntimeException failure) {
      throw Nesting.rethrow(depth, failure);
    } finally {
      Nesting.exit(depth);
    }
  }

  private static <K, V> long buildMapLevel(Map<? extends K, ? extends V> map, ValueCodec<K> keys,
      ValueCodec<V> values, String javaType, Frame frame) {
    int count = map.size();
    long pairs = frame.scratch(Math.max(P4JMapCell.ENTRY_SIZE * count, P4JMapCell.ENTRY_SIZE), 16);
    int index = 0;
    for (Map.Entry<? extends K, ? extends V> entry : map.entrySet()) {
      if (index == count) {
        break;
      }
      long keySlot = pairs + P4JMapCell.ENTRY_SIZE * index;
      long valueSlot = keySlot + P4JAny.SIZE;
      NativeMemory.putAny(keySlot, CApi.kP4JNone, 0, 0);
      NativeMemory.putAny(valueSlot, CApi.kP4JNone, 0, 0);
      K key = entry.getKey();
      V value = entry.getValue();
      if (key == null && !keys.acceptsNull()) {
        throw nullKey(javaType);
      }
      try {
        keys.encode(key, keySlot, frame);
      } catch (ConversionFailure failure) {
        throw failure.within("key " + key);
      } catch (ClassCastException unchecked) {
        throw ConversionFailure.wrongClass(key, keys.javaType()).within("key " + key);
      }
      if (value == null && !values.acceptsNull()) {
        throw nullValue(key, javaType);
      }
      try {
        values.encode(value, valueSlot, frame);
      } catch (ConversionFailure failure) {
        throw failure.within("the value of key " + key);
      } catch (ClassCastException unchecked) {
        throw ConversionFailure.wrongClass(value, values.javaType()).within("the value of key " + key);
      }
      index++;
    }
    long out = frame.scratch(8, 8);
    Errors.check(CApi.P4JMapCreate(pairs, index, out), frame.target().exceptionFunctionName());
    return NativeMemory.getLong(out);
  }

  /** Number of values of the native list {@code handle}, read from its cell. */
  public static long listSize(long handle) {
    return NativeMemory.getLong(NativeMemory.cell(handle) + P4JListCell.COUNT);
  }

  /** Address of value {@code index} of the native list {@code handle}. */
  public static long listItem(long handle, long index) {
    return NativeMemory.getLong(NativeMemory.cell(handle) + P4JListCell.DATA) + index * P4JAny.SIZE;
  }

  /** Number of entries of the native map {@code handle}. */
  public static long mapSize(long handle) {
    return NativeMemory.getLong(NativeMemory.cell(handle) + P4JMapCell.COUNT);
  }

  /** Address of the key of entry {@code index} of the native map {@code handle}; its value follows. */
  public static long mapEntry(long handle, long index) {
    return NativeMemory.getLong(NativeMemory.cell(handle) + P4JMapCell.ENTRIES) + index * P4JMapCell.ENTRY_SIZE;
  }

  /**
   * An unmodifiable copy of the native list {@code handle} (borrowed). It recurses only as deep as the declared
   * type nests ({@code List<List<Long>>}: two levels); an {@code Object} element arrives as a live view, so a
   * native list of any depth is copied one level at a time.
   */
  public static <E> List<E> copyList(long handle, ValueCodec<E> element) {
    long size = listSize(handle);
    if (size > Integer.MAX_VALUE - 8) {
      throw new ConversionFailure(ConversionFailure.Kind.VALUE, "a list of " + size
          + " values, too many for a java.util.List");
    }
    Object[] copy = new Object[(int) size];
    long data = listItem(handle, 0);
    boolean hasNull = false;
    for (int i = 0; i < copy.length; i++) {
      try {
        copy[i] = element.decode(data + i * P4JAny.SIZE, false);
      } catch (ConversionFailure failure) {
        throw failure.within("list element " + i);
      }
      hasNull |= copy[i] == null;
    }
    @SuppressWarnings("unchecked")
    List<E> list = (List<E>) (hasNull ? Collections.unmodifiableList(Arrays.asList(copy)) : List.of(copy));
    return list;
  }

  /** An unmodifiable copy, in insertion order, of the native map {@code handle} (borrowed). */
  public static <K, V> Map<K, V> copyMap(long handle, ValueCodec<K> keys, ValueCodec<V> values) {
    long size = mapSize(handle);
    if (size > Integer.MAX_VALUE - 8) {
      throw new ConversionFailure(ConversionFailure.Kind.VALUE, "a map of " + size
          + " entries, too many for a java.util.Map");
    }
    Map<K, V> copy = new LinkedHashMap<>((int) Math.min(size * 4 / 3 + 1, Integer.MAX_VALUE));
    long entries = mapEntry(handle, 0);
    for (int i = 0; i < size; i++) {
      long keySlot = entries + i * P4JMapCell.ENTRY_SIZE;
      K key;
      try {
        key = keys.decode(keySlot, false);
      } catch (ConversionFailure failure) {
        throw failure.within("map key " + i);
      }
      try {
        copy.put(key, values.decode(keySlot + P4JAny.SIZE, false));
      } catch (ConversionFailure failure) {
        throw failure.within("the map value of key " + key);
      }
    }
    return Collections.unmodifiableMap(copy);
  }
}
