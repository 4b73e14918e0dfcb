package dev.packed4j.remote.internal;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.packed4j.remote.internal.proto.CallReply;
import dev.packed4j.remote.internal.proto.CallRequest;
import dev.packed4j.remote.internal.proto.Frame;
import dev.packed4j.remote.internal.proto.Tensor;
import dev.packed4j.remote.internal.proto.Value;
import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import io.grpc.Detachable;
import io.grpc.Drainable;
import io.grpc.HasByteBuffer;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Tensors in chunks, for the CallStream method: a tensor's bytes go from its native memory into gRPC's buffers and
 * from gRPC's received buffers into the receiving tensor's native memory, one copy each way in user space (the
 * frames of a chunk are never gathered into an array, and never parsed by protobuf). Everything else on the stream
 * is an ordinary protobuf {@link Frame}.
 */
final class Chunks {
  private Chunks() {}

  /** A tensor argument or result larger than this crosses in chunks, on CallStream. */
  static final long STREAM_ABOVE = 256 << 10;
  /** The bytes of one chunk; well under the 1 MiB that is the least message size either side accepts. */
  static final int CHUNK = 512 << 10;

  /** The tag of {@code Frame.chunk} (field 3, length-delimited). */
  private static final int CHUNK_TAG = (3 << 3) | 2;

  /** One message of CallStream: a protobuf frame, a chunk to send (a slice of native memory), or one received. */
  static final class Message {
    final Frame frame;
    final MemorySegment outgoing;
    private InputStream incoming;
    final int length;

    private Message(Frame frame, MemorySegment outgoing, InputStream incoming, int length) {
      this.frame = frame;
      this.outgoing = outgoing;
      this.incoming = incoming;
      this.length = length;
    }

    static Message of(CallRequest request) {
      return new Message(Frame.newBuilder().setRequest(request).build(), null, null, 0);
    }

    static Message of(CallReply reply) {
      return new Message(Frame.newBuilder().setReply(reply).build(), null, null, 0);
    }

    static Message chunk(MemorySegment slice) {
      return new Message(null, slice, null, (int) slice.byteSize());
    }

    boolean isChunk() {
      return frame == null;
    }

    /** Copies a received chunk into {@code target} at {@code offset} and lets go of gRPC's buffers. */
    void copyTo(MemorySegment target, long offset) throws IOException {
      try (InputStream in = incoming) {
        incoming = null;
        long at = offset;
        if (in instanceof HasByteBuffer buffers && buffers.byteBufferSupported()) {
          ByteBuffer buffer;
          while ((buffer = buffers.getByteBuffer()) != null && buffer.hasRemaining()) {
            int n = buffer.remaining();
            MemorySegment.copy(MemorySegment.ofBuffer(buffer), 0, target, at, n);
            at += n;
            in.skip(n);
          }
        } else {
          byte[] scratch = new byte[Math.min(length, 64 << 10)];
          int n;
          while ((n = in.read(scratch)) > 0) {
            MemorySegment.copy(scratch, 0, target, ValueLayout.JAVA_BYTE, at, n);
            at += n;
          }
        }
        if (at - offset != length) {
          throw new IOException("a chunk of " + length + " bytes carried " + (at - offset));
        }
      }
    }

    /** Lets go of a received chunk that will not be copied. */
    void discard() {
      if (incoming != null) {
        try {
          incoming.close();
        } catch (IOException ignored) {
          // gRPC's buffers close without I/O
        }
        incoming = null;
      }
    }
  }

  /** The marshaller of CallStream's messages, on both ends. */
  static final class Marshaller implements MethodDescriptor.Marshaller<Message> {
    private final MethodDescriptor.Marshaller<Frame> standard = ProtoUtils.marshaller(Frame.getDefaultInstance());

    @Override
    public InputStream stream(Message message) {
      return message.isChunk() ? new ChunkStream(message.outgoing) : standard.stream(message.frame);
    }

    @Override
    public Message parse(InputStream stream) {
      try {
        int first = stream.read();
        if (first < 0) {
          return new Message(Frame.getDefaultInstance(), null, null, 0); // an empty frame: a valid message, no field
        }
        if (first == CHUNK_TAG) {
          int length = CodedInputStream.readRawVarint32(stream.read(), stream);
          if (length < 0) { // a varint past 2^31: no chunk this large is ever sent
            throw new InvalidProtocolBufferException("a chunk's length reads as " + Integer.toUnsignedLong(length)
                + " bytes, more than a message may carry");
          }
          if (stream instanceof KnownLength && stream.available() != length) {
            throw new InvalidProtocolBufferException("a chunk says it has " + length + " bytes and carries "
                + stream.available());
          }
          InputStream rest = stream instanceof Detachable detachable ? detachable.detach()
              : new ByteArrayInputStream(stream.readNBytes(length));
          return new Message(null, null, rest, length);
        }
        byte[] whole;
        if (stream instanceof KnownLength) { // gRPC's: read once, into the array the parser reads
          int size = stream.available();
          whole = new byte[size + 1];
          if (stream.readNBytes(whole, 1, size) != size) {
            throw new IOException("a frame of " + (size + 1) + " bytes ended early");
          }
        } else {
          byte[] rest = stream.readAllBytes();
          whole = new byte[rest.length + 1];
          System.arraycopy(rest, 0, whole, 1, rest.length);
        }
        whole[0] = (byte) first;
        try {
          return new Message(TooLargeForHeap.asSent(Frame.parseFrom(whole)), null, null, 0);
        } catch (OutOfMemoryError e) {
          Frame standIn = TooLargeForHeap.frameStandIn(whole); // what was built is garbage now
          if (standIn == null) {
            throw e;
          }
          return new Message(standIn, null, null, 0);
        }
      } catch (InvalidProtocolBufferException e) {
        throw Status.INTERNAL.withDescription("invalid CallStream frame: " + e.getMessage()).withCause(e)
            .asRuntimeException();
      } catch (IOException e) {
        throw Status.INTERNAL.withDescription("cannot read a CallStream frame: " + e.getMessage()).withCause(e)
            .asRuntimeException();
      }
    }
  }

  /**
   * A chunk as gRPC writes it: the frame's tag and length, then the bytes drained from native memory through a
   * small scratch array (gRPC's output takes arrays only).
   */
  private static final class ChunkStream extends InputStream implements Drainable, KnownLength {
    private final byte[] header;
    private final MemorySegment data;
    private long position;

    ChunkStream(MemorySegment data) {
      this.data = data;
      int length = (int) data.byteSize();
      this.header = new byte[1 + CodedOutputStream.computeUInt32SizeNoTag(length)];
      header[0] = (byte) CHUNK_TAG;
      int at = 1;
      int rest = length;
      while ((rest & ~0x7F) != 0) {
        header[at++] = (byte) ((rest & 0x7F) | 0x80);
        rest >>>= 7;
      }
      header[at] = (byte) rest;
    }

    private long size() {
      return header.length + data.byteSize();
    }

    @Override
    public int drainTo(OutputStream target) throws IOException {
      int written = 0;
      if (position < header.length) {
        target.write(header, (int) position, header.length - (int) position);
        written += header.length - (int) position;
        position = header.length;
      }
      byte[] scratch = new byte[(int) Math.min(64 << 10, Math.max(1, size() - position))];
      while (position < size()) {
        int n = (int) Math.min(scratch.length, size() - position);
        MemorySegment.copy(data, ValueLayout.JAVA_BYTE, position - header.length, scratch, 0, n);
        target.write(scratch, 0, n);
        position += n;
        written += n;
      }
      return written;
    }

    @Override
    public int read() {
      if (position >= size()) {
        return -1;
      }
      int b = position < header.length ? header[(int) position] & 0xFF
          : data.get(ValueLayout.JAVA_BYTE, position - header.length) & 0xFF;
      position++;
      return b;
    }

    @Override
    public int read(byte[] target, int offset, int length) {
      if (length == 0) {
        return 0;
      }
      if (position >= size()) {
        return -1;
      }
      if (position < header.length) {
        int n = Math.min(length, header.length - (int) position);
        System.arraycopy(header, (int) position, target, offset, n);
        position += n;
        return n;
      }
      int n = (int) Math.min(length, size() - position);
      MemorySegment.copy(data, ValueLayout.JAVA_BYTE, position - header.length, target, offset, n);
      position += n;
      return n;
    }

    @Override
    public int available() {
      return (int) (size() - position);
    }
  }

  /** The streamed tensors of {@code values}, depth first: where the chunks that follow them go. */
  static void streamedTensors(List<Value> values, List<Tensor> into) {
    for (Value value : values) {
      streamedTensors(value, into);
    }
  }

  static void streamedTensors(Value value, List<Tensor> into) {
    switch (value.getKindCase()) {
      case TENSOR -> {
        if (value.getTensor().getStreamed()) {
          into.add(value.getTensor());
        }
      }
      case LIST -> streamedTensors(value.getList().getItemsList(), into);
      case MAP -> value.getMap().getEntriesList().forEach(entry -> {
        streamedTensors(entry.getKey(), into);
        streamedTensors(entry.getValue(), into);
      });
      default -> { }
    }
  }

  /** The bytes the announced tensors need together; Long.MAX_VALUE when that overflows or a shape is invalid. */
  static long byteCount(List<Tensor> announced) {
    long total = 0;
    for (Tensor tensor : announced) {
      long bytes = Math.max(1, DType.parse(tensor.getDtype()).byteSize());
      for (long extent : tensor.getShapeList()) {
        if (extent < 0) {
          return Long.MAX_VALUE;
        }
        bytes = extent == 0 ? 0 : bytes > Long.MAX_VALUE / extent ? Long.MAX_VALUE : bytes * extent;
      }
      total = Long.MAX_VALUE - total < bytes ? Long.MAX_VALUE : total + bytes;
    }
    return total;
  }

  /** Allocates the tensors that streamed placeholders announce; closes what it made if one fails. */
  static List<NDArray> allocate(List<Tensor> announced) {
    List<NDArray> arrays = new ArrayList<>(announced.size());
    try {
      for (Tensor tensor : announced) {
        DType dtype = DType.parse(tensor.getDtype());
        arrays.add(TensorMemory.allocate(dtype, TensorMessages.shape(tensor)));
      }
      return arrays;
    } catch (RuntimeException | OutOfMemoryError e) {
      close(arrays);
      throw e;
    }
  }

  static void close(List<NDArray> arrays) {
    for (NDArray array : arrays) {
      array.close();
    }
  }

  /** A streamed tensor's placeholder: its dtype and shape, no bytes. */
  static Tensor placeholder(NDArray array) {
    return TensorMessages.header(array).setStreamed(true).build();
  }

  /**
   * Where received chunks go: the announced tensors one after another. {@link #accept} copies a chunk into the
   * current one; {@link #complete} tells whether every byte arrived.
   */
  static final class Receiver {
    final List<NDArray> arrays;
    private int current;
    private long offset;

    Receiver(List<NDArray> arrays) {
      this.arrays = arrays;
      skipEmpty();
    }

    void accept(Message chunk) throws IOException {
      if (current >= arrays.size()) {
        chunk.discard();
        throw new IOException("a chunk of " + chunk.length + " bytes arrived after every streamed tensor was full");
      }
      MemorySegment target = arrays.get(current).asSegment();
      if (offset + chunk.length > target.byteSize()) {
        chunk.discard();
        throw new IOException("a chunk of " + chunk.length + " bytes overflows streamed tensor " + current + " ("
            + target.byteSize() + " bytes, " + offset + " received) of shape "
            + Arrays.toString(arrays.get(current).shape()));
      }
      chunk.copyTo(target, offset);
      offset += chunk.length;
      if (offset == target.byteSize()) {
        current++;
        offset = 0;
        skipEmpty();
      }
    }

    private void skipEmpty() {
      while (current < arrays.size() && arrays.get(current).asSegment().byteSize() == 0) {
        current++;
      }
    }

    boolean complete() {
      return current == arrays.size();
    }

    String missing() {
      return "streamed tensor " + current + " of " + arrays.size() + " has " + offset + " of its "
          + arrays.get(current).asSegment().byteSize() + " bytes";
    }
  }

  /** The chunks of {@code segments}, in order, each at most {@link #CHUNK} bytes. */
  static List<MemorySegment> slices(List<MemorySegment> segments) {
    List<MemorySegment> slices = new ArrayList<>();
    for (MemorySegment segment : segments) {
      for (long at = 0; at < segment.byteSize(); at += CHUNK) {
        slices.add(segment.asSlice(at, Math.min(CHUNK, segment.byteSize() - at)));
      }
    }
    return slices;
  }
}
