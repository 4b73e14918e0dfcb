package dev.packed4j.cli.generate;

import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Turns an {@link ApiModel} into Java sources: one {@code @Global} interface per registry name prefix
 * ({@code calculator.MyAdd} → {@code Calculator.myAdd}) and one {@code @Object} interface per object type. Knows
 * nothing of files; {@link SourceWriter} writes what this returns. The same model and options always give the same
 * text.
 *
 * <p>Names follow {@link JavaNames}. Clashes: two prefixes with one type name, or two functions of one prefix with
 * one method name, take a numbered suffix ({@code echoInt}, {@code echoInt2}) in the order of their registry names;
 * so does a prefix whose type name would hide a type the files use ({@code list} → {@code List2}). A field getter
 * named {@code close} becomes {@code close_}.
 * An object type is named after the last segment of its key ({@code test.DerivedNode} → {@code DerivedNode}); two
 * keys with the same last segment are both named after their whole key ({@code ATree}, {@code BTree}); a name
 * that a {@code @Global} interface already has, or that would hide a type the files use ({@code String},
 * {@code List}, {@code NDArray}, ...), takes the suffix {@code Ref} ({@code Calculator} → {@code CalculatorRef}),
 * then a number if still taken.
 *
 * <p>Members: a mutable field gets a setter of its getter's name ({@code void count(long count)}); a method becomes a
 * method of the type's interface, with {@code @Method} when its Java name differs from the registered one, when it
 * has no parameter (it would read as a getter) or one parameter and no result (it could read as a setter); a type's
 * constructor ({@code newPoint}, {@code @Constructor}) and static methods ({@code pointOrigin},
 * {@code @Method(of = Point.class, value = "Origin")}) go on the {@code @Global} interface of its key's prefix,
 * which is generated for them alone when no global has that prefix. A member without a signature is left out with a
 * warning.
 *
 * <p>A registry name {@code @Global} does not accept (it must be segments {@code [A-Za-z_][A-Za-z0-9_]*} joined by
 * dots; the native registry takes any string) is generated like an untyped function, looked up by its name; an
 * object type with such a key gets no interface, and Java sees its objects as {@code NativeObject}. Both warn.
 */
public final class InterfaceGenerator {
  /** Simple names a generated type must not take: the files use these types by their simple names. */
  private static final Set<String> USED_TYPES = Set.of(
      "Object", "String", "Override", "AutoCloseable", "Boolean", "Byte", "Short", "Integer", "Long", "Float",
      "Double", "List", "Map", "Optional", "Global", "Field", "Method", "Constructor", "NDArray", "NativeObject",
      "PackedFunction", "Registry");

  /**
   * Object types of packed4j's own headers that every plugin using them registers itself, and that never cross the C
   * ABI: {@code Value} (container.h's ValueObject, what a {@code List<Value>} hands out in C++; storing one stores
   * its data). They are not the plugin's API, so no interface is generated for them. The core's built-in types
   * ({@code String}, {@code List}, ...) are not in a plugin's model at all.
   */
  private static final Set<String> HEADER_INTERNAL_TYPES = Set.of("Value");

  /** The longest line a one-line Javadoc comment is written on. */
  private static final int LINE = 120;

  /** Where the text of a longer Javadoc comment is wrapped. */
  private static final int WRAP = 100;

  private InterfaceGenerator() {}

  /**
   * What to generate.
   *
   * @param packageName the Java package of every file
   * @param prefixes only the globals whose names start with one of these ({@code calculator.}); all when empty.
   *     Object types follow: those whose keys start with a prefix, and those the selected globals and types use
   * @param untyped what becomes of a function registered with {@code set_body}
   * @param existing the object types that have an {@code @Object} interface already (written by hand, or generated
   *     into another package), by type key: the qualified name of that interface. No interface is generated for
   *     them; the generated files refer to the given one, by its qualified name
   */
  public record Options(String packageName, List<String> prefixes, Untyped untyped, Map<String, String> existing) {
    /**
     * Checks the package name and the names of existing interfaces.
     *
     * @throws IllegalArgumentException when the package or an existing interface's name is not a Java name
     */
    public Options {
      prefixes = List.copyOf(prefixes);
      existing = Collections.unmodifiableMap(new TreeMap<>(existing));
      if (!JavaNames.isPackageName(packageName)) {
        throw new IllegalArgumentException("--package " + packageName + " is not a Java package name, such as"
            + " com.example.calculator");
      }
      for (Map.Entry<String, String> entry : existing.entrySet()) {
        if (!JavaNames.isPackageName(entry.getValue()) || !entry.getValue().contains(".")) {
          throw new IllegalArgumentException("--existing " + entry.getKey() + "=" + entry.getValue() + " does not"
              + " name an interface by its qualified name, such as com.example.inventory.Item");
        }
      }
    }

    /** Whether a global or type key is of the prefixes (every name is when there are none). */
    boolean selects(String name) {
      return prefixes.isEmpty() || prefixes.stream().anyMatch(name::startsWith);
    }

    /** Options without existing interfaces. */
    public Options(String packageName, List<String> prefixes, Untyped untyped) {
      this(packageName, prefixes, untyped, Map.of());
    }
  }

  /**
   * The generated sources.
   *
   * @param files each file's path under the output directory ({@code com/example/Calculator.java}) and its text,
   *     sorted by path
   * @param warnings what was left out and why, for the command to print
   */
  public record Output(SortedMap<String, String> files, List<String> warnings) {}

  /**
   * Generates the interfaces for {@code model}.
   *
   * @param model the functions and object types
   * @param options the package, prefixes and untyped mode
   * @return the sources and the warnings
   */
  public static Output generate(ApiModel model, Options options) {
    Set<String> registered = model.objectTypes().stream().map(ApiModel.ObjectType::key).collect(Collectors.toSet());
    for (String key : options.existing().keySet()) {
      if (!registered.contains(key)) {
        throw new IllegalArgumentException("--existing names the object type " + key + ", which the libraries do not"
            + " register (packed4j describe lists the ones they do)");
      }
    }
    List<ApiModel.Function> functions = model.functions().stream()
        .filter(f -> options.selects(f.name()))
        .toList();
    List<String> warnings = new ArrayList<>();
    List<ApiModel.ObjectType> objectTypes = new ArrayList<>();
    for (ApiModel.ObjectType type : selectObjectTypes(model, functions, options.prefixes())) {
      if (HEADER_INTERNAL_TYPES.contains(type.key())) {
        continue;
      }
      if (isNativeName(type.key())) {
        objectTypes.add(type);
      } else {
        warnings.add("the object type " + type.key() + " has a key @Object does not accept (segments"
            + " [A-Za-z_][A-Za-z0-9_]* joined by dots): no interface generated; Java sees it as NativeObject");
      }
    }

    List<String> conflicts = overridesJavaCannotInherit(model, objectTypes, options);
    if (!conflicts.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", conflicts) + ". A Java interface extends its parent"
          + " type's, and the parent's method would call the override with the parent's arguments, which javac"
          + " refuses (P4J-NATIVE-OVERRIDE) in the generated file: give the override another name in C++, or list the"
          + " child type in existing with an interface you write that does not extend the parent's");
    }

    Map<String, List<ApiModel.Function>> groups = new TreeMap<>();
    functions.forEach(f -> groups.computeIfAbsent(prefixOf(f.name()), p -> new ArrayList<>()).add(f));
    // A type's constructor and static methods go to the @Global interface of its key's prefix: not those of a type
    // with an existing interface, whose API its author declares (that prefix's interface may be theirs too), nor
    // those of a type outside the prefixes that a selected global only uses (its prefix is not what was asked for).
    Map<String, List<TypeMember>> typeMembers = new TreeMap<>();
    for (ApiModel.ObjectType type : objectTypes) {
      if (options.existing().containsKey(type.key())
          || !options.selects(type.key())) {
        continue;
      }
      for (ApiModel.Method method : type.methods()) {
        if (method.kind() == ApiModel.MemberKind.METHOD) {
          continue;
        }
        String what = (method.kind() == ApiModel.MemberKind.CONSTRUCTOR ? "the constructor of "
            : "the static method " + method.name() + " of ") + type.key();
        if (method.signature().isEmpty()) {
          warnings.add(what + " has no signature (an untyped function): no method generated");
        } else if (!isNativeName(method.name())) {
          warnings.add(what + " has a name @Method does not accept: no method generated");
        } else {
          typeMembers.computeIfAbsent(prefixOf(type.key()), p -> new ArrayList<>()).add(new TypeMember(type, method));
          groups.computeIfAbsent(prefixOf(type.key()), p -> new ArrayList<>());
        }
      }
    }
    Map<String, String> groupNames = numbered(new ArrayList<>(groups.keySet()), JavaNames::type, USED_TYPES);
    Map<String, String> objectNames = objectNames(objectTypes.stream()
        .filter(type -> !options.existing().containsKey(type.key())).toList(), new HashSet<>(groupNames.values()));
    // Spelled by their qualified names: an import could clash with a generated name or another existing one.
    objectNames.putAll(options.existing());

    SortedMap<String, String> files = new TreeMap<>();
    String directory = options.packageName().replace('.', '/') + "/";
    for (Map.Entry<String, List<ApiModel.Function>> group : groups.entrySet()) {
      String name = groupNames.get(group.getKey());
      List<TypeMember> members = typeMembers.getOrDefault(group.getKey(), List.of());
      List<ApiModel.Source> sources = definers(model, group.getValue().stream().map(ApiModel.Function::name).toList(),
          members.stream().map(member -> member.type().key()).toList());
      Optional<String> source = globalInterface(options, header(sources), names(sources), group.getKey(), name,
          group.getValue(), members, objectNames, warnings);
      source.ifPresent(text -> files.put(directory + name + ".java", text));
    }
    for (ApiModel.ObjectType type : objectTypes) {
      if (options.existing().containsKey(type.key())) {
        continue;
      }
      String name = objectNames.get(type.key());
      List<ApiModel.Source> sources = definers(model, List.of(), List.of(type.key()));
      files.put(directory + name + ".java", objectInterface(options.packageName(), header(sources), names(sources),
          type, name, objectNames, warnings));
    }
    return new Output(files, List.copyOf(warnings));
  }

  /**
   * The typed methods of a generated type that override an ancestor's typed method of the same name with other
   * parameters after the object: a generated interface extends its parent's (generated or existing), whose method
   * would then call the override with the wrong arguments.
   */
  private static List<String> overridesJavaCannotInherit(ApiModel model, List<ApiModel.ObjectType> objectTypes,
      Options options) {
    Map<String, ApiModel.ObjectType> byKey = new HashMap<>();
    model.objectTypes().forEach(type -> byKey.put(type.key(), type));
    List<String> conflicts = new ArrayList<>();
    for (ApiModel.ObjectType type : objectTypes) {
      if (options.existing().containsKey(type.key())) {
        continue;
      }
      for (ApiModel.Method method : type.methods()) {
        if (method.kind() != ApiModel.MemberKind.METHOD || method.signature().isEmpty()) {
          continue;
        }
        Set<String> seen = new HashSet<>();
        for (ApiModel.ObjectType ancestor = type.parent().map(byKey::get).orElse(null);
            ancestor != null && seen.add(ancestor.key()); ancestor = ancestor.parent().map(byKey::get).orElse(null)) {
          Optional<ApiModel.Method> inherited = ancestor.methods().stream()
              .filter(other -> other.kind() == ApiModel.MemberKind.METHOD && other.name().equals(method.name()))
              .findFirst();
          if (inherited.isPresent()) {
            List<NativeType> own = method.signature().get().parameters();
            List<NativeType> theirs = inherited.get().signature().map(Signature::parameters).orElse(null);
            if (theirs != null && !own.subList(Math.min(1, own.size()), own.size())
                .equals(theirs.subList(Math.min(1, theirs.size()), theirs.size()))) {
              conflicts.add("the method " + method.name() + " of " + type.key() + ", " + method.signature().get()
                  + ", overrides " + ancestor.key() + "." + method.name() + ", " + inherited.get().signature().get()
                  + ", with other parameters");
            }
            break; // the nearest definition is the one the child overrides
          }
        }
      }
    }
    return conflicts;
  }

  /**
   * Whether {@code @Global} and {@code @Object} accept the name: segments {@code [A-Za-z_][A-Za-z0-9_]*} joined by
   * single dots (the processor's grammar; the native registry takes any string).
   */
  static boolean isNativeName(String name) {
    return name.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
  }

  /** {@code calculator.MyAdd} → {@code calculator}; a name without a dot has the prefix {@code ""}. */
  static String prefixOf(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(0, dot);
  }

  private static String lastSegment(String name) {
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /** The types under a prefix, and every type a selected global or type uses (parents, fields, signatures). */
  private static List<ApiModel.ObjectType> selectObjectTypes(ApiModel model, List<ApiModel.Function> functions,
      List<String> prefixes) {
    Map<String, ApiModel.ObjectType> byKey = new LinkedHashMap<>();
    model.objectTypes().forEach(type -> byKey.put(type.key(), type));
    if (prefixes.isEmpty()) {
      return model.objectTypes();
    }
    Deque<String> pending = new ArrayDeque<>();
    model.objectTypes().stream().map(ApiModel.ObjectType::key)
        .filter(key -> prefixes.stream().anyMatch(key::startsWith)).forEach(pending::add);
    for (ApiModel.Function function : functions) {
      function.signature().ifPresent(signature -> {
        signature.parameters().forEach(type -> keysOf(type, pending));
        keysOf(signature.result(), pending);
      });
    }
    Set<String> selected = new HashSet<>();
    while (!pending.isEmpty()) {
      String key = pending.removeFirst();
      ApiModel.ObjectType type = byKey.get(key);
      if (type == null || !selected.add(key)) {
        continue;
      }
      type.parent().ifPresent(pending::add);
      type.fields().forEach(field -> keysOf(field.type(), pending));
      type.methods().forEach(method -> method.signature().ifPresent(signature -> {
        signature.parameters().forEach(t -> keysOf(t, pending));
        keysOf(signature.result(), pending);
      }));
    }
    return model.objectTypes().stream().filter(type -> selected.contains(type.key())).toList();
  }

  private static void keysOf(NativeType type, Deque<String> keys) {
    if (type.isObjectKey()) {
      keys.add(type.name());
    }
    type.arguments().forEach(argument -> keysOf(argument, keys));
  }

  private static Map<String, String> objectNames(List<ApiModel.ObjectType> types, Set<String> globalNames) {
    Map<String, Long> lastSegments = types.stream()
        .collect(Collectors.groupingBy(type -> JavaNames.type(lastSegment(type.key())), Collectors.counting()));
    Set<String> taken = new HashSet<>(globalNames);
    taken.addAll(USED_TYPES);
    Map<String, String> names = new LinkedHashMap<>();
    for (ApiModel.ObjectType type : types) {
      String candidate = JavaNames.type(lastSegment(type.key()));
      if (lastSegments.get(candidate) > 1) {
        candidate = JavaNames.type(type.key());
      }
      if (taken.contains(candidate)) {
        candidate = candidate + "Ref";
      }
      String name = candidate;
      for (int n = 2; taken.contains(name); n++) {
        name = candidate + n;
      }
      taken.add(name);
      names.put(type.key(), name);
    }
    return names;
  }

  /** Names each item; the second and later of one name take 2, 3, ... in the items' order. */
  private static Map<String, String> numbered(List<String> items, Function<String, String> naming, Set<String> taken) {
    Set<String> used = new HashSet<>(taken);
    Map<String, String> names = new LinkedHashMap<>();
    for (String item : items) {
      String candidate = naming.apply(item);
      String name = candidate;
      for (int n = 2; used.contains(name); n++) {
        name = candidate + n;
      }
      used.add(name);
      names.put(item, name);
    }
    return names;
  }

  /** Names in order; the second and later of one name take 2, 3, ..., never one of {@code taken}. */
  private static List<String> numberedList(List<String> candidates, Set<String> taken) {
    Set<String> used = new HashSet<>(taken);
    List<String> names = new ArrayList<>();
    for (String candidate : candidates) {
      String name = candidate;
      for (int n = 2; used.contains(name); n++) {
        name = candidate + n;
      }
      used.add(name);
      names.add(name);
    }
    return names;
  }

  /**
   * The sources that register one of the functions or types a file declares: only they are named and hashed in it,
   * so that a changed library rewrites only the files of what it defines. All sources if none says (never expected).
   */
  private static List<ApiModel.Source> definers(ApiModel model, List<String> functionNames, List<String> typeKeys) {
    List<ApiModel.Source> definers = model.sources().stream()
        .filter(source -> source.definesAny(functionNames, typeKeys)).toList();
    return definers.isEmpty() ? model.sources() : definers;
  }

  private static String names(List<ApiModel.Source> sources) {
    return sources.stream().map(ApiModel.Source::name).collect(Collectors.joining(", "));
  }

  private static String header(List<ApiModel.Source> sources) {
    StringBuilder header = new StringBuilder(
        "// Generated by packed4j generate. Do not edit: change the C++ registrations and generate again.\n");
    for (ApiModel.Source source : sources) {
      header.append("// From ").append(source.name()).append(", sha-256 ").append(source.sha256()).append(".\n");
    }
    return header.toString();
  }

  /** A constructor or static method of {@code type}, declared on the @Global interface of its key's prefix. */
  private record TypeMember(ApiModel.ObjectType type, ApiModel.Method method) {
    /** {@code Point.__init__} → {@code newPoint}; {@code Point.Origin} → {@code pointOrigin}. */
    String javaName() {
      String type = lastSegment(type().key());
      return JavaNames.method(method.kind() == ApiModel.MemberKind.CONSTRUCTOR ? "new_" + type
          : type + "_" + method.name());
    }
  }

  private static Optional<String> globalInterface(Options options, String header, String libraries, String prefix,
      String name, List<ApiModel.Function> functions, List<TypeMember> boundMembers, Map<String, String> objectNames,
      List<String> warnings) {
    JavaTypes types = new JavaTypes(options.packageName(), objectNames, false);
    boolean bindsAny = !boundMembers.isEmpty()
        || functions.stream().anyMatch(f -> f.signature().isPresent() && isNativeName(f.name()));
    List<String> javaNames = new ArrayList<>(functions.stream().map(f -> JavaNames.method(lastSegment(f.name())))
        .toList());
    boundMembers.forEach(member -> javaNames.add(member.javaName()));
    List<String> numberedNames = numberedList(javaNames, Set.of());
    Map<String, String> methodNames = new LinkedHashMap<>();
    for (int i = 0; i < functions.size(); i++) {
      methodNames.put(functions.get(i).name(), numberedNames.get(i));
    }
    List<String> members = new ArrayList<>();
    for (ApiModel.Function function : functions) {
      String method = methodNames.get(function.name());
      if (function.signature().isPresent() && isNativeName(function.name())) {
        members.add(typedMethod(function, function.signature().get(), method, types));
      } else if (function.signature().isPresent() && options.untyped() == Untyped.OBJECT_VARARGS) {
        warnings.add(function.name() + " is not a name @Global accepts (segments [A-Za-z_][A-Za-z0-9_]* joined by"
            + " dots): generated as " + method + "(Object...), which looks it up by name");
        members.add(untypedMethod(function, method, bindsAny, types));
      } else if (options.untyped() == Untyped.OBJECT_VARARGS) {
        members.add(untypedMethod(function, method, bindsAny, types));
      } else if (function.signature().isPresent()) {
        warnings.add(function.name() + " is not a name @Global accepts: no method generated (--untyped=skip)");
        members.add("  // " + function.name() + " is not a name @Global accepts: not generated (--untyped=skip).\n");
      } else {
        warnings.add(function.name() + " is registered with set_body (no signature): no method generated"
            + " (--untyped=skip)");
        members.add("  // " + function.name() + " is registered with set_body (no signature): not generated"
            + " (--untyped=skip).\n  // Call it with Registry.global(\"" + function.name()
            + "\").invoke(...), or declare it by hand.\n");
      }
    }
    for (int i = 0; i < boundMembers.size(); i++) {
      String objectName = objectNames.get(boundMembers.get(i).type().key());
      members.add(typeMember(boundMembers.get(i), objectName, numberedNames.get(functions.size() + i), types));
    }
    if (!bindsAny && options.untyped() == Untyped.SKIP) {
      warnings.add("no interface " + name + " for " + (prefix.isEmpty() ? "the names without a prefix" : prefix + ".*")
          + ": every function is untyped and --untyped=skip");
      return Optional.empty();
    }
    String what = functions.isEmpty() ? "The constructors and static methods of the object types"
        + (prefix.isEmpty() ? " without a prefix" : " {@code " + prefix + ".*}")
        : prefix.isEmpty() ? "The global functions without a prefix" : "The global functions {@code " + prefix + ".*}";
    String body = "/** " + what + " of " + libraries + ". */\n"
        + "public interface " + name + " {\n" + String.join("\n", members) + "}\n";
    return Optional.of(file(header, options.packageName(), types, body));
  }

  /** A constructor ({@code @Constructor}) or a static method ({@code @Method(of = ...)}) on a bound interface. */
  private static String typeMember(TypeMember member, String objectName, String javaName, JavaTypes types) {
    ApiModel.Method method = member.method();
    Signature signature = method.signature().orElseThrow();
    String annotation;
    String registered;
    if (method.kind() == ApiModel.MemberKind.CONSTRUCTOR) {
      types.use("dev.packed4j.annotations.Constructor");
      annotation = "@Constructor";
      registered = "The constructor of {@code " + member.type().key() + "}: {@code " + signature + "}.";
    } else {
      types.use("dev.packed4j.annotations.Method");
      annotation = "@Method(of = " + objectName + ".class, value = " + literal(method.name()) + ")";
      registered = "The static method {@code " + member.type().key() + "." + method.name() + "}: {@code "
          + signature + "}.";
    }
    String result = method.kind() == ApiModel.MemberKind.CONSTRUCTOR ? objectName : types.of(signature.result());
    return javadoc(method.doc(), registered)
        + "  " + annotation + "\n"
        + "  " + result + " " + javaName + "(" + parameters(method.javaParameters(), method.parameterNames(), types)
        + ");\n";
  }

  /** {@code long x, long y}: each parameter's Java type and name ({@code arg0}, ... when the names are unknown). */
  private static String parameters(List<NativeType> parameterTypes, List<String> declaredNames, JavaTypes types) {
    List<String> names = parameterNames(declaredNames, parameterTypes.size());
    List<String> parameters = new ArrayList<>();
    for (int i = 0; i < parameterTypes.size(); i++) {
      parameters.add(types.of(parameterTypes.get(i)) + " " + names.get(i));
    }
    return String.join(", ", parameters);
  }

  private static String typedMethod(ApiModel.Function function, Signature signature, String method,
      JavaTypes types) {
    types.use("dev.packed4j.annotations.Global");
    String registered = "{@code " + function.name() + "}: {@code " + signature + "}.";
    return javadoc(function.doc(), registered)
        + "  @Global(" + literal(function.name()) + ")\n"
        + "  " + types.of(signature.result()) + " " + method + "("
        + parameters(signature.parameters(), function.parameterNames(), types) + ");\n";
  }

  private static String untypedMethod(ApiModel.Function function, String method, boolean bindsAny,
      JavaTypes types) {
    String registered = function.signature()
        .map(signature -> "{@code " + function.name() + "}: {@code " + signature + "}, a name {@code @Global} does"
            + " not accept; looked up on each call.")
        .orElse("{@code " + function.name() + "}, registered with {@code set_body} (no signature): each argument"
            + " converts by its Java type, the result by its native type; looked up on each call.");
    if (bindsAny) { // called where the binding calls: in this process, or in the session that bound it
      types.use("dev.packed4j.runtime.Packed4j");
      return javadoc(function.doc(), registered)
          + "  default Object " + method + "(Object... args) {\n"
          + "    return Packed4j.invokeGlobal(this, " + literal(function.name()) + ", args);\n"
          + "  }\n";
    }
    types.use("dev.packed4j.runtime.PackedFunction");
    types.use("dev.packed4j.runtime.Registry");
    return javadoc(function.doc(), registered + " In this process: in a session, call"
        + " {@code session.global(\"" + function.name() + "\")}.")
        + "  static Object " + method + "(Object... args) {\n"
        + "    try (PackedFunction function = Registry.global(" + literal(function.name()) + ")) {\n"
        + "      return function.invoke(args);\n"
        + "    }\n"
        + "  }\n";
  }

  private static String objectInterface(String packageName, String header, String libraries,
      ApiModel.ObjectType type, String name, Map<String, String> objectNames, List<String> warnings) {
    JavaTypes types = new JavaTypes(packageName, objectNames, true);
    types.use("dev.packed4j.annotations.Object");
    Optional<String> parent = type.parent().map(objectNames::get);
    List<ApiModel.Method> methods = new ArrayList<>();
    for (ApiModel.Method method : type.methods()) {
      if (method.kind() != ApiModel.MemberKind.METHOD) {
        continue;
      }
      if (method.signature().isEmpty()) {
        warnings.add("the method " + method.name() + " of " + type.key() + " has no signature (an untyped"
            + " function): no method generated");
      } else if (!isNativeName(method.name())) {
        warnings.add("the method " + method.name() + " of " + type.key() + " has a name @Method does not accept:"
            + " no method generated");
      } else {
        methods.add(method);
      }
    }
    // Getters first, then methods; close() is every object interface's own (declared here or inherited), so a
    // getter or method of that name takes close_.
    List<String> javaNames = new ArrayList<>();
    type.fields().forEach(field -> javaNames.add(JavaNames.method(field.name())));
    methods.forEach(method -> javaNames.add(JavaNames.method(method.name())));
    List<String> numberedNames = numberedList(javaNames.stream().map(n -> n.equals("close") ? n + "_" : n).toList(),
        Set.of("close"));
    List<String> members = new ArrayList<>();
    for (int i = 0; i < type.fields().size(); i++) {
      members.addAll(fieldMembers(type.fields().get(i), numberedNames.get(i), types));
    }
    for (int i = 0; i < methods.size(); i++) {
      members.add(objectMethod(type, methods.get(i), numberedNames.get(type.fields().size() + i), types));
    }
    if (parent.isEmpty()) {
      members.add("  /** Releases this reference to the native object. */\n  @Override\n  void close();\n");
    }
    String about = "The native object type {@code " + type.key() + "} of " + libraries + ".";
    String body = javadoc(type.doc(), about).replaceAll("(?m)^  ", "")
        + "@Object(" + literal(type.key()) + ")\n"
        + "public interface " + name + " extends " + parent.orElse("AutoCloseable") + " {\n"
        + String.join("\n", members) + "}\n";
    return file(header, packageName, types, body);
  }

  /** A field's getter and, for a mutable field, its setter: {@code long price()}, {@code void price(long price)}. */
  private static List<String> fieldMembers(ApiModel.Field field, String javaName, JavaTypes types) {
    String fieldAnnotation = "";
    if (!javaName.equals(field.name())) {
      types.use("dev.packed4j.annotations.Field");
      fieldAnnotation = "  @Field(" + literal(field.name()) + ")\n";
    }
    String javaType = types.field(field.type());
    String getter = javadoc(field.doc(), "Field {@code " + field.name() + "} ({@code " + field.type() + "}), "
        + (field.mutable() ? "read-write." : "read-only."))
        + fieldAnnotation + "  " + javaType + " " + javaName + "();\n";
    if (!field.mutable()) {
      return List.of(getter);
    }
    String parameter = javaName.endsWith("_") || javaName.equals("value") ? "value" : javaName;
    String setter = javadoc(Optional.empty(), "Sets field {@code " + field.name() + "} ({@code " + field.type()
        + "}).")
        + fieldAnnotation + "  void " + javaName + "(" + javaType + " " + parameter + ");\n";
    return List.of(getter, setter);
  }

  /**
   * A method of an object type: called with the object first. {@code @Method} when the Java name differs from the
   * registered one ({@code @Method("Dot") long dot(...)}); a method without parameters other than the object has it
   * too (else it would read as a getter), and so does one of one parameter returning nothing (else it could read as
   * the setter of an inherited field).
   */
  private static String objectMethod(ApiModel.ObjectType type, ApiModel.Method method, String javaName,
      JavaTypes types) {
    Signature signature = method.signature().orElseThrow();
    List<NativeType> parameters = method.javaParameters();
    String annotation = "";
    if (!javaName.equals(method.name())) {
      types.use("dev.packed4j.annotations.Method");
      annotation = "  @Method(" + literal(method.name()) + ")\n";
    } else if (parameters.isEmpty() || (parameters.size() == 1 && signature.result().equals(NativeType.VOID))) {
      types.use("dev.packed4j.annotations.Method");
      annotation = "  @Method\n";
    }
    String registered = "The method {@code " + type.key() + "." + method.name() + "}: {@code " + signature + "}.";
    return javadoc(method.doc(), registered) + annotation
        + "  " + types.of(signature.result()) + " " + javaName + "("
        + parameters(parameters, method.parameterNames(), types) + ");\n";
  }

  private static List<String> parameterNames(List<String> declared, int count) {
    if (declared.size() != count) {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        names.add("arg" + i);
      }
      return names;
    }
    Set<String> used = new HashSet<>();
    List<String> names = new ArrayList<>();
    for (String name : declared) {
      String candidate = JavaNames.method(name);
      String unique = candidate;
      for (int n = 2; !used.add(unique); n++) {
        unique = candidate + n;
      }
      names.add(unique);
    }
    return names;
  }

  private static String file(String header, String packageName, JavaTypes types, String body) {
    StringBuilder text = new StringBuilder(header).append("package ").append(packageName).append(";\n\n");
    if (!types.imports().isEmpty()) {
      types.imports().forEach(qualified -> text.append("import ").append(qualified).append(";\n"));
      text.append('\n');
    }
    return text.append(body).toString();
  }

  /** A Javadoc comment at method indentation: the doc string (if any), then what the registry says. */
  private static String javadoc(Optional<String> doc, String registered) {
    if (doc.isEmpty() && ("  /** " + registered + " */").length() <= LINE) {
      return "  /** " + registered + " */\n";
    }
    StringBuilder comment = new StringBuilder("  /**\n");
    doc.ifPresent(text -> {
      wrap(escape(text), comment);
      comment.append("   *\n");
    });
    wrap((doc.isPresent() ? "<p>" : "") + registered, comment);
    return comment.append("   */\n").toString();
  }

  private static void wrap(String text, StringBuilder comment) {
    for (String paragraph : text.split("\n")) {
      StringBuilder line = new StringBuilder("   *");
      for (String word : unbroken(paragraph.split(" "))) {
        if (line.length() + 1 + word.length() > WRAP && line.length() > 4) {
          comment.append(line).append('\n');
          line = new StringBuilder("   *");
        }
        line.append(' ').append(word);
      }
      comment.append(line.toString().stripTrailing()).append('\n');
    }
  }

  /**
   * The words of a paragraph, with each {@code {@code ...}} that fits a line kept as one word: a signature is not
   * broken across lines where it can be helped.
   */
  private static List<String> unbroken(String[] words) {
    List<String> joined = new ArrayList<>();
    for (int i = 0; i < words.length; i++) {
      if (words[i].startsWith("{@code") && !words[i].contains("}")) {
        int end = i;
        StringBuilder code = new StringBuilder(words[i]);
        while (end + 1 < words.length && !words[end].contains("}")) {
          code.append(' ').append(words[++end]);
        }
        if (code.length() <= WRAP - 5) {
          joined.add(code.toString());
          i = end;
          continue;
        }
      }
      joined.add(words[i]);
    }
    return joined;
  }

  /**
   * A doc string as Javadoc text: HTML and Javadoc's own characters escaped, so it reads as written; a backslash
   * as {@code &#92;}, since javac reads a backslash-u in a comment as a Unicode escape (a Windows path would not
   * compile, and an escaped star-slash would end the comment); line ends as new lines, other control characters
   * as spaces.
   */
  private static String escape(String doc) {
    String text = doc.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("*/", "*&#47;")
        .replace("@", "&#64;").replace("\\", "&#92;").replace("\r\n", "\n").replace('\r', '\n');
    StringBuilder printable = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      printable.append(c < 0x20 && c != '\n' || c == 0x7f ? ' ' : c);
    }
    return printable.toString();
  }

  /** A Java string literal. */
  private static String literal(String value) {
    StringBuilder text = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> text.append("\\\"");
        case '\\' -> text.append("\\\\");
        case '\n' -> text.append("\\n");
        case '\r' -> text.append("\\r"); // as a Unicode escape it would end the line inside the literal
        default -> {
          if (c < 0x20 || c > 0x7e) {
            text.append(String.format("\\u%04x", (int) c));
          } else {
            text.append(c);
          }
        }
      }
    }
    return text.append('"').toString();
  }
}
