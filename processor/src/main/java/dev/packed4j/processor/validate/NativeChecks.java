package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.NearNames;
import dev.packed4j.processor.diagnostics.Report;
import dev.packed4j.processor.manifest.NativeManifest;
import dev.packed4j.processor.model.Getter;
import dev.packed4j.processor.model.ObjectMethod;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.Setter;
import dev.packed4j.processor.model.TypeModel;
import dev.packed4j.types.Conversions;
import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.Elements;

/**
 * Checks declarations against a manifest of the native side ({@code -Apacked4j.manifest}): global names, arity
 * and types of typed functions, object type keys, fields and parents. Without a manifest it checks nothing.
 */
public final class NativeChecks {
  private final NativeManifest manifest;
  private final Conversions conversions;
  private final String libraries;
  private final boolean verbose;

  /** No manifest: nothing to check. */
  NativeChecks() {
    this.manifest = null;
    this.conversions = null;
    this.libraries = "";
    this.verbose = false;
  }

  /**
   * Checks against {@code manifest}; {@code libraries} names where it came from in messages, such as
   * {@code "calculator.manifest.json"}. {@code verbose} ({@code -Apacked4j.verbose=true}) adds a note on each global
   * registered without a signature: most registries have many, and a note each would bury what matters.
   */
  NativeChecks(NativeManifest manifest, String libraries, boolean verbose) {
    this.manifest = manifest;
    this.conversions = new Conversions(manifest);
    this.libraries = libraries;
    this.verbose = verbose;
  }

  /** Checks a bound method whose parameter and result types are valid. */
  void global(
      ExecutableElement method,
      Annotations global,
      String globalName,
      List<Parameter> parameters,
      TypeModel result,
      Report report) {
    if (manifest == null) {
      return;
    }
    Optional<NativeManifest.Function> found = manifest.function(globalName);
    String display = Display.method(method);
    if (found.isEmpty()) {
      report.on(
          method,
          global.mirror(),
          global.value(),
          Diagnostic.NATIVE_UNKNOWN_GLOBAL,
          globalName,
          libraries,
          display,
          nearest(globalName, manifest.functionNames()));
      return;
    }
    NativeManifest.Function function = found.get();
    if (!function.typed()) {
      if (verbose) {
        report.on(method, global.mirror(), Diagnostic.NATIVE_UNTYPED, globalName);
      }
      return;
    }
    signature(method, globalName, function, 0, parameters, result, report);
  }

  /**
   * Checks the Java parameters and result of {@code method} against the typed {@code function}, whose first
   * {@code skip} parameters the call passes itself (the object of a method).
   */
  private void signature(
      ExecutableElement method,
      String globalName,
      NativeManifest.Function function,
      int skip,
      List<Parameter> parameters,
      TypeModel result,
      Report report) {
    String display = Display.method(method);
    String signature = signature(function);
    if (function.parameters().size() - skip != parameters.size()) {
      report.on(
          method,
          Diagnostic.NATIVE_ARITY,
          display,
          parameters.size(),
          parameters.size() == 1 ? "" : "s",
          globalName,
          function.parameters().size() - skip,
          signature);
      return;
    }
    for (int i = 0; i < parameters.size(); i++) {
      NativeType expected = function.parameters().get(i + skip);
      Optional<String> problem = conversions.argument(parameters.get(i).type().javaType(), expected);
      if (problem.isPresent()) {
        VariableElement parameter = method.getParameters().get(i);
        report.on(
            parameter,
            Diagnostic.NATIVE_PARAMETER_TYPE,
            Display.parameter(method, parameter),
            Display.type(parameter.asType()),
            expected,
            i + skip,
            globalName,
            signature,
            problem.get(),
            Conversions.javaTypeFor(expected, false));
      }
    }
    NativeType returned = function.result().orElseThrow();
    Optional<String> problem = conversions.result(result.javaType(), returned);
    if (problem.isPresent()) {
      report.on(
          method,
          Diagnostic.NATIVE_RESULT_TYPE,
          display,
          Display.type(method.getReturnType()),
          globalName,
          returned,
          signature,
          problem.get(),
          Conversions.javaTypeFor(returned, false));
    }
  }

  /**
   * Checks an {@code @Object} interface's key and, when it extends one, its parent; returns whether the key is
   * registered, so that its getters can be checked.
   */
  boolean objectType(
      TypeElement type, Annotations object, String typeKey, TypeElement parent, String parentKey, Report report) {
    if (manifest == null) {
      return false;
    }
    Optional<NativeManifest.ObjectType> found = manifest.type(typeKey);
    if (found.isEmpty()) {
      report.on(
          type,
          object.mirror(),
          object.value(),
          Diagnostic.NATIVE_UNKNOWN_TYPE_KEY,
          typeKey,
          libraries,
          Display.type(type),
          nearest(typeKey, manifest.typeKeys()));
      return false;
    }
    if (parent != null && parentKey != null && manifest.type(parentKey).isPresent()
        && (typeKey.equals(parentKey) || !manifest.derivesFrom(typeKey, parentKey))) {
      report.on(
          type,
          Diagnostic.NATIVE_PARENT,
          Display.type(type),
          Display.type(parent),
          parentKey,
          typeKey,
          found.get().parent().map(p -> "\"" + p + "\"").orElse("none"));
    }
    return true;
  }

  /**
   * Warns when {@code type}, the view of {@code typeKey}, does not extend the view this compilation has of its
   * nearest native ancestor that has one ({@code views}: type key to {@code @Object} interface, by qualified name).
   * The runtime picks, for an object returned where an interface is declared, the view of the object's type or its
   * nearest ancestor <em>among those assignable to that interface</em>: a view outside the hierarchy is skipped.
   */
  void parentView(
      TypeElement type, String typeKey, TypeElement parent, String parentKey, Map<String, String> views,
      Elements elements, Report report) {
    if (manifest == null || manifest.type(typeKey).isEmpty()) {
      return;
    }
    Optional<String> ancestor = manifest.type(typeKey).get().parent();
    while (ancestor.isPresent() && !ancestor.get().equals(parentKey) && !views.containsKey(ancestor.get())) {
      ancestor = manifest.type(ancestor.get()).flatMap(NativeManifest.ObjectType::parent);
    }
    if (ancestor.isEmpty() || ancestor.get().equals(parentKey)) {
      return;
    }
    if (parentKey != null && !manifest.derivesFrom(ancestor.get(), parentKey)) {
      return; // the Java parent is no native ancestor at all: NATIVE_PARENT says so
    }
    TypeElement view = elements.getTypeElement(views.get(ancestor.get()));
    if (view == null) {
      return;
    }
    String viewName = Display.type(view);
    String name = Display.type(type);
    report.on(
        type,
        Diagnostic.NATIVE_PARENT_VIEW,
        name,
        typeKey,
        manifest.type(typeKey).get().parent().orElseThrow(),
        parent == null ? "does not extend" : "extends " + Display.type(parent) + " instead of",
        viewName,
        ancestor.get(),
        typeKey,
        viewName,
        Display.withArticle(viewName),
        Display.withArticle(name),
        viewName);
  }

  /**
   * Checks a method {@code type} inherits from the {@code @Object} interface of {@code declaringKey} when the native
   * type {@code typeKey} overrides its member: the override must fit the Java method as the inherited one does,
   * since a call through the parent's interface on an object of this type runs it.
   */
  void inheritedMethod(
      TypeElement type, ExecutableElement method, ObjectMethod objectMethod, String typeKey, String declaringKey,
      Report report) {
    if (manifest == null || declaringKey == null || manifest.type(typeKey).isEmpty()
        || !manifest.type(typeKey).get().describesMembers()) {
      return;
    }
    Optional<NativeManifest.Member> own = manifest.findMember(typeKey, objectMethod.nativeName());
    Optional<NativeManifest.Member> inherited = manifest.findMember(declaringKey, objectMethod.nativeName());
    if (own.isEmpty() || inherited.isEmpty() || own.get().declaredBy().equals(inherited.get().declaredBy())
        || own.get().kind() != NativeManifest.MemberKind.METHOD || !own.get().typed()) {
      return; // the same member as the parent's interface calls (checked there), or none the runtime would call
    }
    NativeManifest.Function override = own.get().asFunction();
    Optional<String> problem = misfit(method, override, 1, objectMethod.parameters(), objectMethod.result());
    boolean parentFits = !inherited.get().typed() || misfit(method, inherited.get().asFunction(), 1,
        objectMethod.parameters(), objectMethod.result()).isEmpty();
    if (problem.isPresent() && parentFits) { // else the method is wrong already where it is declared, and said so
      report.on(
          type,
          Diagnostic.NATIVE_OVERRIDE,
          Display.type(type),
          Display.method(method),
          inherited.get().declaredBy() + "." + objectMethod.nativeName(),
          own.get().declaredBy(),
          signature(override),
          problem.get(),
          Display.method(method),
          typeKey);
    }
  }

  /**
   * The first way the Java {@code parameters} and {@code result} do not fit the typed {@code function}, whose first
   * {@code skip} parameters the call passes itself; empty when they fit.
   */
  private Optional<String> misfit(ExecutableElement method,
      NativeManifest.Function function, int skip, List<Parameter> parameters, TypeModel result) {
    int arity = function.parameters().size() - skip;
    if (arity != parameters.size()) {
      return Optional.of("it takes " + arity + " argument" + (arity == 1 ? "" : "s") + (skip > 0 ? " after the object"
          : "") + ", the Java method " + parameters.size());
    }
    for (int i = 0; i < parameters.size(); i++) {
      NativeType expected = function.parameters().get(i + skip);
      Optional<String> problem = conversions.argument(parameters.get(i).type().javaType(), expected);
      if (problem.isPresent()) {
        return Optional.of("the parameter " + parameters.get(i).name() + " ("
            + Display.type(method.getParameters().get(i).asType()) + ") cannot convert to its argument " + (i + skip)
            + ", " + expected + ": " + problem.get());
      }
    }
    NativeType returned = function.result().orElseThrow();
    return conversions.result(result.javaType(), returned)
        .map(problem -> "its result, " + returned + ", cannot convert to " + Display.type(method.getReturnType()) + ": "
            + problem);
  }

  /**
   * For a declaration read as a getter or setter of a field the type lacks, when the type (or an ancestor) registers
   * a method of that name: what a user who meant the method must write. A method without parameters, or {@code void}
   * with one, reads as a field accessor unless marked {@code @Method}, and "did you mean" another field would mislead.
   */
  private Optional<String> methodHint(ExecutableElement method, String typeKey, String name) {
    int arity = method.getParameters().size();
    // A typed method lists the object first; an untyped one records no parameters, so any arity may be meant.
    return manifest.findMember(typeKey, name)
        .filter(member -> member.kind() == NativeManifest.MemberKind.METHOD)
        .filter(member -> !member.typed() || member.parameters().size() - 1 == arity)
        .map(member -> ". But \"" + name + "\" is a method of \"" + member.declaredBy() + "\": mark the"
            + " declaration " + (method.getSimpleName().contentEquals(name) ? "@Method" : "@Method(\"" + name + "\")")
            + " to call it (without @Method, a method without parameters reads a field, and a void one with one"
            + " parameter writes one)");
  }

  /** Checks a getter of an {@code @Object} interface whose type key the manifest registers. */
  void getter(ExecutableElement method, Getter getter, String typeKey, Report report) {
    NativeManifest.ObjectType type = manifest.type(typeKey).orElseThrow();
    NativeType field = type.fields().get(getter.fieldName());
    if (field == null) {
      Optional<Annotations> rename = Annotations.find(method, AnnotationNames.FIELD);
      String fields = type.fields().isEmpty()
          ? "none"
          : type.fields().entrySet().stream()
              .map(entry -> entry.getKey() + ": " + entry.getValue())
              .collect(Collectors.joining(", "));
      Object[] arguments = {
        Display.method(method),
        "reads",
        getter.fieldName(),
        typeKey,
        fields,
        methodHint(method, typeKey, getter.fieldName())
            .orElseGet(() -> nearest(getter.fieldName(), type.fields().keySet()))
      };
      if (rename.isPresent()) {
        report.on(method, rename.get().mirror(), rename.get().value(), Diagnostic.NATIVE_UNKNOWN_FIELD, arguments);
      } else {
        report.on(method, Diagnostic.NATIVE_UNKNOWN_FIELD, arguments);
      }
      return;
    }
    Optional<String> problem = conversions.field(getter.type().javaType(), field);
    if (problem.isPresent()) {
      report.on(
          method,
          Diagnostic.NATIVE_FIELD_TYPE,
          Display.method(method),
          Display.type(method.getReturnType()),
          getter.fieldName(),
          typeKey,
          field,
          problem.get(),
          Conversions.fieldJavaTypeFor(field));
    }
  }

  /** Checks a setter of an {@code @Object} interface whose type key the manifest registers. */
  void setter(ExecutableElement method, Setter setter, String typeKey, Report report) {
    NativeManifest.ObjectType type = manifest.type(typeKey).orElseThrow();
    NativeType field = type.fields().get(setter.fieldName());
    VariableElement parameter = method.getParameters().get(0);
    if (field == null) {
      Optional<Annotations> rename = Annotations.find(method, AnnotationNames.FIELD);
      Object[] arguments = {
        Display.method(method),
        "writes",
        setter.fieldName(),
        typeKey,
        fieldList(type),
        methodHint(method, typeKey, setter.fieldName())
            .orElseGet(() -> nearest(setter.fieldName(), type.fields().keySet()))
      };
      if (rename.isPresent()) {
        report.on(method, rename.get().mirror(), rename.get().value(), Diagnostic.NATIVE_UNKNOWN_FIELD, arguments);
      } else {
        report.on(method, Diagnostic.NATIVE_UNKNOWN_FIELD, arguments);
      }
      return;
    }
    Optional<String> problem = conversions.setterField(setter.type().javaType(), field);
    if (problem.isPresent()) {
      report.on(
          parameter,
          Diagnostic.NATIVE_SETTER_TYPE,
          Display.method(method),
          Display.type(parameter.asType()),
          setter.fieldName(),
          typeKey,
          field,
          problem.get(),
          Conversions.fieldJavaTypeFor(field));
      return;
    }
    if (type.describesMembers() && !type.mutableFields().contains(setter.fieldName())) {
      report.on(
          method,
          Diagnostic.NATIVE_READ_ONLY,
          Display.method(method),
          setter.fieldName(),
          typeKey,
          "its VisitAttrs or a def_ro declares it, and Java may only read it");
    }
  }

  /** Checks a method of an {@code @Object} interface whose type key the manifest registers. */
  void objectMethod(ExecutableElement method, ObjectMethod objectMethod, String typeKey, Report report) {
    Optional<NativeManifest.Member> found = member(method, NativeManifest.MemberKind.METHOD, typeKey,
        objectMethod.nativeName(), report);
    if (found.isPresent() && found.get().typed()) {
      signature(method, typeKey + "." + objectMethod.nativeName(), found.get().asFunction(), 1,
          objectMethod.parameters(), objectMethod.result(), report);
    }
  }

  /** Checks a constructor or static method declared on a bound interface. */
  void typeMember(
      ExecutableElement method,
      boolean constructor,
      String typeKey,
      String name,
      List<Parameter> parameters,
      TypeModel result,
      Report report) {
    if (manifest == null) {
      return;
    }
    if (manifest.type(typeKey).isEmpty()) {
      return; // reported on the @Object interface that declares the key
    }
    NativeManifest.MemberKind kind = constructor ? NativeManifest.MemberKind.CONSTRUCTOR
        : NativeManifest.MemberKind.STATIC;
    Optional<NativeManifest.Member> found = member(method, kind, typeKey, name, report);
    if (found.isPresent() && found.get().typed()) {
      signature(method, typeKey + "." + name, found.get().asFunction(), 0, parameters, result, report);
    }
  }

  /** The member a declaration calls, reporting when the type has none of that name or one of another kind. */
  private Optional<NativeManifest.Member> member(
      ExecutableElement method, NativeManifest.MemberKind kind, String typeKey, String name, Report report) {
    if (!manifest.type(typeKey).orElseThrow().describesMembers()) {
      return Optional.empty(); // a version-1 manifest knows no members: nothing to check them against
    }
    Optional<NativeManifest.Member> found = manifest.findMember(typeKey, name);
    String display = Display.method(method);
    if (found.isEmpty()) {
      Set<String> members = manifest.memberNames(typeKey);
      String what = kind == NativeManifest.MemberKind.CONSTRUCTOR ? "constructor" : kind.display();
      String registered = members.isEmpty()
          ? "it registers no members: an object definition, P4J_REGISTER_OBJECT_DEF, adds them"
          : "its members: " + String.join(", ", members);
      String near = kind == NativeManifest.MemberKind.CONSTRUCTOR ? "" : nearest(name, members);
      NativeManifest.ObjectType type = manifest.type(typeKey).orElseThrow();
      if (kind == NativeManifest.MemberKind.METHOD && type.fields().containsKey(name)) {
        // Only a def_rw field may be written: advising a setter of a read-only one leads to NATIVE_READ_ONLY.
        if (!type.mutableFields().contains(name)) {
          near = ". \"" + name + "\" is a read-only field (its VisitAttrs or a def_ro declares it): declare a getter "
              + name + "() to read it; to write it from Java, declare it with def_rw in the type's object"
              + " definition, then mark a one-parameter void method @Field(\"" + name + "\")";
        } else if (method.getParameters().size() == 1 && method.getReturnType().getKind() == TypeKind.VOID
            && method.getSimpleName().contentEquals(name) && !Annotations.isPresent(method, AnnotationNames.METHOD)) {
          // Meant as the setter: say both ways of making one, as a getter beside it is what the name alone needs.
          near = ". \"" + name + "\" is a field: a one-parameter void method writes it when a getter " + name
              + "() is declared beside it, or when it is marked @Field(\"" + name + "\")";
        } else {
          near = ". \"" + name + "\" is a field: declare a getter " + name + "() to read it, or mark a"
              + " one-parameter void method @Field(\"" + name + "\") to write it";
        }
      }
      report.on(method, Diagnostic.NATIVE_UNKNOWN_MEMBER, display, what, name, typeKey, libraries, registered,
          near);
      return Optional.empty();
    }
    if (found.get().kind() != kind) {
      String fix = switch (found.get().kind()) {
        case METHOD -> "Declare it on the type's @Object interface, which calls it with the object first";
        case STATIC -> "Declare it on a bound interface with @Method(of = <the type's @Object interface>)";
        case CONSTRUCTOR -> "Declare it on a bound interface with @Constructor";
      };
      report.on(method, Diagnostic.NATIVE_MEMBER_KIND, display, name, typeKey, kind.display(),
          found.get().kind().display(), fix);
      return Optional.empty();
    }
    return found;
  }

  private static String fieldList(NativeManifest.ObjectType type) {
    return type.fields().isEmpty()
        ? "none"
        : type.fields().entrySet().stream()
            .map(entry -> entry.getKey() + ": " + entry.getValue())
            .collect(Collectors.joining(", "));
  }

  /** {@code . Did you mean "calculator.MyAdd"?}, quoted as the string literal to write, or nothing. */
  private static String nearest(String name, Collection<String> registered) {
    return NearNames.closest(name, registered).map(near -> NearNames.didYouMean("\"" + near + "\"")).orElse("");
  }

  /** {@code "registered as (int64, int64) -> int64"}, printed by packed4j-types. */
  private static String signature(NativeManifest.Function function) {
    return "registered as " + new Signature(function.parameters(), function.result().orElseThrow());
  }
}
