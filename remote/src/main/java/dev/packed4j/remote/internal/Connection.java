package dev.packed4j.remote.internal;

import dev.packed4j.remote.internal.proto.OpenRequest;
import dev.packed4j.remote.internal.proto.Opened;
import dev.packed4j.remote.internal.proto.Packed4jRemoteGrpc;
import dev.packed4j.remote.internal.proto.SessionEvent;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import dev.packed4j.runtime.SessionOptions;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One connection of a session to a server: the channel, the server's session id, and the Open stream whose end
 * tells that the server is gone. A session has one at a time; an isolated session that restarts its child gets a
 * new one, and objects of the old one are lost with it.
 */
final class Connection {
  /** The HTTP/2 flow-control window of a session's connection, both ways (Services sets the server's). */
  static final int FLOW_CONTROL_WINDOW = 16 << 20;

  final String target;
  final ManagedChannel managed;
  final Channel channel;
  final long sessionId;
  final long serverPid;
  final ChildServer child;
  private final ClientCall<OpenRequest, SessionEvent> openCall;
  private static final String CLOSED = "the session was closed";

  /** Why the connection was lost, or null while it is up. */
  private volatile String lost;
  /** How many warm-up calls the open made on this connection (an isolated child's; see RemoteSession.warmUp). */
  volatile int warmUpCalls;
  /** Whether the session closed it: its calls' errors then say so, and not how its child ended (it was stopped). */
  private volatile boolean closed;
  /**
   * The server's object types, key to parent key ("" for the root), read when a result is first checked against a
   * declared {@code @Object} type (RemoteSession.derivesFrom); null until then.
   */
  volatile java.util.Map<String, String> typeParents;

  private Connection(String target, ManagedChannel managed, Channel channel, long sessionId, long serverPid,
      ChildServer child, ClientCall<OpenRequest, SessionEvent> openCall) {
    this.target = target;
    this.managed = managed;
    this.channel = channel;
    this.sessionId = sessionId;
    this.serverPid = serverPid;
    this.child = child;
    this.openCall = openCall;
  }

  /**
   * Connects and opens a session on the server, by {@code openBy} ({@code System.nanoTime()}: the open timeout's end,
   * which an isolated session's child start counts against too).
   */
  static Connection open(String target, SessionOptions options, String token, ChildServer child, long openBy) {
    TransportLogs.quietClient();
    ChannelCredentials credentials;
    if (child == null && options.trustedCertificate().isPresent()) {
      Path pem = options.trustedCertificate().get();
      try {
        requireCertificates(pem);
        credentials = TlsChannelCredentials.newBuilder().trustManager(pem.toFile()).build();
      } catch (IOException e) {
        throw new IllegalArgumentException("SessionOptions.withTrustedCertificate: cannot read " + pem + ": "
            + e.getMessage(), e);
      }
    } else {
      credentials = InsecureChannelCredentials.create();
    }
    String where = child == null ? "packed4j-server at " + target : child.description();
    ManagedChannel managed;
    try {
      managed = NettyChannelBuilder.forTarget(target, credentials)
          .maxInboundMessageSize(options.maxMessageBytes())
          // HTTP/2 flow control: a window of 1 MiB (gRPC's default start) makes a large tensor wait for window
          // updates every megabyte; the window is credit, not memory.
          .flowControlWindow(FLOW_CONTROL_WINDOW)
          .build();
    } catch (IllegalArgumentException unresolvable) {
      // gRPC finds its name resolvers through META-INF/services. One jar made of several (maven-shade-plugin)
      // keeps one copy of each such file unless told to merge them, and then only the last jar's resolver is left.
      throw GrpcSessionProvider.newError(Session.SESSION_LOST, "cannot connect to " + where + ": "
          + unresolvable.getMessage() + "; gRPC found no resolver for host:port addresses: if this program runs"
          + " from one jar made with maven-shade-plugin, add its ServicesResourceTransformer, which merges the"
          + " META-INF/services files gRPC needs", "", null);
    }
    Channel channel = managed;
    if (token != null) {
      Metadata headers = new Metadata();
      headers.put(TokenCheck.HEADER, token);
      channel = ClientInterceptors.intercept(managed, MetadataUtils.newAttachHeadersInterceptor(headers));
    }
    ClientCall<OpenRequest, SessionEvent> openCall = channel.newCall(Packed4jRemoteGrpc.getOpenMethod(),
        CallOptions.DEFAULT);
    CompletableFuture<Opened> opened = new CompletableFuture<>();
    Connection[] made = new Connection[1];
    ClientCalls.asyncServerStreamingCall(openCall, OpenRequest.newBuilder()
        .setClient("pid " + ProcessHandle.current().pid()).build(), new StreamObserver<>() {
          @Override
          public void onNext(SessionEvent event) {
            if (event.hasOpened()) {
              opened.complete(event.getOpened());
            }
          }

          @Override
          public void onError(Throwable error) {
            if (!opened.completeExceptionally(error)) {
              synchronized (made) {
                if (made[0] != null) {
                  made[0].markLost(Status.fromThrowable(error));
                }
              }
            }
          }

          @Override
          public void onCompleted() {
            if (!opened.completeExceptionally(Status.UNAVAILABLE.withDescription("the server ended the session")
                .asRuntimeException())) {
              synchronized (made) {
                if (made[0] != null) {
                  made[0].markLost(Status.UNAVAILABLE.withDescription("the server ended the session"));
                }
              }
            }
          }
        });
    try {
      Opened session = opened.get(Math.max(0, openBy - System.nanoTime()), TimeUnit.NANOSECONDS);
      synchronized (made) {
        made[0] = new Connection(target, managed, channel, session.getSession(), session.getPid(), child, openCall);
        return made[0];
      }
    } catch (ExecutionException e) {
      managed.shutdownNow();
      Status status = Status.fromThrowable(e.getCause());
      throw connectFailure(status, where, options);
    } catch (TimeoutException e) {
      openCall.cancel("no answer within the deadline", null);
      managed.shutdownNow();
      throw GrpcSessionProvider.newError(Session.TIMEOUT, "connecting to " + where + ": no answer within "
          + options.openTimeout() + " (SessionOptions.withOpenTimeout)", "", null);
    } catch (InterruptedException e) {
      managed.shutdownNow();
      Thread.currentThread().interrupt();
      throw GrpcSessionProvider.newError(Session.SESSION_LOST, "connecting to " + where + ": interrupted", "", null);
    }
  }

  /**
   * Refuses a trusted-certificate file that holds no X.509 certificate: gRPC reads it only when it builds the
   * channel, and its error ("No certificate data found") reads like a broken installation.
   */
  private static void requireCertificates(Path pem) throws IOException {
    Collection<? extends Certificate> certificates;
    try (InputStream in = Files.newInputStream(pem)) {
      certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (CertificateException e) {
      throw new IllegalArgumentException("SessionOptions.withTrustedCertificate: " + pem + " is not a PEM file of"
          + " X.509 certificates (" + e.getMessage() + "); export the server's certificate with keytool -exportcert"
          + " -rfc (docs/guide.md, TLS)", e);
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException("SessionOptions.withTrustedCertificate: " + pem + " holds no certificate"
          + " (a PEM file has -----BEGIN CERTIFICATE----- blocks); export the server's certificate with keytool"
          + " -exportcert -rfc (docs/guide.md, TLS)");
    }
  }

  private static Packed4jException connectFailure(Status status, String where, SessionOptions options) {
    String description = status.getDescription() == null ? status.getCode().toString() : status.getDescription();
    if (status.getCode() == Status.Code.UNAUTHENTICATED) {
      return GrpcSessionProvider.newError(Session.AUTHENTICATION, "connecting to " + where + ": " + description, "",
          null);
    }
    String cause = causes(status.getCause());
    boolean refused = cause.contains("Connection refused");
    boolean notGrpc = cause.contains("Http2Exception") && options.trustedCertificate().isEmpty();
    String hint = refused ? "; is the server running, and on this port?"
        : notGrpc ? "; the other end does not speak gRPC: is it a packed4j-server, and does it serve TLS "
            + "(SessionOptions.withTrustedCertificate)?"
        : options.trustedCertificate().isPresent() ? "; the client speaks TLS (SessionOptions.withTrustedCertificate):"
            + " is the server started with --tls-keystore, and is its certificate the trusted one?"
        : "; if the server serves TLS, connect with SessionOptions.withTrustedCertificate";
    return GrpcSessionProvider.newError(Session.SESSION_LOST, "cannot connect to " + where + ": " + status.getCode()
        + ": " + description + cause + hint, "", null);
  }

  /** What the transport's exceptions say, innermost last: " (ConnectException: Connection refused ...)". */
  private static String causes(Throwable cause) {
    java.util.List<String> said = new java.util.ArrayList<>();
    for (Throwable at = cause; at != null && said.size() < 4; at = at.getCause() == at ? null : at.getCause()) {
      String text = at.getClass().getSimpleName() + (at.getMessage() == null ? "" : ": " + at.getMessage());
      if (said.stream().noneMatch(s -> s.contains(text))) {
        said.add(text);
      }
    }
    return said.isEmpty() ? "" : " (" + String.join("; ", said) + ")";
  }

  void markLost(Status status) {
    if (lost == null) {
      String description = status.getDescription() == null ? status.getCode().toString() : status.getDescription();
      lost = description;
    }
  }

  boolean isLost() {
    return lost != null;
  }

  /** The error of a call on this connection that the transport failed. */
  Packed4jException failure(Status status, String site) {
    String description = status.getDescription() == null ? status.getCode().toString() : status.getDescription();
    return switch (status.getCode()) {
      case UNAUTHENTICATED -> GrpcSessionProvider.newError(Session.AUTHENTICATION, site + ": " + description, "",
          null);
      case DEADLINE_EXCEEDED -> child != null && !child.isAlive() ? lostError(site, description)
          : GrpcSessionProvider.newError(Session.TIMEOUT, site + ": no reply from " + where() + " within the "
              + "session's deadline (SessionOptions.withDeadline)", "", null);
      case RESOURCE_EXHAUSTED -> GrpcSessionProvider.newError("ValueError", site + ": " + description
          + " (a session carries messages up to SessionOptions.withMaxMessageBytes in the client and packed4j-server"
          + " --max-message-mib in the server)", "", null);
      // An interrupted caller cancels its own call only: the connection is fine.
      case CANCELLED -> Thread.currentThread().isInterrupted()
          ? GrpcSessionProvider.newError("RuntimeError", site + ": the calling thread was interrupted", "", null)
          : lostAndError(status, site, description);
      default -> lostAndError(status, site, description);
    };
  }

  private Packed4jException lostAndError(Status status, String site, String description) {
    markLost(status);
    return lostError(site, description);
  }

  /** The SessionLostError of a call on a lost connection, with the child's end where there is one. */
  Packed4jException lostError(String site, String cause) {
    String because = lost != null ? lost : cause;
    String end = child == null || closed ? "" : "; " + child.describeEnd();
    return GrpcSessionProvider.newError(Session.SESSION_LOST, site + ": the session with " + where() + " was lost ("
        + because + ")" + end, "", null);
  }

  String where() {
    return child == null ? "packed4j-server at " + target : child.description();
  }

  /**
   * Ends the session on the server (it releases everything) and the channel, at once: the calls in flight fail with
   * SessionLostError "(the session was closed)" now, not when they would have ended. The channel's threads end on
   * their own once its transport is down; nothing waits for them.
   */
  void close() {
    closed = true;
    markLost(Status.CANCELLED.withDescription(CLOSED)); // first: the calls that fail below say why
    openCall.cancel(CLOSED, null);
    managed.shutdownNow();
  }
}
