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
 * <p>Each abstract method without parameters reads the native field of the same name (see {@link Field} to
 * rename). {@code close()}, {@code typeKey()}, {@code toString()}, {@code equals} and {@code hashCode} are
 * provided by the runtime. An {@code @Object} interface may extend another one, mirroring the C++ parent type.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Object {
  /** {@return the native type key, for example {@code "Calculator"} or {@code "test.DerivedNode"}} */
  String value();
}
