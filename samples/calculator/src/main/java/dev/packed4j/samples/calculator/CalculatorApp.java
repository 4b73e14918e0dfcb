package dev.packed4j.samples.calculator;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Registry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

/** Loads the calculator plugin and calls each of its functions through the generated binding. */
public final class CalculatorApp {
  private CalculatorApp() {}

  public static void main(String[] args) {
    if (args.length > 1) {
      System.err.println("usage: CalculatorApp [path to libcalculator.so]");
      System.exit(2);
    }
    if (args.length == 1) {
      Packed4j.loadLibrary(Path.of(args[0]));
    } else {
      Packed4j.loadLibrary("calculator"); // META-INF/native/linux-x86_64/libcalculator.so on the class path
    }
    Calculator calc = Packed4j.bind(Calculator.class);

    System.out.println("registered: " + Registry.list().stream().filter(n -> n.startsWith("calculator.")).toList());
    int added = calc.add(1, 2);
    System.out.println("MyAdd(1, 2) = " + added);
    System.out.println("Mul(6, 7) = " + calc.multiply(6, 7));
    System.out.println("Divide(1, 8) = " + calc.divide(1, 8));
    System.out.println("IsEven(42) = " + calc.isEven(42));
    System.out.println("Describe(\"casio\", 100) = " + calc.describe("casio", 100));
    byte[] checksum = calc.checksum("packed4j".getBytes(StandardCharsets.UTF_8));
    System.out.println("Checksum(\"packed4j\") = " + HexFormat.of().formatHex(checksum));
    System.out.println("signature of calculator.Mul: " + Registry.global("calculator.Mul").signature());

    try (CalculatorRef casio = calc.create("casio", 100);
        CalculatorRef hp = calc.create("hp", 250)) {
      System.out.println("CreateCalculator(\"casio\", 100) = " + casio);
      System.out.println("brand = " + casio.brand() + ", price = " + casio.price());
      System.out.println("CalculatorGetBrand = " + calc.brandOf(hp));
      System.out.println("Sum([0, 1, 2, 3, 4, 5]) = " + calc.sum(List.of(0L, 1L, 2L, 3L, 4L, 5L)));
      System.out.println("PrintCalculators([casio, hp]) prints from C++:");
      System.out.flush();
      calc.printCalculators(List.of(casio, hp));

      // Objects as data: saved with every field, loaded as new objects, compared by structure, copied deeply.
      String saved = Packed4j.toJson(casio);
      System.out.println("toJson(casio) = " + saved);
      try (CalculatorRef loaded = Packed4j.fromJson(saved, CalculatorRef.class);
          CalculatorRef copy = Packed4j.deepCopy(hp)) {
        System.out.println("fromJson(...) = " + loaded + ", structurally equal: "
            + Packed4j.structuralEquals(casio, loaded) + ", the same object: " + casio.equals(loaded));
        System.out.println("deepCopy(hp) = " + copy + ", hash equal: "
            + (Packed4j.structuralHash(copy) == Packed4j.structuralHash(hp)));
      }
    }

    // Objects as classes: built by the type's constructor, changed by a setter, asked through its methods.
    try (CalculatorRef sharp = calc.newCalculator("sharp", 80);
        CalculatorRef parsed = calc.parse("texas:120")) {
      sharp.price(90);
      System.out.println("newCalculator(\"sharp\", 80) after price(90): " + sharp.describe()
          + ", sharp.add(2, 3) = " + sharp.add(2, 3));
      System.out.println("parse(\"texas:120\") = " + parsed);
    }

    try {
      calc.divide(1, 0);
    } catch (Packed4jException e) {
      System.out.println("Divide(1, 0) failed as it should: kind=" + e.kind() + ", message=" + e.nativeMessage());
    }
    try {
      Registry.global("calculator.MyAdd").invoke("one", 2);
    } catch (Packed4jException e) {
      System.out.println("MyAdd(\"one\", 2) failed as it should: " + e.getMessage());
    }
  }
}
