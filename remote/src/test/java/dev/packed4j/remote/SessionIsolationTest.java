package dev.packed4j.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A session is its client's alone: another connection that names its id (guessed, or learned) is answered as for an
 * id never given out, and cannot read, change or release its objects (trial userV: ids counted up from 1, and any
 * client with the token could use and release another's objects). Speaks the wire protocol directly, as a hostile
 * client would.
 */
class SessionIsolationTest {
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
