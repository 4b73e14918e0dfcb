package dev.packed4j.cli;

import dev.packed4j.runtime.FunctionInfo;
import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Registry;
import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a plugin library registers, read from the native registry after loading it: the model behind
 * {@code packed4j describe}, for a person ({@link #toText()}) or as a manifest ({@link Manifest#toJson}).
 *
 * <pre>{@code
 * LibraryDescription calculator = LibraryDescription.load(Path.of("build/libcalculator.so"));
 * calculator.globals();                   // calculator.CreateCalculator, calculator.MyAdd, ...
 * Manifest.write(calculator, Path.of("target/calculator.manifest.json"));
 * }</pre>
 *
 * @param library the file name of the library, such as {@code libcalculator.so}
 * @param globals the global functions the library registered, sorted by name
 * @param objectTypes the object types the library registered, in registration order
 * @param coreGlobals the globals libpacked4j.so registers itself ({@code packed4j.*}), sorted by name
 * @param coreObjectTypes the core's built-in object types ({@code Object}, {@code String}, {@code List}, ...)
 */
public record LibraryDescription(
    String library,
    List<GlobalFunction> globals,
    List<ObjectTypeInfo> objectTypes,
    List<GlobalFunction> coreGlobals,
    List<ObjectTypeInfo> coreObjectTypes) {

  public LibraryDescription {
    globals = List.copyOf(globals);
    objectTypes = List.copyOf(objectTypes);
    coreGlobals = List.copyOf(coreGlobals);
    coreObjectTypes = List.copyOf(coreObjectTypes);
  }

  /**
   * Loads {@code library} into this process and describes what it registered. What was registered before it
   * loaded counts as the core's: call this in a fresh JVM (as the command does), before any other plugin loads.
   *
   * @throws dev.packed4j.runtime.Packed4jException a LoadError saying what is wrong with the file
   */
  public static LibraryDescription load(Path library) {
    List<String> coreNames = Registry.list();
    List<ObjectTypeInfo> coreTypes = Registry.objectTypes();
    Packed4j.loadLibrary(library);
    Set<String> before = new HashSet<>(coreNames);
    Set<String> typesBefore = new HashSet<>();
    coreTypes.forEach(type -> typesBefore.add(type.key()));
    List<String> all = Registry.list();
    return new LibraryDescription(
        library.getFileName().toString(),
        all.stream().filter(name -> !before.contains(name)).map(LibraryDescription::function).toList(),
        Registry.objectTypes().stream().filter(type -> !typesBefore.contains(type.key())).toList(),
        coreNames.stream().map(LibraryDescription::function).toList(),
        coreTypes);
  }

  /**
   * Whether {@code library} links libpacked4j.so, as every packed4j plugin does (its registration macros call the
   * core's C ABI): the ABI's {@code P4JAbiVersion} is found in the library or in the libraries it needs. A library
   * that registers nothing and links no core is not a packed4j plugin, such as a system library named by mistake.
   *
   * @param library a library {@link #load} loaded
   */
  @SuppressWarnings("restricted") // looks one symbol up in a library already loaded; calls nothing
  public static boolean linksCore(Path library) {
    try (Arena arena = Arena.ofConfined()) {
      // dlsym on the library's own handle searches it and its dependencies, not the whole process.
      return SymbolLookup.libraryLookup(library, arena).find("P4JAbiVersion").isPresent();
    }
  }

  /** Whether the library registered neither a global function nor an object type. */
  public boolean registersNothing() {
    return globals.isEmpty() && objectTypes.isEmpty();
  }

  private static GlobalFunction function(String name) {
    FunctionInfo info = Registry.functionInfo(name).orElseThrow(
        () -> new IllegalStateException(name + " was listed by Registry.list() but is no longer registered"));
    return GlobalFunction.of(name, info.signature(), info.doc(), info.parameterNames());
  }

  /**
   * The description for a person: the library's functions (signature with parameter names, or "untyped", and doc),
   * its object types (parent and doc; each field read-only {@code ro} or writable {@code rw}, with its doc; the
   * type's own methods, static methods and constructor with signatures, parameter names and docs), then apart what
   * libpacked4j.so registers itself.
   */
  public String toText() {
    StringBuilder text = new StringBuilder();
    text.append(library).append('\n');
    text.append("\nGlobal functions (").append(globals.size()).append("):\n");
    appendFunctions(text, globals);
    text.append("\nObject types (").append(objectTypes.size()).append("):\n");
    appendTypes(text, objectTypes);
    text.append("\nRegistered by libpacked4j.so itself (").append(coreGlobals.size()).append(" functions, ")
        .append(coreObjectTypes.size()).append(" object types):\n");
    appendFunctions(text, coreGlobals);
    appendTypes(text, coreObjectTypes);
    return printable(text);
  }

  /** Names padded to this width at most: a longer one goes on its line unaligned rather than widening every row. */
  private static final int NAME_COLUMN = 48;

  /**
   * The text with each control character but the line ends (C0 and C1: escape sequences a library's names or docs
   * could carry to the terminal) written as {@code \xNN}.
   */
  private static String printable(CharSequence text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\n' && (c < 0x20 || (c >= 0x7f && c <= 0x9f))) {
        out.append(String.format("\\x%02x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static void appendFunctions(StringBuilder text, List<GlobalFunction> functions) {
    int width = Math.min(NAME_COLUMN,
        functions.stream().mapToInt(f -> f.name().length()).filter(n -> n <= NAME_COLUMN).max().orElse(0));
    for (GlobalFunction function : functions) {
      text.append("  ").append(function.name())
          .append(" ".repeat(Math.max(0, width - function.name().length()) + 2))
          .append(function.signature().map(s -> named(Signature.parse(s).parameters(), Signature.parse(s).result(),
              function.parameterNames())).orElse("untyped (set_body)"));
      appendDoc(text, function.doc());
    }
  }

  private static void appendTypes(StringBuilder text, List<ObjectTypeInfo> types) {
    for (ObjectTypeInfo type : types) {
      text.append("  ").append(type.key());
      type.parent().ifPresent(parent -> text.append(" extends ").append(parent));
      appendDoc(text, type.doc());
      for (ObjectTypeInfo.Field field : type.fields()) {
        text.append("    ").append(field.mutable() ? "rw " : "ro ").append(field.name()).append(": ")
            .append(field.type());
        if (!field.declaredBy().equals(type.key())) {
          text.append("  (from ").append(field.declaredBy()).append(')');
        }
        appendDoc(text, field.doc());
      }
      for (ObjectTypeInfo.Member member : type.members()) {
        text.append("    ").append(switch (member.kind()) {
          case METHOD -> "method ";
          case STATIC_METHOD -> "static ";
          case CONSTRUCTOR -> "constructor ";
        }).append(member.name());
        if (member.signature().isEmpty()) {
          text.append(" untyped");
        } else {
          Signature signature = Signature.parse(member.signature());
          List<NativeType> parameters = signature.parameters();
          if (member.kind() == ObjectTypeInfo.MemberKind.METHOD && !parameters.isEmpty()) {
            parameters = parameters.subList(1, parameters.size());
          }
          text.append(named(parameters, signature.result(), member.parameterNames()));
        }
        appendDoc(text, member.doc());
      }
    }
  }

  /** {@code (a: int64, b: int64) -> int64}; without names when they are not one per parameter. */
  private static String named(List<NativeType> parameters, NativeType result, List<String> names) {
    StringBuilder text = new StringBuilder("(");
    for (int i = 0; i < parameters.size(); i++) {
      text.append(i == 0 ? "" : ", ");
      if (names.size() == parameters.size()) {
        text.append(names.get(i)).append(": ");
      }
      text.append(parameters.get(i));
    }
    return text.append(") -> ").append(result).toString();
  }

  /** Ends the line with {@code "  -- doc"} (one line: line breaks become spaces), or just ends it. */
  private static void appendDoc(StringBuilder text, String doc) {
    if (!doc.isBlank()) {
      text.append("  -- ").append(doc.strip().replaceAll("\\s*\\R\\s*", " "));
    }
    text.append('\n');
  }
}
