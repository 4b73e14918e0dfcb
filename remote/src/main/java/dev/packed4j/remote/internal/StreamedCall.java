package dev.packed4j.remote.internal;

import dev.packed4j.remote.internal.proto.CallReply;
import dev.packed4j.remote.internal.proto.CallRequest;
import dev.packed4j.remote.internal.proto.Tensor;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.Packed4jException;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The client's end of one CallStream call: the request, then the chunks of the streamed tensor arguments written
 * from the caller's tensors as the transport takes them (a 64 MiB tensor never queues whole in gRPC's buffers);
 * the reply, then its streamed tensors' chunks copied into tensors allocated when the reply announced them. The
 * session's deadline bounds the whole call, as for a unary one, and failures map the same way.
 */
final class StreamedCall extends ClientCall.Listener<Chunks.Message> {
  private final ClientCall<Chunks.Message, Chunks.Message> call;
  private final String site;
  private final Transfer transfer;
  private final CompletableFuture<CallReply> outcome = new CompletableFuture<>();
  private final Object ready = new Object();
  private volatile boolean closed;
  /** Whether the sending thread waits for {@link #onReady}: gRPC calls it often, and it costs only then. */
  private volatile boolean waiting;
  // Touched by gRPC's callbacks only, which run one at a time.
  private CallReply reply;
  private Chunks.Receiver receiver;
  private String broken;

  private StreamedCall(ClientCall<Chunks.Message, Chunks.Message> call, String site, Transfer transfer) {
    this.call = call;
    this.site = site;
    this.transfer = transfer;
  }

  /** Runs the call; returns the reply (its streamed tensors in {@code transfer}) or throws the session's error. */
  static CallReply run(Connection on, CallOptions options, CallRequest request, Transfer transfer, String site) {
    ClientCall<Chunks.Message, Chunks.Message> call = on.channel.newCall(Methods.CALL_STREAM, options);
    StreamedCall listener = new StreamedCall(call, site, transfer);
    call.start(listener, new Metadata());
    call.request(Integer.MAX_VALUE); // each message is copied out as it arrives; flow control bounds what waits
    try {
      try {
        call.sendMessage(Chunks.Message.of(request));
        for (MemorySegment slice : Chunks.slices(transfer.outgoing)) {
          if (!listener.awaitReady()) {
            break; // the call ended (deadline, server gone, error): its status tells why
          }
          call.sendMessage(Chunks.Message.chunk(slice));
        }
        if (!listener.closed) {
          call.halfClose();
        }
      } catch (IllegalStateException cancelled) {
        // the listener cancelled the call meanwhile (a malformed answer): the outcome says why
      }
      return listener.outcome.get();
    } catch (InterruptedException e) {
      call.cancel("the calling thread was interrupted", null);
      Thread.currentThread().interrupt();
      throw on.failure(Status.CANCELLED, site);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Packed4jException error) {
        throw error;
      }
      throw on.failure(Status.fromThrowable(e.getCause()), site);
    } catch (RuntimeException | Error e) {
      call.cancel("the call failed on the client: " + e, e);
      throw e;
    }
  }

  private boolean awaitReady() throws InterruptedException {
    if (call.isReady()) {
      return !closed;
    }
    synchronized (ready) {
      waiting = true;
      try {
        while (!closed && !call.isReady()) {
          ready.wait(100);
        }
      } finally {
        waiting = false;
      }
    }
    return !closed;
  }

  @Override
  public void onReady() {
    if (waiting) {
      synchronized (ready) {
        ready.notifyAll();
      }
    }
  }

  @Override
  public void onMessage(Chunks.Message message) {
    if (broken != null) {
      message.discard();
      return;
    }
    try {
      if (reply == null) {
        if (message.isChunk() || !message.frame.hasReply()) {
          message.discard();
          fail("the server's CallStream answer did not begin with its reply");
          return;
        }
        reply = message.frame.getReply();
        List<Tensor> announced = new ArrayList<>();
        if (reply.hasResult()) {
          Chunks.streamedTensors(reply.getResult(), announced);
        }
        receiver = new Chunks.Receiver(Chunks.allocate(announced));
      } else if (message.isChunk()) {
        receiver.accept(message);
      } else {
        fail("the server's CallStream answer carried a second reply");
      }
    } catch (IOException | RuntimeException | OutOfMemoryError e) {
      message.discard();
      fail("the streamed tensors of the result did not arrive whole: " + e.getMessage());
    }
  }

  private void fail(String why) {
    broken = why;
    call.cancel(why, null);
  }

  @Override
  public void onClose(Status status, Metadata trailers) {
    List<NDArray> arrays = receiver == null ? List.of() : receiver.arrays;
    try {
      if (broken != null) {
        Chunks.close(arrays);
        outcome.completeExceptionally(GrpcSessionProvider.newError("ValueError", site + ": " + broken, "", null));
      } else if (!status.isOk()) {
        Chunks.close(arrays);
        outcome.completeExceptionally(status.asRuntimeException(trailers));
      } else if (reply == null) {
        outcome.completeExceptionally(GrpcSessionProvider.newError("ValueError", site + ": the server ended the "
            + "call without a reply", "", null));
      } else if (!receiver.complete()) {
        String missing = receiver.missing();
        Chunks.close(arrays);
        outcome.completeExceptionally(GrpcSessionProvider.newError("ValueError", site + ": the call ended before "
            + "every chunk of the result arrived: " + missing, "", null));
      } else {
        transfer.received(arrays);
        outcome.complete(reply);
      }
    } finally {
      closed = true;
      synchronized (ready) {
        ready.notifyAll();
      }
    }
  }
}
