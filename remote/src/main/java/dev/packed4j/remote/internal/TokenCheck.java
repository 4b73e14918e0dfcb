package dev.packed4j.remote.internal;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The shared-token check: every call must carry the server's token in the {@code packed4j-token} header, else it
 * is refused with UNAUTHENTICATED before any of it runs. Compared in constant time.
 */
final class TokenCheck implements ServerInterceptor {
  static final Metadata.Key<String> HEADER = Metadata.Key.of("packed4j-token", Metadata.ASCII_STRING_MARSHALLER);

  private final byte[] token;

  TokenCheck(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String presented = headers.get(HEADER);
    if (presented == null || !MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))) {
      call.close(Status.UNAUTHENTICATED.withDescription("packed4j-server: "
          + (presented == null ? "this server requires a token and the session sent none"
          : "the session's token is not this server's") + " (SessionOptions.withToken)"), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    return next.startCall(call, headers);
  }
}
