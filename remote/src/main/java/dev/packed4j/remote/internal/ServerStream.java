package dev.packed4j.remote.internal;

import dev.packed4j.remote.internal.proto.CallReply;
import dev.packed4j.remote.internal.proto.CallRequest;
import dev.packed4j.remote.internal.proto.RemoteError;
import dev.packed4j.remote.internal.proto.Tensor;
import dev.packed4j.runtime.NDArray;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The server's end of one CallStream call: the request, the chunks of its streamed tensor arguments copied into
 * tensors allocated when the request announced them, the call once the client half-closes, then the reply and the
 * chunks of the result's large tensors, sent as the transport is ready for them (so a large tensor never queues
 * whole in gRPC's buffers). gRPC runs every step of one call in order, never two at once.
 */
final class ServerStream implements StreamObserver<Chunks.Message> {
  private final RegistryService service;
  private final ServerCallStreamObserver<Chunks.Message> out;
  private final long maxTensorBytes;
  private final long maxStreamedBytes;
  private CallRequest request;
  private ServerSession session;
  private ServerValues values;
  private Chunks.Receiver receiver;
  /** Why the call cannot run (bad frames, a tensor that cannot be allocated); answered at the half-close. */
  private String refused;
  /** The whole reply of a call refused before it started (its session); answered at the half-close. */
  private CallReply refusal;
  /** The bytes of the shared streamed-argument budget this call reserved, given back when it finishes. */
  private long reserved;
  /** When the last chunk (or the request) arrived, by {@link System#nanoTime()}; read by the server's watch. */
  private volatile long lastProgress = System.nanoTime();
  /** Whether the client half-closed: no more bytes are awaited. */
  private volatile boolean halfClosed;
  /** Set by the first of the half-close and the watch's cancel: only one of them answers the call. */
  private final AtomicBoolean ending = new AtomicBoolean();
  private List<MemorySegment> sending;
  private int sent;
  private volatile boolean finished;

  ServerStream(RegistryService service, StreamObserver<Chunks.Message> out, long maxTensorBytes,
      long maxStreamedBytes) {
    this.service = service;
    this.out = (ServerCallStreamObserver<Chunks.Message>) out;
    this.maxTensorBytes = maxTensorBytes;
    this.maxStreamedBytes = maxStreamedBytes;
    this.out.setOnReadyHandler(this::pump);
    this.out.setOnCancelHandler(this::finish);
    // Also when the call ends otherwise (closed after an error, or cancelled for stalling): its memory must go.
    this.out.setOnCloseHandler(this::finish);
  }

  @Override
  public void onNext(Chunks.Message message) {
    if (refused != null || refusal != null) {
      message.discard();
      return;
    }
    try {
      if (request == null) {
        if (message.isChunk() || !message.frame.hasRequest()) {
          message.discard();
          refused = "a CallStream call must begin with its request";
          return;
        }
        request = message.frame.getRequest();
        session = service.session(request.getSession());
        if (session == null) {
          refusal = RegistryService.sessionNotOpen(request); // before anything is allocated for it
          return;
        }
        long unread = TooLargeForHeap.size(request);
        if (unread >= 0) {
          // A stand-in names no arguments: the chunks of any streamed ones that follow are discarded.
          refusal = RegistryService.tooLargeForHeap(request, unread);
          return;
        }
        values = new ServerValues(session, maxTensorBytes, true);
        List<Tensor> announced = new ArrayList<>();
        Chunks.streamedTensors(request.getArgsList(), announced);
        long bytes = Chunks.byteCount(announced);
        if (bytes > maxStreamedBytes) {
          // Refused before allocating: the request announces sizes its chunks may never fill.
          refused = "the streamed tensor arguments need " + bytes + " bytes; this server takes at most "
              + maxStreamedBytes + " (packed4j-server --max-tensor-mib)";
          return;
        }
        if (!service.reserveStreamed(bytes)) {
          refused = "the streamed tensor arguments need " + bytes + " bytes, and the calls in flight hold "
              + service.streamedHeld() + " of the " + maxStreamedBytes + " this server takes at once"
              + " (packed4j-server --max-tensor-mib); try again when they are done";
          return;
        }
        reserved = bytes;
        List<NDArray> arrays = Chunks.allocate(announced);
        values.streamedArguments(arrays);
        receiver = new Chunks.Receiver(arrays);
        if (bytes > 0) {
          service.watchProgress(this);
        }
      } else if (message.isChunk()) {
        receiver.accept(message);
        lastProgress = System.nanoTime();
      } else {
        refused = "a CallStream call carries one request";
      }
    } catch (IOException | RuntimeException | OutOfMemoryError e) {
      message.discard();
      refused = "the streamed tensor arguments did not arrive whole: " + e.getMessage();
    }
  }

  @Override
  public void onCompleted() {
    if (!ending.compareAndSet(false, true)) {
      return; // cancelled for stalling just now: the client has its status
    }
    halfClosed = true;
    CallReply reply;
    if (refusal == null && refused == null && receiver != null && !receiver.complete()) {
      refused = "the request half-closed before every chunk arrived: " + receiver.missing();
    }
    if (refusal != null) {
      reply = refusal;
    } else if (refused != null || request == null) {
      String why = refused != null ? refused : "a CallStream call must begin with its request";
      String site = request == null ? "CallStream" : request.getSite();
      reply = CallReply.newBuilder().setError(RemoteError.newBuilder().setKind("ValueError").setMessage(why)
          .setFunction(site)).build();
    } else {
      // Counted against --max-calls as a unary call is, while its function runs: a stream still receiving holds
      // memory (within the shared budget) but no permit, so idle streams cannot take every slot.
      reply = service.call(request, session, values);
      if (reply.hasError() && values.streamedResults != null) {
        values.streamedResults.clear();
      }
    }
    out.onNext(Chunks.Message.of(reply));
    sending = values == null || values.streamedResults == null ? List.of() : Chunks.slices(values.streamedResults);
    pump();
  }

  /** Sends chunks while the transport takes them; ends the call after the last. */
  private void pump() {
    if (sending == null || finished) {
      return;
    }
    while (sent < sending.size() && out.isReady()) {
      out.onNext(Chunks.Message.chunk(sending.get(sent++)));
    }
    if (sent == sending.size()) {
      out.onCompleted(); // written by now: the tensors the chunks came from may go
      finish();
    }
  }

  @Override
  public void onError(Throwable error) {
    finish(); // the client cancelled or went away
  }

  private void finish() {
    if (!finished) {
      finished = true;
      if (values != null) {
        values.closeTemporaries();
      }
      // The arguments' memory is freed just above: only now is the budget theirs to give back.
      service.releaseStreamed(reserved);
      reserved = 0;
    }
  }

  /**
   * Whether the call has waited for its streamed arguments' bytes longer than {@code idleNanos} since the last chunk
   * (or its request): called by the server's watch, off gRPC's threads, so it reads only volatile state.
   */
  boolean stalled(long now, long idleNanos) {
    return !halfClosed && !finished && now - lastProgress > idleNanos;
  }

  /**
   * Ends a stalled call (from the server's watch thread): the client gets DEADLINE_EXCEEDED with the reason, and the
   * arguments' memory goes when gRPC closes the call. Whichever comes first of this and the half-close ends the call.
   */
  void cancelStalled(String why) {
    if (ending.compareAndSet(false, true)) {
      out.onError(Status.DEADLINE_EXCEEDED.withDescription(why).asRuntimeException());
    }
  }

  boolean isFinished() {
    return finished;
  }

  boolean isHalfClosed() {
    return halfClosed;
  }
}
