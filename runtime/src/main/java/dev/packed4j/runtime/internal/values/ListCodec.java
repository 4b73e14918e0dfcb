package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JList;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JNone;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import java.util.List;

/**
 * {@code List<E>} (an immutable copy as a result) and {@code NativeList<E>} (a live view as a result). As an
 * argument, a NativeList passes its handle; any other list becomes a temporary native list.
 */
public final class ListCodec<E, L extends List<E>> extends ValueCodec<L> {
  private final ValueCodec<E> element;
  private final boolean live;
  private final int denseTag;

  private ListCodec(String javaType, ValueCodec<E> element, boolean live, int denseTag) {
    super(javaType);
    this.element = element;
    this.live = live;
    this.denseTag = denseTag;
  }

  /** {@code List<E>}: results are unmodifiable copies. */
  public static <E> ListCodec<E, List<E>> copying(ValueCodec<E> element) {
    return new ListCodec<>("List<" + element.javaType() + ">", element, false, 0);
  }

  /** {@code NativeList<E>}: results are live views. */
  public static <E, L extends List<E>> ListCodec<E, L> live(ValueCodec<E> element) {
    return new ListCodec<>("NativeList<" + element.javaType() + ">", element, true, 0);
  }

  public ValueCodec<E> element() {
    return element;
  }

  /**
   * This codec for a typed entry that takes dense list words ({@code P4J_TYPED_FORM_DENSE_LIST}, ABI 2.7): a list of
   * integers or floats crosses as its plain 8-byte values ({@link Containers#denseList}) instead of a borrowed list
   * cell; a list of anything else is this codec.
   *
   * @return a codec whose {@link #denseTag} is the list word's tag for its elements
   */
  public ListCodec<E, L> withDenseWords() {
    int tag = element instanceof IntegerCodec<?> ? CApi.P4J_LIST_WORD_DENSE_I64
        : element instanceof FloatCodec<?> ? CApi.P4J_LIST_WORD_DENSE_F64 : 0;
    return tag == denseTag ? this : new ListCodec<>(javaType(), element, live, tag);
  }

  /**
   * The tag of a typed entry's dense list word for this codec's values ({@code P4J_LIST_WORD_DENSE_I64} or
   * {@code _F64}), 0 when they cross as a borrowed list cell.
   *
   * @return the tag, or 0
   */
  public int denseTag() {
    return denseTag;
  }

  @Override
  @SuppressWarnings("unchecked")
  public L nullFieldValue() {
    return live ? null : (L) List.of(); // a live view of no list cannot be made: NativeList getters return null
  }

  @Override
  public boolean nests() {
    return true;
  }

  @Override
  public String wireType() {
    return "list";
  }

  @Override
  public void encode(L value, long slot, Frame frame) {
    if (RuntimeAccess.get().kindOf(value) == RuntimeAccess.ViewKind.LIST) {
      ObjectHandles.encodeContainer(value, slot, frame);
      return;
    }
    long handle = Containers.buildList(value, element, javaType(), frame);
    frame.ownTemporary(handle);
    NativeMemory.putAny(slot, kP4JList, 0, handle);
  }

  @Override
  @SuppressWarnings("unchecked")
  public L decode(long any, boolean owned) {
    int type = NativeMemory.anyTypeIndex(any);
    if (type == kP4JNone) {
      return null;
    }
    if (type != kP4JList) {
      throw mismatch(any);
    }
    long handle = NativeMemory.anyPayload(any);
    if (live) {
      return (L) RuntimeAccess.get().newNativeList(keep(handle, owned), element);
    }
    List<E> copy = Containers.copyList(handle, element);
    releaseIfOwned(handle, owned);
    return (L) copy;
  }
}
