package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.capi.BundledLibraries;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.NativeAccess;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.GeneratedClasses;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.runtime.internal.objects.TypeInfos;
import dev.packed4j.runtime.internal.objects.TypeView;
import dev.packed4j.runtime.internal.route.LinkedRoute;
import dev.packed4j.runtime.internal.upcall.JavaFunctions;
import dev.packed4j.runtime.internal.values.Registries;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Entry points: load plugin libraries and bind annotated interfaces to the functions they register.
 *
 * <pre>{@code
 * Packed4j.loadLibrary(Path.of("build/libcalculator.so")); // or loadLibrary("calculator") from the jar
 * Calculator calc = Packed4j.bind(Calculator.class);
 * calc.add(1, 2); // 3
 * }</pre>
 *
 * <p>libpacked4j.so itself is loaded on first use: from the file named by the system property
 * {@code packed4j.library.path} if set, else from the copy carried in the runtime jar. Its ABI version must match
 * the runtime's.
 */
public final class Packed4j {
  private Packed4j() {}

  /**
   * How the core reports a plugin it refused for the ABI version of its headers (P4JPluginCheckAbiVersion in
   * c_api.h), among the registration errors: once per plugin, and the plugin registered nothing.
   */
  private static final String ABI_REFUSAL = ErrorKind.LOAD_ERROR.spelling() + ": ABI version mismatch: ";

  /** The message of each plugin refused for its ABI version, by absolute path (guarded by Packed4j.class). */
  private static final Map<Path, String> ABI_REFUSED_PLUGINS = new HashMap<>();

  /**
   * The error of each plugin whose registrations the registry refused in part, by absolute path (guarded by
   * Packed4j.class): loading it again reports the same, since the loader does not run its initialisers again.
   */
  private static final Map<Path, Packed4jException> PARTLY_REFUSED_PLUGINS = new HashMap<>();

  /** Finds the class that called {@link #libraryFile}, whose class loader carries the library. */
  private static final StackWalker CALLERS = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  /**
   * Loads the plugin library {@code name} carried on the class path for the running platform, as the resource
   * {@code META-INF/native/<platform>/lib<name>.so} (platform {@code linux-x86_64} here), which is where
   * packed4j-maven-plugin's {@code build-native} goal puts the libraries of a project's CMake build:
   *
   * <pre>{@code
   * Packed4j.loadLibrary("calculator"); // libcalculator.so from the application's jar
   * Calculator calc = Packed4j.bind(Calculator.class);
   * }</pre>
   *
   * <p>A library in a class path directory (such as {@code target/classes}) is loaded in place. One inside a jar
   * is copied once to a per-user cache ({@code $XDG_CACHE_HOME/packed4j}, else {@code ~/.cache/packed4j}, or the
   * directory named by the system property {@code packed4j.cache.dir}) in a folder named by the SHA-256 of its
   * content (and of the libraries copied with it), and loaded from there; processes starting at the same time share the copy safely. The resource is
   * looked up through the class loader of the class that calls this method. A shared library the plugin links that
   * the same jar or directory carries beside it (where {@code build-native} puts every library of the project's
   * CMake build) is loaded first, from a cache folder shared with the plugin's copy, so the plugin does not depend
   * on the build tree its RUNPATH names.
   *
   * <p>Loading native code is what {@code System.loadLibrary} does, a restricted method: the calling class's module
   * needs native access ({@code --enable-native-access}). Without it, code on the class path (or in a package its
   * named module opens to {@code dev.packed4j.runtime}) gets the JDK's warning, or under
   * {@code --illegal-native-access=deny} this throws {@link IllegalCallerException}; any other package of a named
   * module gets the IllegalCallerException, naming the flag to add.
   *
   * @param name the library's name without {@code lib} and {@code .so}, as CMake's {@code add_library} names it
   * @throws IllegalCallerException when the caller's module may not load native code
   * @throws IllegalArgumentException when {@code name} is not a plain library name
   * @throws Packed4jException LoadError when the class path does not carry the library for this platform (the
   *     message lists the platforms it is carried for), when it cannot be extracted, or for every reason
   *     {@link #loadLibrary(Path)} gives
   */
  public static void loadLibrary(String name) {
    ClassLoader loader = NativeAccess.checkCaller("Packed4j.loadLibrary").getClassLoader();
    Path file;
    try {
      file = BundledLibraries.locate(name, loader);
    } catch (IllegalStateException e) {
      throw Failures.error(ErrorKind.LOAD_ERROR, e.getMessage(), null);
    }
    load(file);
  }

  /**
   * Loads a plugin library; its static initialisers register its functions and types. Loading a library again
   * does nothing.
   *
   * @throws Packed4jException LoadError naming the path, what is wrong (no such file, not a shared library,
   *     wrong architecture, a missing dependency, an unresolved symbol) and what to do; LoadError naming the
   *     plugin and both ABI versions when it was compiled against packed4j headers whose typed entries and layouts
   *     the core cannot read (another major version, or a newer minor one): nothing of it is registered, and
   *     loading it again throws the same; or, with the kind of the first refusal, the registrations the native
   *     registry refused (a name registered twice, ...), which loading the same file again reports again
   * @param library the plugin's {@code .so} file
   * @throws IllegalCallerException when the caller's module may not load native code, as for
   *     {@link #loadLibrary(String)}
   */
  public static void loadLibrary(Path library) {
    NativeAccess.checkCaller("Packed4j.loadLibrary");
    load(library);
  }

  /**
   * The file {@link #loadLibrary(String)} loads for {@code name}, without loading it: the class path directory's
   * file, or the per-user cache's copy of the jar's entry, extracted now when it is not there yet. It names a library
   * the class path carries where a file is wanted: for {@link #isolated(List)}, {@code packed4j describe} or a
   * debugger. The resource is looked up through the class loader of the class that calls this method.
   *
   * @param name the library's name without {@code lib} and {@code .so}
   * @return the absolute path of the file
   * @throws IllegalArgumentException when {@code name} is not a plain library name
   * @throws Packed4jException LoadError when the class path does not carry the library for this platform, or it
   *     cannot be extracted, with the message {@link #loadLibrary(String)} gives
   */
  public static Path libraryFile(String name) {
    Objects.requireNonNull(name, "name");
    ClassLoader loader = CALLERS.getCallerClass().getClassLoader();
    try {
      return BundledLibraries.locate(name, loader).toAbsolutePath();
    } catch (IllegalStateException e) {
      throw Failures.error(ErrorKind.LOAD_ERROR, e.getMessage(), null);
    }
  }

  private static synchronized void load(Path library) {
    // One load at a time: the registration refusals taken below must belong to this library.
    Objects.requireNonNull(library, "library");
    NativeLibraries.ensureLoaded();
    Path absolute = fileKey(library);
    String refusedBefore = ABI_REFUSED_PLUGINS.get(absolute);
    if (refusedBefore != null) {
      // Its static initialisers ran at the first load; the loader does not run them again.
      throw Failures.error(ErrorKind.LOAD_ERROR, refusedBefore, null);
    }
    Packed4jException partlyRefused = PARTLY_REFUSED_PLUGINS.get(absolute);
    if (partlyRefused != null) {
      throw Failures.newException(partlyRefused.kind(), partlyRefused.nativeMessage(), "", null);
    }
    // Refusals left from earlier loads belong to those; only this library's are reported below.
    Registries.takeRegistrationErrors();
    String problem = NativeLibraries.loadPlugin(library);
    TypeInfos.invalidate();
    if (problem != null) {
      throw Failures.error(ErrorKind.LOAD_ERROR, problem, null);
    }
    // Methods first called before this library registered their functions take their direct entries now, and
    // methods whose function it replaced call the new one.
    LinkedRoute.registryChanged();
    List<String> refused = Registries.takeRegistrationErrors();
    for (String refusal : refused) {
      if (refusal.startsWith(ABI_REFUSAL)) {
        String message = refusal.substring(ErrorKind.LOAD_ERROR.spelling().length() + ": ".length())
            + " (the library stays mapped, unused)";
        ABI_REFUSED_PLUGINS.put(absolute, message);
        throw Failures.error(ErrorKind.LOAD_ERROR, message, null);
      }
    }
    if (!refused.isEmpty()) {
      String first = refused.getFirst();
      int colon = first.indexOf(':');
      String kind = colon > 0 && first.substring(0, colon).endsWith("Error") ? first.substring(0, colon)
          : ErrorKind.RUNTIME_ERROR.spelling();
      // The kind of the first refusal, as the native registry spelled it.
      Packed4jException failure = Failures.newException(kind, "loading " + library.toAbsolutePath() + ", the native"
          + " registry refused " + (refused.size() == 1 ? "a registration: " : refused.size() + " registrations: ")
          + String.join("; ", refused) + " (the library is loaded without what was refused; a name registered"
          + " twice keeps its first definition)", "", null);
      PARTLY_REFUSED_PLUGINS.put(absolute, failure);
      throw failure;
    }
  }

  /**
   * The file {@code library} names, as the loader knows it (links resolved: it opens a file once, by inode), for the
   * refusals remembered per plugin; the absolute path when it cannot be resolved (the load then reports why).
   */
  private static Path fileKey(Path library) {
    try {
      return library.toRealPath();
    } catch (IOException | SecurityException e) {
      return library.toAbsolutePath().normalize();
    }
  }

  /**
   * An implementation of {@code functions}, an interface with {@code @Global} methods, generated by
   * packed4j-processor as {@code <package>.Packed4j_<Name>} and loaded by that name (no scanning, no proxy).
   *
   * @throws IllegalArgumentException when {@code functions} is not an interface, or is an {@code @Object} interface
   * @throws IllegalStateException when there is no generated class: put packed4j-processor on the compiler's
   *     annotationProcessorPaths
   * @param functions the interface to implement
   * @param <T> the interface's type
   * @return the generated implementation, bound to the functions the loaded libraries registered
   */
  public static <T> T bind(Class<T> functions) {
    Objects.requireNonNull(functions, "functions");
    if (!functions.isInterface()) {
      throw new IllegalArgumentException("Packed4j.bind takes an interface with @Global methods, and "
          + functions.getName() + " is a " + (functions.isEnum() ? "enum" : functions.isRecord() ? "record" : "class"));
    }
    NativeLibraries.ensureLoaded();
    Class<?> generated = GeneratedClasses.load(functions, "@Global");
    if (ObjectRef.class.isAssignableFrom(generated)) {
      TypeView<T> view = TypeView.forJavaType(functions); // defined by the generated class's initialisation
      throw new IllegalArgumentException("Packed4j.bind takes an interface with @Global methods, and "
          + functions.getName() + " is an @Object interface (the view of the native type "
          + (view != null ? "'" + view.typeKey() + "'" : "it declares") + "): its objects come from its constructors"
          + " and from the functions that return it; bind the interface that declares those functions");
    }
    try {
      return functions.cast(generated.getConstructor().newInstance());
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalStateException(generated.getName() + " has no accessible public no-argument constructor ("
          + e.getMessage() + "): recompile " + functions.getName() + " with packed4j-processor; in a named module, "
          + "export " + functions.getPackageName() + " to dev.packed4j.runtime", e);
    } catch (InstantiationException e) {
      throw new IllegalStateException("cannot instantiate " + generated.getName() + ": " + e.getMessage(), e);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException("the constructor of " + generated.getName() + " failed", cause);
    }
  }

  /**
   * {@link #bind(Class)}, after checking the whole interface against the loaded registry: every method's global is
   * registered, and where {@code set_body_typed} recorded a signature, the method has its arity and types that
   * convert (the rules the processor applies to a manifest at compile time). So is every {@code @Object} interface
   * its methods take or return (and theirs in turn): each getter's field exists and converts, each setter's field
   * is also writable ({@code def_rw}), each method is registered on the type or a parent with its arity and types.
   * Every problem is reported at once, instead of one at a time at the first call of each method. Load the plugins
   * first.
   *
   * <pre>{@code
   * Packed4j.loadLibrary(Path.of("build/libcalculator.so"));
   * Calculator calc = Packed4j.bindChecked(Calculator.class);
   * // Packed4jException: [BindError] p.Calculator does not match the loaded native registry (2 problems):
   * //   Calculator.add(int,int): no loaded library registers 'calculator.MyAd'; did you mean calculator.MyAdd?
   * //   Calculator.multiply(long): calculator.Mul takes 2 arguments ((int64, int64) -> int64), the method 1
   * }</pre>
   *
   * @param <T> the interface type
   * @param functions an interface with {@code @Global} methods, compiled with packed4j-processor
   * @return the bound implementation, every method checked against the loaded registry
   * @throws Packed4jException of kind BindError listing every problem, one per line
   * @throws IllegalArgumentException and IllegalStateException as {@link #bind(Class)}
   */
  public static <T> T bindChecked(Class<T> functions) {
    T bound = bind(functions);
    BindingCheck.check(functions, bound.getClass());
    return bound;
  }

  /**
   * Registers the Java functions {@code exports} declares: each {@code static} method with a body annotated
   * {@code @Global}, under its name, with its signature recorded as {@code set_body_typed} records one (and a typed
   * entry when its parameters are primitives or Strings and its result a primitive or void). C++ finds them with
   * {@code PackedFunc::GetGlobal}; {@link Registry#list()} lists them. The registrar is the class packed4j-processor
   * generated for {@code exports}; no method is looked up by reflection.
   *
   * <pre>{@code
   * public final class HostFunctions {
   *   @Global("host.Log") static void log(String line) { System.out.println(line); }
   *   @Global("host.Add") static long add(long a, long b) { return a + b; }
   * }
   * Packed4j.register(HostFunctions.class); // [host.Add, host.Log]
   * }</pre>
   *
   * @param exports a class with {@code static @Global} methods that have bodies, compiled with packed4j-processor
   * @return the registered names, in the order the class declares them
   * @throws Packed4jException ValueError naming the name and the method when a name is registered already; then
   *     nothing of the class is registered
   * @throws IllegalStateException when the processor generated no registrar for the class
   */
  public static synchronized List<String> register(Class<?> exports) {
    Objects.requireNonNull(exports, "exports");
    NativeLibraries.ensureLoaded();
    Class<?> generated = GeneratedClasses.loadRegistrar(exports, Exports.class);
    Exports registrar;
    try {
      registrar = (Exports) generated.getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot create the registrar " + generated.getName() + " (" + e
          + "): recompile " + exports.getName() + " with packed4j-processor", e);
    }
    record Export(String name, String javaMethod, PackedFunction function, List<String> parameterNames) {}
    List<Export> functions = new ArrayList<>();
    try {
      registrar.exportTo(new ExportedFunctions() {
        @Override
        public void add(String name, String javaMethod, PackedFunction function) {
          functions.add(new Export(name, javaMethod, function, null));
        }

        @Override
        public void add(String name, String javaMethod, PackedFunction function, List<String> parameterNames) {
          functions.add(new Export(name, javaMethod, function, List.copyOf(parameterNames)));
        }
      });
      for (Export export : functions) {
        if (Registry.find(export.name()).map(found -> {
          found.close();
          return true;
        }).orElse(false)) {
          throw Failures.error(ErrorKind.VALUE_ERROR, "global function '" + export.name() + "' of "
              + export.javaMethod() + " is already registered; nothing of " + exports.getName()
              + " was registered", export.name());
        }
      }
      List<String> names = new ArrayList<>();
      for (Export export : functions) {
        // Its argument and result errors name the global and the method, as a C++ function's name it.
        JavaFunctions.name(export.function().handle(), export.name() + " (" + export.javaMethod() + ")");
        Registry.register(export.name(), export.function());
        if (export.parameterNames() != null) {
          Registries.nameParameters(export.name(), export.parameterNames());
        }
        names.add(export.name());
      }
      return List.copyOf(names);
    } finally {
      // The registry holds its own references.
      functions.forEach(export -> export.function().close());
    }
  }

  /**
   * Saves a value as JSON: numbers, booleans, strings, {@code byte[]}, native objects of any registered type (every
   * field the C++ type visits, including those no Java interface reads), lists, maps, nested, and small tensors.
   * A native object referenced more than once is written once and comes back as one object; the format is
   * {@code packed4j-json}, version 1 (docs/guide.md, "Objects as data"). Java lists and maps are converted as an
   * argument of a call would be. It is the core's {@code packed4j::SaveJSON}, so C++ loads what Java saves and the
   * reverse.
   *
   * <pre>{@code
   * String json = Packed4j.toJson(calc);              // {"format":"packed4j-json","version":1,...}
   * Calculator back = Packed4j.fromJson(json, Calculator.class);
   * Packed4j.structuralEquals(calc, back);            // true; calc.equals(back) is false: another object
   * }</pre>
   *
   * @param value the value to save; null is saved as JSON {@code null}
   * @return the JSON text
   * @throws Packed4jException TypeError naming {@code packed4j.SaveJSON} when the value cannot cross the boundary,
   *     ValueError when the graph nests deeper than 512 levels or holds a tensor above the size limit
   * @throws IllegalStateException when an object in the value is closed
   */
  public static String toJson(Object value) {
    return ObjectData.toJson(value);
  }

  /**
   * Loads a value saved by {@link #toJson} or by C++ {@code packed4j::SaveJSON}: objects as the generated view of
   * their type (or {@link NativeObject} when the type has none), lists as {@link NativeList}, maps as
   * {@link NativeMap}, strings, {@code byte[]}, boxed numbers and tensors as {@link NDArray}. The caller owns the
   * objects, lists and maps it returns.
   *
   * @param json the JSON text
   * @return the value
   * @throws Packed4jException ValueError naming what is wrong and where (malformed JSON, another format, a newer
   *     version, a type key no loaded library registers, a missing, unknown or mistyped field, too deep a nesting)
   * @throws NullPointerException when {@code json} is null
   */
  public static Object fromJson(String json) {
    return ObjectData.fromJson(json);
  }

  /**
   * Loads a value as {@link #fromJson(String)} does and checks that it is a {@code type}. An object is viewed as a
   * typed result is: as the generated class of its type, or of its nearest ancestor, that implements {@code type},
   * even when another class loader's interface of the same native type was loaded first.
   *
   * @param json the JSON text
   * @param type what the JSON must hold: an {@code @Object} interface, {@code NativeObject}, {@code NativeList},
   *     {@code String}, {@code Long} and so on (a primitive type stands for its wrapper; an integer, which loads
   *     as {@code Long}, also loads as {@code Integer}, {@code Short} or {@code Byte} when it fits)
   * @param <T> the expected type
   * @return the value, or null when the JSON holds {@code null} and {@code type} is not primitive
   * @throws Packed4jException TypeError naming the expected type and what the JSON holds (the loaded value is
   *     released), a ValueError for an integer that does not fit {@code type}, or a ValueError as
   *     {@link #fromJson(String)}
   * @throws NullPointerException when {@code json} or {@code type} is null
   */
  public static <T> T fromJson(String json, Class<T> type) {
    return ObjectData.fromJson(json, type);
  }

  /**
   * Compares two values by structure: the same type keys, field by field, recursively through objects, lists and
   * maps, the way {@code packed4j::StructuralEqual} does. {@link ObjectRef#equals} stays identity; this is the
   * structural form. A type that opts out of structural comparison compares by identity here too.
   *
   * @param a a value
   * @param b another value
   * @return whether they are structurally equal
   * @throws Packed4jException TypeError when a value cannot cross the boundary
   * @throws IllegalStateException when an object in either value is closed
   */
  public static boolean structuralEquals(Object a, Object b) {
    return ObjectData.structuralEquals(a, b);
  }

  /**
   * A hash of a value's structure, consistent with {@link #structuralEquals}: structurally equal values have equal
   * hashes, in both languages ({@code packed4j::StructuralHash}).
   *
   * @param value a value
   * @return its structural hash
   * @throws Packed4jException TypeError when the value cannot cross the boundary
   * @throws IllegalStateException when an object in the value is closed
   */
  public static long structuralHash(Object value) {
    return ObjectData.structuralHash(value);
  }

  /**
   * A deep copy of a native object: a new graph of new objects with the same structure and the same sharing (an
   * object referenced twice in the original is one object, referenced twice, in the copy), as
   * {@code packed4j::DeepCopy}. Tensors are copied too.
   *
   * @param object the root of the graph: a native object (a generated {@code @Object} view, a {@link NativeObject},
   *     an {@link NDArray})
   * @param <T> the object's Java type, such as its {@code @Object} interface
   * @return the copy, of the same Java class, owned by the caller
   * @throws IllegalStateException when an object in the graph is closed
   * @throws NullPointerException when {@code object} is null
   * @throws Packed4jException TypeError when {@code object} is not a native object of this process (a session's
   *     object says how to copy it on its server); ValueError when the graph has a cycle (naming its path) or an
   *     object of a type that cannot be created from data (no default constructor)
   */
  public static <T> T deepCopy(T object) {
    return ObjectData.deepCopy(object);
  }

  /**
   * The ABI version of the loaded libpacked4j.so, {@code (major << 16) | minor}: loading checks that the major version
   * is the runtime's and the minor version at least the runtime's (a minor release only adds).
   *
   * @return the core's ABI version, major in the high 16 bits
   */
  public static int abiVersion() {
    return NativeLibraries.coreAbiVersion();
  }

  /**
   * The number of native objects created and not yet deleted in this process, for leak tests. Objects closed from
   * Java are released natively shortly after {@code close()} (once no other thread can still be reading them, see
   * {@link ObjectRef#close()}); this count first releases every object closed so far, so a closed object is never
   * counted.
   *
   * @return the live native objects
   */
  public static long liveObjectCount() {
    NativeLibraries.ensureLoaded();
    ReleaseEpochs.drain();
    return CApi.P4JObjectLiveCount();
  }

  // ---- Sessions (issue 26): the same interfaces bound to a registry in another process. The transport lives in
  // packed4j-remote, found through ServiceLoader, so the runtime carries no gRPC.

  /**
   * Connects to a {@code packed4j-server} ({@code java -jar packed4j-server.jar --port 7000 libcalculator.so}):
   *
   * <pre>{@code
   * try (Session session = Packed4j.connect("localhost:7000")) {
   *   Calculator calc = session.bind(Calculator.class);
   *   calc.add(1, 2); // 3, computed by the server
   * }
   * }</pre>
   *
   * @param target the server's {@code host:port}
   * @return the open session, plaintext, without a token, with the default deadline
   * @throws Packed4jException {@value Session#SESSION_LOST} when the server cannot be reached,
   *     {@value Session#AUTHENTICATION} when it requires a token; LoadError when packed4j-remote is not on the
   *     class path
   */
  public static Session connect(String target) {
    return connect(target, SessionOptions.defaults());
  }

  /**
   * Connects to a {@code packed4j-server} with a token, TLS, a deadline or a message size of {@code options}.
   *
   * @param target the server's {@code host:port}
   * @param options how to connect
   * @return the open session
   * @throws Packed4jException as {@link #connect(String)}
   */
  public static Session connect(String target, SessionOptions options) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(options, "options");
    return sessionProvider("Packed4j.connect").connect(target, options);
  }

  /**
   * Hosts {@code library} in a child JVM of its own and connects to it: a crash in the plugin ends the child, not
   * this JVM, and the session's calls fail with {@value Session#SESSION_LOST} instead. The child listens on a free
   * loopback port, takes a random token, and stops when the session is closed or this JVM ends.
   *
   * <pre>{@code
   * try (Session isolated = Packed4j.isolated(Path.of("build/libcalculator.so"))) {
   *   isolated.bind(Calculator.class).add(1, 2); // 3
   * }
   * }</pre>
   *
   * @param library the plugin's {@code .so} file
   * @return the open session
   * @throws Packed4jException LoadError with the child's message when it cannot load the library;
   *     {@value Session#SESSION_LOST} when the child does not start; LoadError when packed4j-remote is not on the
   *     class path
   */
  public static Session isolated(Path library) {
    return isolated(library, SessionOptions.defaults());
  }

  /**
   * {@link #isolated(Path)} with a deadline, a message size or a restart after a crash from {@code options}.
   *
   * @param library the plugin's {@code .so} file
   * @param options the deadline, message size and restart choice (a token is made for the child)
   * @return the open session
   * @throws Packed4jException as {@link #isolated(Path)}
   */
  public static Session isolated(Path library, SessionOptions options) {
    Objects.requireNonNull(library, "library");
    return isolated(List.of(library), options);
  }

  /**
   * Hosts several libraries in one child JVM of its own, loaded in the given order, as
   * {@code packed4j-server} loads the libraries of its command line: for a plugin that uses the types or functions
   * of another, or to keep related plugins in one process. A library the class path carries is listed by its file,
   * {@link #libraryFile(String)}:
   *
   * <pre>{@code
   * try (Session isolated = Packed4j.isolated(List.of(Packed4j.libraryFile("calculator"), Path.of("libgeo.so")))) {
   *   isolated.bind(Calculator.class).add(1, 2); // 3
   * }
   * }</pre>
   *
   * @param libraries the plugins' {@code .so} files, at least one
   * @return the open session
   * @throws IllegalArgumentException when {@code libraries} is empty
   * @throws Packed4jException as {@link #isolated(Path)}; a LoadError names the library that did not load
   */
  public static Session isolated(List<Path> libraries) {
    return isolated(libraries, SessionOptions.defaults());
  }

  /**
   * {@link #isolated(List)} with a deadline, a message size or a restart after a crash from {@code options}: a
   * restarted child loads every library again.
   *
   * @param libraries the plugins' {@code .so} files, at least one, loaded in this order
   * @param options the deadline, message size and restart choice (a token is made for the child)
   * @return the open session
   * @throws IllegalArgumentException when {@code libraries} is empty
   * @throws Packed4jException as {@link #isolated(List)}
   */
  public static Session isolated(List<Path> libraries, SessionOptions options) {
    Objects.requireNonNull(libraries, "libraries");
    Objects.requireNonNull(options, "options");
    if (libraries.isEmpty()) {
      throw new IllegalArgumentException("Packed4j.isolated(List<Path>) takes at least one library, got an empty "
          + "list");
    }
    for (int i = 0; i < libraries.size(); i++) {
      Objects.requireNonNull(libraries.get(i), "libraries[" + i + "]");
    }
    return sessionProvider("Packed4j.isolated").isolated(List.copyOf(libraries), options);
  }

  /**
   * {@link #isolated(Path)} for a library the class path carries, as {@link #loadLibrary(String)} finds it: the
   * child runs on this JVM's class path.
   *
   * <pre>{@code
   * try (Session isolated = Packed4j.isolated("calculator")) {
   *   isolated.bind(Calculator.class).add(1, 2); // 3
   * }
   * }</pre>
   *
   * @param name the library's name without {@code lib} and {@code .so}
   * @return the open session
   * @throws Packed4jException as {@link #isolated(Path)}
   */
  public static Session isolated(String name) {
    return isolated(name, SessionOptions.defaults());
  }

  /**
   * {@link #isolated(String)} with a deadline, a message size or a restart after a crash from {@code options}.
   *
   * @param name the library's name without {@code lib} and {@code .so}
   * @param options the deadline, message size and restart choice (a token is made for the child)
   * @return the open session
   * @throws Packed4jException as {@link #isolated(Path)}
   */
  public static Session isolated(String name, SessionOptions options) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(options, "options");
    return sessionProvider("Packed4j.isolated").isolated(name, options);
  }

  /**
   * Calls the global function {@code name} where {@code bound} calls its own methods' functions: in this process
   * for an interface {@link #bind} returned, in the session for one a {@link Session#bind} returned. It is what a
   * method of a bound interface calls for a function registered with {@code set_body}, which has no signature to
   * declare a typed method by ({@code packed4j generate} writes such methods):
   *
   * <pre>{@code
   * @Global("calculator.Mul") long mul(long a, long b);
   *
   * default Object describe(Object... args) {
   *   return Packed4j.invokeGlobal(this, "calculator.Describe", args);
   * }
   * }</pre>
   *
   * @param bound the implementation of a bound interface, usually {@code this} in its default method
   * @param name the registered name
   * @param args the arguments, converted by their Java types as {@link PackedFunction#invoke} converts them
   * @return the result, as {@link PackedFunction#invoke} (or {@link Session.Function#invoke}) returns it
   * @throws Packed4jException KeyError when no library (of the session) registers {@code name}, and what the call
   *     raises
   */
  public static Object invokeGlobal(Object bound, String name, Object... args) {
    Objects.requireNonNull(bound, "bound");
    Objects.requireNonNull(name, "name");
    if (java.lang.reflect.Proxy.isProxyClass(bound.getClass())) { // a session's bindings are proxies; ours are not
      Optional<SessionProvider> provider = findSessionProvider();
      Optional<Session> session = provider.flatMap(found -> found.sessionOf(bound));
      if (session.isPresent()) {
        return session.get().global(name).invoke(args);
      }
    }
    try (PackedFunction function = Registry.global(name)) {
      return function.invoke(args);
    }
  }

  /** The provider of sessions on the class path (packed4j-remote's), or a LoadError naming the missing artifact. */
  private static SessionProvider sessionProvider(String caller) {
    return findSessionProvider().orElseThrow(() -> Failures.error(ErrorKind.LOAD_ERROR, caller
        + " needs packed4j-remote (dev.packed4j:packed4j-remote), which provides sessions over gRPC, on the class "
        + "path: no " + SessionProvider.class.getName() + " was found", null));
  }

  private static Optional<SessionProvider> findSessionProvider() {
    List<ClassLoader> loaders = new ArrayList<>();
    loaders.add(Thread.currentThread().getContextClassLoader());
    loaders.add(Packed4j.class.getClassLoader());
    for (ClassLoader loader : loaders) {
      for (SessionProvider provider : java.util.ServiceLoader.load(SessionProvider.class, loader)) {
        return Optional.of(provider);
      }
    }
    return Optional.empty();
  }
}
