package dev.packed4j.processor.model;

/**
 * An abstract method of an {@code @Object} interface that writes one mutable native field: one parameter,
 * {@code void}, named like a getter of the interface or marked {@code @Field}.
 *
 * @param name the Java method name
 * @param parameterName the Java parameter's name
 * @param fieldName the native field: the paired getter's field, or the {@code @Field} value
 * @param type one of int, long, double, boolean, String, an {@code @Object} interface or NativeObject
 * @param deprecation how the method is deprecated: its implementation repeats it
 */
public record Setter(String name, String parameterName, String fieldName, TypeModel type, Deprecation deprecation) {}
