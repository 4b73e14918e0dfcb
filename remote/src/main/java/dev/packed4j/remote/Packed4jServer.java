package dev.packed4j.remote;

import dev.packed4j.remote.internal.ServerConfig;
import dev.packed4j.remote.internal.Services;
import dev.packed4j.remote.internal.TransportLogs;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Registry;
import io.grpc.BindableService;
import io.grpc.Server;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * packed4j-server: hosts plugin libraries in this JVM and serves their registry to {@code Packed4j.connect}
 * sessions over gRPC.
 *
 * <pre>{@code
 * java -jar packed4j-server.jar --port 7000 build/libcalculator.so
 * packed4j-server: listening on 127.0.0.1:7000
 * }</pre>
 *
 * <p>It listens on loopback unless {@code --host} says otherwise; {@code --token-file} makes it refuse clients
 * without the token, {@code --tls-keystore} serves TLS. {@link #start(List, BindableService...)} starts one inside
 * a JVM of your own (tests, benchmarks).
 */
public final class Packed4jServer implements AutoCloseable {
  private final Server server;
  private final String address;

  private Packed4jServer(Server server, String address) {
    this.server = server;
    this.address = address;
  }

  /**
   * Runs the server until the JVM ends: prints {@code packed4j-server: listening on HOST:PORT} as its first line
   * (the port chosen when {@code --port 0}), or the problem and the usage on standard error with exit status 2 (a
   * wrong command line) or 1 (a library that does not load, a port in use).
   *
   * @param args the command line (see the class comment; {@code --help} prints the options)
   */
  public static void main(String[] args) {
    if (Arrays.asList(args).contains("--help")) {
      System.out.print(ServerConfig.USAGE);
      return;
    }
    ServerConfig config;
    try {
      config = ServerConfig.parse(List.of(args), System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("packed4j-server: " + e.getMessage());
      System.err.print(ServerConfig.USAGE);
      System.exit(2);
      return;
    }
    Packed4jServer running;
    try {
      running = start(config);
    } catch (Packed4jException | IllegalStateException | IllegalArgumentException e) {
      System.err.println("packed4j-server: " + e.getMessage());
      System.exit(1);
      return;
    }
    System.out.println("packed4j-server: listening on " + running.address());
    System.out.flush();
    String warning = config.openServerWarning();
    if (warning != null) {
      System.err.println(warning);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(running::close, "packed4j-server-shutdown"));
    if (config.exitWithParent()) {
      TransportLogs.quietIsolatedChild();
      String crashDirectory = System.getProperty(ServerConfig.CRASH_DIRECTORY_PROPERTY);
      if (crashDirectory != null) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
          try {
            Files.deleteIfExists(Path.of(crashDirectory)); // only when empty: a crash report stays for the user
          } catch (IOException kept) {
            // it holds a report
          }
        }, "packed4j-server-crash-directory"));
      }
      Thread watch = new Thread(() -> {
        try (InputStream in = System.in) {
          while (in.read() >= 0) {
            // the parent writes nothing; EOF means it closed the session or ended
          }
        } catch (IOException ignored) {
          // the same: the parent is gone
        }
        System.exit(0);
      }, "packed4j-server-parent-watch");
      watch.setDaemon(true);
      watch.start();
    }
    try {
      running.server.awaitTermination();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Starts a server in this JVM: loads the libraries the command line names and serves them, with
   * {@code extraServices} beside the registry on the same port (a benchmark's plain gRPC service).
   *
   * @param args the command line, as {@link #main(String[])} takes it
   * @param extraServices more gRPC services to serve on the same port, behind the same token check
   * @return the running server; {@link #close()} stops it
   * @throws IllegalArgumentException for a wrong command line, naming the argument
   * @throws Packed4jException LoadError for a library that does not load
   * @throws IllegalStateException when the port cannot be bound
   */
  public static Packed4jServer start(List<String> args, BindableService... extraServices) {
    return start(ServerConfig.parse(args, System.getenv()), extraServices);
  }

  private static Packed4jServer start(ServerConfig config, BindableService... extraServices) {
    for (Path library : config.libraryFiles()) {
      Packed4j.loadLibrary(library);
    }
    for (String name : config.libraryNames()) {
      Packed4j.loadLibrary(name);
    }
    Registry.list(); // the registry is read once before the first client, so a broken core fails here
    Server server = Services.build(config, extraServices);
    try {
      server.start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage(),
          e);
    }
    InetSocketAddress bound = (InetSocketAddress) server.getListenSockets().getFirst();
    String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
    return new Packed4jServer(server, host + ":" + bound.getPort());
  }

  /** {@return the address clients connect to, {@code host:port}, with the port actually bound} */
  public String address() {
    return address;
  }

  /** {@return the port actually bound} */
  public int port() {
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
  }

  /** Stops accepting calls and ends every session (their objects are released); waits up to 5 seconds. */
  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
