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
   * of its own, as a close waits for the child to be reaped.
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
   * Cleaner's run hands the ending to a thread of its own, as it waits for a killed child to be reaped, and one
   * cleaner thread would end many dropped sessions one after the other; {@link #close} ends in place, at once: the
   * channel is shut down without waiting for its calls (they fail with SessionLostError) and the child is killed.
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

  /** Starts a child and connects to it, both within the open timeout, and warms the call path with what is left. */
  private static Connection startChild(List<String> libraryArgs, String library, SessionOptions options) {
    long openBy = System.nanoTime() + options.openTimeout().toNanos();
    ChildServer child = ChildServer.start(libraryArgs, library, options, openBy);
    Connection connection = null;
    try {
      // The child's own token, plaintext on loopback: the options' token and TLS are for servers started by hand.
      connection = Connection.open(child.address, options, child.token, child, openBy);
      connection.warmUpCalls = warmUp(connection, openBy);
    } catch (RuntimeException | Error e) {
      if (connection != null) {
        connection.close();
      }
      child.stop();
      throw e;
    }
    return connection;
  }

  /** How many round trips {@link #warmUp} makes: enough for the first calls of a fresh child to be quick. */
  static final int WARM_UP_CALLS = 8;

  /**
   * Makes up to {@link #WARM_UP_CALLS} calls of {@code packed4j.ListSize} on a new child, each within the open
   * timeout, and returns how many were answered. A call of a fresh JVM is slow (100 to 200 ms on a loaded machine,
   * 15 ms once warm): its first calls load and initialise the classes of the call path, on both sides (gRPC's
   * transport and stubs, the messages, the conversions of arguments and results, the server's dispatch and the
   * runtime's dynamic call into the registry), and the JIT has compiled none of it. So the open takes them, within
   * its own timeout, and not the first calls of the application, which may have a short deadline. ListSize is
   * registered by libpacked4j itself, so every child has it, and reads nothing of the plugin's. What stays cold is
   * the plugin's own: its function's first call (its code and data, and the server's lookup of its name). Warming
   * is best effort: a failure or the end of the open timeout ends it, and the open still succeeds; a real problem
   * is the next call's error.
   */
  private static int warmUp(Connection on, long openBy) {
    Transfer transfer = new Transfer(long.class);
    Value list = ClientValues.toWire(null, on, List.of(1L, "two", 3.0), "Packed4j.isolated", "warm-up", transfer);
    int answered = 0;
    while (answered < WARM_UP_CALLS) {
      long left = openBy - System.nanoTime();
      if (left <= 0) {
        break;
      }
      CallRequest request = CallRequest.newBuilder().setSession(on.sessionId).setSite("Packed4j.isolated warm-up")
          .setGlobal("packed4j.ListSize").addArgs(list).build();
      try {
        CallReply reply = ClientCalls.blockingUnaryCall(on.channel, Methods.CALL,
            CallOptions.DEFAULT.withDeadlineAfter(left, TimeUnit.NANOSECONDS), request);
        if (reply.hasError() || !Long.valueOf(3).equals(ClientValues.result(null, on, reply.getResult(),
            long.class, "Packed4j.isolated warm-up", transfer))) {
          break;
        }
      } catch (RuntimeException e) {
        break; // the session's own calls will say what is wrong
      }
      answered++;
    }
    return answered;
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

  /** The longest a remote object's {@code toString()} waits for the server's answer. */
  private static final long FORMAT_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(1);

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

  /**
   * A remote object's {@code toString()} as the server's runtime formats it ({@code remote.Point{x=1, y=2, ...}}),
   * one call; {@code typeKey{closed}} when the session is closed, {@code typeKey{lost}} when the object's server
   * session ended, and {@code typeKey@remote#id} when the server does not answer within a second (or the session's
   * deadline, if shorter: a hung server, a server older than the FORMAT operation). Never throws: it is for logs.
   */
  String format(Connection on, long objectId, String typeKey) {
    if (closed) {
      return typeKey + "{closed}";
    }
    if (on != connection || on.isLost() || (on.child != null && !on.child.isAlive())) {
      return typeKey + "{lost}";
    }
    try {
      // Not the session's deadline (30 s by default): a log line must not wait that long for a server that hangs.
      CallRequest request = CallRequest.newBuilder().setSession(on.sessionId).setSite(typeKey + ".toString")
          .setMember(MemberTarget.newBuilder().setObject(objectId).setOp(MemberOp.FORMAT)).build();
      CallReply reply = ClientCalls.blockingUnaryCall(on.channel, Methods.CALL, CallOptions.DEFAULT
          .withDeadlineAfter(Math.min(deadlineNanos, FORMAT_DEADLINE_NANOS), TimeUnit.NANOSECONDS), request);
      if (!reply.hasError() && reply.getResult().getKindCase() == Value.KindCase.TEXT) {
        return reply.getResult().getText();
      }
    } catch (RuntimeException unanswered) {
      if (closed) {
        return typeKey + "{closed}";
      }
      if (on.isLost()) {
        return typeKey + "{lost}";
      }
    }
    return typeKey + "@remote#" + objectId;
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
    return describe(connection("Session.list"), "Session.list");
  }

  private DescribeReply describe(Connection on, String site) {
    try {
      return ClientCalls.blockingUnaryCall(on.channel, Packed4jRemoteGrpc.getDescribeMethod(), callOptions(),
          DescribeRequest.newBuilder().setSession(on.sessionId).build());
    } catch (StatusRuntimeException e) {
      throw on.failure(e.getStatus(), site);
    }
  }

  /**
   * Whether the server's object type {@code typeKey} is {@code wanted} or derives from it, as the runtime checks an
   * object result against its declared {@code @Object} type. The server's type table is read on the connection's
   * first check, and again when it lacks {@code typeKey} (a type registered since).
   */
  boolean derivesFrom(Connection on, String typeKey, String wanted, String site) {
    java.util.Map<String, String> parents = on.typeParents;
    if (parents == null || !parents.containsKey(typeKey)) {
      java.util.Map<String, String> read = new java.util.HashMap<>();
      for (ObjectType type : describe(on, site).getTypesList()) {
        read.put(type.getKey(), type.getParent());
      }
      on.typeParents = parents = read;
    }
    if (!parents.containsKey(typeKey)) {
      return true; // a key the server returned but does not list: nothing to judge by, the view is the declared one
    }
    String key = typeKey;
    for (int steps = 0; key != null && !key.isEmpty() && steps <= parents.size(); steps++) {
      if (key.equals(wanted)) {
        return true;
      }
      key = parents.get(key);
    }
    return false;
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
