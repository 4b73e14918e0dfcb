#!/usr/bin/env python3
"""Writes runtime/src/main/java/dev/packed4j/runtime/internal/capi/CApi.java from native-core's c_api.h.

CApi keeps jextract's shape (a lazy holder per function with its descriptor, address and downcall handle, and a
static method that calls the handle with invokeExact) but binds only the functions the runtime calls, each in one
overload: pointers are passed as long addresses, the way the runtime keeps every native address. The functions bound
are found by scanning runtime/src/main/java for calls of CApi (CApi.P4JName( or a static import of it); every
#define and enum constant of the header becomes a constant. CApiBindingTest holds the result to the header.

Usage: python3 runtime/scripts/generate-capi.py   (after changing c_api.h or the runtime's calls)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADER = ROOT / "native-core/include/packed4j/c_api.h"
SOURCES = ROOT / "runtime/src/main/java"
OUTPUT = SOURCES / "dev/packed4j/runtime/internal/capi/CApi.java"

POINTER_TYPES = {"P4JObjectHandle", "P4JSafeCallType", "P4JScalarsEntryType"}


def c_type_layout(c_type):
    """The jextract layout constant and the Java carrier (pointers as long) of a C type."""
    t = c_type.replace("const", "").replace(" ", "")
    if "*" in t or t in POINTER_TYPES or t == "(*)":
        return "C_POINTER", "long"
    return {
        "void": (None, "void"),
        "int": ("C_INT", "int"),
        "int32_t": ("C_INT", "int"),
        "uint32_t": ("C_INT", "int"),
        "int64_t": ("C_LONG", "long"),
        "uint64_t": ("C_LONG", "long"),
        "double": ("C_DOUBLE", "double"),
    }[t]


def parse_functions(text):
    functions = {}
    pattern = re.compile(r"(/\*!(?:(?!\*/).)*\*/)\s*P4J_DLL\s+([\w\s*]+?)\s*\b(P4J\w+)\s*\(([^;]*)\)\s*;", re.S)
    for doc, result, name, params in pattern.findall(text):
        params = " ".join(params.split())
        parameters = []
        if params not in ("", "void"):
            depth, current, parts = 0, "", []
            for c in params:
                depth += c == "("
                depth -= c == ")"
                if c == "," and depth == 0:
                    parts.append(current)
                    current = ""
                else:
                    current += c
            parts.append(current)
            for part in parts:
                part = part.strip()
                fp = re.match(r".*\(\s*\*\s*(\w+)\s*\)\s*\(.*\)", part)
                if fp:
                    parameters.append(("(*)", fp.group(1)))
                else:
                    m = re.match(r"(.*?)(\w+)$", part)
                    parameters.append((m.group(1).strip(), m.group(2)))
        functions[name] = (result.strip(), parameters, doc, params)
    return functions


def doc_text(doc):
    body = doc[3:-2]
    lines = [re.sub(r"^\s*\*\s?", "", line).rstrip() for line in body.splitlines()]
    text = " ".join(line.strip() for line in lines if line.strip())
    text = text.replace("\\brief ", "").replace("\\param ", "param ").replace("\\return ", "returns ")
    return text.replace("*/", "*&#47;").replace("@", "{@literal @}")


def wrap(text, indent, width=116):
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(indent) + len(line) + 1 + len(word) > width:
            lines.append(indent + line)
            line = word
        else:
            line = word if not line else line + " " + word
    if line:
        lines.append(indent + line)
    return lines


def used_functions(names):
    used = set()
    for path in SOURCES.rglob("*.java"):
        if path == OUTPUT:
            continue
        source = path.read_text(encoding="utf-8")
        for name in names:
            if re.search(r"\bCApi\." + name + r"\b", source):
                used.add(name)
            elif "import static dev.packed4j.runtime.internal.capi.CApi.*" in source and re.search(
                    r"(?<![\w.])" + name + r"\s*\(", source):
                used.add(name)
    return used


def constants(text):
    out = []
    for name, value in re.findall(r"#define\s+(P4J_\w+)\s+(.+)", text):
        value = value.split("/*")[0].strip()
        if name == "P4J_DLL" or "__" in value or name.startswith("PACKED4J_"):
            continue
        out.append((name, value))
    return out


def java_constant(name, value, defines):
    v = re.sub(r"\((u?int\d+_t|int|long)\)", "", value)
    for other, other_value in defines:
        v = re.sub(r"\b" + other + r"\b", other, v)
    v = v.replace("LL", "L")
    java_type = "long" if re.search(r"0x[0-9a-fA-F]{9,}", v) else "int"
    return f"  /** {{@code #define {name} {value}}}. */\n  public static final {java_type} {name} = {v};\n"


def main():
    text = HEADER.read_text(encoding="utf-8")
    functions = parse_functions(text)
    used = used_functions(functions.keys())
    missing = sorted(n for n in used if n not in functions)
    if missing:
        sys.exit("called but not in c_api.h: " + ", ".join(missing))
    defines = constants(text)
    enums = re.findall(r"\b(kP4J\w+)\s*=\s*(-?\w+),?\s*(?:/\*!<\s*(.*?)\s*\*/)?", text)

    out = []
    out.append("""package dev.packed4j.runtime.internal.capi;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM bindings of the functions of {@code native-core/include/packed4j/c_api.h} that the runtime calls, in
 * jextract's layout. Written by {@code runtime/scripts/generate-capi.py}; do not edit by hand.
 *
 * <p>Each C function has a private holder class (descriptor, address, downcall handle) that is linked the first
 * time the function is called, and one static method that calls the handle with {@code invokeExact}. Pointers are
 * passed as {@code long} addresses: the runtime keeps every native address as a {@code long} and reads memory through
 * {@link NativeMemory}, so a call creates no {@link MemorySegment}. The handle links the
 * symbol with every {@code C_POINTER} of jextract's descriptor replaced by {@code JAVA_LONG}, the same register class
 * on the 64-bit platforms the runtime supports. {@code CApiBindingTest} checks every binding and constant against the
 * header on every build.
 */
@SuppressWarnings("restricted") // binding native functions is what this class is for
public final class CApi {
  private CApi() {}

  /** {@code int} / {@code int32_t} / {@code uint32_t}. */
  public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
  /** {@code int64_t} ({@code long} on LP64). */
  public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
  /** {@code double}. */
  public static final ValueLayout.OfDouble C_DOUBLE = ValueLayout.JAVA_DOUBLE;
  /** Any pointer. */
  public static final AddressLayout C_POINTER =
      ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(Long.MAX_VALUE, ValueLayout.JAVA_BYTE));

""")
    for name, value in defines:
        out.append(java_constant(name, value, defines))
    out.append("\n")
    for name, value, comment in enums:
        doc = comment.strip() if comment else name
        if not doc.endswith("."):
            doc += "."
        out.append(f"  /** {doc.replace('*/', '')} */\n  public static final int {name} = {value};\n")
    out.append("""
  private static final Linker LINKER = Linker.nativeLinker();

  private static MemorySegment findOrThrow(String symbol) {
    return NativeLibraries.core()
        .find(symbol)
        .orElseThrow(() -> new UnsatisfiedLinkError(
            "libpacked4j.so (" + NativeLibraries.corePath() + ") does not export " + symbol
                + "; the library is older than the packed4j runtime: use both from the same packed4j version"));
  }

  private static FunctionDescriptor pointersAsAddresses(FunctionDescriptor descriptor) {
    MemoryLayout[] arguments = descriptor.argumentLayouts().stream()
        .map(layout -> layout instanceof AddressLayout ? ValueLayout.JAVA_LONG : layout)
        .toArray(MemoryLayout[]::new);
    return descriptor.returnLayout()
        .map(result -> FunctionDescriptor.of(result instanceof AddressLayout ? ValueLayout.JAVA_LONG : result,
            arguments))
        .orElseGet(() -> FunctionDescriptor.ofVoid(arguments));
  }
""")
    for name in sorted(used, key=lambda n: list(functions).index(n)):
        result, parameters, doc, raw = functions[name]
        result_layout, result_java = c_type_layout(result)
        layouts = [c_type_layout(t)[0] for t, _ in parameters]
        if result_layout is None:
            desc = "FunctionDescriptor.ofVoid(" + ", ".join(layouts) + ")"
        else:
            desc = "FunctionDescriptor.of(" + ", ".join([result_layout] + layouts) + ")"
        signature = f"{result} {name}({raw})"
        java_params = ", ".join(f"{c_type_layout(t)[1]} {p}" for t, p in parameters)
        args = ", ".join(p for _, p in parameters)
        out.append(f"""
  private static final class {name} {{
    static final FunctionDescriptor DESC = {desc};
    static final MemorySegment ADDR = findOrThrow("{name}");
    static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, pointersAsAddresses(DESC));
  }}

  /** Function descriptor of {{@code {signature}}}, pointers as {{@code C_POINTER}}. */
  public static FunctionDescriptor {name}$descriptor() {{
    return {name}.DESC;
  }}

  /** Address of {{@code {name}}} in libpacked4j.so. */
  public static MemorySegment {name}$address() {{
    return {name}.ADDR;
  }}

  /**
   * {{@code {signature}}}
   *
""")
        out.append("\n".join(wrap(doc_text(doc), "   * ")) + "\n")
        call = f"{name}.HANDLE.invokeExact({args})"
        body = f"{call};" if result_java == "void" else f"return ({result_java}) {call};"
        out.append(f"""   */
  public static {result_java} {name}({java_params}) {{
    try {{
      {body}
    }} catch (Error | RuntimeException e) {{
      throw e;
    }} catch (Throwable e) {{
      throw new AssertionError("a downcall does not throw checked exceptions", e);
    }}
  }}
""")
    out.append("}\n")
    OUTPUT.write_text("".join(out), encoding="utf-8")
    print(f"{OUTPUT.relative_to(ROOT)}: {len(used)} of {len(functions)} functions of c_api.h bound")


if __name__ == "__main__":
    main()
