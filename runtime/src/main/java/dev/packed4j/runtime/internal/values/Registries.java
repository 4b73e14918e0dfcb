package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The global function registry: names, and messages for names that are not registered. */
public final class Registries {
  private Registries() {}

  private static final CallTarget LIST_NAMES = CallTarget.operation("Registry.list");
  private static final ListCodec<String, List<String>> NAMES = ListCodec.copying(StringCodec.STRING);

  /** The registered names, sorted. */
  public static List<String> names() {
    NativeLibraries.ensureLoaded();
    try (Frame frame = ThreadStack.current().push(LIST_NAMES, 0)) {
      Errors.check(CApi.P4JFunctionListGlobalNames(frame.result()), null);
      frame.resultWritten();
      return frame.returnValue(NAMES);
    }
  }

  /**
   * What a registered global says of itself.
   *
   * @param signature as {@code set_body_typed} records it, empty for {@code set_body}
   * @param doc its doc string, empty when none
   * @param parameterNames its parameters' names, empty when none were given
   */
  public record GlobalDescription(String signature, String doc, List<String> parameterNames) {}

  /** The signature, doc string and parameter names of the global {@code name}; null when none has that name. */
  public static GlobalDescription describe(String name) {
    long handle = CallTarget.lookupGlobal(name); // borrowed: the registry keeps every function it ever held
    if (handle == 0) {
      return null;
    }
    try (Arena arena = Arena.ofConfined()) {
      byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
      MemorySegment nameSpan = arena.allocate(16, 8);
      MemorySegment data = arena.allocate(bytes.length + 1L);
      MemorySegment.copy(bytes, 0, data, ValueLayout.JAVA_BYTE, 0, bytes.length);
      nameSpan.set(ValueLayout.JAVA_LONG, 0, data.address());
      nameSpan.set(ValueLayout.JAVA_LONG, 8, bytes.length);
      MemorySegment signature = arena.allocate(16, 8);
      MemorySegment doc = arena.allocate(16, 8);
      MemorySegment names = arena.allocate(ValueLayout.JAVA_LONG);
      MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
      Errors.check(CApi.P4JFunctionGetSignature(handle, signature.address()), name);
      Errors.check(CApi.P4JFunctionGetGlobalDoc(nameSpan.address(), doc.address(), names.address(),
          count.address()), name);
      long first = names.get(ValueLayout.JAVA_LONG, 0);
      List<String> parameterNames = new ArrayList<>();
      for (int i = 0; i < count.get(ValueLayout.JAVA_INT, 0); i++) {
        parameterNames.add(NativeMemory.spanString(first + i * 16L));
      }
      return new GlobalDescription(NativeMemory.spanString(signature.address()),
          NativeMemory.spanString(doc.address()), List.copyOf(parameterNames));
    }
  }

  private static final CallTarget REGISTER = CallTarget.operation("Registry.register");

  /**
   * Registers a function under a name; the caller then tells the routes ({@code route.LinkedRoute.registryChanged}). A taken name is refused here, before the core sees it: the core records
   * every refused registration for the next {@code Packed4j.loadLibrary} to report, which is right for a plugin's
   * static registrations and wrong for a call that reports its own failure.
   */
  public static void register(String name, Object function, boolean override) {
    NativeLibraries.ensureLoaded();
    if (!override && CallTarget.lookupGlobal(name) != 0) {
      throw Failures.error(ErrorKind.VALUE_ERROR, "global function '" + name + "' is already registered; "
          + "Registry.register(name, function, true) replaces it", name);
    }
    ReleaseEpochs.Pin pin = RuntimeAccess.get().pinObject(function);
    try (Frame frame = ThreadStack.current().push(REGISTER, 0)) {
      Errors.check(CApi.P4JFunctionSetGlobal(frame.stringSpan(name), pin.pinnedHandle(), override ? 1 : 0), name);
    } finally {
      pin.unpin();
      Reference.reachabilityFence(function);
    }
  }

  private static final CallTarget TAKE_REGISTRATION_ERRORS = CallTarget.global(
      "packed4j.TakeRegistrationErrors", "Packed4j.loadLibrary", new String[0]);

  /**
   * The registrations the core refused since the last call ("Kind: message" each, such as a name registered
   * twice); empty when the core does not report them.
   */
  public static List<String> takeRegistrationErrors() {
    if (CallTarget.lookupGlobal("packed4j.TakeRegistrationErrors") == 0) {
      return List.of();
    }
    try (Frame frame = ThreadStack.current().push(TAKE_REGISTRATION_ERRORS, 0)) {
      frame.invoke();
      return frame.returnValue(NAMES);
    }
  }

  /** KeyError for a name no loaded library registered, with the nearest registered names. */
  public static Packed4jException unknownFunction(String name, String javaMethod) {
    List<String> near = nearNames(name, names());
    StringBuilder message = new StringBuilder("no global function '").append(name).append("' is registered");
    if (javaMethod != null) {
      message.append(" (bound to ").append(javaMethod).append(')');
    }
    if (!near.isEmpty()) {
      message.append("; did you mean ").append(String.join(", ", near)).append('?');
    }
    message.append(near.isEmpty() ? ". " : " ").append(notRegisteredAdvice());
    return Failures.error(ErrorKind.KEY_ERROR, message.toString(), name);
  }

  /**
   * What to do about a name no loaded library registers. With no plugin loaded, load one; with plugins loaded, the
   * name may as well be misspelled or renamed in C++, and saying "load the library" would send the reader the wrong
   * way (userK K3).
   */
  public static String notRegisteredAdvice() {
    List<Path> loaded = NativeLibraries.loadedPlugins();
    if (loaded.isEmpty()) {
      return "Load the plugin library that registers it with Packed4j.loadLibrary before calling it";
    }
    List<String> names = loaded.stream().map(path -> path.getFileName().toString()).toList();
    String listed = names.size() <= 4 ? String.join(", ", names)
        : String.join(", ", names.subList(0, 3)) + " and " + (names.size() - 3) + " more";
    return "The loaded plugin " + (names.size() == 1 ? "library " : "libraries ") + listed + " do"
        + (names.size() == 1 ? "es" : "") + " not register it: correct the name (was it renamed in C++?), or load"
        + " the library that registers it with Packed4j.loadLibrary before calling it";
  }

  /**
   * Up to three registered names close to {@code name}: small edit distance, case, or the same last segment. When
   * none is that close, the closest name that differs in at most a third of its characters, as the annotation
   * processor's "did you mean" finds it ({@code ledger.FormatCents} finds {@code ledger.FormatAmount}).
   */
  public static List<String> nearNames(String name, List<String> registered) {
    String lower = name.toLowerCase(Locale.ROOT);
    String lastSegment = lower.substring(lower.lastIndexOf('.') + 1);
    // Typos are local: allow about one edit per three characters of the last segment, at most three.
    int typo = Math.max(1, Math.min(3, (lastSegment.length() + 2) / 3));
    // A renamed function keeps most of its name.
    int renamed = Math.max(typo, name.length() / 3);
    record Candidate(String name, int distance) {}
    List<Candidate> near = registered.stream()
        .map(candidate -> {
          String candidateLower = candidate.toLowerCase(Locale.ROOT);
          int distance = distance(lower, candidateLower);
          boolean sameLast = candidateLower.substring(candidateLower.lastIndexOf('.') + 1).equals(lastSegment);
          return new Candidate(candidate, sameLast ? Math.min(distance, typo) : distance);
        })
        .filter(candidate -> candidate.distance() <= renamed && !candidate.name().equals(name))
        .sorted(Comparator.comparingInt(Candidate::distance).thenComparing(Candidate::name))
        .toList();
    int limit = near.isEmpty() ? typo : Math.max(typo, near.get(0).distance());
    return near.stream().filter(candidate -> candidate.distance() <= limit).limit(3).map(Candidate::name).toList();
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
