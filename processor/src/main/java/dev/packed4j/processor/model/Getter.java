package dev.packed4j.processor.model;

/**
 * An abstract method of an {@code @Object} interface that reads one native field.
 *
 * @param name the Java method name
 * @param fieldName the native field, the method name unless {@code @Field} renames it
 * @param type one of int, long, double, boolean, String, an {@code @Object} interface or NativeObject
 * @param deprecation how the method is deprecated: its implementation repeats it
 */
public record Getter(String name, String fieldName, TypeModel type, Deprecation deprecation) {}
