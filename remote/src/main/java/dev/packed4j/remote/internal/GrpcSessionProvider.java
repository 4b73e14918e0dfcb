package dev.packed4j.remote.internal;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import dev.packed4j.runtime.SessionOptions;
import dev.packed4j.runtime.SessionProvider;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Sessions over gRPC, found by {@code Packed4j.connect} and {@code Packed4j.isolated} through ServiceLoader
 * ({@code META-INF/services/dev.packed4j.runtime.SessionProvider}).
 */
public final class GrpcSessionProvider extends SessionProvider {
  /** For ServiceLoader. */
  public GrpcSessionProvider() {}

  @Override
  public Session connect(String target, SessionOptions options) {
    return RemoteSession.connect(target, options);
  }

  @Override
  public Session isolated(List<Path> libraries, SessionOptions options) {
    List<String> files = libraries.stream().map(library -> library.toAbsolutePath().toString()).toList();
    String named = String.join(", ", libraries.stream().map(Path::toString).toList());
    return RemoteSession.isolated(files, named, options);
  }

  @Override
  public Session isolated(String name, SessionOptions options) {
    if (name.isEmpty() || name.contains("/") || name.startsWith("-")) {
      throw new IllegalArgumentException("Packed4j.isolated(String) takes a library name such as \"calculator\" "
          + "(libcalculator.so on the class path), got '" + name + "'; pass a Path for a file");
    }
    return RemoteSession.isolated(List.of("--library", name), "lib" + name + ".so from the class path", options);
  }

  @Override
  public Optional<Session> sessionOf(Object bound) {
    return bound != null && Proxy.isProxyClass(bound.getClass())
        && Proxy.getInvocationHandler(bound) instanceof BoundInterface handler
        ? Optional.of(handler.session()) : Optional.empty();
  }

  /** A Packed4jException of {@code kind}, as the runtime makes them. */
  static Packed4jException newError(String kind, String message, String backtrace, String function) {
    return error(kind, message, backtrace, function);
  }
}
