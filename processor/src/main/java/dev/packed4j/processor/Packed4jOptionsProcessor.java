package dev.packed4j.processor;

import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

/**
 * Recognises packed4j's processor options in every compilation, so javac does not warn "The following options
 * were not recognized by any processor: '[packed4j.manifest]'".
 *
 * <p>javac counts an option as recognised only when a processor that ran supports it, and {@link
 * Packed4jProcessor} runs only in compilations holding packed4j's annotations: a build passing
 * {@code -Apacked4j.manifest} to every compilation (Maven's compiler plugin passes its {@code compilerArgs} to
 * the test sources' too) would warn for each one without them. This processor is offered every round (it
 * supports {@code "*"}) and supports the same options; it claims no annotation and generates nothing, so other
 * processors see every round as before.
 */
public final class Packed4jOptionsProcessor extends AbstractProcessor {

  /** The processor javac (or any compiler) finds through {@code META-INF/services}; it keeps no state. */
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
   * Does nothing.
   *
   * @param annotations the annotation types of the round, which it leaves to other processors
   * @param round the round
   * @return false: it claims no annotation
   */
  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    return false;
  }
}
