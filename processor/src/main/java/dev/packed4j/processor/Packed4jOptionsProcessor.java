package dev.packed4j.processor;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.Reporter;
import dev.packed4j.processor.validate.AnnotationNames;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Recognises packed4j's processor options in every compilation, so javac does not warn "The following options
 * were not recognized by any processor: '[packed4j.manifest]'", and keeps the object-type index true in
 * compilations {@link Packed4jProcessor} does not run in.
 *
 * <p>javac counts an option as recognised only when a processor that ran supports it, and {@link
 * Packed4jProcessor} runs only in compilations holding packed4j's annotations: a build passing
 * {@code -Apacked4j.manifest} to every compilation (Maven's compiler plugin passes its {@code compilerArgs} to
 * the test sources' too) would warn for each one without them. This processor is offered every round (it
 * supports {@code "*"}) and supports the same options; it claims no annotation, so other processors see every
 * round as before.
 *
 * <p>An incremental build may delete an {@code @Object} interface (and, with it, its generated class) and then
 * compile only sources without packed4j's annotations. After the last round of such a compilation this processor
 * drops the entries of classes that no longer exist from {@code META-INF/packed4j/object-types.properties} in
 * the class output; when every entry is current it writes nothing. It generates nothing else.
 */
public final class Packed4jOptionsProcessor extends AbstractProcessor {
  /** The annotations that make javac run {@link Packed4jProcessor}, which then keeps the index itself. */
  private static final List<String> PACKED4J_ANNOTATIONS =
      List.of(AnnotationNames.GLOBAL, AnnotationNames.OBJECT, AnnotationNames.FIELD, Packed4jProcessor.GENERATED);

  /** Whether an element of this compilation carries one of {@link #PACKED4J_ANNOTATIONS}. */
  private boolean packed4jRuns;

  /** The processor javac (or any compiler) finds through {@code META-INF/services}. */
  public Packed4jOptionsProcessor() {}

  /**
   * {@link Packed4jProcessor#MANIFEST_OPTION} and {@link Packed4jProcessor#VERBOSE_OPTION}.
   *
   * @return the options packed4j reads
   */
  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(Packed4jProcessor.MANIFEST_OPTION, Packed4jProcessor.VERBOSE_OPTION);
  }

  /**
   * Every annotation type, so javac runs this processor in every compilation.
   *
   * @return {@code "*"}
   */
  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of("*");
  }

  /**
   * The newest the compiler knows: this processor reads no source.
   *
   * @return {@link SourceVersion#latestSupported()}
   */
  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  /**
   * Notes whether {@link Packed4jProcessor} runs in this compilation, and after the last round, if it did not,
   * drops the entries of classes that no longer exist from the object-type index.
   *
   * @param annotations the annotation types of the round, which it leaves to other processors
   * @param round the round
   * @return false: it claims no annotation
   */
  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    Reporter reporter = new Reporter(processingEnv.getMessager());
    try {
      if (!round.processingOver()) {
        packed4jRuns |= holdsPacked4jAnnotation(round);
      } else if (!packed4jRuns) {
        ObjectTypeIndexFile.prune(processingEnv, reporter);
      }
    } catch (Throwable failure) {
      StringWriter trace = new StringWriter();
      failure.printStackTrace(new PrintWriter(trace));
      reporter.print(Diagnostic.INTERNAL, null, "the object-type index", trace);
    }
    return false;
  }

  /** Whether an element of {@code round} carries an annotation that makes javac run {@link Packed4jProcessor}. */
  private boolean holdsPacked4jAnnotation(RoundEnvironment round) {
    Elements elements = processingEnv.getElementUtils();
    for (String name : PACKED4J_ANNOTATIONS) {
      TypeElement annotation = elements.getTypeElement(name);
      if (annotation != null && !round.getElementsAnnotatedWith(annotation).isEmpty()) {
        return true;
      }
    }
    return false;
  }
}
