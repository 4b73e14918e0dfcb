package dev.packed4j.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a Java view of a native object type, named by the type key its C++ class declares in
 * {@code static constexpr const char* _type_key}.
 *
 * <pre>{@code
 * @Object("Calculator")
 * public interface CalculatorRef extends AutoCloseable {
 *   String brand();
 *   long price();
 *   @Override void close();
 * }
 * }</pre>
 *
 * <p>What an abstract method does follows from its shape:
 *
 * <ul>
 *   <li>a <em>getter</em> has no parameters and returns a value: it reads the native field of its name (see
 *       {@link Field} to rename);
 *   <li>a <em>setter</em> has one parameter and returns {@code void}, and is named like a getter of the interface
 *       (or carries {@link Field @Field}): it writes that field, which the type's object definition must declare
 *       with {@code def_rw};
 *   <li>a <em>method</em> is any other method with parameters, or one marked {@link Method @Method}: it calls the
 *       method the type's object definition registers under its name, with the object first.
 * </ul>
 *
 * <p>Constructors and static methods of the type are declared on an ordinary bound interface, with
 * {@link Constructor @Constructor} and {@link Method#of() @Method(of = ...)}. {@code close()}, {@code typeKey()},
 * {@code toString()}, {@code equals} and {@code hashCode} are provided by the runtime. An {@code @Object} interface
 * may extend another one, mirroring the C++ parent type: it inherits the parent's getters, setters and methods, and
 * a method the child's type overrides in C++ calls the override.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Object {
  /** {@return the native type key, for example {@code "Calculator"} or {@code "test.DerivedNode"}} */
  String value();
}
