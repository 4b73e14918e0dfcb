package dev.packed4j.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds an abstract interface method to a function registered by name in the native registry.
 *
 * <pre>{@code
 * public interface Calculator {
 *   @Global("calculator.MyAdd") int add(int a, int b);
 * }
 * Calculator calc = Packed4j.bind(Calculator.class);
 * }</pre>
 *
 * <p>The name is the one given to {@code P4J_REGISTER_GLOBAL} in C++: dot-separated segments, each a Java-like
 * identifier ({@code ns.sub.Name}). The annotation processor generates the implementation and rejects, at compile
 * time, names that are malformed or bound twice and parameter or return types that cannot cross the boundary.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Global {
  /** {@return the registered name of the native function, for example {@code "calculator.MyAdd"}} */
  String value();
}
