package dev.packed4j.remote.internal;

import dev.packed4j.runtime.NDArray;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.List;

/**
 * The tensors of one client call that cross in chunks: the memory of its large tensor arguments (sent after the
 * request) and the tensors the reply announced (filled from the chunks after it, handed to the result in order).
 * A call with neither is an ordinary unary Call; one with either goes on CallStream.
 */
final class Transfer {
  /** The memory of the arguments' streamed tensors, in the order their placeholders appear. */
  final List<MemorySegment> outgoing = new ArrayList<>();
  /** Whether the declared result can hold a tensor (so the reply may stream one). */
  final boolean resultMayHoldTensor;
  private List<NDArray> incoming = List.of();
  private int claimed;

  Transfer(Type result) {
    this.resultMayHoldTensor = mayHoldTensor(result);
  }

  boolean streams() {
    return resultMayHoldTensor || !outgoing.isEmpty();
  }

  void received(List<NDArray> arrays) {
    this.incoming = arrays;
    this.claimed = 0;
  }

  /** The next received tensor, now the caller's; null when the reply announced no more. */
  NDArray claim() {
    return claimed < incoming.size() ? incoming.get(claimed++) : null;
  }

  /** Closes the received tensors no result took (a conversion failed before reaching them). */
  void closeUnclaimed() {
    while (claimed < incoming.size()) {
      incoming.get(claimed++).close();
    }
  }

  static boolean mayHoldTensor(Type type) {
    return switch (type) {
      case Class<?> c -> c == NDArray.class || c == Object.class;
      case ParameterizedType p -> {
        for (Type argument : p.getActualTypeArguments()) {
          if (mayHoldTensor(argument)) {
            yield true;
          }
        }
        yield false;
      }
      case WildcardType w -> mayHoldTensor(w.getUpperBounds()[0]);
      case GenericArrayType a -> mayHoldTensor(a.getGenericComponentType());
      case TypeVariable<?> v -> true;
      default -> true;
    };
  }
}
