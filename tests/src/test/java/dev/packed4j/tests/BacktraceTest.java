package dev.packed4j.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Registry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The native backtrace of a Java exception names the functions of a plugin built in Release with hidden visibility
 * and gives their file:line when the plugin has debug info (packed4j_plugin_debug_info), issue 21 item 7. The plugin
 * (tests/native/backtrace.cc) throws three calls deep.
 */
class BacktraceTest {
  private static List<String> source;

  @BeforeAll
  static void load() throws IOException {
    Packed4j.loadLibrary(Path.of(System.getProperty("packed4j.test.backtracePlugin")));
    source = Files.readAllLines(Path.of(System.getProperty("packed4j.test.backtraceSource")));
  }

  /** The line number of the marker comment "// line: marker" in backtrace.cc. */
  private static int lineOf(String marker) {
    for (int i = 0; i < source.size(); i++) {
      if (source.get(i).contains("// line: " + marker)) {
        return i + 1;
      }
    }
    throw new AssertionError("no marker '" + marker + "' in backtrace.cc");
  }

  /** The frame of the backtrace that names function. */
  private static String frameOf(String trace, String function) {
    return trace.lines().filter(line -> line.contains(function)).findFirst()
        .orElseThrow(() -> new AssertionError("no frame of " + function + " in:\n" + trace));
  }

  @Test
  void aReleasePluginsFramesHaveFunctionNamesAndFileLines() {
    Packed4jException error = assertThrows(Packed4jException.class,
        () -> Registry.global("backtrace.PlaceOrder").invoke(-3L));
    assertEquals("ValueError", error.kind());
    assertEquals("quantity must not be negative, got -3", error.nativeMessage());
    String trace = error.nativeBacktrace();
    String[][] frames = {
        {"inventory::CheckQuantity(long)", "throw"},
        {"inventory::ReserveLine(long)", "ReserveLine calls CheckQuantity"},
        {"inventory::PlaceOrder(long)", "PlaceOrder calls ReserveLine"},
    };
    int previous = -1;
    for (String[] frame : frames) {
      String line = frameOf(trace, frame[0]);
      int at = trace.indexOf(line);
      assertTrue(at > previous, frame[0] + " is not below the frame it called:\n" + trace);
      previous = at;
      assertTrue(line.contains(" in ") && line.contains("libp4jbacktrace.so"), line);
      // libdw (Debian's libdw1) is what reads DWARF; without it the names still come from the library's .symtab.
      if (Files.isRegularFile(Path.of("/usr/lib/x86_64-linux-gnu/libdw.so.1"))) {
        assertTrue(line.contains(" at ") && line.contains("backtrace.cc:" + lineOf(frame[1]) + " "),
            "expected backtrace.cc:" + lineOf(frame[1]) + " in: " + line);
      }
    }
  }

  @Test
  void printStackTraceShowsTheNamedNativeFrames() {
    Packed4jException error = assertThrows(Packed4jException.class,
        () -> Registry.global("backtrace.PlaceOrder").invoke(-1L));
    StringWriter printed = new StringWriter();
    error.printStackTrace(new PrintWriter(printed));
    assertTrue(printed.toString().contains("native backtrace, innermost first:"), printed.toString());
    assertTrue(printed.toString().contains("inventory::CheckQuantity(long)"), printed.toString());
  }
}
