package dev.packed4j.remote.internal;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.UnsafeByteOperations;
import dev.packed4j.remote.internal.proto.CallReply;
import dev.packed4j.remote.internal.proto.CallRequest;
import dev.packed4j.remote.internal.proto.Packed4jRemoteGrpc;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The Call method with a marshaller for large messages, on both ends. gRPC's protobuf marshaller parses a message
 * over 4 MiB from the stream, which copies a tensor's bytes field twice through a slow path (that was most of a
 * 64 MiB round trip's time); this one reads a large message into one array and parses it with aliasing, so the
 * bytes field is a view of that array. Small messages take gRPC's own path.
 */
final class Methods {
  private Methods() {}

  /** Messages up to this size are parsed by gRPC's marshaller. */
  private static final int LARGE = 1 << 20;

  static final MethodDescriptor<CallRequest, CallReply> CALL = Packed4jRemoteGrpc.getCallMethod().toBuilder(
      new LargeMessages<>(CallRequest.getDefaultInstance(), CallRequest.parser(), TooLargeForHeap::asSent,
          message -> TooLargeForHeap.standIn(message, 0, message.length)),
      new LargeMessages<>(CallReply.getDefaultInstance(), CallReply.parser(), reply -> reply, message -> null))
      .build();

  /** CallStream, with {@link Chunks.Marshaller} on both ends. */
  static final MethodDescriptor<Chunks.Message, Chunks.Message> CALL_STREAM = MethodDescriptor
      .<Chunks.Message, Chunks.Message>newBuilder(new Chunks.Marshaller(), new Chunks.Marshaller())
      .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
      .setFullMethodName(Packed4jRemoteGrpc.getCallStreamMethod().getFullMethodName())
      .build();

  /**
   * The registry service with {@link #CALL} in place of the generated Call method and {@link #CALL_STREAM} in
   * place of CallStream.
   */
  @SuppressWarnings("unchecked")
  static ServerServiceDefinition withLargeMessages(ServerServiceDefinition generated, RegistryService registry) {
    ServerServiceDefinition.Builder service = ServerServiceDefinition.builder(
        generated.getServiceDescriptor().getName());
    for (ServerMethodDefinition<?, ?> method : generated.getMethods()) {
      if (method.getMethodDescriptor().getFullMethodName().equals(CALL.getFullMethodName())) {
        service.addMethod(ServerMethodDefinition.create(CALL,
            (ServerCallHandler<CallRequest, CallReply>) method.getServerCallHandler()));
      } else if (method.getMethodDescriptor().getFullMethodName().equals(CALL_STREAM.getFullMethodName())) {
        service.addMethod(ServerMethodDefinition.create(CALL_STREAM,
            ServerCalls.asyncBidiStreamingCall(registry::streamedCall)));
      } else {
        service.addMethod(method);
      }
    }
    return service.build();
  }

  private static final class LargeMessages<T extends Message> implements MethodDescriptor.Marshaller<T> {
    private final MethodDescriptor.Marshaller<T> standard;
    private final Parser<T> parser;
    /** What the service gets of a parsed message ({@link TooLargeForHeap#asSent}). */
    private final UnaryOperator<T> received;
    /** The stand-in of a message too large for the heap (see {@link TooLargeForHeap}), or null. */
    private final Function<byte[], T> standIn;

    LargeMessages(T prototype, Parser<T> parser, UnaryOperator<T> received, Function<byte[], T> standIn) {
      this.standard = ProtoUtils.marshaller(prototype);
      this.parser = parser;
      this.received = received;
      this.standIn = standIn;
    }

    @Override
    public InputStream stream(T value) {
      return standard.stream(value);
    }

    @Override
    public T parse(InputStream stream) {
      try {
        int size = stream instanceof KnownLength ? stream.available() : 0;
        if (size <= LARGE) {
          return received.apply(standard.parse(stream));
        }
        byte[] message = new byte[size];
        int read = stream.readNBytes(message, 0, size);
        if (read != size) {
          throw Status.INTERNAL.withDescription("a message of " + size + " bytes ended after " + read)
              .asRuntimeException();
        }
        // Aliasing applies to a buffer protobuf may take as immutable: this one is never written again.
        CodedInputStream input = UnsafeByteOperations.unsafeWrap(message).newCodedInput();
        input.enableAliasing(true);
        input.setSizeLimit(Integer.MAX_VALUE);
        try {
          return received.apply(parser.parseFrom(input, ExtensionRegistryLite.getEmptyRegistry()));
        } catch (OutOfMemoryError e) {
          T replacement = standIn.apply(message); // what was built is garbage now
          if (replacement == null) {
            throw e;
          }
          return replacement;
        }
      } catch (InvalidProtocolBufferException e) {
        throw Status.INTERNAL.withDescription("invalid protobuf message: " + e.getMessage()).withCause(e)
            .asRuntimeException();
      } catch (IOException e) {
        throw Status.INTERNAL.withDescription("cannot read a message: " + e.getMessage()).withCause(e)
            .asRuntimeException();
      }
    }
  }
}
