package dev.packed4j.processor.model;

/** A parameter of a {@code @Global} method, named as in the interface. */
public record Parameter(String name, TypeModel type) {}
