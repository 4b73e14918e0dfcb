package dev.packed4j.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@link Packed4j#connect} and {@link Packed4j#isolated} find through {@link java.util.ServiceLoader}: the
 * implementation of sessions, which packed4j-remote provides over gRPC. The runtime itself has no transport; put
 * {@code dev.packed4j:packed4j-remote} on the class path to use sessions. Applications do not call this class.
 */
public abstract class SessionProvider {
  /** For the implementation that {@link java.util.ServiceLoader} instantiates. */
  protected SessionProvider() {}

  /**
   * Connects to a running server.
   *
   * @param target {@code host:port}
   * @param options the token, TLS, deadline and message size
   * @return the open session
   * @throws Packed4jException {@value Session#SESSION_LOST} when the server cannot be reached,
   *     {@value Session#AUTHENTICATION} when it refuses the token
   */
  public abstract Session connect(String target, SessionOptions options);

  /**
   * Starts a server in a child JVM on a free loopback port, hosting {@code libraries} loaded in their order, and
   * connects to it.
   *
   * @param libraries the plugins' {@code .so} files, at least one, none null
   * @param options the deadline, message size and restart choice
   * @return the open session; closing it stops the child
   * @throws Packed4jException LoadError when the child cannot load a library (its message), or
   *     {@value Session#SESSION_LOST} when the child does not start
   */
  public abstract Session isolated(List<Path> libraries, SessionOptions options);

  /**
   * As {@link #isolated(List, SessionOptions)}, for a library the class path carries (as
   * {@link Packed4j#loadLibrary(String)} finds it).
   *
   * @param name the library's name without {@code lib} and {@code .so}
   * @param options the deadline, message size and restart choice
   * @return the open session; closing it stops the child
   * @throws Packed4jException as {@link #isolated(List, SessionOptions)}
   */
  public abstract Session isolated(String name, SessionOptions options);

  /**
   * The session {@code bound} calls when it is an interface this provider's {@link Session#bind} returned, for
   * {@link Packed4j#invokeGlobal}.
   *
   * @param bound any object
   * @return its session, or empty when it is not bound by this provider
   */
  public Optional<Session> sessionOf(Object bound) {
    return Optional.empty();
  }

  /**
   * A {@link Packed4jException} as the runtime makes one, for an implementation to throw: a native error that
   * crossed a session keeps its kind, message, backtrace and function.
   *
   * @param kind the kind, such as {@code "TypeError"} or {@value Session#SESSION_LOST}
   * @param message the message without kind and function prefix
   * @param backtrace the native frames, one per line, or empty
   * @param functionName the registered name of the function the error came from, or null
   * @return the exception, not thrown
   */
  protected static Packed4jException error(String kind, String message, String backtrace, String functionName) {
    return new Packed4jException(kind, message, backtrace, functionName);
  }
}
