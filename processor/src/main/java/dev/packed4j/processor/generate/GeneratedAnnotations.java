package dev.packed4j.processor.generate;

import com.squareup.javapoet.AnnotationSpec;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.TypeSpec;
import dev.packed4j.processor.model.Deprecation;
import java.util.Set;
import java.util.TreeSet;

/** The annotations every generated class carries, and those of a method implementing a deprecated one. */
final class GeneratedAnnotations {
  private GeneratedAnnotations() {}

  /**
   * Adds {@code @Generated} when the compilation can see it (a named module must read java.compiler), and
   * suppresses the warnings ({@code suppressedWarnings}: "deprecation", "removal") that naming deprecated API
   * raises: the user chose that API, the generated code only follows. Only those: ECJ warns about a suppression
   * that suppresses nothing.
   */
  static void add(TypeSpec.Builder type, boolean generatedAvailable, Set<String> suppressedWarnings) {
    if (generatedAvailable) {
      type.addAnnotation(
          AnnotationSpec.builder(RuntimeClasses.GENERATED)
              .addMember("value", "$S", RuntimeClasses.PROCESSOR)
              .build());
    }
    if (!suppressedWarnings.isEmpty()) {
      type.addAnnotation(suppress(suppressedWarnings));
    }
  }

  /**
   * Marks the implementation of a deprecated method deprecated too, so javac does not warn that it overrides one.
   * javac still warns about overriding a method deprecated for removal, which ECJ never does, so such an
   * implementation suppresses "removal" for javac, next to "all": ECJ does not check the tokens of a suppression
   * that holds "all" (javac does not know "all" and ignores it).
   */
  static void implementing(MethodSpec.Builder method, Deprecation deprecation) {
    switch (deprecation) {
      case NONE -> {}
      case DEPRECATED -> method.addAnnotation(Deprecated.class);
      case FOR_REMOVAL ->
          method
              .addAnnotation(AnnotationSpec.builder(Deprecated.class).addMember("forRemoval", "true").build())
              .addAnnotation(suppress(new TreeSet<>(Set.of("all", "removal"))));
    }
  }

  private static AnnotationSpec suppress(Set<String> warnings) {
    return AnnotationSpec.builder(SuppressWarnings.class)
        .addMember(
            "value",
            warnings.size() == 1
                ? CodeBlock.of("$S", warnings.iterator().next())
                : warnings.stream().map(w -> CodeBlock.of("$S", w)).collect(CodeBlock.joining(", ", "{", "}")))
        .build();
  }
}
