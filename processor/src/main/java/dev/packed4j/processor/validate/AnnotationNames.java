package dev.packed4j.processor.validate;

/** The packed4j annotations, by name: the processor reads them as mirrors, never as classes. */
public final class AnnotationNames {
  public static final String GLOBAL = "dev.packed4j.annotations.Global";
  public static final String OBJECT = "dev.packed4j.annotations.Object";
  public static final String FIELD = "dev.packed4j.annotations.Field";
  public static final String METHOD = "dev.packed4j.annotations.Method";
  public static final String CONSTRUCTOR = "dev.packed4j.annotations.Constructor";

  private AnnotationNames() {}
}
