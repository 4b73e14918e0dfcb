package dev.packed4j.remote.internal;

import dev.packed4j.runtime.Session;
import dev.packed4j.runtime.SessionOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * The child JVM of an isolated session: packed4j-server on this JVM's class path, listening on a free loopback port
 * with a random token. Its standard output is copied to this JVM's (what the plugin prints), its standard error too,
 * and the last lines of it are kept for the message of a failure. It is stopped (killed) when the session closes,
 * and stops by itself when this JVM ends (it watches its standard input). A JVM crash report goes to the directory
 * of {@code SessionOptions.withCrashReportDirectory}, else to a temporary directory of its own, removed when the
 * child ends without a report; the session's error names the report.
 */
final class ChildServer {
  private static final String LISTENING = "packed4j-server: listening on ";
  private static final int KEPT_ERROR_LINES = 20;
  /** How many of them a lost session's error quotes when the child left no crash report. */
  private static final int LAST_WORDS = 5;

  final Process process;
  final String address;
  final String token;
  private final String library;
  private final Path crashDirectory;
  /** Whether {@link #crashDirectory} is the child's own, to remove when it ends without a report. */
  private final boolean ownDirectory;
  private final Deque<String> errorTail;
  /** The thread that copies the child's standard error into {@link #errorTail}. */
  private final Thread errors;

  private ChildServer(Process process, String address, String token, String library, Path crashDirectory,
      boolean ownDirectory, Deque<String> errorTail, Thread errors) {
    this.process = process;
    this.address = address;
    this.token = token;
    this.library = library;
    this.crashDirectory = crashDirectory;
    this.ownDirectory = ownDirectory;
    this.errorTail = errorTail;
    this.errors = errors;
  }

  /** How long a stopped child may take to exit on its own before it is killed. */
  static final long STOP_GRACE_MILLIS = 200;

  /** Starts a child, which must listen by {@code openBy} ({@code System.nanoTime()}, the open timeout's end). */
  static ChildServer start(List<String> libraryArgs, String library, SessionOptions options, long openBy) {
    byte[] secret = new byte[24];
    new SecureRandom().nextBytes(secret);
    String token = HexFormat.of().formatHex(secret);
    Path crashDirectory;
    boolean ownDirectory = options.crashReportDirectory().isEmpty();
    try {
      crashDirectory = ownDirectory ? Files.createTempDirectory("packed4j-isolated-")
          : Files.createDirectories(options.crashReportDirectory().get().toAbsolutePath());
    } catch (IOException e) {
      throw GrpcSessionProvider.newError(Session.SESSION_LOST, "Packed4j.isolated(" + library + "): cannot create "
          + "the directory for the child's crash report: " + e.getMessage(), "", null);
    }
    if (!Files.isWritable(crashDirectory)) { // the JVM would write a report elsewhere, which no error could name
      throw GrpcSessionProvider.newError(Session.SESSION_LOST, "Packed4j.isolated(" + library + "): the directory"
          + " for the child's crash report, " + crashDirectory + ", is not writable", "", null);
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    // A crashed child's report stays out of the working directory (a build fails on a crash log there).
    command.add("-XX:ErrorFile=" + crashDirectory.resolve("hs_err_pid%p.log"));
    command.add("-XX:-CreateCoredumpOnCrash");
    command.add("-XX:+UseSerialGC");
    if (ownDirectory) {
      // The child removes its directory when it ends without a crash report, also when this JVM ended first; a
      // directory of the options is the user's and stays.
      command.add("-D" + ServerConfig.CRASH_DIRECTORY_PROPERTY + "=" + crashDirectory);
    }
    for (String property : List.of("packed4j.library.path", "packed4j.cache.dir")) {
      String value = System.getProperty(property);
      if (value != null) {
        command.add("-D" + property + "=" + value);
      }
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("dev.packed4j.remote.Packed4jServer");
    // The child's one client is its parent: it keeps all of --max-calls, not the share of one among many.
    command.addAll(List.of("--port", "0", "--host", "127.0.0.1", "--exit-with-parent",
        "--max-message-mib", Integer.toString(Math.max(1, options.maxMessageBytes() >> 20)),
        "--max-calls-per-connection", Integer.toString(ServerConfig.DEFAULT_MAX_CALLS)));
    command.addAll(libraryArgs);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("PACKED4J_TOKEN", token);
    builder.environment().remove("PACKED4J_KEYSTORE_PASSWORD");
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw GrpcSessionProvider.newError(Session.SESSION_LOST, "Packed4j.isolated(" + library + "): cannot start "
          + command.getFirst() + ": " + e.getMessage(), "", null);
    }
    Deque<String> errorTail = new ArrayDeque<>();
    CompletableFuture<String> listening = new CompletableFuture<>();
    Thread out = new Thread(() -> copyOutput(process, listening), "packed4j-isolated-stdout-" + process.pid());
    out.setDaemon(true);
    out.start();
    Thread err = new Thread(() -> copyErrors(process, errorTail), "packed4j-isolated-stderr-" + process.pid());
    err.setDaemon(true);
    err.start();
    try {
      String address = listening.get(Math.max(0, openBy - System.nanoTime()), TimeUnit.NANOSECONDS);
      return new ChildServer(process, address, token, library, crashDirectory, ownDirectory, errorTail, err);
    } catch (ExecutionException | TimeoutException | InterruptedException e) {
      process.destroyForcibly();
      try {
        process.waitFor(5, TimeUnit.SECONDS);
        err.join(2000);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      String errors;
      synchronized (errorTail) {
        errors = String.join("\n", errorTail);
      }
      boolean late = e instanceof TimeoutException;
      String reason = late ? "did not start and load its libraries within " + options.openTimeout()
          + " (SessionOptions.withOpenTimeout)" : "ended before it listened (exit status " + exitStatus(process) + ")";
      // A child that could not load the library says so on its standard error: the same LoadError as locally.
      String kind = errors.contains("[LoadError]") ? "LoadError" : late ? Session.TIMEOUT : Session.SESSION_LOST;
      if (ownDirectory) {
        deleteIfEmpty(crashDirectory);
      }
      throw GrpcSessionProvider.newError(kind, "Packed4j.isolated(" + library + "): the child packed4j-server "
          + reason + (errors.isEmpty() ? "" : ": " + errors), "", null);
    }
  }

  private static void copyOutput(Process process, CompletableFuture<String> listening) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (!listening.isDone() && line.startsWith(LISTENING)) {
          listening.complete(line.substring(LISTENING.length()).strip());
        } else {
          System.out.println(line);
        }
      }
    } catch (IOException ignored) {
      // the child ended
    }
    listening.completeExceptionally(new IOException("the child's output ended"));
  }

  private static void copyErrors(Process process, Deque<String> tail) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getErrorStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        System.err.println(line);
        synchronized (tail) {
          tail.addLast(line);
          if (tail.size() > KEPT_ERROR_LINES) {
            tail.removeFirst();
          }
        }
      }
    } catch (IOException ignored) {
      // the child ended
    }
  }

  String description() {
    return "the isolated packed4j-server (pid " + process.pid() + ") hosting " + library;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** How the child ended, for the message of a lost session: its exit status or signal, and its crash report. */
  String describeEnd() {
    try {
      process.waitFor(1, TimeUnit.SECONDS); // the connection may drop a moment before the process is reaped
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (process.isAlive()) {
      return "the child (pid " + process.pid() + ") is still running";
    }
    StringBuilder end = new StringBuilder("the child (pid " + process.pid() + ") ended with exit status "
        + exitStatus(process));
    boolean reported = false;
    // This child's own: a directory of the options may hold other children's reports.
    String name = "hs_err_pid" + process.pid() + ".log";
    try (Stream<Path> reports = Files.list(crashDirectory)) {
      // Modified since the child started: a shared directory may hold an older report of a process of the same pid.
      Optional<Path> report = reports.filter(path -> path.getFileName().toString().equals(name))
          .filter(this::writtenSinceStart).findFirst();
      if (report.isPresent()) {
        end.append("; the JVM's crash report, which names the native frame that crashed: ").append(report.get());
        reported = true;
      }
    } catch (IOException ignored) {
      // no report
    }
    if (!reported) {
      // Without a crash report the child's last words are all there is: "terminate called after throwing ...".
      String lastWords = lastErrorLines(LAST_WORDS);
      if (!lastWords.isEmpty()) {
        end.append("; the last lines of its standard error: ").append(lastWords);
      }
    }
    return end.toString();
  }

  /** Whether {@code report} was last modified after this child started (a second's leeway for coarse clocks). */
  private boolean writtenSinceStart(Path report) {
    Optional<java.time.Instant> started = process.info().startInstant();
    try {
      return started.isEmpty() || !Files.getLastModifiedTime(report).toInstant()
          .isBefore(started.get().minusSeconds(1));
    } catch (IOException e) {
      return false;
    }
  }

  /** Up to {@code count} of the last lines the child wrote to its standard error, joined with " | ". */
  private String lastErrorLines(int count) {
    try {
      errors.join(1000); // the pipe may still hold what it wrote just before it ended
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (errorTail) {
      List<String> lines = new ArrayList<>(errorTail);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - count), lines.size())).strip();
    }
  }

  private static String exitStatus(Process process) {
    if (process.isAlive()) {
      return "none yet";
    }
    int status = process.exitValue();
    return switch (status) {
      case 134 -> "134, SIGABRT: the process aborted: native code called abort() or std::terminate (a C++ exception"
          + " that nothing caught, on a thread of the plugin's own, for instance), or the JVM aborted after a crash";
      case 137 -> "137, SIGKILL: it was killed";
      case 139 -> "139, SIGSEGV";
      case 143 -> "143, SIGTERM";
      default -> Integer.toString(status);
    };
  }

  /**
   * Stops the child at once: asked to end (SIGTERM, so that its JVM exits and the C library flushes what the plugin
   * printed, as it would at its own exit), and killed if it has not ended within {@link #STOP_GRACE_MILLIS}, as an
   * exit may wait for the native work of calls in flight, which nobody waits for any more (their calls failed when
   * the session closed). What it held ends with it. Then removes the child's own directory unless it holds a crash
   * report.
   */
  void stop() {
    process.destroy();
    try {
      process.getOutputStream().close();
    } catch (IOException ignored) {
      // already gone
    }
    try {
      if (!process.waitFor(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    if (ownDirectory) {
      deleteIfEmpty(crashDirectory);
    }
  }

  private static void deleteIfEmpty(Path directory) {
    try {
      Files.deleteIfExists(directory);
    } catch (IOException ignored) {
      // it holds a crash report: kept for the user
    }
  }
}
