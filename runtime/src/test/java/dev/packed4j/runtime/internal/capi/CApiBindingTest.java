package dev.packed4j.runtime.internal.capi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.packed4j.runtime.TestLibraries;
import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks {@link CApi} against {@code c_api.h} (path in system property {@code packed4j.test.capiHeader}): every
 * binding has a header function and its shape (the C types mapped to the same carriers, pointers as {@code long}
 * addresses) in one overload, every header function is exported by the loaded library, and every {@code #define} and
 * enum constant has a constant of the same value.
 */
class CApiBindingTest {
  /** A function of the header: name, C result type, C parameter types. */
  record HeaderFunction(String name, String result, List<String> parameters) {}

  private static String header;
  private static Map<String, HeaderFunction> functions;

  @BeforeAll
  static void readHeader() throws IOException {
    String path = System.getProperty("packed4j.test.capiHeader");
    assertTrue(path != null && Files.isRegularFile(Path.of(path)),
        "system property packed4j.test.capiHeader must name c_api.h, is " + path);
    header = Files.readString(Path.of(path)).replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    functions = parseFunctions(header);
    assertTrue(functions.size() > 30, "parsed only " + functions.keySet());
  }

  static Map<String, HeaderFunction> parseFunctions(String source) {
    Map<String, HeaderFunction> parsed = new TreeMap<>();
    Matcher matcher = Pattern.compile("P4J_DLL\\s+([\\w\\s*]+?)\\s*\\b(P4J\\w+)\\s*\\(([^;]*)\\)\\s*;").matcher(source);
    while (matcher.find()) {
      String parameterList = matcher.group(3).replaceAll("\\s+", " ").trim();
      List<String> parameters = new ArrayList<>();
      if (!parameterList.equals("void") && !parameterList.isEmpty()) {
        for (String parameter : splitTopLevel(parameterList)) {
          parameters.add(parameterType(parameter.trim()));
        }
      }
      parsed.put(matcher.group(2), new HeaderFunction(matcher.group(2), matcher.group(1).trim(), parameters));
    }
    return parsed;
  }

  private static List<String> splitTopLevel(String list) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    StringBuilder current = new StringBuilder();
    for (char c : list.toCharArray()) {
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      }
      if (c == ',' && depth == 0) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    parts.add(current.toString());
    return parts;
  }

  /** The type of a parameter declaration: "const P4JAny* args" -> "const P4JAny*"; a function pointer -> "(*)". */
  private static String parameterType(String declaration) {
    if (declaration.matches(".*\\(\\s*\\*\\s*\\w+\\s*\\)\\s*\\(.*\\)")) {
      return "(*)";
    }
    return declaration.replaceAll("\\b\\w+$", "").trim();
  }

  /** The Java carrier jextract uses for a C type. */
  static Class<?> carrier(String cType) {
    String type = cType.replace("const", "").replaceAll("\\s+", "");
    if (type.contains("*") || type.equals("(*)") || type.equals("P4JObjectHandle") || type.equals("P4JSafeCallType")) {
      return MemorySegment.class;
    }
    return switch (type) {
      case "void" -> void.class;
      case "int", "int32_t", "uint32_t" -> int.class;
      case "int64_t", "uint64_t" -> long.class;
      case "double" -> double.class;
      default -> throw new AssertionError("c_api.h uses C type '" + cType + "', which this test does not map: "
          + "extend carrier() and CApi");
    };
  }

  private static List<Method> bindings(String name) {
    return Arrays.stream(CApi.class.getDeclaredMethods())
        .filter(method -> method.getName().equals(name) && Modifier.isPublic(method.getModifiers()))
        .toList();
  }

  @Test
  void everyBindingHasTheShapeOfItsHeaderFunctionInOneOverload() {
    List<String> problems = new ArrayList<>();
    Set<String> bound = new TreeSet<>();
    for (Method method : CApi.class.getDeclaredMethods()) {
      if (Modifier.isPublic(method.getModifiers()) && method.getName().matches("P4J\\w+")) {
        bound.add(method.getName());
      }
    }
    assertTrue(bound.size() > 10, "parsed only " + bound);
    for (String name : bound) {
      HeaderFunction function = functions.get(name);
      if (function == null) {
        continue; // everyBindingHasAHeaderFunction reports it
      }
      List<Class<?>> expected = function.parameters().stream().map(CApiBindingTest::carrier)
          .map(type -> type == MemorySegment.class ? long.class : type).collect(Collectors.toList());
      Class<?> result = carrier(function.result());
      Class<?> expectedResult = result == MemorySegment.class ? long.class : result;
      List<Method> overloads = bindings(name);
      if (overloads.size() != 1) {
        problems.add(name + ": " + overloads.size() + " overloads, one expected");
        continue;
      }
      Method binding = overloads.getFirst();
      if (!Arrays.asList(binding.getParameterTypes()).equals(expected) || binding.getReturnType() != expectedResult) {
        problems.add(name + ": " + binding + " is not the header's shape with pointers as long addresses "
            + expected + " -> " + expectedResult);
      }
      for (String suffix : List.of("$descriptor", "$address")) {
        if (bindings(name + suffix).size() != 1) {
          problems.add(name + ": no " + name + suffix + "()");
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void everyBindingHasAHeaderFunction() {
    Set<String> bound = new TreeSet<>();
    for (Method method : CApi.class.getDeclaredMethods()) {
      if (Modifier.isPublic(method.getModifiers()) && method.getName().startsWith("P4J")) {
        bound.add(method.getName().replaceAll("\\$\\w+$", ""));
      }
    }
    bound.removeAll(functions.keySet());
    assertEquals(Set.of(), bound, "CApi binds functions c_api.h does not declare");
  }

  @Test
  void everyDefineAndEnumConstantHasAConstantOfTheSameValue() throws ReflectiveOperationException {
    Map<String, Long> constants = new LinkedHashMap<>();
    Matcher define = Pattern.compile("#define\\s+(P4J_\\w+)\\s+(.+)").matcher(header);
    while (define.find()) {
      String name = define.group(1);
      String value = define.group(2).trim();
      if (name.equals("P4J_DLL") || name.startsWith("PACKED4J_") || value.contains("__")) {
        continue;
      }
      constants.put(name, evaluate(value, constants));
    }
    Matcher enumerator = Pattern.compile("\\b(kP4J\\w+)\\s*=\\s*(-?\\w+)").matcher(header);
    while (enumerator.find()) {
      constants.put(enumerator.group(1), evaluate(enumerator.group(2), constants));
    }
    assertTrue(constants.containsKey("P4J_ABI_VERSION") && constants.containsKey("kP4JMap"), constants.toString());
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, Long> constant : constants.entrySet()) {
      Field field;
      try {
        field = CApi.class.getField(constant.getKey());
      } catch (NoSuchFieldException e) {
        problems.add(constant.getKey() + " = " + constant.getValue() + ": no CApi constant");
        continue;
      }
      long actual = ((Number) field.get(null)).longValue();
      if (actual != constant.getValue()) {
        problems.add(constant.getKey() + ": header " + constant.getValue() + ", CApi " + actual);
      }
    }
    assertEquals(List.of(), problems);
  }

  /**
   * Evaluates a constant expression of the header: a number, a cast number, or ORs of left shifts of numbers and
   * constants defined before it ({@code ((P4J_ABI_VERSION_MAJOR << 16) | P4J_ABI_VERSION_MINOR)}).
   */
  static long evaluate(String expression, Map<String, Long> defined) {
    String value = expression.replaceAll("\\((u?int\\d+_t|int|long)\\)", "").replaceAll("[()\\s]", "");
    if (value.contains("|") || value.contains("<<") || value.matches("[A-Za-z_]\\w*")) {
      long result = 0;
      for (String term : value.split("\\|")) {
        String[] shift = term.split("<<");
        long operand = defined.containsKey(shift[0]) ? defined.get(shift[0]) : evaluate(shift[0]);
        result |= shift.length == 2 ? operand << evaluate(shift[1]) : operand;
      }
      return result;
    }
    return evaluate(expression);
  }

  /** Evaluates "1", "((int64_t)0x7ff4dead0badc0deLL)", "((int32_t)-0x0badc0de)". */
  static long evaluate(String expression) {
    String value = expression.replaceAll("\\((u?int\\d+_t|int|long)\\)", "").replaceAll("[()\\s]", "")
        .replaceAll("(?i)(ULL|LL|UL|L|U)$", "");
    boolean negative = value.startsWith("-");
    String digits = negative ? value.substring(1) : value;
    long magnitude = digits.toLowerCase().startsWith("0x")
        ? Long.parseUnsignedLong(digits.substring(2), 16)
        : Long.parseLong(digits);
    return negative ? -magnitude : magnitude;
  }

  @Test
  void structLayoutsMatchTheHeaderComments() {
    assertEquals(16, P4JAny.SIZE);
    assertEquals(0, P4JAny.TYPE_INDEX);
    assertEquals(4, P4JAny.SMALL_LEN);
    assertEquals(8, P4JAny.PAYLOAD);
    assertEquals(24, P4JObject.SIZE);
    assertEquals(16, P4JByteArray.SIZE);
    assertEquals(48, P4JErrorCell.LAYOUT.byteSize());
    assertEquals(24, P4JListCell.LAYOUT.byteSize());
    assertEquals(24, P4JMapCell.LAYOUT.byteSize());
    assertEquals(40, P4JFieldInfo.SIZE);
    assertEquals(48, P4JTypeInfo.LAYOUT.byteSize());
    assertEquals(40, P4JFunctionCell.LAYOUT.byteSize());
    assertEquals(32, P4JFunctionCell.TYPED_FORMS);
    assertEquals(24, P4JFunctionCell.SCALARS_ENTRY);
    assertEquals(80, P4JMethodInfo.LAYOUT.byteSize());
  }

  /**
   * Every struct layout the runtime reads or writes is the one the C++ compiler gave the header's struct: each
   * member's offset and size, and the struct's size, as native-core's abi_version_test records them in
   * {@code abi_wire_form.txt} (which that test keeps equal to what the headers compile to).
   */
  @Test
  void structLayoutsMatchWhatTheCompilerRecorded() throws IOException {
    String path = System.getProperty("packed4j.test.abiWireForm");
    assertTrue(path != null && Files.isRegularFile(Path.of(path)),
        "system property packed4j.test.abiWireForm must name abi_wire_form.txt, is " + path);
    Map<String, long[]> members = new TreeMap<>();
    Map<String, Long> sizes = new TreeMap<>();
    Pattern member = Pattern.compile("(\\w+\\.\\w+) @(\\d+) size (\\d+)");
    Pattern size = Pattern.compile("sizeof (\\w+) (\\d+)");
    for (String line : Files.readAllLines(Path.of(path))) {
      Matcher m = member.matcher(line);
      if (m.matches()) {
        members.put(m.group(1), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
      }
      Matcher s = size.matcher(line);
      if (s.matches()) {
        sizes.put(s.group(1), Long.parseLong(s.group(2)));
      }
    }
    List<java.lang.foreign.StructLayout> layouts = List.of(P4JAny.LAYOUT, P4JObject.LAYOUT, P4JByteArray.LAYOUT,
        P4JErrorCell.LAYOUT, P4JListCell.LAYOUT, P4JMapCell.LAYOUT, P4JFieldInfo.LAYOUT, P4JTypeInfo.LAYOUT,
        P4JFunctionCell.LAYOUT, P4JMethodInfo.LAYOUT, DLTensor.LAYOUT, DLManagedTensor.VERSIONED_LAYOUT);
    List<String> problems = new ArrayList<>();
    for (java.lang.foreign.StructLayout layout : layouts) {
      String struct = layout.name().orElseThrow();
      // The record names the NDArray cell, which is a DLTensor, by the cell.
      Long recorded = sizes.get(struct.equals("DLTensor") ? "P4JNDArrayCell" : struct);
      if (recorded == null || recorded != layout.byteSize()) {
        problems.add("sizeof " + struct + ": Java " + layout.byteSize() + ", recorded " + recorded);
      }
      long offset = 0;
      for (MemoryLayout element : layout.memberLayouts()) {
        if (element.name().isPresent()) {
          String name = struct + "." + element.name().get();
          long[] recordedMember = members.get(name);
          if (recordedMember == null || recordedMember[0] != offset || recordedMember[1] != element.byteSize()) {
            problems.add(name + ": Java @" + offset + " size " + element.byteSize() + ", recorded "
                + (recordedMember == null ? "nothing" : "@" + recordedMember[0] + " size " + recordedMember[1]));
          }
        }
        offset += element.byteSize();
      }
    }
    assertEquals(List.of(), problems);
    assertEquals(DLTensor.SIZE + 16, DLManagedTensor.SIZE, "DLManagedTensor: the tensor, manager_ctx, deleter");
  }

  @Test
  void theParserSeesFunctionPointerParameters() {
    HeaderFunction create = functions.get("P4JFunctionCreate");
    assertEquals(List.of("void*", "P4JSafeCallType", "(*)", "P4JObjectHandle*"), create.parameters());
    assertEquals(-0x0badc0de, evaluate("((int32_t)-0x0badc0de)"));
    assertEquals(0x7ffcdead0badc0deL, evaluate("((int64_t)0x7ffcdead0badc0deLL)"));
  }

  @Test
  void everyHeaderFunctionIsExportedByTheLoadedLibraryAndEveryBindingHasItsDescriptor()
      throws ReflectiveOperationException {
    if (!TestLibraries.coreAvailable()) {
      fail("libpacked4j.so is not available to the tests: " + TestLibraries.coreProblem());
    }
    List<String> problems = new ArrayList<>();
    for (HeaderFunction function : functions.values()) {
      if (NativeLibraries.core().find(function.name()).isEmpty()) {
        problems.add(function.name() + " is not exported by libpacked4j.so");
      }
      if (bindings(function.name()).isEmpty()) {
        continue; // the runtime does not call it
      }
      MemorySegment address = (MemorySegment) CApi.class.getMethod(function.name() + "$address").invoke(null);
      FunctionDescriptor descriptor =
          (FunctionDescriptor) CApi.class.getMethod(function.name() + "$descriptor").invoke(null);
      if (address.address() == 0) {
        problems.add(function.name() + " resolves to NULL");
      }
      List<Class<?>> carriers = descriptor.argumentLayouts().stream().map(CApiBindingTest::layoutCarrier).toList();
      List<Class<?>> expected = function.parameters().stream().map(CApiBindingTest::carrier).toList();
      if (!carriers.equals(expected)) {
        problems.add(function.name() + " descriptor " + descriptor + " does not match " + expected);
      }
    }
    assertEquals(List.of(), problems);
    assertFalse(functions.isEmpty());
  }

  private static Class<?> layoutCarrier(MemoryLayout layout) {
    return layout instanceof java.lang.foreign.ValueLayout value ? value.carrier() : Object.class;
  }
}
