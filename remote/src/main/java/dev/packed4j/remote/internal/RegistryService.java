package dev.packed4j.remote.internal;

import dev.packed4j.remote.internal.proto.CallReply;
import dev.packed4j.remote.internal.proto.CallRequest;
import dev.packed4j.remote.internal.proto.DescribeReply;
import dev.packed4j.remote.internal.proto.DescribeRequest;
import dev.packed4j.remote.internal.proto.Field;
import dev.packed4j.remote.internal.proto.Member;
import dev.packed4j.remote.internal.proto.MemberTarget;
import dev.packed4j.remote.internal.proto.ObjectType;
import dev.packed4j.remote.internal.proto.OpenRequest;
import dev.packed4j.remote.internal.proto.Opened;
import dev.packed4j.remote.internal.proto.Packed4jRemoteGrpc;
import dev.packed4j.remote.internal.proto.ReleaseReply;
import dev.packed4j.remote.internal.proto.ReleaseRequest;
import dev.packed4j.remote.internal.proto.RemoteError;
import dev.packed4j.remote.internal.proto.SessionEvent;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.ObjectRef;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * The server's side of the wire: the registry of the libraries this JVM loaded, called for client sessions. Calls
 * run on gRPC's executor, concurrently; each session's objects are held in its {@link ServerSession} and closed when
 * its Open stream ends.
 */
final class RegistryService extends Packed4jRemoteGrpc.Packed4jRemoteImplBase {
  private static final Logger LOG = Logger.getLogger(RegistryService.class.getName());

  private final Map<Long, ServerSession> sessions = new ConcurrentHashMap<>();
  private final Map<String, PackedFunction> functions = new ConcurrentHashMap<>();
  private static final SecureRandom SESSION_IDS = new SecureRandom();
  private final long maxTensorBytes;
  private final long maxStreamedBytes;
  /** The bytes of streamed tensor arguments allocated for calls in flight, at most {@link #maxStreamedBytes}. */
  private final AtomicLong streamedHeld = new AtomicLong();
  /**
   * The calls that may run at once (--max-calls). A deadline cannot stop native code: a call past it goes on in its
   * thread until its function returns, so each running call holds a permit until then, and a call beyond the limit
   * is refused at once instead of taking one more thread (a client whose calls all time out would take one each).
   */
  private final Semaphore running;
  private final int maxCalls;
  /**
   * The calls one connection may run at once (--max-calls-per-connection), counted in its {@link
   * CallerConnection.Identity}: one client, however many sessions it opens there, leaves the rest of --max-calls to
   * the others.
   */
  private final int maxCallsPerConnection;

  /**
   * @param maxTensorBytes the largest tensor a unary call's reply carries
   * @param maxStreamedBytes the most a CallStream request may have the server allocate for its streamed tensors
   * @param maxCalls the most calls running at once
   * @param maxCallsPerConnection the most calls of one connection running at once
   */
  RegistryService(long maxTensorBytes, long maxStreamedBytes, int maxCalls, int maxCallsPerConnection,
      int streamIdleSeconds) {
    this.maxTensorBytes = maxTensorBytes;
    this.maxStreamedBytes = maxStreamedBytes;
    this.running = new Semaphore(maxCalls);
    this.maxCalls = maxCalls;
    this.maxCallsPerConnection = maxCallsPerConnection;
    this.streamIdleNanos = TimeUnit.SECONDS.toNanos(streamIdleSeconds);
  }

  /** How long a streamed call may wait for its arguments' next bytes (--stream-idle-seconds). */
  private final long streamIdleNanos;
  /** The streamed calls still receiving their arguments, watched for stalling. */
  private final Set<ServerStream> receiving = ConcurrentHashMap.newKeySet();
  /** Looks at {@link #receiving} every second; started with the first streamed call. */
  private ScheduledExecutorService watch;

  /**
   * Watches a streamed call until it finishes, and ends it once no bytes of its arguments arrived for
   * --stream-idle-seconds: an announced tensor holds its share of the --max-tensor-mib budget, so a client that
   * announces and never sends would keep it from every other client (trial userV).
   */
  synchronized void watchProgress(ServerStream stream) {
    if (watch == null) {
      watch = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "packed4j-server-stream-watch");
        thread.setDaemon(true);
        return thread;
      });
      watch.scheduleWithFixedDelay(this::endStalledStreams, 1, 1, TimeUnit.SECONDS);
    }
    receiving.add(stream);
  }

  private void endStalledStreams() {
    long now = System.nanoTime();
    for (ServerStream stream : receiving) {
      if (stream.isFinished() || stream.isHalfClosed()) {
        receiving.remove(stream);
      } else if (stream.stalled(now, streamIdleNanos)) {
        receiving.remove(stream);
        stream.cancelStalled("packed4j-server: no bytes of the streamed tensor arguments arrived for "
            + TimeUnit.NANOSECONDS.toSeconds(streamIdleNanos) + " s (packed4j-server --stream-idle-seconds)");
      }
    }
  }

  @Override
  public void open(OpenRequest request, StreamObserver<SessionEvent> events) {
    // Unguessable, and served only on this connection (session(id)): an id is no key to another client's objects.
    long id;
    ServerSession session;
    do {
      id = SESSION_IDS.nextLong() & Long.MAX_VALUE;
      session = new ServerSession(id, request.getClient(), CallerConnection.current());
    } while (id == 0 || sessions.putIfAbsent(id, session) != null);
    long opened = id;
    ((ServerCallStreamObserver<SessionEvent>) events).setOnCancelHandler(() -> end(opened));
    events.onNext(SessionEvent.newBuilder().setOpened(Opened.newBuilder().setSession(id)
        .setAbiVersion(Packed4j.abiVersion()).setPid(ProcessHandle.current().pid())).build());
  }

  /** Ends a session whose client closed it or went away: releases everything it held. */
  private void end(long id) {
    ServerSession session = sessions.remove(id);
    if (session != null) {
      int released = session.end();
      if (released > 0) {
        LOG.fine(() -> "session " + id + " (" + session.client + ") ended; released " + released + " objects");
      }
    }
  }

  /**
   * The open session of this id, or null, also when it was opened on another connection than the current call's:
   * the same answer as for an id never given out, so that a wrong one tells nothing.
   */
  ServerSession session(long id) {
    ServerSession session = sessions.get(id);
    // Never when either side has no identity: a server without the marker serves no session rather than all.
    return session != null && session.connection != null && session.connection == CallerConnection.current()
        ? session : null;
  }

  /** The server's end of a CallStream call. */
  StreamObserver<Chunks.Message> streamedCall(StreamObserver<Chunks.Message> out) {
    return new ServerStream(this, out, maxTensorBytes, maxStreamedBytes);
  }

  @Override
  public void call(CallRequest request, StreamObserver<CallReply> reply) {
    ServerSession session = session(request.getSession());
    ServerValues values = session == null ? null : new ServerValues(session, maxTensorBytes);
    try {
      reply.onNext(call(request, session, values));
      reply.onCompleted(); // the message is serialized by now: the tensors it refers to may go
    } finally {
      if (values != null) {
        values.closeTemporaries();
      }
    }
  }

  CallReply call(CallRequest request, ServerSession session, ServerValues values) {
    if (session == null) {
      return sessionNotOpen(request);
    }
    long unread = TooLargeForHeap.size(request);
    if (unread >= 0) {
      return tooLargeForHeap(request, unread);
    }
    AtomicInteger ofConnection = session.connection.running;
    if (ofConnection.incrementAndGet() > maxCallsPerConnection) {
      ofConnection.decrementAndGet();
      return tooManyCallsOfConnection(request);
    }
    try {
      if (!running.tryAcquire()) {
        return tooManyCalls(request);
      }
      try {
        return callHoldingPermit(request, session, values);
      } finally {
        running.release();
      }
    } finally {
      ofConnection.decrementAndGet();
    }
  }

  /** The reply to a call that names a session not open on this connection. */
  static CallReply sessionNotOpen(CallRequest request) {
    return error("SessionLostError", site(request) + ": session " + request.getSession() + " is not open on this"
        + " server (it was closed, or the server restarted)", "", null, null);
  }

  /** The reply to a call whose request the server ran out of heap reading ({@link TooLargeForHeap}). */
  static CallReply tooLargeForHeap(CallRequest request, long bytes) {
    return error("RuntimeError", site(request) + ": packed4j-server ran out of memory reading this call's arguments,"
        + " a message of " + bytes + " bytes, with a heap of at most " + (Runtime.getRuntime().maxMemory() >> 20)
        + " MiB: many small values take many times their message's size as objects while they are read. Give the"
        + " server's JVM more heap (-Xmx), or pass fewer values per call (an NDArray crosses without that cost)",
        "", site(request), null);
  }

  /** The reply to a call beyond --max-calls-per-connection. */
  private CallReply tooManyCallsOfConnection(CallRequest request) {
    return error("RuntimeError", site(request) + ": this client's connection runs " + maxCallsPerConnection
        + " calls already, the server's limit for one connection (packed4j-server --max-calls-per-connection);"
        + " calls past their deadline count until their native functions return", "", site(request), null);
  }

  /** The reply to a call beyond --max-calls. */
  private CallReply tooManyCalls(CallRequest request) {
    return error("RuntimeError", site(request) + ": the server runs " + maxCalls + " calls already, its limit"
        + " (packed4j-server --max-calls); calls past their deadline count until their native functions return",
        "", site(request), null);
  }

  /**
   * Takes {@code bytes} of the streamed-argument budget all calls share (--max-tensor-mib): an announced tensor is
   * allocated whole while its chunks arrive, so without a shared budget clients that announce and never send would
   * have the server reserve memory without bound (trial userV: 20 streams reserved 21 GB).
   *
   * @return false, taking nothing, when the budget does not have them
   */
  boolean reserveStreamed(long bytes) {
    long held;
    do {
      held = streamedHeld.get();
      if (bytes > maxStreamedBytes - held) {
        return false;
      }
    } while (!streamedHeld.compareAndSet(held, held + bytes));
    return true;
  }

  /** Gives back what {@link #reserveStreamed} took. */
  void releaseStreamed(long bytes) {
    streamedHeld.addAndGet(-bytes);
  }

  /** The bytes of streamed arguments the server holds for calls in flight now. */
  long streamedHeld() {
    return streamedHeld.get();
  }

  private static String site(CallRequest request) {
    return request.getSite().isEmpty() ? describeTarget(request) : request.getSite();
  }

  /** {@link #call(CallRequest, ServerSession, ServerValues)} once it holds its permit. */
  private CallReply callHoldingPermit(CallRequest request, ServerSession session, ServerValues values) {
    String site = site(request);
    try {
      Object[] args = values.arguments(request.getArgsList());
      Object result = switch (request.getTargetCase()) {
        case GLOBAL -> function(request.getGlobal()).invoke(args);
        case MEMBER -> member(session, request.getMember(), args);
        case TYPE_MEMBER -> NativeObject.callStatic(request.getTypeMember().getTypeKey(),
            request.getTypeMember().getName(), args);
        case TARGET_NOT_SET -> throw new IllegalArgumentException("a call names no global function and no object");
      };
      return CallReply.newBuilder().setResult(values.toWire(result)).build();
    } catch (Packed4jException e) {
      return error(e.kind(), e.nativeMessage(), e.nativeBacktrace(), e.functionName(), null);
    } catch (KindedError e) {
      return error(e.kind, e.getMessage(), "", site, null);
    } catch (RuntimeException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      return error("RuntimeError", message, "", site, e.getClass().getName());
    } catch (OutOfMemoryError | StackOverflowError e) {
      // The server goes on (the call's memory or stack is gone with it); the client hears why, not a lost session.
      return error("RuntimeError", site + ": packed4j-server ran out of " + (e instanceof OutOfMemoryError
          ? "memory" : "stack") + " for this call (" + e.getMessage() + ")", "", site, e.getClass().getName());
    }
  }

  private static String describeTarget(CallRequest request) {
    return switch (request.getTargetCase()) {
      case MEMBER -> request.getMember().getOp() + " " + request.getMember().getName();
      case TYPE_MEMBER -> request.getTypeMember().getTypeKey() + "." + request.getTypeMember().getName();
      default -> request.getGlobal();
    };
  }

  /**
   * Whether sessions may see and call the global {@code name}: not the core's plumbing ({@code packed4j_internal.*},
   * which the headers call while a library registers) nor {@code packed4j.TakeRegistrationErrors}, which would take
   * the server's own record of refused registrations from it (trial userV).
   */
  static boolean served(String name) {
    return !name.startsWith("packed4j_internal.") && !name.equals("packed4j.TakeRegistrationErrors");
  }

  /** The globals sessions may call, sorted. */
  private static List<String> servedGlobals() {
    return Registry.list().stream().filter(RegistryService::served).toList();
  }

  private PackedFunction function(String name) {
    PackedFunction function = functions.get(name);
    if (function == null) {
      List<String> registered = servedGlobals();
      if (!registered.contains(name)) {
        // Not Registry.global's KeyError, whose remedy (Packed4j.loadLibrary in this JVM) is no client's to take.
        throw new KindedError("KeyError", "no global function '" + name + "' is registered by packed4j-server (pid "
            + ProcessHandle.current().pid() + ")" + RemoteSession.nearNames(name, registered)
            + "; start the server with the library that registers it");
      }
      // The function stays for the server's life.
      function = functions.computeIfAbsent(name, Registry::global);
    }
    return function;
  }

  private static Object member(ServerSession session, MemberTarget target, Object[] args) {
    ObjectRef object = session.get(target.getObject());
    String name = target.getName();
    return switch (target.getOp()) {
      case GET -> dynamically(object, dynamic -> dynamic.get(name));
      case INVOKE -> asFunction(object, "call").invoke(args);
      case SIGNATURE -> asFunction(object, "read the signature of").signature();
      case FORMAT -> formatted(object);
      case SET -> {
        if (args.length != 1) {
          throw new IllegalArgumentException("setting " + object.typeKey() + "." + name + " takes one value, got "
              + args.length);
        }
        yield dynamically(object, dynamic -> {
          dynamic.set(name, args[0]);
          return null;
        });
      }
      case METHOD -> dynamically(object, dynamic -> dynamic.call(name, args));
      case MEMBER_OP_UNSPECIFIED, UNRECOGNIZED -> throw new IllegalArgumentException("unknown member operation "
          + target.getOpValue() + " on remote object #" + target.getObject());
    };
  }

  /**
   * Runs a member access on the object's {@code NativeObject} view, also when the server's JVM made it its generated
   * {@code @Object} class (a server whose class path holds the interface, as an isolated child's does): fields,
   * setters and methods by their native names, with the errors and conversions of {@code NativeObject}, whichever
   * class the server has.
   */
  private static Object dynamically(ObjectRef object, java.util.function.Function<NativeObject, Object> access) {
    if (object instanceof NativeObject dynamic) {
      return access.apply(dynamic);
    }
    try (NativeObject view = NativeObject.of(object)) {
      return access.apply(view);
    }
  }

  private static PackedFunction asFunction(ObjectRef object, String what) {
    if (object instanceof PackedFunction function) {
      return function;
    }
    throw new IllegalArgumentException("cannot " + what + " a remote " + object.typeKey() + ": it is not a function");
  }

  private static CallReply error(String kind, String message, String backtrace, String function, String javaClass) {
    RemoteError.Builder error = RemoteError.newBuilder().setKind(kind).setMessage(message == null ? "" : message)
        .setBacktrace(backtrace == null ? "" : backtrace);
    if (function != null) {
      error.setFunction(function);
    }
    if (javaClass != null) {
      error.setJavaClass(javaClass);
    }
    return CallReply.newBuilder().setError(error).build();
  }

  @Override
  public void release(ReleaseRequest request, StreamObserver<ReleaseReply> reply) {
    ServerSession session = session(request.getSession());
    int released = session == null ? 0 : session.release(request.getObjectsList());
    reply.onNext(ReleaseReply.newBuilder().setReleased(released).build());
    reply.onCompleted();
  }

  @Override
  public void describe(DescribeRequest request, StreamObserver<DescribeReply> reply) {
    DescribeReply.Builder description = DescribeReply.newBuilder().addAllGlobals(servedGlobals());
    for (ObjectTypeInfo type : Registry.objectTypes()) {
      ObjectType.Builder wire = ObjectType.newBuilder().setKey(type.key()).setParent(type.parent().orElse(""))
          .setDoc(type.doc());
      for (ObjectTypeInfo.Field field : type.fields()) {
        wire.addFields(Field.newBuilder().setName(field.name()).setType(field.type())
            .setDeclaredBy(field.declaredBy()).setMutable(field.mutable()).setDoc(field.doc()));
      }
      for (ObjectTypeInfo.Member member : type.members()) {
        wire.addMembers(Member.newBuilder().setName(member.name()).setKind(member.kind().name())
            .setSignature(member.signature()).addAllParameterNames(member.parameterNames()).setDoc(member.doc())
            .setDeclaredBy(member.declaredBy()));
      }
      description.addTypes(wire);
    }
    reply.onNext(description.build());
    reply.onCompleted();
  }

  /** The longest text FORMAT answers: a remote object's toString() is for logs. */
  static final int FORMAT_MAX_CHARS = 8192;

  /** {@code object.toString()}, cut after {@link #FORMAT_MAX_CHARS} characters (a string field may be huge). */
  private static String formatted(Object object) {
    String text = String.valueOf(object);
    return text.length() <= FORMAT_MAX_CHARS ? text : text.substring(0, FORMAT_MAX_CHARS) + "...";
  }
}
