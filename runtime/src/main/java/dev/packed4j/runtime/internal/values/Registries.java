package dev.packed4j.runtime.internal.values;

import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.errors.ErrorKind;
import dev.packed4j.runtime.internal.errors.Failures;
import dev.packed4j.runtime.internal.objects.ReleaseEpochs;
import dev.packed4j.types.NearNames;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
      MemorySegment nameSpan = CallTarget.utf8Span(arena, name);
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

  /**
   * Records the parameter names of the global {@code name}, keeping its doc string, as C++ {@code .params({...})}
   * does: what {@link #describe} and {@code Registry.functionInfo} then give.
   *
   * @throws dev.packed4j.runtime.Packed4jException ValueError when the global's signature has another number of
   *     parameters, KeyError when no global has that name
   */
  public static void nameParameters(String name, List<String> parameterNames) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment names = arena.allocate(16L * Math.max(parameterNames.size(), 1), 8);
      for (int i = 0; i < parameterNames.size(); i++) {
        MemorySegment span = CallTarget.utf8Span(arena, parameterNames.get(i));
        MemorySegment.copy(span, 0, names, 16L * i, 16);
      }
      Errors.check(CApi.P4JFunctionSetGlobalDoc(CallTarget.utf8Span(arena, name).address(), 0L, names.address(),
          parameterNames.size()), name);
    }
  }

  private static final CallTarget REGISTER = CallTarget.operation("Registry.register");

  /**
   * Registers a function under a name; the caller then tells the routes ({@code route.LinkedRoute.registryChanged}).
   * A taken name is refused here, before the core sees it: the core records
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
   * Up to three registered names close to {@code name}, by packed4j-types' rule, the one the annotation processor's
   * "did you mean" uses: a small edit, case, or the same last segment; or, when none is that close, a rename in the
   * same namespace whose last segment keeps half of its characters ({@code ledger.FormatCents} finds
   * {@code ledger.FormatAmount}; {@code mycompany.billing.Credit} does not find {@code mycompany.billing.Refund}).
   */
  public static List<String> nearNames(String name, List<String> registered) {
    return NearNames.near(name, registered).stream().limit(3).toList();
  }
}
