package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.NearNames;
import dev.packed4j.processor.diagnostics.Report;
import dev.packed4j.processor.manifest.NativeManifest;
import dev.packed4j.processor.model.Getter;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.TypeModel;
import dev.packed4j.types.Conversions;
import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

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
    String signature = signature(function);
    if (function.parameters().size() != parameters.size()) {
      report.on(
          method,
          Diagnostic.NATIVE_ARITY,
          display,
          parameters.size(),
          parameters.size() == 1 ? "" : "s",
          globalName,
          function.parameters().size(),
          signature);
      return;
    }
    for (int i = 0; i < parameters.size(); i++) {
      NativeType expected = function.parameters().get(i);
      Optional<String> problem = conversions.argument(parameters.get(i).type().javaType(), expected);
      if (problem.isPresent()) {
        VariableElement parameter = method.getParameters().get(i);
        report.on(
            parameter,
            Diagnostic.NATIVE_PARAMETER_TYPE,
            Display.parameter(method, parameter),
            Display.type(parameter.asType()),
            expected,
            i,
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
        getter.fieldName(),
        typeKey,
        fields,
        nearest(getter.fieldName(), type.fields().keySet())
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

  /** {@code . Did you mean "calculator.MyAdd"?}, quoted as the string literal to write, or nothing. */
  private static String nearest(String name, Collection<String> registered) {
    return NearNames.closest(name, registered).map(near -> NearNames.didYouMean("\"" + near + "\"")).orElse("");
  }

  /** {@code "registered as (int64, int64) -> int64"}, printed by packed4j-types. */
  private static String signature(NativeManifest.Function function) {
    return "registered as " + new Signature(function.parameters(), function.result().orElseThrow());
  }
}
