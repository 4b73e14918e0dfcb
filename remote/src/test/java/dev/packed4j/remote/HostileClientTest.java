package dev.packed4j.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.remote.internal.proto.CallReply;
import dev.packed4j.remote.internal.proto.CallRequest;
import dev.packed4j.remote.internal.proto.DescribeRequest;
import dev.packed4j.remote.internal.proto.MemberOp;
import dev.packed4j.remote.internal.proto.MemberTarget;
import dev.packed4j.remote.internal.proto.OpenRequest;
import dev.packed4j.remote.internal.proto.Packed4jRemoteGrpc;
import dev.packed4j.remote.internal.proto.ReleaseRequest;
import dev.packed4j.remote.internal.proto.SessionEvent;
import dev.packed4j.remote.internal.proto.Value;
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
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
    public void close() throws InterruptedException {
      open.cancel("done", null);
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
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
        assertEquals(6L << 18, other.holdTensor(sixMiB, 0), "the budget is given back when a call ends");
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
      CallReply added = client.call(CallRequest.newBuilder().setSession(client.session).setGlobal("remote.Add")
          .addArgs(integer(1)).addArgs(integer(2)));
      assertEquals(3L, added.getResult().getInteger(), "the server goes on");
    } finally {
      executor.removeHandler(recorder);
      transport.removeHandler(recorder);
    }
    assertEquals(1, logged.size(), logged.stream().map(LogRecord::getMessage).toList().toString());
    assertTrue(logged.get(0).getMessage().startsWith("packed4j-server: refused a message it could not read"),
        logged.get(0).getMessage());
    assertEquals(null, logged.get(0).getThrown(), "no stack trace");
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
