package dev.packed4j.cli;

import dev.packed4j.runtime.Packed4jException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code java -jar packed4j-cli.jar describe <library.so> [--json <manifest>]}: prints what a plugin library
 * registers and, with {@code --json}, writes it as the manifest packed4j-processor checks declarations against.
 *
 * <p>Exit status: 0 on success, 1 when the library cannot be loaded or the manifest cannot be written, 2 for a
 * wrong command line.
 */
public final class Main {
  static final String USAGE = """
      usage: packed4j describe <library.so> [--json <manifest.json>]
        Loads a plugin library and prints the global functions and object types it registers.
        --json <file>  also writes them as a manifest for -Apacked4j.manifest=<file>""";

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
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
}
