package dev.packed4j.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link Session} connects: the server's token, the certificate that authenticates a TLS server, the deadline
 * of each call, how long opening it may take, the largest message, whether an isolated session restarts its child
 * after a crash, and where its child writes a crash report. Immutable; each {@code with} method returns a copy.
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

  /**
   * The default longest time opening a session may take: 60 seconds (an isolated session starts a JVM and loads its
   * libraries in it).
   */
  public static final Duration DEFAULT_OPEN_TIMEOUT = Duration.ofSeconds(60);

  /** The default largest message: 257 MiB. Tensors above 256 KiB cross in chunks and are not bounded by it. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 257 << 20;

  private static final SessionOptions DEFAULTS =
      new SessionOptions(null, null, DEFAULT_DEADLINE, DEFAULT_OPEN_TIMEOUT, DEFAULT_MAX_MESSAGE_BYTES, false, null);

  private final String token;
  private final Path trustedCertificate;
  private final Duration deadline;
  private final Duration openTimeout;
  private final int maxMessageBytes;
  private final boolean restartOnLoss;
  private final Path crashReportDirectory;

  private SessionOptions(String token, Path trustedCertificate, Duration deadline, Duration openTimeout,
      int maxMessageBytes, boolean restartOnLoss, Path crashReportDirectory) {
    this.token = token;
    this.trustedCertificate = trustedCertificate;
    this.deadline = deadline;
    this.openTimeout = openTimeout;
    this.maxMessageBytes = maxMessageBytes;
    this.restartOnLoss = restartOnLoss;
    this.crashReportDirectory = crashReportDirectory;
  }

  /**
   * {@return no token, plaintext, the default deadline, open timeout and message size, no restart, crash reports in a
   * temporary directory}
   */
  public static SessionOptions defaults() {
    return DEFAULTS;
  }

  /**
   * The shared secret a server started with {@code --token-file} (or {@code PACKED4J_TOKEN}) requires; sent with
   * every call. An isolated session makes a random one of its own and ignores this.
   *
   * <p>A token travels as a header, which carries printable ASCII only: the token is characters from {@code ' '} to
   * {@code '~'} that do not start or end with a space, as the server requires of its own (it strips the token file's
   * surrounding whitespace, so {@code Files.readString(tokenFile).strip()} is the token of a file).
   *
   * @param token the token; not empty, printable ASCII
   * @return a copy with the token
   * @throws IllegalArgumentException when {@code token} is empty, holds another character, or starts or ends with
   *     whitespace
   */
  public SessionOptions withToken(String token) {
    Objects.requireNonNull(token, "token");
    String problem = tokenProblem(token);
    if (problem != null) {
      throw new IllegalArgumentException("SessionOptions.withToken: " + problem);
    }
    return new SessionOptions(token, trustedCertificate, deadline, openTimeout, maxMessageBytes, restartOnLoss,
        crashReportDirectory);
  }

  /** What is wrong with a session token, or null: the rule {@link #withToken} states. */
  private static String tokenProblem(String token) {
    if (token.isEmpty()) {
      return "the token must not be empty";
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c < ' ' || c > '~') {
        return String.format("the token holds U+%04X at index %d; a token is printable ASCII (' ' to '~'), which the"
            + " header that carries it can hold%s", (int) c, i,
            Character.isWhitespace(c) && (i == 0 || i == token.length() - 1)
                ? " (strip the whitespace around a token read from a file: Files.readString(file).strip())" : "");
      }
    }
    if (token.charAt(0) == ' ' || token.charAt(token.length() - 1) == ' ') {
      return "the token starts or ends with a space; strip it (Files.readString(file).strip())";
    }
    return null;
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
    return new SessionOptions(token, pemFile, deadline, openTimeout, maxMessageBytes, restartOnLoss,
        crashReportDirectory);
  }

  /**
   * The longest a call may take, waiting for the server included; a call that takes longer fails with kind
   * {@value Session#TIMEOUT}. Opening the session is bounded by {@link #withOpenTimeout} instead, and so is the
   * restart of a lost isolated session's child that a call waits for before its own deadline starts.
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
    return new SessionOptions(token, trustedCertificate, deadline, openTimeout, maxMessageBytes, restartOnLoss,
        crashReportDirectory);
  }

  /**
   * The longest opening a session may take: connecting to the server and opening the session on it, and for an
   * isolated session starting its child JVM and loading the libraries there first (also when a call restarts it,
   * {@link #withRestartOnLoss}). Past it {@code Packed4j.connect} or {@code Packed4j.isolated} fails with kind
   * {@value Session#TIMEOUT}. Apart from the deadline of calls, so that calls may have a short deadline while a JVM
   * starts in seconds.
   *
   * @param openTimeout a positive duration
   * @return a copy with the timeout
   * @throws IllegalArgumentException when {@code openTimeout} is zero or negative
   */
  public SessionOptions withOpenTimeout(Duration openTimeout) {
    Objects.requireNonNull(openTimeout, "openTimeout");
    if (openTimeout.isZero() || openTimeout.isNegative()) {
      throw new IllegalArgumentException("SessionOptions.withOpenTimeout: the timeout must be positive, got "
          + openTimeout);
    }
    return new SessionOptions(token, trustedCertificate, deadline, openTimeout, maxMessageBytes, restartOnLoss,
        crashReportDirectory);
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
    return new SessionOptions(token, trustedCertificate, deadline, openTimeout, maxMessageBytes, restartOnLoss,
        crashReportDirectory);
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
    return new SessionOptions(token, trustedCertificate, deadline, openTimeout, maxMessageBytes, restartOnLoss,
        crashReportDirectory);
  }

  /**
   * Where an isolated session's child JVM writes its crash report ({@code hs_err_pid<pid>.log}) when a plugin crashes
   * it; the session's SessionLostError names the file. The directory is created if it is missing (an open fails
   * with a SessionLostError if it cannot be, or cannot be written); the session never deletes it nor the reports in
   * it (they are the user's to read and remove), and the children of many sessions may share it, each report named
   * by its child's pid.
   *
   * <p>Without this option each child gets a directory of its own, {@code packed4j-isolated-<random>} under
   * {@code java.io.tmpdir}, which is removed when the child ends without a crash (the session closed, or this JVM
   * ended); after a crash it stays, holding the report, until the user removes it. A connected session's server
   * writes its reports where its own JVM's options say.
   *
   * <pre>{@code
   * Session session = Packed4j.isolated(Path.of("build/libplugin.so"), SessionOptions.defaults()
   *     .withCrashReportDirectory(Path.of("logs/crashes")));
   * }</pre>
   *
   * @param directory the directory of crash reports, on the default file system (the child JVM writes there)
   * @return a copy with the directory
   * @throws IllegalArgumentException for a path of another file system (a zip file's, say), or one holding a
   *     {@code %}, which the JVM's {@code -XX:ErrorFile} would read as a placeholder and write elsewhere
   */
  public SessionOptions withCrashReportDirectory(Path directory) {
    Objects.requireNonNull(directory, "directory");
    if (directory.getFileSystem() != java.nio.file.FileSystems.getDefault()) {
      throw new IllegalArgumentException("the crash report directory " + directory + " is not on the default file"
          + " system: the child JVM writes its report there");
    }
    if (directory.toString().contains("%")) {
      throw new IllegalArgumentException("the crash report directory " + directory + " holds a '%', which the JVM's"
          + " -XX:ErrorFile reads as a placeholder (%p is the pid): choose a path without one");
    }
    return new SessionOptions(token, trustedCertificate, deadline, openTimeout, maxMessageBytes, restartOnLoss,
        directory);
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

  /** {@return the longest opening a session (and restarting an isolated one's child) may take} */
  public Duration openTimeout() {
    return openTimeout;
  }

  /** {@return the largest message either side accepts, in bytes} */
  public int maxMessageBytes() {
    return maxMessageBytes;
  }

  /** {@return whether an isolated session restarts its child after losing it} */
  public boolean restartOnLoss() {
    return restartOnLoss;
  }

  /** {@return the directory an isolated session's child writes a crash report in, if one was chosen} */
  public Optional<Path> crashReportDirectory() {
    return Optional.ofNullable(crashReportDirectory);
  }

  @Override
  public String toString() {
    return "SessionOptions[token=" + (token == null ? "none" : "(set)") + ", tls=" + (trustedCertificate != null)
        + ", deadline=" + deadline + ", openTimeout=" + openTimeout + ", maxMessageBytes=" + maxMessageBytes
        + ", restartOnLoss=" + restartOnLoss
        + (crashReportDirectory == null ? "" : ", crashReportDirectory=" + crashReportDirectory) + "]";
  }
}
