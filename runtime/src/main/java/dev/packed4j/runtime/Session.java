package dev.packed4j.runtime;

import java.util.List;

/**
 * A registry in another process: plugin libraries hosted by a {@code packed4j-server} on this machine or another,
 * called over gRPC. {@link #bind(Class)} returns the same interfaces {@link Packed4j#bind(Class)} does, so moving
 * code between an in-process library and a remote one is one line:
 *
 * <pre>{@code
 * Calculator local = Packed4j.bind(Calculator.class);                 // the library in this JVM
 * try (Session isolated = Packed4j.isolated("calculator");           // a child JVM of its own
 *     Session remote = Packed4j.connect("gpu-box:7000")) {           // a server elsewhere
 *   Calculator calc = isolated.bind(Calculator.class);
 *   calc.add(1, 2);                                                  // 3, computed in the child
 * }
 * }</pre>
 *
 * <p>Values cross by value: numbers, booleans, strings, {@code byte[]}, lists, maps, optionals, and tensors
 * ({@link NDArray}, copied, up to {@link SessionOptions#maxMessageBytes()}). Native objects stay on the server: a
 * result of an {@code @Object} type comes back as an implementation of its {@code @Object} interface (and of
 * {@link RemoteObject}) whose getters, setters and methods are calls, as are a bound interface's constructors and
 * static methods; closing it releases the server's reference, and closing the session
 * (or losing the connection) releases every reference the session held. A function a call returns stays on the
 * server as well: declared as {@link PackedFunction}, it comes back as a function of this JVM whose body calls the
 * server's; declared as a functional interface, as a proxy calling the server's function that is also a
 * {@link NativeClosure} and a {@link RemoteObject}, released at its close. One not closed is released at a garbage
 * collection once nothing here can call it. Java
 * callbacks (a {@link PackedFunction}
 * made from a lambda, a functional interface argument) do not cross a session: passing one throws a
 * {@link Packed4jException} of kind {@code TypeError} that says so.
 *
 * <p>Errors: a native error arrives as a {@link Packed4jException} with its kind, message and native backtrace, as
 * locally. A server that cannot be reached or ends (a plugin crashed it) fails every pending and later call with
 * kind {@value #SESSION_LOST}; a call that outlives {@link SessionOptions#deadline()} fails with kind
 * {@value #TIMEOUT}; a server that refuses the session's token fails with kind {@value #AUTHENTICATION}. No call
 * waits longer than its deadline, except that a call which restarts a lost isolated session's child
 * ({@link SessionOptions#withRestartOnLoss}) first waits for the restart, within
 * {@link SessionOptions#openTimeout()}, the bound of opening a session too. Sessions are thread-safe: many threads
 * may call through one session at once, and the server runs their calls concurrently.
 */
public interface Session extends AutoCloseable {
  /** The kind of the error of a call whose server ended, is unreachable, or closed the session. */
  String SESSION_LOST = "SessionLostError";

  /** The kind of the error of a call that did not finish within the session's deadline. */
  String TIMEOUT = "TimeoutError";

  /** The kind of the error of a server that refused the session: a missing or wrong token. */
  String AUTHENTICATION = "AuthenticationError";

  /**
   * The interface {@code functions} bound to this session's registry: every {@code @Global} method calls the
   * function of that name on the server. It needs the class packed4j-processor generated for it (as
   * {@link Packed4j#bind(Class)} does), whose table says which global each method calls.
   *
   * @param functions an interface with {@code @Global} methods, compiled with packed4j-processor
   * @param <T> the interface type
   * @return an implementation whose methods are remote calls
   * @throws IllegalArgumentException when {@code functions} is not an interface
   * @throws IllegalStateException when packed4j-processor generated no class for it, or this session is closed
   */
  <T> T bind(Class<T> functions);

  /**
   * The server's function registered under {@code name}.
   *
   * @param name the registered name, such as {@code "calculator.MyAdd"}
   * @return the function, called with dynamically converted arguments
   * @throws Packed4jException KeyError naming {@code name} when the server registers no such function, or
   *     {@value #SESSION_LOST} when the server is gone
   */
  Function global(String name);

  /**
   * The server's registered global names, as {@link Registry#list()} gives them there.
   *
   * @return the names, sorted
   * @throws Packed4jException {@value #SESSION_LOST} when the server is gone
   */
  List<String> list();

  /**
   * The server's object types, as {@link Registry#objectTypes()} gives them there.
   *
   * @return the types, parents before children
   * @throws Packed4jException {@value #SESSION_LOST} when the server is gone
   */
  List<ObjectTypeInfo> objectTypes();

  /** {@return where the server is, {@code host:port}} */
  String target();

  /**
   * Ends the session at once: the server releases every object it holds for it, the connection closes without
   * waiting for calls in flight (each fails with kind {@value #SESSION_LOST}, "the session was closed"), and an
   * isolated session's child process is killed, its native work in progress not finished. Later calls throw
   * {@link IllegalStateException}; closing again does nothing, and any thread may close. A session that is never
   * closed is closed once nothing refers to it any more (its objects and bound interfaces refer to it), at a time the
   * garbage collector chooses.
   */
  @Override
  void close();

  /**
   * A function of the server's registry, as {@link PackedFunction} is locally.
   *
   * <pre>{@code
   * session.global("calculator.Mul").invoke(6, 7); // 42L
   * }</pre>
   */
  interface Function {
    /**
     * Calls the function on the server.
     *
     * @param args the arguments: numbers, booleans, Strings, byte arrays, lists, maps, optionals, tensors, remote
     *     objects of this session, or null for None
     * @return the result: a boxed number ({@code Long}, {@code Double}), Boolean, String, {@code byte[]},
     *     {@code List}, {@code Map}, {@link NDArray}, a {@link RemoteObject} (a {@link Function} for a function), or
     *     null for None
     * @throws Packed4jException the native error (kind, message, backtrace), TypeError for an argument that cannot
     *     cross the session, or the session's errors ({@value Session#SESSION_LOST}, {@value Session#TIMEOUT})
     */
    Object invoke(Object... args);

    /** {@return the registered name, or null for a function object that came back as a result} */
    String name();
  }

  /**
   * A native object held by the server for this session. A result of an {@code @Object} type implements its
   * {@code @Object} interface too; one of a type with no Java interface is read by name.
   *
   * <pre>{@code
   * RemoteObject calc = (RemoteObject) session.global("calculator.CreateCalculator").invoke("casio", 100);
   * calc.typeKey();       // "Calculator"
   * calc.get("price");    // 100L
   * calc.set("price", 120);
   * calc.call("add", 1, 2); // 3L
   * calc.close();         // the server releases its reference
   * }</pre>
   *
   * <p>Its {@code toString()} is one call: the server's runtime formats it as an object of this process prints
   * ({@code Calculator{brand=casio, price=120}}). It never throws: without a call it is {@code Calculator{closed}}
   * once the object or its session is closed and {@code Calculator{lost}} once the server session that held it
   * ended; {@code Calculator@remote#<id>} when the server does not answer.
   */
  interface RemoteObject extends AutoCloseable {
    /** {@return the native type key, such as {@code "Calculator"}} */
    String typeKey();

    /**
     * Reads a field on the server.
     *
     * @param field the field's name, as the C++ type visits it
     * @return its value, converted as {@link Function#invoke} converts results
     * @throws Packed4jException AttributeError when the type has no such field, or the session's errors
     * @throws IllegalStateException after {@link #close()}
     */
    Object get(String field);

    /**
     * Writes a field on the server, one the type's object definition declares writable ({@code def_rw}).
     *
     * @param field the field's name
     * @param value the new value, converted as an argument of {@link Function#invoke} is
     * @throws Packed4jException AttributeError when the type has no such field, ValueError when it is read-only or
     *     the value out of its range, or the session's errors
     * @throws IllegalStateException after {@link #close()}
     */
    void set(String field, Object value);

    /**
     * Calls a method the object's type registers ({@code def}), with this object first, on the server.
     *
     * @param method the method's registered name
     * @param args the arguments after the object, converted as those of {@link Function#invoke} are
     * @return the result, converted as {@link Function#invoke} converts results
     * @throws Packed4jException AttributeError listing the type's members when it has none of that name, the
     *     method's own errors, or the session's errors
     * @throws IllegalStateException after {@link #close()}
     */
    Object call(String method, Object... args);

    /** {@return whether {@link #close()} was called} */
    boolean isClosed();

    /** Releases the server's reference; later uses throw {@link IllegalStateException}. Idempotent. */
    @Override
    void close();
  }
}
