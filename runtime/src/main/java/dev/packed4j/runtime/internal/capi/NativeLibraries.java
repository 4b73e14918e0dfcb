package dev.packed4j.runtime.internal.capi;

import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads libpacked4j.so (once, on first use) and plugin libraries.
 *
 * <p>The core is opened with {@code dlopen(RTLD_NOW | RTLD_GLOBAL)}. A plugin names the core in its
 * {@code DT_NEEDED} entry by SONAME; the dynamic loader matches that against the SONAME of every object already
 * loaded, so the plugin binds to this instance (one registry) wherever the core file was loaded from, including a
 * temporary copy extracted from the jar. RTLD_GLOBAL also serves a plugin that was not linked against the core at
 * all and expects the {@code P4J*} symbols to be present. Plugins are opened with {@code RTLD_NOW | RTLD_LOCAL}:
 * an unresolved symbol is reported when the library is loaded, not as a process exit at the first call.
 *
 * <p>So a process has one core, and one runtime drives it (its host entries, its deferred releases). Before loading
 * its own, the runtime asks the loader for an object of that SONAME already in the process
 * ({@code RTLD_NOLOAD}): a core a native host loaded before it started the JVM is used as it is, since that is the
 * one plugins bind to; a core another copy of packed4j-runtime loaded (from another class loader, which the JVM-wide
 * claim {@link #OWNER_PROPERTY} records) is refused with a LoadError that says to load the runtime once.
 *
 * <p>{@code SymbolLookup.libraryLookup} is not used because it opens with {@code RTLD_LAZY | RTLD_LOCAL} and drops
 * the loader's message ({@code dlerror}), which says what is wrong with a library that cannot be opened.
 */
@SuppressWarnings("restricted") // loading libraries and linking dlopen is what this class is for
public final class NativeLibraries {
  private NativeLibraries() {}

  /** System property naming the libpacked4j.so file to load instead of the one in the jar. */
  public static final String LIBRARY_PATH_PROPERTY = "packed4j.library.path";
  /** Where the jar carries the core library. */
  public static final String RESOURCE = "/dev/packed4j/runtime/native/linux-x86_64/libpacked4j.so";

  private static final int RTLD_NOW = 0x2;
  private static final int RTLD_GLOBAL = 0x100;
  private static final int RTLD_LOCAL = 0;
  private static final int RTLD_NOLOAD = 0x4;
  /** The core's SONAME, by which plugins name it and the loader finds one already loaded. */
  static final String CORE_SONAME = "libpacked4j.so";
  /**
   * The system property by which the copy of packed4j-runtime that loaded the core claims it, JVM-wide: system
   * properties are the one table every class loader shares.
   */
  static final String OWNER_PROPERTY = "dev.packed4j.runtime.internal.coreOwner";

  private record Core(SymbolLookup lookup, String path, int abiVersion) {}

  private static final Object LOCK = new Object();
  private static volatile Core core;
  private static String failure;

  /** The symbols of libpacked4j.so, loading it on first use. */
  public static SymbolLookup core() {
    return loadedCore().lookup();
  }

  /** Where libpacked4j.so was loaded from (for messages), loading it on first use. */
  public static String corePath() {
    return loadedCore().path();
  }

  /**
   * Why a core of ABI {@code version} ({@code (major << 16) | minor}) cannot serve these bindings, or null when it
   * can: the same major version, and a minor version at least the bindings' (a minor release only adds).
   */
  static String abiMismatch(int version) {
    int major = version >>> 16;
    int minor = version & 0xffff;
    if (major != CApi.P4J_ABI_VERSION_MAJOR) {
      return "another major version";
    }
    if (minor < CApi.P4J_ABI_VERSION_MINOR) {
      return "an older minor version, without what the runtime uses";
    }
    return null;
  }

  /** {@code (major << 16) | minor} as {@code "major.minor"}. */
  public static String abiVersionString(int version) {
    return (version >>> 16) + "." + (version & 0xffff);
  }

  /** P4JAbiVersion() of the loaded core. */
  public static int coreAbiVersion() {
    return loadedCore().abiVersion();
  }

  /** Loads the core if that has not happened; a failure is reported again on every call. */
  public static void ensureLoaded() {
    loadedCore();
  }

  private static Core loadedCore() {
    Core loaded = core;
    if (loaded != null) {
      return loaded;
    }
    checkOwnNativeAccess();
    synchronized (LOCK) {
      if (core != null) {
        return core;
      }
      if (failure != null) {
        throw Failures.error(ErrorKind.LOAD_ERROR, failure, null);
      }
      ClassLoader loader = NativeLibraries.class.getClassLoader();
      String owner = "packed4j-runtime at " + runtimeLocation() + " (class loader "
          + (loader == null ? "bootstrap" : loader.getName() == null ? loader : loader.getName() + ", " + loader)
          + ")";
      String claimed = claim(owner);
      if (claimed != null) {
        // Not cached: should that copy fail to load the core and give its claim up, this one may try.
        throw Failures.error(ErrorKind.LOAD_ERROR, "packed4j's native core is already in use in this process by"
            + " another copy of the runtime, " + claimed + "; this copy is " + owner + ". A process has one core,"
            + " whose registry every plugin registers into, and one runtime that drives it: load packed4j-runtime"
            + " and packed4j-types once, from a class loader that every user of packed4j shares (the application"
            + " class loader, or a common parent of the class loaders that use it), and restart the JVM rather"
            + " than redeploy an application that bundles them", null);
      }
      try {
        core = loadCore();
      } catch (LoadFailure e) {
        System.getProperties().remove(OWNER_PROPERTY, owner);
        failure = e.getMessage();
        throw Failures.error(ErrorKind.LOAD_ERROR, failure, null);
      } catch (RuntimeException | Error e) {
        System.getProperties().remove(OWNER_PROPERTY, owner);
        throw e;
      }
      armExitGuard();
      return core;
    }
  }

  /**
   * Arms the core's exit guard ({@code P4JHostArmExitGuard}): once the process exits, a plugin's static destructor
   * that calls or releases a Java function it kept gets an error, or drops the release, instead of entering a JVM
   * that runs no code any more. Armed now, after each plugin load ({@link #loadPlugin}; the guard runs before the
   * destructors of the libraries loaded before it), and once more when the JVM starts to shut down, so that it runs
   * before every destructor registered until then. The shutdown hook also tells the core that the JVM is going
   * ({@code P4JHostShutdownBegins}): from then on each call into Java first asks the JVM whether it still exists and
   * whether the calling thread is attached, so that a native thread still running when the JVM is destroyed (a
   * thread_local of the main thread, released as that thread ends after {@code DestroyJavaVM}; a C++ thread's late
   * callback) gets an error instead of the JVM's fatal "Could not attach thread for upcall" (trial userW).
   */
  private static void armExitGuard() {
    Errors.check(CApi.P4JHostArmExitGuard(), null);
    CApi.P4JHostShutdownBegins$address(); // bound now: the hook must not be the first to look it up
    try {
      Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("packed4j-exit-guard").unstarted(() -> {
        try {
          CApi.P4JHostShutdownBegins();
        } finally {
          CApi.P4JHostArmExitGuard();
        }
      }));
    } catch (IllegalStateException shuttingDown) {
      // The JVM is shutting down already: the guard armed above is the last one, and the core hears it now.
      CApi.P4JHostShutdownBegins();
    }
  }

  /**
   * Claims the core for this copy of the runtime, JVM-wide; the claim of another copy, or null when this one now
   * holds it. A claim without a core in the process (system properties copied from another JVM, say) is taken
   * over.
   */
  private static String claim(String owner) {
    Object claimed = System.getProperties().putIfAbsent(OWNER_PROPERTY, owner);
    if (claimed == null) {
      return null;
    }
    if (coreHandleInProcess() == 0 && System.getProperties().replace(OWNER_PROPERTY, claimed, owner)) {
      return null;
    }
    return String.valueOf(claimed);
  }

  /**
   * Makes the runtime's own module pass the JDK's native access rule before it links anything, as a restricted
   * call of its own: without {@code --enable-native-access} for it the JDK warns once (naming the module), and under
   * {@code --illegal-native-access=deny} this throws an IllegalCallerException that says which flag to add, where
   * the first link would have failed inside a class initialiser.
   */
  private static void checkOwnNativeAccess() {
    Module module = NativeLibraries.class.getModule();
    if (module.isNativeAccessEnabled()) {
      return;
    }
    try {
      MemorySegment ignored = MemorySegment.NULL.reinterpret(0);
    } catch (IllegalCallerException e) {
      String name = module.isNamed() ? module.getName() : "ALL-UNNAMED";
      throw new IllegalCallerException("packed4j-runtime (" + module + ") may not access native memory, which it"
          + " needs to load its native core: run with --enable-native-access=" + name
          + (module.isNamed() ? ",<your module> (ALL-UNNAMED for code on the class path)" : "") + " ("
          + e.getMessage() + ")", e);
    }
  }

  private static Core loadCore() throws LoadFailure {
    Core loadedByHost = coreInProcess();
    if (loadedByHost != null) {
      return loadedByHost;
    }
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String property = System.getProperty(LIBRARY_PATH_PROPERTY);
    if (property == null && !(os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64")))) {
      throw new LoadFailure("packed4j-runtime carries libpacked4j.so for linux-x86_64 only, and this JVM runs on "
          + os + "-" + arch + ": build native-core for this platform and pass its library with -D"
          + LIBRARY_PATH_PROPERTY + "=/path/to/libpacked4j.so");
    }
    if (property != null && !property.isBlank()) {
      Path path = Path.of(property).toAbsolutePath();
      String problem = ElfCheck.problem(path);
      if (problem != null) {
        throw new LoadFailure("cannot load libpacked4j.so from " + path + " (system property " + LIBRARY_PATH_PROPERTY
            + "): " + problem);
      }
      return openCore(path, path.toString(), "system property " + LIBRARY_PATH_PROPERTY);
    }
    URL resource = NativeLibraries.class.getResource(RESOURCE);
    if (resource == null) {
      throw new LoadFailure("libpacked4j.so is not bundled in packed4j-runtime (" + runtimeLocation()
          + ", resource " + RESOURCE + "): build the runtime after native-core, or pass the library with -D"
          + LIBRARY_PATH_PROPERTY + "=/path/to/libpacked4j.so");
    }
    if (resource.getProtocol().equals("file")) {
      try {
        Path path = Path.of(resource.toURI());
        return openCore(path, path.toString(), "packed4j-runtime");
      } catch (URISyntaxException e) {
        throw new LoadFailure("cannot read " + resource + ": " + e.getMessage());
      }
    }
    return extractAndOpen(resource);
  }

  private static Core extractAndOpen(URL resource) throws LoadFailure {
    Path directory = null;
    Path file = null;
    try {
      directory = Files.createTempDirectory("packed4j-");
      file = directory.resolve("libpacked4j.so");
      try (InputStream in = resource.openStream()) {
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      }
      // The loader keeps the mapping after the file is gone; the temporary copy is deleted right away.
      return openCore(file, resource + " (extracted to " + file + ")", "packed4j-runtime");
    } catch (IOException e) {
      throw new LoadFailure("cannot extract libpacked4j.so from " + resource + " to a temporary directory ("
          + e + "): set java.io.tmpdir to a writable directory, or pass the library with -D"
          + LIBRARY_PATH_PROPERTY + "=/path/to/libpacked4j.so");
    } finally {
      deleteQuietly(file);
      deleteQuietly(directory);
    }
  }

  private static void deleteQuietly(Path path) {
    if (path != null) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        path.toFile().deleteOnExit();
      }
    }
  }

  /** The loader's handle of an object with the core's SONAME already in the process (made global), or 0. */
  private static long coreHandleInProcess() {
    if (!Dl.AVAILABLE) {
      return 0;
    }
    synchronized (Dl.class) {
      try (Arena arena = Arena.ofConfined()) {
        return Dl.open(arena.allocateFrom(CORE_SONAME).address(), RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
      }
    }
  }

  /**
   * The core already in the process (a native host loaded it before starting the JVM, or a library the JVM loaded
   * needed it), found by its SONAME; null when there is none. Plugins bind to that one, so the runtime must too;
   * a {@code packed4j.library.path} naming another file is a LoadError naming both.
   */
  private static Core coreInProcess() throws LoadFailure {
    long handle = coreHandleInProcess();
    if (handle == 0) {
      return null;
    }
    SymbolLookup lookup = name -> Dl.symbol(handle, name);
    String file = lookup.find("P4JAbiVersion").map(Dl::fileOf).orElse(null);
    String description = (file == null ? CORE_SONAME : file) + " (already loaded in this process)";
    String property = System.getProperty(LIBRARY_PATH_PROPERTY);
    if (property != null && !property.isBlank() && !sameFile(Path.of(property), file)) {
      throw new LoadFailure("system property " + LIBRARY_PATH_PROPERTY + " names " + Path.of(property)
          .toAbsolutePath() + ", but libpacked4j.so from " + description + " is the core plugins bind to (by its"
          + " SONAME): load that same file, or let nothing else load the core before packed4j does");
    }
    return checkedCore(lookup, description, "the process, before packed4j-runtime loaded a core");
  }

  /** Whether {@code path} is the file {@code file} (null: unknown, never the same). */
  private static boolean sameFile(Path path, String file) {
    try {
      return file != null && Files.isSameFile(path, Path.of(file));
    } catch (IOException e) {
      return false;
    }
  }

  private static Core openCore(Path path, String description, String origin) throws LoadFailure {
    return checkedCore(open(path, RTLD_NOW | RTLD_GLOBAL, "libpacked4j.so", description), description, origin);
  }

  /** The core behind {@code lookup}, once its ABI version is known to serve these bindings. */
  private static Core checkedCore(SymbolLookup lookup, String description, String origin) throws LoadFailure {
    MemorySegment abiVersionSymbol = lookup.find("P4JAbiVersion").orElseThrow(() -> new LoadFailure(
        description + " does not export P4JAbiVersion: it is not packed4j's core library"));
    int version;
    try {
      MethodHandle abiVersion = Linker.nativeLinker()
          .downcallHandle(abiVersionSymbol, FunctionDescriptor.of(ValueLayout.JAVA_INT));
      version = (int) abiVersion.invokeExact();
    } catch (Throwable e) {
      throw new LoadFailure("cannot call P4JAbiVersion in " + description + ": " + e);
    }
    String mismatch = abiMismatch(version);
    if (mismatch != null) {
      throw new LoadFailure("ABI version mismatch: libpacked4j.so at " + description + " (from " + origin
          + ") has ABI version " + abiVersionString(version) + ", but packed4j-runtime at " + runtimeLocation()
          + " was built for ABI version " + abiVersionString(CApi.P4J_ABI_VERSION) + " (" + mismatch
          + "): use the runtime jar and the native core of the same packed4j release");
    }
    return new Core(lookup, description, version);
  }

  /** The plugin libraries loadPlugin opened, in load order, each once. */
  private static final CopyOnWriteArrayList<Path> PLUGINS = new CopyOnWriteArrayList<>();

  /**
   * The plugin libraries loaded so far, in load order: a name none of them registers is misspelled, or belongs to a
   * library not loaded yet, and a message for it says which.
   */
  public static List<Path> loadedPlugins() {
    return List.copyOf(PLUGINS);
  }

  /**
   * Loads a plugin library: its static initialisers run and register functions and types with the core.
   * Loading the same file again does nothing.
   *
   * @return a description of the failure, or null when the library was loaded
   */
  public static String loadPlugin(Path path) {
    ensureLoaded();
    Path absolute = path.toAbsolutePath().normalize();
    String problem = ElfCheck.problem(absolute);
    if (problem != null) {
      return "cannot load plugin library " + absolute + ": " + problem;
    }
    try {
      loadBundledDependencies(absolute, new HashSet<>());
      open(absolute, RTLD_NOW | RTLD_LOCAL, "plugin library", absolute.toString());
      PLUGINS.addIfAbsent(absolute);
      Errors.check(CApi.P4JHostArmExitGuard(), null); // after its initialisers: before its static destructors
      return null;
    } catch (LoadFailure e) {
      return e.getMessage();
    }
  }

  /**
   * Opens the libraries {@code library} depends on that its folder carries beside it, when the folder is one packed4j
   * lays out: a class path's {@code META-INF/native/<platform>/}, where {@code build-native} puts a plain shared
   * library a plugin links, or a cache folder {@link BundledLibraries} extracted such a set into. The plugin's RUNPATH
   * names the build tree it was linked in, gone after a clean or on another machine; once a library of that SONAME is
   * loaded, the loader takes it for the plugin's dependency instead of searching. A dependency is found beside the
   * plugin by its file name, or else as the file whose SONAME it is ({@code libhelper.so} for a needed
   * {@code libhelper.so.1}: {@code build-native} copies a versioned library under its unversioned name). One already
   * in the process, and the core, are left to the loader.
   *
   * @param opening the files being opened up the chain, against a cycle of dependencies
   */
  private static void loadBundledDependencies(Path library, Set<Path> opening) throws LoadFailure {
    Path folder = library.getParent();
    if (folder == null || !BundledLibraries.isBundleFolder(folder) || !opening.add(library)) {
      return;
    }
    for (String name : ElfCheck.dynamic(library).needed()) {
      if (name.equals(CORE_SONAME) || isLoaded(name)) {
        continue;
      }
      Path dependency = BundledLibraries.sibling(folder, name);
      if (dependency == null) {
        continue; // not carried: the loader searches, and says what it did not find
      }
      loadBundledDependencies(dependency, opening);
      String problem = ElfCheck.problem(dependency);
      if (problem != null) {
        throw new LoadFailure("cannot load " + dependency + ", which " + library.getFileName() + " needs: " + problem);
      }
      open(dependency, RTLD_NOW | RTLD_LOCAL, "library", dependency + " (which " + library.getFileName() + " needs)");
    }
  }

  /** Whether the process has a library of SONAME (or file name) {@code name} loaded already. */
  private static boolean isLoaded(String name) {
    if (!Dl.AVAILABLE) {
      return false;
    }
    synchronized (Dl.class) {
      try (Arena arena = Arena.ofConfined()) {
        long handle = Dl.open(arena.allocateFrom(name).address(), RTLD_NOW | RTLD_NOLOAD);
        if (handle == 0) {
          return false;
        }
        Dl.close(handle); // the reference RTLD_NOLOAD took: a native host may still unload the library
        return true;
      }
    }
  }

  private static SymbolLookup open(Path path, int mode, String what, String description) throws LoadFailure {
    if (!Dl.AVAILABLE) {
      try {
        return SymbolLookup.libraryLookup(path, Arena.global());
      } catch (IllegalArgumentException e) {
        throw new LoadFailure("cannot load " + what + " " + description + ": " + e.getMessage());
      }
    }
    long handle;
    String error;
    synchronized (Dl.class) {
      try (Arena arena = Arena.ofConfined()) {
        handle = Dl.open(arena.allocateFrom(path.toString()).address(), mode);
        error = handle == 0 ? Dl.lastError() : null;
      }
    }
    if (handle == 0) {
      throw new LoadFailure("cannot load " + what + " " + description + ": " + explain(error, path));
    }
    final long libraryHandle = handle;
    return name -> Dl.symbol(libraryHandle, name);
  }

  /** Turns the loader's message into what is wrong and what to do. */
  public static String explain(String error, Path path) {
    String message = error == null ? "the dynamic loader gave no reason" : error;
    int undefined = message.indexOf("undefined symbol: ");
    if (undefined >= 0) {
      String symbol = message.substring(undefined + "undefined symbol: ".length()).trim();
      int comma = symbol.indexOf(',');
      if (comma >= 0) {
        symbol = symbol.substring(0, comma);
      }
      if (symbol.startsWith("P4J")) {
        return "it needs " + symbol + ", which libpacked4j.so (" + safeCorePath() + ") does not define: the library "
            + "was built against another packed4j version; rebuild it against the native core of this runtime ("
            + message + ")";
      }
      return "it references a symbol that no loaded library defines (" + symbol + "): link it against every "
          + "library it uses (target_link_libraries(... packed4j::core ...)) and load those first ("
          + message + ")";
    }
    int cannotOpen = message.indexOf(": cannot open shared object file");
    if (cannotOpen >= 0 && !isLibraryName(message.substring(0, cannotOpen))) {
      // The loader read the name of a dependency from the file, and what it read is no file name: the bytes where
      // the file lists its dependencies are damaged (userK K10).
      return "the file looks damaged: the dependency name the loader read from it is not a file name; rebuild the"
          + " library, or download or copy it again (" + message + ")";
    }
    if (message.contains("cannot open shared object file")) {
      return "a library it depends on cannot be found: install it or add its directory to LD_LIBRARY_PATH or to "
          + "the library's RPATH (" + message + ")";
    }
    Matcher version = SYMBOL_VERSION.matcher(message);
    if (version.find()) {
      // The C or C++ runtime of this machine is older than the one the library was linked against (userK K6).
      String runtime = version.group(2).equals("GLIBC") ? "C library (glibc)" : "C++ runtime (libstdc++)";
      return "it needs the symbol version " + version.group(1) + " of the " + runtime + ", and this machine's is"
          + " older: build packed4j and the plugins on the oldest Linux distribution you ship to (they then run on it"
          + " and every newer one), or run on a newer one; the libpacked4j.so of the packed4j-runtime jar needs"
          + " glibc 2.34 and the libstdc++ of GCC 11 (GLIBCXX_3.4.29): Ubuntu 22.04, Debian 12, RHEL 9 or newer"
          + " (" + message + ")";
    }
    if (message.contains("wrong ELF class") || message.contains("invalid ELF header")) {
      return "it is not a shared library for linux-x86_64 (" + message + ")";
    }
    return message;
  }

  /** A symbol version the dynamic loader did not find: {@code version `GLIBC_2.34' not found}. */
  private static final Pattern SYMBOL_VERSION =
      Pattern.compile("version `((GLIBCXX|CXXABI|GLIBC)_[0-9.]*[0-9])' not found");

  /**
   * Whether a name the loader could not open is a plausible library file name, such as {@code libdw.so.1}: it names a
   * shared object and holds no byte {@link #printable} had to escape. Random bytes of a damaged file are neither.
   */
  static boolean isLibraryName(String name) {
    return name.contains(".so") && !name.contains("\\x");
  }

  /**
   * The loader's message as text a terminal shows as it is: bytes that are not UTF-8 (a damaged library's "name")
   * and control characters are written as {@code \xNN}, as packed4j describe writes them in names.
   *
   * @param bytes the message's bytes, without the terminating NUL
   * @return the text
   */
  public static String printable(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length);
    for (int i = 0; i < bytes.length;) {
      int lead = bytes[i] & 0xff;
      int length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3
          : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
      boolean valid = length > 0 && i + length <= bytes.length;
      for (int k = 1; valid && k < length; k++) {
        valid = (bytes[i + k] & 0xc0) == 0x80;
      }
      String text = valid ? new String(bytes, i, length, StandardCharsets.UTF_8) : "";
      int c = valid ? text.codePointAt(0) : -1;
      if (!valid || c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0xfffd) {
        // An invalid byte alone; a valid sequence of a control character (C0, C1) or U+FFFD byte by byte.
        int escaped = valid ? length : 1;
        for (int k = 0; k < escaped; k++) {
          out.append(String.format("\\x%02x", bytes[i + k] & 0xff));
        }
        i += escaped;
      } else {
        out.append(text);
        i += length;
      }
    }
    return out.toString();
  }

  private static String safeCorePath() {
    Core loaded = core;
    return loaded == null ? "not loaded yet" : loaded.path();
  }

  /** The jar or directory this runtime was loaded from, for messages. */
  public static String runtimeLocation() {
    try {
      var source = NativeLibraries.class.getProtectionDomain().getCodeSource();
      return source == null ? "unknown location" : Path.of(source.getLocation().toURI()).toString();
    } catch (URISyntaxException | RuntimeException e) {
      return "unknown location";
    }
  }

  /** A load problem, turned into a Packed4jException by the caller. */
  private static final class LoadFailure extends Exception {
    private static final long serialVersionUID = 1L;

    LoadFailure(String message) {
      super(message, null, false, false);
    }
  }

  /** dlopen, dlsym and dlerror from libc (glibc 2.34+ has them in libc itself). */
  private static final class Dl {
    private Dl() {}

    static final boolean AVAILABLE;
    private static final MethodHandle DLOPEN;
    private static final MethodHandle DLSYM;
    private static final MethodHandle DLERROR;
    /** {@code int dladdr(const void*, Dl_info*)}, for the file a symbol comes from; null when libc lacks it. */
    private static final MethodHandle DLADDR;
    /** dlclose, null where the C library has none. */
    private static final MethodHandle DLCLOSE;

    static {
      Linker linker = Linker.nativeLinker();
      SymbolLookup libc = linker.defaultLookup();
      Optional<MemorySegment> dlopen = libc.find("dlopen");
      Optional<MemorySegment> dlsym = libc.find("dlsym");
      Optional<MemorySegment> dlerror = libc.find("dlerror");
      DLCLOSE = libc.find("dlclose").map(address -> linker.downcallHandle(address,
          FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG))).orElse(null);
      Optional<MemorySegment> dladdr = libc.find("dladdr");
      DLADDR = dladdr.map(address -> linker.downcallHandle(address,
          FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG))).orElse(null);
      AVAILABLE = dlopen.isPresent() && dlsym.isPresent() && dlerror.isPresent();
      DLOPEN = AVAILABLE ? linker.downcallHandle(dlopen.get(),
          FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT)) : null;
      DLSYM = AVAILABLE ? linker.downcallHandle(dlsym.get(),
          FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG)) : null;
      DLERROR = AVAILABLE ? linker.downcallHandle(dlerror.get(), FunctionDescriptor.of(ValueLayout.JAVA_LONG))
          : null;
    }

    static long open(long path, int mode) {
      try {
        return (long) DLOPEN.invokeExact(path, mode);
      } catch (Throwable e) {
        throw new AssertionError(e);
      }
    }

    static void close(long handle) {
      if (DLCLOSE == null) {
        return;
      }
      try {
        int ignored = (int) DLCLOSE.invokeExact(handle);
      } catch (Throwable e) {
        throw new AssertionError(e);
      }
    }

    static String lastError() {
      try {
        long message = (long) DLERROR.invokeExact();
        if (message == 0) {
          return null;
        }
        MemorySegment text = MemorySegment.ofAddress(message).reinterpret(Integer.MAX_VALUE);
        long length = 0;
        while (text.get(ValueLayout.JAVA_BYTE, length) != 0) {
          length++;
        }
        return printable(text.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
      } catch (Throwable e) {
        throw new AssertionError(e);
      }
    }

    /** The file of the loaded object that holds {@code symbol} ({@code Dl_info.dli_fname}), or null. */
    static String fileOf(MemorySegment symbol) {
      if (DLADDR == null) {
        return null;
      }
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment info = arena.allocate(4 * 8L, 8); // dli_fname, dli_fbase, dli_sname, dli_saddr
        if ((int) DLADDR.invokeExact(symbol.address(), info.address()) == 0) {
          return null;
        }
        long name = info.get(ValueLayout.JAVA_LONG, 0);
        return name == 0 ? null : MemorySegment.ofAddress(name).reinterpret(4096).getString(0);
      } catch (Throwable e) {
        throw new AssertionError(e);
      }
    }

    static Optional<MemorySegment> symbol(long library, String name) {
      try (Arena arena = Arena.ofConfined()) {
        long address = (long) DLSYM.invokeExact(library, arena.allocateFrom(name).address());
        return address == 0 ? Optional.empty() : Optional.of(MemorySegment.ofAddress(address));
      } catch (Throwable e) {
        throw new AssertionError(e);
      }
    }
  }
}
