package dev.packed4j.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds a method of an ordinary bound interface to the constructor that a native type's object definition
 * registers ({@code P4J_REGISTER_OBJECT_DEF(...).def(init<std::string, int64_t>())}). The method returns the
 * {@link Object @Object} interface of the type it constructs; its parameters are the constructor's.
 *
 * <pre>{@code
 * public interface Calculators {
 *   @Constructor CalculatorRef create(String brand, long price);
 * }
 *
 * try (CalculatorRef calc = Packed4j.bind(Calculators.class).create("casio", 100)) {
 *   calc.add(1, 2);
 * }
 * }</pre>
 *
 * <p>The new object is owned by the caller: close it (or let its {@code Cleaner} release it). Constructors are not
 * inherited: a child type constructs with its own.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Constructor {}
