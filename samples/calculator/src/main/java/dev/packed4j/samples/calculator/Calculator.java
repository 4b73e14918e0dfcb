package dev.packed4j.samples.calculator;

import dev.packed4j.annotations.Constructor;
import dev.packed4j.annotations.Global;
import dev.packed4j.annotations.Method;
import java.util.List;

/** The calculator plugin's functions, as Java sees them. packed4j-processor generates the implementation. */
public interface Calculator {
  @Global("calculator.MyAdd")
  int add(int a, int b);

  @Global("calculator.Mul")
  long multiply(long a, long b);

  @Global("calculator.Divide")
  double divide(double a, double b);

  @Global("calculator.IsEven")
  boolean isEven(long value);

  @Global("calculator.Describe")
  String describe(String brand, long price);

  @Global("calculator.Checksum")
  byte[] checksum(byte[] data);

  @Global("calculator.CreateCalculator")
  CalculatorRef create(String brand, long price);

  @Global("calculator.CalculatorGetBrand")
  String brandOf(CalculatorRef calculator);

  @Global("calculator.Sum")
  long sum(List<Long> values);

  @Global("calculator.PrintCalculators")
  void printCalculators(List<CalculatorRef> calculators);

  /** The constructor the calculator's object definition registers ({@code def(init<std::string, int>())}). */
  @Constructor
  CalculatorRef newCalculator(String brand, int price);

  /** A static method of the calculator type ({@code def_static("parse", ...)}). */
  @Method(of = CalculatorRef.class)
  CalculatorRef parse(String text);
}
