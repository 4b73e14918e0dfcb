package dev.packed4j.remote.internal;

import dev.packed4j.runtime.SessionOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * packed4j-server's command line: {@code [--host H] [--port N] [--library NAME]... [--token-file F]
 * [--tls-keystore F --tls-keystore-password-file F] [--max-message-mib N] [--max-tensor-mib N] [--max-calls N]
 * [--max-calls-per-connection N] [--stream-idle-seconds N] [--exit-with-parent] [LIBRARY.so]...}.
 * The token may also come from the environment variable {@code PACKED4J_TOKEN}, the keystore's password from
 * {@code PACKED4J_KEYSTORE_PASSWORD}: secrets stay out of the process list.
 */
public record ServerConfig(String host, int port, List<Path> libraryFiles, List<String> libraryNames, String token,
    Path keystore, char[] keystorePassword, int maxMessageBytes, long maxTensorBytes, int maxCalls,
    int maxCallsPerConnection, int streamIdleSeconds, boolean exitWithParent) {

  /** How many calls may run at once by default ({@code --max-calls}). */
  public static final int DEFAULT_MAX_CALLS = 256;

  /** The usage text, printed for a wrong command line. */
  public static final String USAGE = """
      usage: java -jar packed4j-server.jar [options] [LIBRARY.so]...
        --port N                     the port to listen on (0: a free one; printed on the first line)
        --host H                     the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
        --library NAME               load libNAME.so from the class path (repeatable)
        --token-file F               require the token in F from every client (or set PACKED4J_TOKEN)
        --tls-keystore F             serve TLS with the key and certificate of the PKCS#12 keystore F
        --tls-keystore-password-file F   its password (or set PACKED4J_KEYSTORE_PASSWORD)
        --max-message-mib N          the largest message in MiB (default 257); tensors above 256 KiB
                                     cross in chunks and are not bounded by it
        --max-tensor-mib N           the most tensor arguments clients may stream at once, all calls together,
                                     in MiB (default 4096): the server allocates them before their bytes arrive
        --stream-idle-seconds N      end a call whose streamed arguments get no bytes for N seconds (default 60)
        --max-calls N                the most calls running at once (default 256); more are refused. A call
                                     past its deadline runs on until its native function returns, and counts
                                     until then
        --max-calls-per-connection N the most calls of one client connection (a session) running at once
                                     (default: half of --max-calls; never more than --max-calls)
        --exit-with-parent           stop when standard input closes (packed4j's isolated sessions)
      """;

  /**
   * The system property by which an isolated session names its child's crash-report directory to the child, which
   * removes it when it ends without a report (its parent may have ended first, unable to).
   */
  public static final String CRASH_DIRECTORY_PROPERTY = "packed4j.isolated.crashDirectory";

  /**
   * Reads a command line.
   *
   * @throws IllegalArgumentException naming the wrong argument
   */
  public static ServerConfig parse(List<String> args, java.util.Map<String, String> environment) {
    String host = "127.0.0.1";
    int port = -1;
    List<Path> files = new ArrayList<>();
    List<String> names = new ArrayList<>();
    String token = environment.get("PACKED4J_TOKEN");
    Path keystore = null;
    String keystorePassword = environment.get("PACKED4J_KEYSTORE_PASSWORD");
    int maxMessageMib = 257;
    int maxTensorMib = 4096;
    int maxCalls = DEFAULT_MAX_CALLS;
    int maxCallsPerConnection = 0; // half of maxCalls unless given
    int streamIdleSeconds = 60;
    boolean exitWithParent = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--port" -> port = number(arg, value(args, ++i, arg), 0, 65535);
        case "--host" -> host = value(args, ++i, arg);
        case "--library" -> names.add(value(args, ++i, arg));
        case "--token-file" -> token = read(value(args, ++i, arg), arg);
        case "--tls-keystore" -> keystore = Path.of(value(args, ++i, arg));
        case "--tls-keystore-password-file" -> keystorePassword = read(value(args, ++i, arg), arg);
        case "--max-message-mib" -> maxMessageMib = number(arg, value(args, ++i, arg), 1, 2047);
        case "--max-tensor-mib" -> maxTensorMib = number(arg, value(args, ++i, arg), 1, Integer.MAX_VALUE);
        case "--max-calls" -> maxCalls = number(arg, value(args, ++i, arg), 1, 1 << 16);
        case "--max-calls-per-connection" -> maxCallsPerConnection = number(arg, value(args, ++i, arg), 1, 1 << 16);
        case "--stream-idle-seconds" -> streamIdleSeconds = number(arg, value(args, ++i, arg), 1, 86_400);
        case "--exit-with-parent" -> exitWithParent = true;
        default -> {
          if (arg.startsWith("-")) {
            throw new IllegalArgumentException("unknown option " + arg);
          }
          files.add(Path.of(arg));
        }
      }
    }
    if (port < 0) {
      throw new IllegalArgumentException("--port is required (0 for a free port)");
    }
    if (files.isEmpty() && names.isEmpty()) {
      throw new IllegalArgumentException("no library to host: name a LIBRARY.so or --library NAME");
    }
    if (token != null && token.isBlank()) {
      throw new IllegalArgumentException("the token is empty");
    }
    if (token != null) {
      try {
        SessionOptions.defaults().withToken(token); // the clients' rule: the header that carries it is ASCII
      } catch (IllegalArgumentException unsendable) {
        throw new IllegalArgumentException("the token (--token-file or PACKED4J_TOKEN) is one no client can send: "
            + unsendable.getMessage().substring("SessionOptions.withToken: ".length()));
      }
    }
    if (keystore != null && keystorePassword == null) {
      throw new IllegalArgumentException("--tls-keystore needs --tls-keystore-password-file or "
          + "PACKED4J_KEYSTORE_PASSWORD");
    }
    return new ServerConfig(host, port, List.copyOf(files), List.copyOf(names), token, keystore,
        keystorePassword == null ? null : keystorePassword.toCharArray(), maxMessageMib << 20,
        (long) maxTensorMib << 20, maxCalls,
        maxCallsPerConnection == 0 ? Math.max(1, maxCalls / 2) : Math.min(maxCallsPerConnection, maxCalls),
        streamIdleSeconds, exitWithParent);
  }

  /**
   * {@return the warning to print when this server listens beyond loopback without a token, or null} Anyone who can
   * reach such a port can call the hosted libraries' native code; TLS alone does not stop them.
   */
  public String openServerWarning() {
    if (token != null) {
      return null;
    }
    try {
      if (java.net.InetAddress.getByName(host).isLoopbackAddress()) {
        return null;
      }
    } catch (java.net.UnknownHostException unresolved) {
      // the start reports it
    }
    return "packed4j-server: warning: listening on " + host + " without a token (--token-file or PACKED4J_TOKEN):"
        + " any client that reaches the port can call the hosted libraries";
  }

  private static String value(List<String> args, int i, String option) {
    if (i >= args.size()) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args.get(i);
  }

  private static int number(String option, String text, int min, int max) {
    try {
      int value = Integer.parseInt(text);
      if (value < min || value > max) {
        throw new IllegalArgumentException(option + " must be between " + min + " and " + max + ", got " + text);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " takes a number, got '" + text + "'");
    }
  }

  private static String read(String file, String option) {
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new IllegalArgumentException(option + ": cannot read " + file + ": " + e);
    }
  }
}
