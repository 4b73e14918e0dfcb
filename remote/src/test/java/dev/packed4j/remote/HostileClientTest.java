package dev.packed4j.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.UnknownFieldSet;
import dev.packed4j.remote.internal.proto.CallReply;
import dev.packed4j.remote.internal.proto.CallRequest;
import dev.packed4j.remote.internal.proto.DescribeRequest;
import dev.packed4j.remote.internal.proto.Frame;
import dev.packed4j.remote.internal.proto.MemberOp;
import dev.packed4j.remote.internal.proto.MemberTarget;
import dev.packed4j.remote.internal.proto.OpenRequest;
import dev.packed4j.remote.internal.proto.Packed4jRemoteGrpc;
import dev.packed4j.remote.internal.proto.ReleaseRequest;
import dev.packed4j.remote.internal.proto.SessionEvent;
import dev.packed4j.remote.internal.proto.Tensor;
import dev.packed4j.remote.internal.proto.Value;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A session is its client's alone: another connection that names its id (guessed, or learned) is answered as for an
 * id never given out, and cannot read, change or release its objects (trial userV: ids counted up from 1, and any
 * client with the token could use and release another's objects). Speaks the wire protocol directly, as a hostile
 * client would.
 */
class HostileClientTest {
  /** A raw client: its own connection, and the Open stream that keeps its session. */
  private static final class RawClient implements AutoCloseable {
    final ManagedChannel channel;
    final ClientCall<OpenRequest, SessionEvent> open;
    final long session;

    RawClient(String address) {
      channel = NettyChannelBuilder.forTarget(address).usePlaintext().build();
      open = channel.newCall(Packed4jRemoteGrpc.getOpenMethod(), CallOptions.DEFAULT);
      Iterator<SessionEvent> events =
          ClientCalls.blockingServerStreamingCall(open, OpenRequest.newBuilder().setClient("raw").build());
      session = events.next().getOpened().getSession();
    }

    CallReply call(CallRequest.Builder request) {
      return Packed4jRemoteGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
          .call(request.build());
    }

    int release(long session, long object) {
      return Packed4jRemoteGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
          .release(ReleaseRequest.newBuilder().setSession(session).addObjects(object).build()).getReleased();
    }

    @Override
    public void close() {
      open.cancel("done", null);
      try {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // closed as far as it could be; the test's thread keeps its interrupt
      }
    }
  }

  private static Value integer(long value) {
    return Value.newBuilder().setInteger(value).build();
  }

  private static CallRequest.Builder format(long session, long object) {
    return CallRequest.newBuilder().setSession(session)
        .setMember(MemberTarget.newBuilder().setObject(object).setOp(MemberOp.FORMAT));
  }

  @Test
  void anotherConnectionCannotUseOrReleaseASessionsObjects() throws Exception {
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", RemoteSessionTest.PLUGIN));
        RawClient owner = new RawClient(server.address());
        RawClient other = new RawClient(server.address())) {
      assertNotEquals(owner.session, other.session);
      assertTrue(owner.session > 1_000_000 || other.session > 1_000_000, "ids are random, not counted from 1");
      CallReply made = owner.call(CallRequest.newBuilder().setSession(owner.session).setGlobal("remote.MakePoint")
          .addArgs(integer(3)).addArgs(integer(4)).addArgs(Value.newBuilder().setText("mine")));
      long point = made.getResult().getObject().getId();
      assertTrue(point > 0, made.toString());

      // The other client names the owner's session: refused as unknown, nothing read, nothing released.
      CallReply read = other.call(format(owner.session, point));
      assertEquals("SessionLostError", read.getError().getKind(), read.toString());
      assertTrue(read.getError().getMessage().contains("is not open on this server"), read.toString());
      CallReply written = other.call(CallRequest.newBuilder().setSession(owner.session).setMember(MemberTarget
          .newBuilder().setObject(point).setOp(MemberOp.SET).setName("x")).addArgs(integer(99)));
      assertEquals("SessionLostError", written.getError().getKind(), written.toString());
      assertEquals(0, other.release(owner.session, point));
      // In its own session the object is simply not there.
      assertEquals("RuntimeError", other.call(format(other.session, point)).getError().getKind());

      // The owner still has it, unchanged.
      CallReply mine = owner.call(format(owner.session, point));
      assertTrue(mine.getResult().getText().contains("mine") && mine.getResult().getText().contains("3"),
          mine.toString());
      assertEquals(1, owner.release(owner.session, point));
    }
  }

  @Test
  void streamedArgumentsShareOneBudgetAndCountAsCalls() throws Exception {
    // Trial userV: each stream could have the server allocate --max-tensor-mib, and none counted against
    // --max-calls. Now all calls in flight share the budget: 8 MiB here, of which a 6 MiB argument leaves too little.
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", "--max-tensor-mib", "8",
            RemoteSessionTest.PLUGIN));
        Session first = Packed4j.connect(server.address());
        Session second = Packed4j.connect(server.address())) {
      float[] sixMiB = new float[6 << 18];
      RemoteFunctions holder = first.bind(RemoteFunctions.class);
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        Future<Long> held = pool.submit(() -> holder.holdTensor(sixMiB, 8_000));
        RemoteFunctions other = second.bind(RemoteFunctions.class);
        Packed4jException refused = null;
        for (int attempt = 0; attempt < 60 && refused == null && !held.isDone(); attempt++) {
          Thread.sleep(100); // until the first call's argument has arrived and is held
          try {
            other.holdTensor(sixMiB, 0);
          } catch (Packed4jException e) {
            refused = e;
          }
        }
        assertTrue(refused != null, "a second 6 MiB argument while the first is held");
        assertEquals("ValueError", refused.kind());
        assertTrue(refused.getMessage().contains("the calls in flight hold 6291456 of the 8388608 this server takes"
            + " at once (packed4j-server --max-tensor-mib)"), refused.getMessage());
        assertEquals(6L << 18, held.get(60, TimeUnit.SECONDS));
        // Given back when the first call's stream finishes, just after its reply.
        long count = 0;
        for (int attempt = 0; attempt < 100 && count == 0; attempt++) {
          try {
            count = other.holdTensor(sixMiB, 0);
          } catch (Packed4jException stillHeld) {
            assertTrue(stillHeld.getMessage().contains("calls in flight hold"), stillHeld.getMessage());
            Thread.sleep(50);
          }
        }
        assertEquals(6L << 18, count, "the budget is given back when a call ends");
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void anUnreadableMessageIsOneLogLineAndTheServerGoesOn() throws Exception {
    // Trial userV: each malformed message had gRPC log some 380 lines of stack trace as SEVERE.
    List<LogRecord> logged = new CopyOnWriteArrayList<>();
    Handler recorder = new Handler() {
      @Override
      public void publish(LogRecord record) {
        logged.add(record);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    Logger executor = Logger.getLogger("io.grpc.internal.SerializingExecutor");
    Logger transport = Logger.getLogger("dev.packed4j.remote.internal.TransportLogs");
    executor.addHandler(recorder);
    transport.addHandler(recorder);
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", RemoteSessionTest.PLUGIN));
        RawClient client = new RawClient(server.address())) {
      MethodDescriptor<byte[], byte[]> rawCall = Packed4jRemoteGrpc.getCallMethod().toBuilder(BYTES, BYTES).build();
      StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
          client.channel, rawCall, CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS),
          new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff}));
      assertEquals(Status.Code.UNKNOWN, refused.getStatus().getCode(), refused.toString());
      // A chunk whose length is a varint past 2^31: read as negative, it threw where no handler caught it.
      MethodDescriptor<byte[], byte[]> rawStream = Packed4jRemoteGrpc.getCallStreamMethod().toBuilder(BYTES, BYTES)
          .build();
      Replies<byte[]> ended = new Replies<>();
      StreamObserver<byte[]> chunks = ClientCalls.asyncBidiStreamingCall(
          client.channel.newCall(rawStream, CallOptions.DEFAULT), ended);
      chunks.onNext(new byte[] {0x1a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f});
      chunks.onCompleted();
      assertEquals(Status.Code.UNKNOWN, ended.status.get(30, TimeUnit.SECONDS).getCode());
      for (int wait = 0; wait < 200 && logged.size() < 2; wait++) {
        Thread.sleep(50); // the server logs its line just after it ends the call
      }
      CallReply added = client.call(CallRequest.newBuilder().setSession(client.session).setGlobal("remote.Add")
          .addArgs(integer(1)).addArgs(integer(2)));
      assertEquals(3L, added.getResult().getInteger(), "the server goes on");
    } finally {
      executor.removeHandler(recorder);
      transport.removeHandler(recorder);
    }
    assertEquals(2, logged.size(), logged.stream().map(LogRecord::getMessage).toList().toString());
    assertTrue(logged.get(0).getMessage().startsWith("packed4j-server: refused a message it could not read"),
        logged.get(0).getMessage());
    assertEquals("packed4j-server: refused a message it could not read (invalid CallStream frame: a chunk's length"
        + " reads as 4294967295 bytes, more than a message may carry)", logged.get(1).getMessage());
    assertTrue(logged.stream().allMatch(record -> record.getThrown() == null), "no stack trace");
  }

  @Test
  void aRequestTooLargeForTheServersHeapIsAnErrorAndTheSessionGoesOn() throws Exception {
    // A list of 2,000,000 small numbers is an 8 MB message, and about fifteen times that as objects while it is
    // read: more than this server's 48 MiB heap. gRPC ended the call as "Application error processing RPC", a lost
    // session, and the executor thread died with the error's stack on standard error.
    Path log = Files.createTempFile("packed4j-server-", ".log");
    Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx48m", "-XX:+UseSerialGC", "-XX:-CreateCoredumpOnCrash", "--enable-native-access=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), Packed4jServer.class.getName(), "--port", "0",
        RemoteSessionTest.PLUGIN).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      String address = null;
      for (int wait = 0; wait < 300 && address == null && server.isAlive(); wait++) {
        Thread.sleep(100);
        String first = Files.readString(log).lines().findFirst().orElse("");
        if (first.startsWith("packed4j-server: listening on ")) {
          address = first.substring("packed4j-server: listening on ".length());
        }
      }
      assertTrue(address != null, Files.readString(log));
      List<Long> many = new java.util.ArrayList<>(2_000_000);
      for (int i = 0; i < 2_000_000; i++) {
        many.add((long) (i % 100));
      }
      try (Session session = Packed4j.connect(address)) {
        RemoteFunctions functions = session.bind(RemoteFunctions.class);
        Packed4jException unary = assertThrows(Packed4jException.class, () -> functions.sum(many));
        assertEquals("RuntimeError", unary.kind(), unary.getMessage());
        assertTrue(unary.getMessage().startsWith("[RuntimeError] RemoteFunctions.sum: packed4j-server ran out of"
            + " memory reading this call's arguments, a message of 8720053 bytes, with a heap of at most "),
            unary.getMessage());
        assertTrue(unary.getMessage().contains("Give the server's JVM more heap (-Xmx), or pass fewer values per"
            + " call"), unary.getMessage());
        Packed4jException streamed = assertThrows(Packed4jException.class,
            () -> session.global("packed4j.ListSize").invoke(many)); // its result may be a tensor: on CallStream
        assertEquals("RuntimeError", streamed.kind(), streamed.getMessage());
        assertTrue(streamed.getMessage().contains("packed4j-server ran out of memory reading this call's arguments"),
            streamed.getMessage());
        // With a tensor that streams after the request: its chunks are dropped, the reply is the same.
        try (NDArray streamedTensor = NDArray.fromArray(new float[1 << 18])) {
          Packed4jException withChunks = assertThrows(Packed4jException.class,
              () -> session.global("packed4j.ListSize").invoke(Arrays.asList(many, streamedTensor)));
          assertEquals("RuntimeError", withChunks.kind(), withChunks.getMessage());
          assertTrue(withChunks.getMessage().contains("packed4j-server ran out of memory reading this call's"
              + " arguments"), withChunks.getMessage());
        }
        assertEquals(3L, functions.add(1, 2), "the session goes on");
        assertEquals(4950L, functions.sum(many.subList(0, 100)));
      }
      assertTrue(server.isAlive());
      assertFalse(Files.readString(log).contains("Exception"), Files.readString(log));
    } finally {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
      Files.deleteIfExists(log);
    }
  }

  @Test
  void theMarkOfARequestTooLargeForTheHeapCannotBeForged() throws Exception {
    // Review: a client that sent the stand-in's unknown field had its call answered as too large for the heap, and
    // learned the server's heap size.
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", RemoteSessionTest.PLUGIN));
        RawClient client = new RawClient(server.address())) {
      CallReply added = client.call(CallRequest.newBuilder().setSession(client.session).setGlobal("remote.Add")
          .addArgs(integer(1)).addArgs(integer(2)).setUnknownFields(UnknownFieldSet.newBuilder()
              .addField(1000, UnknownFieldSet.Field.newBuilder().addVarint(99).build()).build()));
      assertEquals(3L, added.getResult().getInteger(), added.toString());
    }
  }

  /** The bytes of a message as they are, for sending what no protobuf encoder would. */
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /** CallStream as a raw client speaks it: frames of the .proto, unchunked. */
  private static final MethodDescriptor<Frame, Frame> CALL_STREAM = MethodDescriptor.<Frame, Frame>newBuilder(
          ProtoUtils.marshaller(Frame.getDefaultInstance()), ProtoUtils.marshaller(Frame.getDefaultInstance()))
      .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
      .setFullMethodName(Packed4jRemoteGrpc.getCallStreamMethod().getFullMethodName())
      .build();

  /** A streamed call's request: one float32 tensor argument of {@code count} elements, announced, bytes to follow. */
  private static Frame streamedRequest(long session, int count) {
    return Frame.newBuilder().setRequest(CallRequest.newBuilder().setSession(session).setGlobal("remote.SumFloat32")
        .addArgs(Value.newBuilder().setTensor(Tensor.newBuilder().setDtype("float32").addShape(count)
            .setStreamed(true)))).build();
  }

  /** Sends {@code frames} on a CallStream, half-closing after them unless {@code halfClose} is false. */
  private static ClientCall<Frame, Frame> stream(RawClient client, StreamObserver<Frame> replies, boolean halfClose,
      Frame... frames) {
    ClientCall<Frame, Frame> call = client.channel.newCall(CALL_STREAM, CallOptions.DEFAULT);
    StreamObserver<Frame> requests = ClientCalls.asyncBidiStreamingCall(call, replies);
    for (Frame frame : frames) {
      requests.onNext(frame);
    }
    if (halfClose) {
      requests.onCompleted();
    }
    return call;
  }

  /** What a CallStream call ended with: its reply frames, then its status. */
  private static final class Replies<T> implements StreamObserver<T> {
    final List<T> frames = new CopyOnWriteArrayList<>();
    final CompletableFuture<Status> status = new CompletableFuture<>();

    @Override
    public void onNext(T frame) {
      frames.add(frame);
    }

    @Override
    public void onError(Throwable error) {
      status.complete(Status.fromThrowable(error));
    }

    @Override
    public void onCompleted() {
      status.complete(Status.OK);
    }
  }

  @Test
  void aStreamedCallNamingAnotherConnectionsSessionIsAnsweredAsForNone() throws Exception {
    // The review's finding: such a call was refused without a receiver, and the half-close threw, which a client
    // takes for a lost session.
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", RemoteSessionTest.PLUGIN));
        RawClient owner = new RawClient(server.address());
        RawClient other = new RawClient(server.address())) {
      Replies<Frame> replies = new Replies<>();
      stream(other, replies, true, streamedRequest(owner.session, 1 << 18));
      assertEquals(Status.Code.OK, replies.status.get(30, TimeUnit.SECONDS).getCode());
      CallReply reply = replies.frames.get(0).getReply();
      assertEquals("SessionLostError", reply.getError().getKind(), reply.toString());
    }
  }

  @Test
  void aStreamThatAnnouncesBytesAndSendsNoneIsEndedAndGivesItsBudgetBack() throws Exception {
    // Trial userV: such streams held their allocations until the client went away. With a budget of 1 MiB, one
    // stalled 1 MiB announcement would keep every other client's streamed arguments out.
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", "--max-tensor-mib", "1",
            "--stream-idle-seconds", "1", RemoteSessionTest.PLUGIN));
        RawClient stalling = new RawClient(server.address());
        Session wellBehaved = Packed4j.connect(server.address())) {
      Replies<Frame> replies = new Replies<>();
      stream(stalling, replies, false, streamedRequest(stalling.session, 1 << 18));
      Status ended = replies.status.get(30, TimeUnit.SECONDS);
      assertEquals(Status.Code.DEADLINE_EXCEEDED, ended.getCode(), ended.toString());
      assertTrue(ended.getDescription().contains("no bytes of the streamed tensor arguments arrived for 1 s"),
          ended.toString());
      float[] values = new float[1 << 18];
      Arrays.fill(values, 0.5f);
      double sum = 0;
      for (int attempt = 0; attempt < 100 && sum == 0; attempt++) { // until the stalled call's close has run
        try {
          sum = wellBehaved.bind(RemoteFunctions.class).sumFloats(values);
        } catch (Packed4jException budgetStillHeld) {
          Thread.sleep(50);
        }
      }
      assertEquals((1 << 18) * 0.5, sum, "the budget is the next call's");
    }
  }

  @Test
  void theCoresPlumbingIsNotServed() throws Exception {
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", RemoteSessionTest.PLUGIN));
        RawClient client = new RawClient(server.address())) {
      List<String> globals = Packed4jRemoteGrpc.newBlockingStub(client.channel)
          .describe(DescribeRequest.newBuilder().setSession(client.session).build()).getGlobalsList();
      assertTrue(globals.contains("remote.Add") && globals.contains("packed4j.SaveJSON"), globals.toString());
      assertTrue(globals.stream().noneMatch(name -> name.startsWith("packed4j_internal.")), globals.toString());
      assertFalse(globals.contains("packed4j.TakeRegistrationErrors"), globals.toString());
      // Called by name anyway: as unknown as a name no library registers.
      for (String name : List.of("packed4j.TakeRegistrationErrors", "packed4j_internal.RegisterObjectCreator")) {
        CallReply reply = client.call(CallRequest.newBuilder().setSession(client.session).setGlobal(name));
        assertEquals("KeyError", reply.getError().getKind(), reply.toString());
      }
    }
  }
}
