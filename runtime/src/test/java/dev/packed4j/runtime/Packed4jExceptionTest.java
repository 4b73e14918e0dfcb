package dev.packed4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Packed4jExceptionTest {
  @Test
  void theMessageNamesKindAndFunction() {
    Packed4jException e = new Packed4jException("TypeError", "argument 1 expected int, got string", "",
        "calculator.MyAdd");
    assertEquals("[TypeError] calculator.MyAdd: argument 1 expected int, got string", e.getMessage());
    assertEquals("TypeError", e.kind());
    assertEquals("argument 1 expected int, got string", e.nativeMessage());
    assertEquals("calculator.MyAdd", e.functionName());
    assertEquals("", e.nativeBacktrace());
    assertEquals(0, e.getSuppressed().length);
  }

  @Test
  void aMessageThatStartsWithTheFunctionIsNotPrefixedTwice() {
    Packed4jException e = new Packed4jException("ValueError",
        "calculator.Foo returned 4294967296, which does not fit in int", null, "calculator.Foo");
    assertEquals("[ValueError] calculator.Foo returned 4294967296, which does not fit in int", e.getMessage());
    Packed4jException noFunction = new Packed4jException("LoadError", "cannot load", "", null);
    assertEquals("[LoadError] cannot load", noFunction.getMessage());
  }

  @Test
  void theNativeBacktraceIsPrintedUnderTheJavaFrames() {
    Packed4jException e = new Packed4jException("RuntimeError", "boom",
        "#0 packed4j::Throw() at error.cc:10\n#1 calculator::Add() at calc.cc:3\n", "calculator.Add");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    e.printStackTrace(new PrintStream(out, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.startsWith("dev.packed4j.runtime.Packed4jException: [RuntimeError] calculator.Add: boom"),
        printed);
    assertTrue(printed.contains("Suppressed: dev.packed4j.runtime.Packed4jException$NativeBacktrace: native "
        + "backtrace, innermost first:"), printed);
    assertTrue(printed.contains("\t\t#0 packed4j::Throw() at error.cc:10\n\t\t#1 calculator::Add() at calc.cc:3"),
        printed);
    assertTrue(printed.indexOf("at dev.packed4j.runtime.Packed4jExceptionTest") < printed.indexOf("#0"),
        "Java frames first");
    assertEquals(0, e.getSuppressed()[0].getStackTrace().length, "the backtrace has no Java frames of its own");
  }
}
