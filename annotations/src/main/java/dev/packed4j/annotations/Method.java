package dev.packed4j.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds a Java method to a method or static method that a native type's object definition registers
 * ({@code P4J_REGISTER_OBJECT_DEF(...).def("add", ...)} or {@code .def_static("parse", ...)}).
 *
 * <p>On an {@link Object @Object} interface it marks a <em>method</em>: the call passes the object first, then the
 * arguments. A method with parameters is a method without the annotation (unless it is a setter: one parameter,
 * {@code void}, named like a getter or marked {@link Field @Field}); a method without parameters is a getter unless
 * marked {@code @Method}. The value renames the native method when it differs from the Java name.
 *
 * <pre>{@code
 * @Object("Calculator")
 * public interface CalculatorRef extends AutoCloseable {
 *   long price();                  // getter
 *   void price(long price);        // setter of the mutable field price
 *   long add(long a, long b);      // method "add"
 *   @Method String describe();     // method "describe", without parameters
 * }
 * }</pre>
 *
 * <p>On a method of an ordinary bound interface (one with {@link Global @Global} methods) it calls a <em>static
 * method</em> of the type whose {@code @Object} interface {@link #of()} names:
 *
 * <pre>{@code
 * public interface Calculators {
 *   @Method(of = CalculatorRef.class, value = "parse") CalculatorRef parse(String text);
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Method {
  /** {@return the registered name of the native method; empty (the default) for the Java method's name} */
  String value() default "";

  /**
   * {@return on a bound interface, the {@code @Object} interface of the type whose static method is called; left at
   * its default ({@code void.class}) on an {@code @Object} interface, whose own type's methods it calls}
   */
  Class<?> of() default void.class;
}
