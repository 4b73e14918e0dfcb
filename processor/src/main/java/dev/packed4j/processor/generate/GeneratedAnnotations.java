package dev.packed4j.processor.generate;

import com.squareup.javapoet.AnnotationSpec;
import com.squareup.javapoet.TypeSpec;

/** The annotations every generated class carries. */
final class GeneratedAnnotations {
  private GeneratedAnnotations() {}

  /**
   * Adds {@code @Generated} when the compilation can see it (a named module must read java.compiler), and, when
   * the class implements or names deprecated API, suppresses the warnings doing so would raise: the user chose
   * that API, the generated code only follows.
   */
  static void add(TypeSpec.Builder type, boolean generatedAvailable, boolean usesDeprecated) {
    if (generatedAvailable) {
      type.addAnnotation(
          AnnotationSpec.builder(RuntimeClasses.GENERATED)
              .addMember("value", "$S", RuntimeClasses.PROCESSOR)
              .build());
    }
    if (usesDeprecated) {
      type.addAnnotation(
          AnnotationSpec.builder(SuppressWarnings.class)
              .addMember("value", "{$S, $S}", "deprecation", "removal")
              .build());
    }
  }
}
