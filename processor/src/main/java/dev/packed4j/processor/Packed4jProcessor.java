package dev.packed4j.processor;

import com.squareup.javapoet.JavaFile;
import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.Report;
import dev.packed4j.processor.diagnostics.Reporter;
import dev.packed4j.processor.generate.BindingGenerator;
import dev.packed4j.processor.generate.ExportGenerator;
import dev.packed4j.processor.generate.ObjectGenerator;
import dev.packed4j.processor.generate.ObjectTypeIndex;
import dev.packed4j.processor.manifest.ManifestException;
import dev.packed4j.processor.manifest.NativeManifest;
import dev.packed4j.processor.model.QualifiedName;
import dev.packed4j.processor.validate.AnnotationNames;
import dev.packed4j.processor.validate.Validation;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.annotation.processing.Filer;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.JavaFileObject;

/**
 * Generates the bindings of packed4j: for each interface with {@code @Global} methods a {@code Packed4j_<Name>}
 * class implementing it through the runtime's call frames, and for each {@code @Object} interface a
 * {@code Packed4j_<Name>} subclass of {@code ObjectRef} reading its native fields.
 *
 * <p>Each round validates what it can (reporting through the catalog in {@link Diagnostic}), builds a model, and
 * generates from it. After the last round it writes {@value ObjectTypeIndex#RESOURCE}, the index by which the
 * runtime finds the generated class of a type key (in a compilation without {@code @Object} interfaces it only
 * drops the entries of classes that no longer exist). An interface whose signatures use a type that does not
 * resolve yet waits for a later round; what still does not resolve after the last round is reported. No exception
 * escapes into javac: a failure is reported as {@code [P4J-INTERNAL]} with its stack trace, on the interface being
 * processed.
 */
public final class Packed4jProcessor extends AbstractProcessor {
  static final String GENERATED = "javax.annotation.processing.Generated";

  /** The processor javac (or any compiler) finds through {@code META-INF/services}; it keeps no state yet. */
  public Packed4jProcessor() {}

  /**
   * The processor option naming the manifest(s) of the native side to check declarations against, as written by
   * {@code packed4j describe <library.so> --json <file>}; several files are separated by the platform's path
   * separator ({@code :} on Linux).
   */
  public static final String MANIFEST_OPTION = "packed4j.manifest";

  /**
   * The processor option that turns on notes: {@code -Apacked4j.verbose=true} notes each global the manifest
   * records without a signature ({@code P4J-NATIVE-UNTYPED}), and a compilation given no manifest
   * ({@code P4J-MANIFEST-UNSET}). Off by default: a build's output should hold what needs acting on.
   */
  public static final String VERBOSE_OPTION = "packed4j.verbose";

  /** Interfaces waiting for a type another processor generates, by canonical name, and what kind they are. */
  private final Map<String, Kind> deferred = new LinkedHashMap<>();

  /** The @Object interfaces generated so far, for the index written after the last round. */
  private final ObjectTypeIndex objectTypeIndex = new ObjectTypeIndex();

  /** Canonical names of those interfaces: the index's originating elements. */
  private final Set<String> indexedInterfaces = new LinkedHashSet<>();

  /** Why the manifest given cannot be used, until it is reported (once, in the first round). */
  private Diagnostic manifestProblem;

  private String manifestProblemText;

  /** The names the manifests register twice, until they are reported (once, in the first round). */
  private List<NativeManifest.Duplicate> manifestDuplicates = List.of();

  /** Whether no manifest was given and -Apacked4j.verbose asks to be told, until it is (once). */
  private boolean noteManifestUnset;

  /** What the note says of an option that is a build property nobody set, such as {@code ${packed4j.manifest}}. */
  private String manifestUnsetDetail = "";

  /** A build tool's property expression left as text: Maven passes {@code ${name}} so when nothing set the name. */
  private static final Pattern UNEXPANDED_PROPERTY = Pattern.compile("\\$\\{[^}]*}");

  private Reporter reporter;
  private Validation validation;
  private Elements elements;
  private final BindingGenerator bindingGenerator = new BindingGenerator();
  private final ExportGenerator exportGenerator = new ExportGenerator();
  private final ObjectGenerator objectGenerator = new ObjectGenerator();

  /** What is generated for an interface. */
  private enum Kind {
    /** An interface with {@code @Global} methods: a binding. */
    BINDING,
    /** An {@code @Object} interface: an ObjectRef subclass. */
    OBJECT,
    /** A class with static {@code @Global} methods: Java functions exported, and their registrar. */
    EXPORTS
  }

  @Override
  public synchronized void init(ProcessingEnvironment processingEnv) {
    super.init(processingEnv);
    this.reporter = new Reporter(processingEnv.getMessager());
    this.elements = processingEnv.getElementUtils();
    boolean verbose = Boolean.parseBoolean(processingEnv.getOptions().get(VERBOSE_OPTION));
    String manifestOption = processingEnv.getOptions().get(MANIFEST_OPTION);
    if (manifestOption != null && UNEXPANDED_PROPERTY.matcher(manifestOption.trim()).matches()) {
      // -Apacked4j.manifest=${packed4j.manifest} of a pom whose describe goal did not run (mvn compiler:compile, an
      // IDE's own build): no manifest, as docs/guide.md ("IDEs") says, not a file of that name.
      manifestUnsetDetail = " is " + manifestOption.trim() + ", a build property nothing set: packed4j-maven-plugin's"
          + " describe goal, which sets it, did not run";
      manifestOption = null;
    }
    this.noteManifestUnset = verbose && (manifestOption == null || manifestOption.isBlank());
    this.validation = validation(manifestOption, verbose);
  }

  /** Validation checking against the manifest named by the option, when there is one and it can be used. */
  private Validation validation(String manifestOption, boolean verbose) {
    if (manifestOption == null || manifestOption.isBlank()) {
      return new Validation(elements, processingEnv.getTypeUtils());
    }
    List<Path> files = new ArrayList<>();
    for (String file : manifestOption.split(Pattern.quote(File.pathSeparator))) {
      if (!file.isBlank()) {
        files.add(Path.of(file.trim()));
      }
    }
    try {
      NativeManifest manifest = NativeManifest.read(files);
      manifestDuplicates = manifest.duplicates();
      String names = files.stream().map(f -> f.getFileName().toString()).collect(Collectors.joining(", "));
      return new Validation(elements, processingEnv.getTypeUtils(), manifest, names, verbose);
    } catch (ManifestException e) {
      manifestProblem = e.wrongVersion() ? Diagnostic.MANIFEST_VERSION : Diagnostic.MANIFEST_UNREADABLE;
      manifestProblemText = e.getMessage();
      return new Validation(elements, processingEnv.getTypeUtils());
    }
  }

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(MANIFEST_OPTION, VERBOSE_OPTION);
  }

  /**
   * The packed4j annotations, and {@code @Generated}. javac's {@code -Xlint:processing} warns about every
   * annotation no processor claims, and the generated classes carry {@code @Generated}: claiming it keeps a build
   * with {@code -Xlint:all -Werror} clean.
   */
  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(AnnotationNames.GLOBAL, AnnotationNames.OBJECT, AnnotationNames.FIELD, AnnotationNames.METHOD,
        AnnotationNames.CONSTRUCTOR, GENERATED);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    try {
      if (round.processingOver()) {
        reportStillDeferred();
        writeObjectTypeIndex();
      } else {
        processRound(round);
      }
    } catch (Throwable failure) {
      reporter.print(Diagnostic.INTERNAL, null, "a processing round", stackTrace(failure));
    }
    // The packed4j annotations mean nothing to other processors; claiming them (and @Generated, see
    // getSupportedAnnotationTypes) keeps -Xlint:processing quiet.
    return true;
  }

  private void processRound(RoundEnvironment round) {
    if (manifestProblem != null) {
      // One error for the whole compilation, on no element: the problem is in a file, not in the sources.
      reporter.print(manifestProblem, null, manifestProblemText);
      manifestProblem = null;
    }
    for (NativeManifest.Duplicate duplicate : manifestDuplicates) {
      reporter.print(Diagnostic.MANIFEST_DUPLICATE, null, duplicate.what(), duplicate.name(), duplicate.first(),
          duplicate.firstShape(), duplicate.second(), duplicate.secondShape());
    }
    manifestDuplicates = List.of();
    if (noteManifestUnset) {
      reporter.print(Diagnostic.MANIFEST_UNSET, null, manifestUnsetDetail);
      noteManifestUnset = false;
    }
    // Elements do not survive a round: interfaces deferred earlier are looked up again by name.
    Map<TypeElement, Kind> pending = new LinkedHashMap<>();
    for (Map.Entry<String, Kind> entry : deferred.entrySet()) {
      TypeElement type = elements.getTypeElement(entry.getKey());
      if (type != null) {
        pending.put(type, entry.getValue());
      }
    }
    deferred.clear();

    for (Element root : round.getRootElements()) {
      noteTypes(root);
    }
    for (Element element : annotatedWith(round, AnnotationNames.OBJECT)) {
      if (element instanceof TypeElement type) {
        pending.putIfAbsent(type, Kind.OBJECT);
        validation.state().noteObjectInterface(type);
      }
    }
    for (Element element : annotatedWith(round, AnnotationNames.GLOBAL)) {
      if (!(element instanceof ExecutableElement method)) {
        continue;
      }
      Element owner = method.getEnclosingElement();
      if (owner.getKind() == ElementKind.CLASS && method.getModifiers().contains(Modifier.STATIC)) {
        pending.putIfAbsent((TypeElement) owner, Kind.EXPORTS);
      } else if (owner.getKind() != ElementKind.INTERFACE) {
        guard(method, () -> validation.globals().reportMisplaced(method, reporter.newReport()));
      } else {
        // An @Object interface declaring @Global methods stays an OBJECT: its validation reports them.
        pending.putIfAbsent((TypeElement) owner, Kind.BINDING);
      }
    }
    for (String member : List.of(AnnotationNames.CONSTRUCTOR, AnnotationNames.METHOD)) {
      for (Element element : annotatedWith(round, member)) {
        if (!(element instanceof ExecutableElement method)) {
          continue;
        }
        Element owner = method.getEnclosingElement();
        if (owner.getKind() != ElementKind.INTERFACE || !method.getModifiers().contains(Modifier.ABSTRACT)) {
          guard(method, () -> validation.globals().reportMisplacedMember(method, reporter.newReport()));
        } else if (!hasAnnotation(owner, AnnotationNames.OBJECT)) {
          pending.putIfAbsent((TypeElement) owner, Kind.BINDING);
        }
      }
    }
    for (Element element : annotatedWith(round, AnnotationNames.FIELD)) {
      guard(element, () -> validation.fields().check(element, reporter.newReport()));
    }
    // By name, not in the order the round lists them, which the API leaves open (javac: source order; ECJ: not):
    // a key declared twice is then reported on the same interface under every compiler.
    List<Map.Entry<TypeElement, Kind>> ordered = new ArrayList<>(pending.entrySet());
    ordered.sort(Comparator.comparing(entry -> entry.getKey().getQualifiedName().toString()));
    for (Map.Entry<TypeElement, Kind> entry : ordered) {
      TypeElement type = entry.getKey();
      String name = type.getQualifiedName().toString();
      if (!name.isEmpty() && !validation.readiness().isReady(type)) {
        deferred.put(name, entry.getValue());
        continue;
      }
      guard(type, () -> process(type, entry.getValue()));
    }
  }

  private static boolean hasAnnotation(Element element, String name) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(name)) {
        return true;
      }
    }
    return false;
  }

  private void process(TypeElement type, Kind kind) {
    Report report = reporter.newReport();
    boolean generatedAvailable = generatedAnnotationAvailable(type);
    switch (kind) {
      case OBJECT ->
          validation
              .objects()
              .validate(type, report)
              .ifPresent(
                  object -> {
                    QualifiedName generated = object.name().generatedClass();
                    if (write(objectGenerator.generate(object, generatedAvailable), generated, type, report)) {
                      objectTypeIndex.put(object.typeKey(), generated.canonical());
                      indexedInterfaces.add(type.getQualifiedName().toString());
                    }
                  });
      case EXPORTS ->
          validation
              .globals()
              .validateExports(type, report)
              .ifPresent(
                  exports ->
                      write(
                          exportGenerator.generate(exports, generatedAvailable),
                          exports.name().generatedClass(),
                          type,
                          report));
      case BINDING ->
          validation
              .globals()
              .validate(type, report)
              .ifPresent(
                  binding ->
                      write(
                          bindingGenerator.generate(binding, generatedAvailable),
                          binding.name().generatedClass(),
                          type,
                          report));
    }
  }

  /** Writes a generated class; returns false (having reported why) if it could not. */
  private boolean write(JavaFile file, QualifiedName name, TypeElement origin, Report report) {
    try {
      JavaFileObject source = processingEnv.getFiler().createSourceFile(name.canonical(), origin);
      try (Writer writer = source.openWriter()) {
        file.writeTo(writer);
      }
      return true;
    } catch (IOException e) {
      report.on(
          origin,
          Diagnostic.GENERATED_WRITE,
          name.canonical(),
          origin.getQualifiedName(),
          e.getMessage(),
          whyTaken(name, origin));
      return false;
    }
  }

  /**
   * Why a generated class's name is taken: by packed4j's own output of an earlier build that is among the sources
   * again (an incremental build that did not delete it), or by a type of the user's.
   */
  private String whyTaken(QualifiedName name, TypeElement origin) {
    TypeElement existing = elements.getTypeElement(name.canonical());
    // @Generated is kept in sources only: a class file of an earlier build shows its origin by implementing it.
    if (existing != null && (generatedByPacked4j(existing) || implementsOrigin(existing, origin))) {
      return "The class there is packed4j's own output of an earlier build: a stale generated file, compiled again"
          + " as a source, or (ECJ, which does not replace it) a class an earlier build left in the output directory"
          + " on the class path. Delete the generated sources and build again (mvn clean; in Eclipse Project > Clean;"
          + " in IntelliJ Build > Rebuild Project; with Gradle, clean), or remove " + name.canonical() + " from the"
          + " generated sources directory (Maven: target/generated-sources/annotations) and its class from the output";
    }
    return "If another type has that name, rename it: packed4j names the class generated for Outer.Inner"
        + " Packed4j_Outer_Inner";
  }

  /**
   * After the last round, writes the index of the @Object interfaces' generated classes, merged with the one an
   * earlier compilation left in the output (as AutoService merges service files): a partial recompilation keeps
   * the entries of the interfaces it did not see. An entry whose class is gone (the build tool deleted it with
   * its interface, as Gradle and IntelliJ delete what a deleted source produced) or that this compilation lists
   * under another key is dropped, so the index stays true across incremental builds.
   */
  private void writeObjectTypeIndex() {
    if (objectTypeIndex.isEmpty()) {
      // No @Object interface in this compilation: an earlier index loses only the entries of deleted interfaces.
      guard(null, () -> ObjectTypeIndexFile.prune(processingEnv, reporter));
      return;
    }
    Filer filer = processingEnv.getFiler();
    TypeElement[] origins =
        indexedInterfaces.stream()
            .map(elements::getTypeElement)
            .filter(Objects::nonNull)
            .toArray(TypeElement[]::new);
    Element first = origins.length > 0 ? origins[0] : null;
    guard(
        first,
        () -> {
          String previous = ObjectTypeIndexFile.previous(filer);
          if (previous != null) {
            objectTypeIndex.merge(previous, generated -> elements.getTypeElement(generated) != null);
          }
          try {
            ObjectTypeIndexFile.write(filer, objectTypeIndex, origins);
          } catch (IOException e) {
            reporter.print(
                Diagnostic.GENERATED_WRITE,
                first,
                ObjectTypeIndex.RESOURCE,
                "the @Object interfaces " + String.join(", ", indexedInterfaces),
                e.getMessage(),
                "Check that the class output directory is writable");
          }
        });
  }

  /** Whether {@code type} implements or extends {@code origin}, as the class generated for it does. */
  private boolean implementsOrigin(TypeElement type, TypeElement origin) {
    Types types = processingEnv.getTypeUtils();
    return types.isAssignable(types.erasure(type.asType()), types.erasure(origin.asType()));
  }

  /** Whether {@code type} carries {@code @Generated("dev.packed4j.processor.Packed4jProcessor")}. */
  private static boolean generatedByPacked4j(TypeElement type) {
    for (AnnotationMirror annotation : type.getAnnotationMirrors()) {
      if (!((TypeElement) annotation.getAnnotationType().asElement()).getQualifiedName().contentEquals(GENERATED)) {
        continue;
      }
      for (AnnotationValue value : annotation.getElementValues().values()) {
        if (value.getValue() instanceof List<?> values) {
          for (Object element : values) {
            if (element instanceof AnnotationValue v && Packed4jProcessor.class.getName().equals(v.getValue())) {
              return true;
            }
          }
        } else if (Packed4jProcessor.class.getName().equals(value.getValue())) {
          return true;
        }
      }
    }
    return false;
  }

  /** After the last round: reports, for each interface still waiting, what does not resolve. */
  private void reportStillDeferred() {
    for (Map.Entry<String, Kind> entry : deferred.entrySet()) {
      TypeElement type = elements.getTypeElement(entry.getKey());
      if (type != null) {
        guard(type, () -> validation.readiness().reportUnresolved(type, reporter.newReport()));
      }
    }
    deferred.clear();
  }

  /**
   * Whether generated code in {@code type}'s module can use {@code @javax.annotation.processing.Generated}: a
   * named module that does not read java.compiler cannot.
   */
  private boolean generatedAnnotationAvailable(TypeElement type) {
    ModuleElement module = elements.getModuleOf(type);
    return Optional.ofNullable(
                module == null || module.isUnnamed()
                    ? elements.getTypeElement(GENERATED)
                    : elements.getTypeElement(module, GENERATED))
            .isPresent();
  }

  /**
   * The elements of this round annotated with {@code annotation}; none when the annotation is not on the class
   * path, as in a compilation that only holds {@code @Generated} code of other processors.
   */
  private Set<? extends Element> annotatedWith(RoundEnvironment round, String annotation) {
    TypeElement type = elements.getTypeElement(annotation);
    return type == null ? Set.of() : round.getElementsAnnotatedWith(type);
  }

  /** Records the simple names of a root type and its member types, for "did you mean" hints. */
  private void noteTypes(Element element) {
    if (element instanceof TypeElement type) {
      validation.state().noteType(type.getSimpleName().toString());
      for (TypeElement member : ElementFilter.typesIn(type.getEnclosedElements())) {
        noteTypes(member);
      }
    }
  }

  /**
   * Runs one element's work; a failure is reported on that element (null: on none), and the other elements still
   * get processed.
   */
  private void guard(Element element, Runnable work) {
    try {
      work.run();
    } catch (Throwable failure) {
      reporter.print(
          Diagnostic.INTERNAL, element, element == null ? "the object-type index" : element, stackTrace(failure));
    }
  }

  private static String stackTrace(Throwable failure) {
    StringWriter trace = new StringWriter();
    failure.printStackTrace(new PrintWriter(trace));
    return trace.toString();
  }
}
