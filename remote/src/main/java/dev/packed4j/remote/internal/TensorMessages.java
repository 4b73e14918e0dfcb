package dev.packed4j.remote.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.packed4j.remote.internal.proto.Tensor;
import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Function;

/**
 * A tensor as a message carries it, the same for arguments and results on both sides of a session: its dtype and
 * shape, then its bytes in the message ({@link #of}, {@link #copyOf}) or in chunks after it ({@link Chunks}).
 */
final class TensorMessages {
  private TensorMessages() {}

  /** Why a tensor on a device does not cross, for the client's arguments and the server's results alike. */
  static final String CPU_ONLY = "a session copies tensors in cpu memory only: copy it to the host in native code"
      + " first";

  /** A tensor's dtype and shape, without bytes. */
  static Tensor.Builder header(NDArray array) {
    Tensor.Builder tensor = Tensor.newBuilder().setDtype(array.dtype().toString());
    for (long extent : array.shape()) {
      tensor.addShape(extent);
    }
    return tensor;
  }

  /** {@return the shape a message gives} */
  static long[] shape(Tensor tensor) {
    return tensor.getShapeList().stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * A contiguous tensor with its bytes, not copied: the message refers to the tensor's memory, so it must be written
   * to the transport while the tensor is open.
   */
  static Tensor of(NDArray array) {
    MemorySegment data = array.asSegment();
    return header(array).setData(UnsafeByteOperations.unsafeWrap(data.asByteBuffer())).build();
  }

  /**
   * A new tensor of this process's native memory with the message's bytes, owned by the caller ({@code
   * NDArray.allocate}, which does not clear it first, as {@code Arena.allocate} would: a tenth of a 64 MiB round
   * trip).
   *
   * @param role what the tensor is, for the message when its bytes do not fill its dtype and shape, such as {@code
   *     "a tensor argument"}
   * @param mismatch the exception of that message; the tensor made is closed before it is thrown
   */
  static NDArray copyOf(Tensor tensor, String role, Function<String, RuntimeException> mismatch) {
    DType dtype = DType.parse(tensor.getDtype());
    long[] shape = shape(tensor);
    ByteString data = tensor.getData();
    NDArray array = NDArray.allocate(dtype, shape);
    MemorySegment memory = array.asSegment();
    if (memory.byteSize() != data.size()) {
      array.close();
      throw mismatch.apply(role + " of dtype " + dtype + " and shape " + Arrays.toString(shape) + " needs "
          + memory.byteSize() + " bytes, the message carries " + data.size());
    }
    long at = 0;
    for (ByteBuffer chunk : data.asReadOnlyByteBufferList()) {
      int length = chunk.remaining();
      MemorySegment.copy(MemorySegment.ofBuffer(chunk), 0, memory, at, length);
      at += length;
    }
    return array;
  }
}
