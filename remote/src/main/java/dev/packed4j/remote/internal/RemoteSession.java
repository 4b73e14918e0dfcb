package dev.packed4j.remote.internal;

import dev.packed4j.remote.internal.proto.CallReply;
import dev.packed4j.remote.internal.proto.CallRequest;
import dev.packed4j.remote.internal.proto.DescribeReply;
import dev.packed4j.remote.internal.proto.DescribeRequest;
import dev.packed4j.remote.internal.proto.Field;
import dev.packed4j.remote.internal.proto.Member;
import dev.packed4j.remote.internal.proto.MemberOp;
import dev.packed4j.remote.internal.proto.MemberTarget;
import dev.packed4j.remote.internal.proto.ObjectType;
import dev.packed4j.remote.internal.proto.Packed4jRemoteGrpc;
import dev.packed4j.remote.internal.proto.ReleaseReply;
import dev.packed4j.remote.internal.proto.ReleaseRequest;
import dev.packed4j.remote.internal.proto.RemoteError;
import dev.packed4j.remote.internal.proto.TypeMemberTarget;
import dev.packed4j.remote.internal.proto.Value;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import dev.packed4j.runtime.SessionOptions;
import io.grpc.CallOptions;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A session over gRPC: calls, releases and descriptions on its current {@link Connection}; for an isolated session,
 * the child that serves it, restarted at the next call after a loss when the options ask for it.
 */
final class RemoteSession implements Session {
  /**
   * Closes the sessions nobody closed once nothing refers to them (their objects and bound interfaces refer to
   * them): an isolated one's child JVM and a connection's channel would otherwise last as long as this JVM. A thread
   * of its own, as a close waits for the channel and the child to end.
   */
  private static final Cleaner CLEANER = Cleaner.create();

  private final String description;
  private final SessionOptions options;
  private final long deadlineNanos;
  /** For an isolated session: how to start the child again; null for a connected one. */
  private final List<String> childLibraryArgs;
  private volatile Connection connection;
  private volatile boolean closed;
  /** What {@link #close} ends, also when the session becomes unreachable unclosed. */
  private final Ending ending;
  private final Cleaner.Cleanable cleanable;

  private RemoteSession(String description, SessionOptions options, List<String> childLibraryArgs,
      Connection connection) {
    this.description = description;
    this.options = options;
    this.deadlineNanos = options.deadline().toNanos();
    this.childLibraryArgs = childLibraryArgs;
    this.connection = connection;
    this.ending = new Ending(connection);
    this.cleanable = CLEANER.register(this, ending);
  }

  /**
   * Ends the current connection and its child, once; refers to no session, so that the Cleaner can run it. The
   * Cleaner's run hands the ending to a thread of its own, as it waits for a channel and a child to end (a second or
   * two), and one cleaner thread would end many dropped sessions one after the other; {@link #close} ends in place.
   */
  private static final class Ending implements Runnable {
    volatile Connection connection;
    private final AtomicBoolean ended = new AtomicBoolean();

    Ending(Connection connection) {
      this.connection = connection;
    }

    /** Ends the session on this thread, unless it ended already. */
    void end() {
      if (ended.compareAndSet(false, true)) {
        Connection last = connection;
        last.close();
        if (last.child != null) {
          last.child.stop();
        }
      }
    }

    @Override
    public void run() {
      if (!ended.get()) {
        Thread.ofVirtual().name("packed4j-session-cleaner").start(this::end);
      }
    }
  }

  static RemoteSession connect(String target, SessionOptions options) {
    int colon = target.lastIndexOf(':');
    String digits = colon > 0 ? target.substring(colon + 1) : "";
    boolean port = !digits.isEmpty() && digits.length() <= 5 && digits.chars().allMatch(c -> c >= '0' && c <= '9')
        && Integer.parseInt(digits) >= 1 && Integer.parseInt(digits) <= 65535;
    if (!port) {
      // gRPC checks the port only on its own thread, which dies of it while the caller waits out the deadline.
      throw new IllegalArgumentException("Packed4j.connect takes host:port with a port from 1 to 65535, such as"
          + " \"localhost:7000\", got '" + target + "'");
    }
    Connection connection = Connection.open(target, options, options.token().orElse(null), null,
        System.nanoTime() + options.openTimeout().toNanos());
    return new RemoteSession(target, options, null, connection);
  }

  static RemoteSession isolated(List<String> libraryArgs, String library, SessionOptions options) {
    return new RemoteSession(library, options, libraryArgs, startChild(libraryArgs, library, options));
  }

  /** Starts a child and connects to it, both within the open timeout. */
  private static Connection startChild(List<String> libraryArgs, String library, SessionOptions options) {
    long openBy = System.nanoTime() + options.openTimeout().toNanos();
    ChildServer child = ChildServer.start(libraryArgs, library, options, openBy);
    try {
      // The child's own token, plaintext on loopback: the options' token and TLS are for servers started by hand.
      return Connection.open(child.address, options, child.token, child, openBy);
    } catch (RuntimeException e) {
      child.stop();
      throw e;
    }
  }

  /** The connection for a new call: the current one, a restarted child's, or the error of a lost session. */
  Connection connection(String site) {
    if (closed) {
      throw new IllegalStateException(site + ": the session with " + description + " is closed");
    }
    Connection current = connection;
    if (current.isLost() || (current.child != null && !current.child.isAlive())) {
      if (childLibraryArgs != null && options.restartOnLoss()) {
        return restart(current, site);
      }
      throw current.lostError(site, "the server is gone");
    }
    return current;
  }

  private synchronized Connection restart(Connection lost, String site) {
    if (closed) {
      // close() ran since this call looked (it sets closed under this lock): a child started now would outlive it.
      throw new IllegalStateException(site + ": the session with " + description + " is closed");
    }
    if (connection != lost) {
      return connection; // another thread restarted it
    }
    lost.close();
    lost.child.stop();
    connection = startChild(childLibraryArgs, description, options);
    ending.connection = connection;
    return connection;
  }

  CallOptions callOptions() {
    return CallOptions.DEFAULT.withDeadlineAfter(deadlineNanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Calls on the server; returns the result or throws its error. A call with streamed tensors, or whose result may
   * hold one, goes on CallStream; {@code transfer} then holds the tensors the reply streamed.
   */
  Value call(Connection on, CallRequest.Builder request, String site, Transfer transfer) {
    request.setSession(on.sessionId).setSite(site);
    CallReply reply;
    if (transfer.streams()) {
      reply = StreamedCall.run(on, callOptions(), request.build(), transfer, site);
    } else {
      try {
        reply = ClientCalls.blockingUnaryCall(on.channel, Methods.CALL, callOptions(), request.build());
      } catch (StatusRuntimeException e) {
        throw on.failure(e.getStatus(), site);
      }
    }
    if (reply.hasError()) {
      transfer.closeUnclaimed();
      throw remoteError(reply.getError());
    }
    return reply.getResult();
  }

  Value callTypeMember(String typeKey, String name, List<Value> args, Connection on, String site,
      Transfer transfer) {
    return call(on, CallRequest.newBuilder().setTypeMember(TypeMemberTarget.newBuilder().setTypeKey(typeKey)
        .setName(name)).addAllArgs(args), site, transfer);
  }

  Value callMember(Connection on, long objectId, MemberOp op, String name, List<Value> args, String site,
      Transfer transfer) {
    if (closed) {
      throw new IllegalStateException(site + ": the session with " + description + " is closed");
    }
    if (on != connection || on.isLost()) {
      throw on.lostError(site, "the object lived in a server session that ended");
    }
    return call(on, CallRequest.newBuilder().setMember(MemberTarget.newBuilder().setObject(objectId).setOp(op)
        .setName(name)).addAllArgs(args), site, transfer);
  }

  /** Releases one reference of a remote object, without waiting; nothing to do when its connection is gone. */
  void release(Connection on, long objectId) {
    if (closed || on != connection || on.isLost()) {
      return;
    }
    ClientCalls.asyncUnaryCall(on.channel.newCall(Packed4jRemoteGrpc.getReleaseMethod(), callOptions()),
        ReleaseRequest.newBuilder().setSession(on.sessionId).addObjects(objectId).build(), new StreamObserver<>() {
          @Override
          public void onNext(ReleaseReply value) {}

          @Override
          public void onError(Throwable t) {
            // the server is gone, and with it the object
          }

          @Override
          public void onCompleted() {}
        });
  }

  /** The server's error as the runtime raises it; a Java exception of the server's as that class where it can. */
  static RuntimeException remoteError(RemoteError error) {
    String function = error.getFunction().isEmpty() ? null : error.getFunction();
    String javaClass = error.getJavaClass();
    if (!javaClass.isEmpty()) {
      String message = (function == null ? "" : function + ": ") + error.getMessage() + " (on the server)";
      switch (javaClass) {
        case "java.lang.IllegalStateException" -> {
          return new IllegalStateException(message);
        }
        case "java.lang.IllegalArgumentException" -> {
          return new IllegalArgumentException(message);
        }
        case "java.lang.UnsupportedOperationException" -> {
          return new UnsupportedOperationException(message);
        }
        case "java.lang.ArithmeticException" -> {
          return new ArithmeticException(message);
        }
        default -> {
          return GrpcSessionProvider.newError(error.getKind(), javaClass + ": " + error.getMessage(),
              error.getBacktrace(), function);
        }
      }
    }
    return GrpcSessionProvider.newError(error.getKind(), error.getMessage(), error.getBacktrace(), function);
  }

  @Override
  public <T> T bind(Class<T> functions) {
    return BoundInterface.bind(this, functions);
  }

  @Override
  public Session.Function global(String name) {
    java.util.Objects.requireNonNull(name, "name");
    List<String> names = list();
    if (!names.contains(name)) {
      throw GrpcSessionProvider.newError("KeyError", "no global function '" + name + "' is registered by "
          + connection("Session.global").where() + nearNames(name, names), "", null);
    }
    return new RemoteFunction(this, name, null);
  }

  /** "; registered with that prefix: [...]" for up to eight names sharing name's first segment, or "". */
  static String nearNames(String name, List<String> names) {
    String prefix = name.contains(".") ? name.substring(0, name.indexOf('.') + 1) : name;
    List<String> near = names.stream().filter(candidate -> candidate.startsWith(prefix)).limit(8).toList();
    return near.isEmpty() ? "" : "; registered with that prefix: " + near;
  }

  private DescribeReply describe() {
    Connection on = connection("Session.list");
    try {
      return ClientCalls.blockingUnaryCall(on.channel, Packed4jRemoteGrpc.getDescribeMethod(), callOptions(),
          DescribeRequest.newBuilder().setSession(on.sessionId).build());
    } catch (StatusRuntimeException e) {
      throw on.failure(e.getStatus(), "Session.list");
    }
  }

  @Override
  public List<String> list() {
    return describe().getGlobalsList().stream().sorted(Comparator.naturalOrder()).toList();
  }

  @Override
  public List<ObjectTypeInfo> objectTypes() {
    List<ObjectTypeInfo> types = new ArrayList<>();
    for (ObjectType type : describe().getTypesList()) {
      List<ObjectTypeInfo.Field> fields = new ArrayList<>();
      for (Field field : type.getFieldsList()) {
        fields.add(new ObjectTypeInfo.Field(field.getName(), field.getType(), field.getDeclaredBy(),
            field.getMutable(), field.getDoc()));
      }
      List<ObjectTypeInfo.Member> members = new ArrayList<>();
      for (Member member : type.getMembersList()) {
        members.add(new ObjectTypeInfo.Member(member.getName(), ObjectTypeInfo.MemberKind.valueOf(member.getKind()),
            member.getSignature(), member.getParameterNamesList(), member.getDoc(), member.getDeclaredBy()));
      }
      types.add(new ObjectTypeInfo(type.getKey(), type.getParent().isEmpty() ? Optional.empty()
          : Optional.of(type.getParent()), fields, members, type.getDoc()));
    }
    return List.copyOf(types);
  }

  @Override
  public String target() {
    return connection.target;
  }

  SessionOptions options() {
    return options;
  }

  Connection currentConnection() {
    return connection;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    ending.end();
    cleanable.clean(); // the Cleaner lets go of it; its run finds it ended
  }

  @Override
  public String toString() {
    return "Session[" + (connection.child != null ? connection.child.description() : description)
        + (closed ? ", closed" : connection.isLost() ? ", lost" : "") + "]";
  }

  /** For errors that name an object the session no longer has. */
  static Packed4jException typeError(String message) {
    return GrpcSessionProvider.newError("TypeError", message, "", null);
  }
}
