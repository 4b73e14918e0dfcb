package dev.packed4j.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link Session} connects: the server's token, the certificate that authenticates a TLS server, the deadline
 * of each call, the largest message, and whether an isolated session restarts its child after a crash. Immutable;
 * each {@code with} method returns a copy.
 *
 * <pre>{@code
 * Session session = Packed4j.connect("gpu-box:7000", SessionOptions.defaults()
 *     .withToken(System.getenv("PACKED4J_TOKEN"))
 *     .withTrustedCertificate(Path.of("server-cert.pem"))
 *     .withDeadline(Duration.ofSeconds(5)));
 * }</pre>
 */
public final class SessionOptions {
  /** The default deadline of a call: 30 seconds. */
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(30);

  /** The default largest message: 257 MiB. Tensors above 256 KiB cross in chunks and are not bounded by it. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 257 << 20;

  private static final SessionOptions DEFAULTS =
      new SessionOptions(null, null, DEFAULT_DEADLINE, DEFAULT_MAX_MESSAGE_BYTES, false);

  private final String token;
  private final Path trustedCertificate;
  private final Duration deadline;
  private final int maxMessageBytes;
  private final boolean restartOnLoss;

  private SessionOptions(String token, Path trustedCertificate, Duration deadline, int maxMessageBytes,
      boolean restartOnLoss) {
    this.token = token;
    this.trustedCertificate = trustedCertificate;
    this.deadline = deadline;
    this.maxMessageBytes = maxMessageBytes;
    this.restartOnLoss = restartOnLoss;
  }

  /** {@return no token, plaintext, the default deadline and message size, no restart} */
  public static SessionOptions defaults() {
    return DEFAULTS;
  }

  /**
   * The shared secret a server started with {@code --token-file} (or {@code PACKED4J_TOKEN}) requires; sent with
   * every call. An isolated session makes a random one of its own and ignores this.
   *
   * @param token the token; not empty
   * @return a copy with the token
   * @throws IllegalArgumentException when {@code token} is empty
   */
  public SessionOptions withToken(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isEmpty()) {
      throw new IllegalArgumentException("SessionOptions.withToken: the token must not be empty");
    }
    return new SessionOptions(token, trustedCertificate, deadline, maxMessageBytes, restartOnLoss);
  }

  /**
   * Connects with TLS, trusting the server certificates in {@code pemFile} (a PEM file of one or more X.509
   * certificates, such as the server's own self-signed one); without it a session is plaintext.
   *
   * @param pemFile the trusted certificates
   * @return a copy that connects with TLS
   */
  public SessionOptions withTrustedCertificate(Path pemFile) {
    Objects.requireNonNull(pemFile, "pemFile");
    return new SessionOptions(token, pemFile, deadline, maxMessageBytes, restartOnLoss);
  }

  /**
   * The longest a call may take, waiting for the server included; a call that takes longer fails with kind
   * {@value Session#TIMEOUT}.
   *
   * @param deadline a positive duration
   * @return a copy with the deadline
   * @throws IllegalArgumentException when {@code deadline} is zero or negative
   */
  public SessionOptions withDeadline(Duration deadline) {
    Objects.requireNonNull(deadline, "deadline");
    if (deadline.isZero() || deadline.isNegative()) {
      throw new IllegalArgumentException("SessionOptions.withDeadline: the deadline must be positive, got " + deadline);
    }
    return new SessionOptions(token, trustedCertificate, deadline, maxMessageBytes, restartOnLoss);
  }

  /**
   * The largest message either side accepts; a call whose message is larger fails with a ValueError naming the
   * limit. Tensors above 256 KiB do not count: they cross in chunks of 512 KiB, of any size. An isolated session's
   * child accepts the same.
   *
   * @param maxMessageBytes at least 1 MiB
   * @return a copy with the limit
   * @throws IllegalArgumentException when {@code maxMessageBytes} is below 1 MiB
   */
  public SessionOptions withMaxMessageBytes(int maxMessageBytes) {
    if (maxMessageBytes < (1 << 20)) {
      throw new IllegalArgumentException("SessionOptions.withMaxMessageBytes: at least 1 MiB (1048576), got "
          + maxMessageBytes);
    }
    return new SessionOptions(token, trustedCertificate, deadline, maxMessageBytes, restartOnLoss);
  }

  /**
   * Whether an isolated session whose child ended (a plugin crashed it) starts a new child at its next call,
   * instead of failing every later call with {@value Session#SESSION_LOST}. The calls pending at the crash fail
   * either way, and objects of the ended child stay lost.
   *
   * @param restartOnLoss whether to restart
   * @return a copy with the choice
   */
  public SessionOptions withRestartOnLoss(boolean restartOnLoss) {
    return new SessionOptions(token, trustedCertificate, deadline, maxMessageBytes, restartOnLoss);
  }

  /** {@return the token sent with every call, if any} */
  public Optional<String> token() {
    return Optional.ofNullable(token);
  }

  /** {@return the PEM file of trusted server certificates, if the session uses TLS} */
  public Optional<Path> trustedCertificate() {
    return Optional.ofNullable(trustedCertificate);
  }

  /** {@return the deadline of each call} */
  public Duration deadline() {
    return deadline;
  }

  /** {@return the largest message either side accepts, in bytes} */
  public int maxMessageBytes() {
    return maxMessageBytes;
  }

  /** {@return whether an isolated session restarts its child after losing it} */
  public boolean restartOnLoss() {
    return restartOnLoss;
  }

  @Override
  public String toString() {
    return "SessionOptions[token=" + (token == null ? "none" : "(set)") + ", tls=" + (trustedCertificate != null)
        + ", deadline=" + deadline + ", maxMessageBytes=" + maxMessageBytes + ", restartOnLoss=" + restartOnLoss + "]";
  }
}
