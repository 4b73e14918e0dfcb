package dev.packed4j.cli;

import dev.packed4j.cli.generate.ApiModel;
import dev.packed4j.cli.generate.InterfaceGenerator;
import dev.packed4j.cli.generate.ModelReader;
import dev.packed4j.cli.generate.SourceWriter;
import dev.packed4j.cli.generate.Untyped;
import dev.packed4j.runtime.Packed4jException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar packed4j-cli.jar describe <library.so> [--json <manifest>]}: prints what a plugin library
 * registers and, with {@code --json}, writes it as the manifest packed4j-processor checks declarations against.
 *
 * <p>{@code java -jar packed4j-cli.jar generate <library.so>... --package <p> --out <dir>}: writes the
 * {@code @Global} and {@code @Object} interfaces of what the libraries (or, with {@code --manifest}, manifests)
 * register ({@link InterfaceGenerator}).
 *
 * <p>{@code describe} warns ({@code packed4j describe: warning: ...} on standard error) about a library that
 * registers nothing and does not link libpacked4j.so: not a packed4j plugin, such as a system library named by
 * mistake. The description is still printed and written.
 *
 * <p>Exit status: 0 on success, 1 when a library cannot be loaded or a file cannot be read or written, 2 for a
 * wrong command line.
 */
public final class Main {
  static final String USAGE = """
      usage: packed4j describe <library.so> [--json <manifest.json>]
        Loads a plugin library and prints the global functions and object types it registers.
        --json <file>  also writes them as a manifest for -Apacked4j.manifest=<file>
      usage: packed4j generate <library.so>... --package <java.package> --out <directory>
                               [--prefix <name prefix>]... [--manifest <manifest.json>]...
                               [--untyped object-varargs|skip] [--existing <type key>=<interface>]...
        Writes one @Global interface per registry name prefix and one @Object interface per object type.
        --prefix <p>    only the globals whose names start with p (calculator.), and the object types they use
        --manifest <f>  reads a manifest of packed4j describe instead of loading a library
        --untyped <m>   a set_body function (no signature) becomes Object name(Object... args) (object-varargs,
                        the default) or is left out with a warning (skip)
        --existing <k>=<i>  the object type k has the @Object interface i (a qualified name) already: none is
                        generated for k, and the generated files use i""";

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 0 && args[0].equals("generate")) {
      return generate(args, out, err);
    }
    if (args.length == 0 || !args[0].equals("describe")) {
      err.println(args.length == 0 ? USAGE : "unknown command '" + args[0] + "'\n" + USAGE);
      return 2;
    }
    Path library = null;
    Path json = null;
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--json")) {
        if (i + 1 == args.length) {
          err.println("--json needs a file name\n" + USAGE);
          return 2;
        }
        json = Path.of(args[++i]);
      } else if (args[i].startsWith("-") || library != null) {
        err.println("unexpected argument '" + args[i] + "'\n" + USAGE);
        return 2;
      } else {
        library = Path.of(args[i]);
      }
    }
    if (library == null) {
      err.println("describe needs a library\n" + USAGE);
      return 2;
    }
    LibraryDescription description;
    try {
      description = LibraryDescription.load(library);
    } catch (Packed4jException e) {
      err.println("packed4j describe: " + e.getMessage());
      return 1;
    }
    if (description.registersNothing() && !LibraryDescription.linksCore(library)) {
      err.println("packed4j describe: warning: " + description.library() + " registers no global function and no"
          + " object type, and does not link libpacked4j.so: it is not a packed4j plugin (one built against"
          + " packed4j::core with P4J_REGISTER_GLOBAL or ObjectDef), and declarations checked against its empty"
          + " manifest all fail. Describe the plugin library instead");
    }
    out.print(description.toText());
    if (json != null) {
      try {
        Manifest.write(description, json);
      } catch (IOException e) {
        err.println("packed4j describe: cannot write the manifest " + json + ": " + e);
        return 1;
      }
      out.println("\nManifest written to " + json);
    }
    return 0;
  }

  /** {@code generate}: reads the model, generates the interfaces and writes the ones that changed. */
  private static int generate(String[] args, PrintStream out, PrintStream err) {
    List<Path> libraries = new ArrayList<>();
    List<Path> manifests = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    Map<String, String> existing = new LinkedHashMap<>();
    String packageName = null;
    Path directory = null;
    Untyped untyped = Untyped.OBJECT_VARARGS;
    for (int i = 1; i < args.length; i++) {
      String argument = args[i];
      if (!argument.startsWith("--")) {
        libraries.add(Path.of(argument));
        continue;
      }
      int equals = argument.indexOf('=');
      String option = equals < 0 ? argument : argument.substring(0, equals);
      if (!List.of("--package", "--out", "--prefix", "--manifest", "--untyped", "--existing").contains(option)) {
        err.println("unexpected argument '" + argument + "'\n" + USAGE);
        return 2;
      }
      String value;
      if (equals >= 0) {
        value = argument.substring(equals + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        err.println(option + " needs a value\n" + USAGE);
        return 2;
      }
      switch (option) {
        case "--package" -> packageName = value;
        case "--out" -> directory = Path.of(value);
        case "--prefix" -> prefixes.add(value);
        case "--manifest" -> manifests.add(Path.of(value));
        case "--existing" -> {
          int at = value.indexOf('=');
          if (at <= 0 || at == value.length() - 1) {
            err.println("--existing takes <type key>=<qualified interface name>, such as"
                + " inventory.Item=com.example.Item, not '" + value + "'\n" + USAGE);
            return 2;
          }
          existing.put(value.substring(0, at), value.substring(at + 1));
        }
        default -> {
          try {
            untyped = Untyped.ofOption(value);
          } catch (IllegalArgumentException e) {
            err.println(e.getMessage() + "\n" + USAGE);
            return 2;
          }
        }
      }
    }
    if (libraries.isEmpty() == manifests.isEmpty()) {
      err.println("generate needs libraries or --manifest files (not both)\n" + USAGE);
      return 2;
    }
    if (packageName == null || directory == null) {
      err.println("generate needs --package and --out\n" + USAGE);
      return 2;
    }
    InterfaceGenerator.Options options;
    try {
      options = new InterfaceGenerator.Options(packageName, prefixes, untyped, existing);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage() + "\n" + USAGE);
      return 2;
    }
    ApiModel model;
    try {
      if (manifests.isEmpty()) {
        Map<Path, LibraryDescription> described = new LinkedHashMap<>();
        for (Path library : libraries) {
          described.put(library, LibraryDescription.load(library));
        }
        model = ModelReader.fromDescriptions(described);
      } else {
        model = ModelReader.fromManifests(manifests);
      }
    } catch (Packed4jException | IllegalArgumentException e) {
      err.println("packed4j generate: " + e.getMessage());
      return 1;
    } catch (IOException e) {
      err.println("packed4j generate: cannot read " + e.getMessage());
      return 1;
    }
    InterfaceGenerator.Output output;
    try {
      output = InterfaceGenerator.generate(model, options);
    } catch (IllegalArgumentException e) {
      err.println("packed4j generate: " + e.getMessage());
      return 2;
    }
    output.warnings().forEach(warning -> err.println("packed4j generate: warning: " + warning));
    SourceWriter.Result result;
    try {
      result = SourceWriter.write(directory, output.files(), packageName.replace('.', '/'));
    } catch (IOException e) {
      err.println("packed4j generate: cannot write into " + directory + ": " + e);
      return 1;
    }
    out.println("packed4j generate: " + output.files().size() + " interfaces in " + directory + " ("
        + result.written().size() + " written, " + result.unchanged().size() + " unchanged, "
        + result.deleted().size() + " stale deleted)");
    result.written().forEach(file -> out.println("  wrote " + file));
    result.deleted().forEach(file -> out.println("  deleted " + file));
    return 0;
  }
}
