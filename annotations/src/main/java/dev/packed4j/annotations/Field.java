package dev.packed4j.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the native field that a getter of an {@link Object @Object} interface reads, or a setter writes, when it
 * differs from the method name. On a one-parameter {@code void} method it also marks the method as a setter when
 * the interface has no getter of the same name.
 *
 * <pre>{@code
 * @Object("Calculator")
 * public interface CalculatorRef extends AutoCloseable {
 *   @Field("price") long priceInCents();
 *   @Field("price") void changePrice(long cents);
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Field {
  /** {@return the field name exactly as {@code VisitAttrs} passes it to {@code AttrVisitor::Visit}} */
  String value();
}
