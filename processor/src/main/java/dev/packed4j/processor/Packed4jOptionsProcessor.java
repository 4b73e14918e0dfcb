package dev.packed4j.processor;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.Report;
import dev.packed4j.processor.diagnostics.Reporter;
import dev.packed4j.processor.validate.AnnotationNames;
import dev.packed4j.processor.validate.GlobalValidator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
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
        reportGlobalsOfAnnotationTypes(round, reporter);
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

  /**
   * Reports {@code @Global} on an element of an annotation type where the compiler does not show it to processors, so
   * that the error javac gives (through {@link Packed4jProcessor}) comes under ECJ too: ECJ leaves annotations on an
   * annotation type's elements out of {@code getElementsAnnotatedWith}, and this processor, which claims every
   * annotation type, still runs and finds them through the root elements.
   */
  private void reportGlobalsOfAnnotationTypes(RoundEnvironment round, Reporter reporter) {
    TypeElement global = processingEnv.getElementUtils().getTypeElement(AnnotationNames.GLOBAL);
    if (global == null) {
      return;
    }
    Set<? extends Element> shown = round.getElementsAnnotatedWith(global);
    List<TypeElement> types = new ArrayList<>(ElementFilter.typesIn(round.getRootElements()));
    for (int i = 0; i < types.size(); i++) { // nested types are appended as they are met
      TypeElement type = types.get(i);
      types.addAll(ElementFilter.typesIn(type.getEnclosedElements()));
      if (type.getKind() != ElementKind.ANNOTATION_TYPE) {
        continue;
      }
      for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
        if (!shown.contains(method) && carries(method, AnnotationNames.GLOBAL)) {
          Report report = reporter.newReport();
          GlobalValidator.reportMisplacedGlobal(method, report);
        }
      }
    }
  }

  private static boolean carries(Element element, String annotationName) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(annotationName)) {
        return true;
      }
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
