package dev.packed4j.processor.validate;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.NearNames;
import dev.packed4j.processor.diagnostics.Report;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.TypeModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/** Checks shared by {@code @Global} methods and {@code @Object} getters: types and thrown exceptions. */
final class SignatureChecks {
  private final Elements elements;
  private final Types types;
  private final TypeMapper mapper;
  private final CompilationState state;

  SignatureChecks(Elements elements, Types types, TypeMapper mapper, CompilationState state) {
    this.elements = elements;
    this.types = types;
    this.mapper = mapper;
    this.state = state;
  }

  /**
   * Maps the type of a parameter or result of a {@code @Global} method declared in {@code owner}, reporting on
   * {@code element} (the parameter, or the method for its result) if it is not supported. {@code place} names the
   * use in messages.
   */
  Optional<TypeModel> signatureType(
      TypeMirror type, boolean result, TypeElement owner, Element element, String place, Report report) {
    return accept(
        mapper.signature(type, result), type, owner, element, place, Diagnostic.TYPE_UNSUPPORTED, report);
  }

  /** Maps the type of an {@code @Object} getter, reporting on the getter if it cannot be read as a field. */
  Optional<TypeModel> fieldType(TypeMirror type, ExecutableElement getter, Report report) {
    return accept(
        mapper.field(type, false),
        type,
        (TypeElement) getter.getEnclosingElement(),
        getter,
        Display.method(getter),
        Diagnostic.FIELD_TYPE,
        report);
  }

  /** Maps the parameter type of an {@code @Object} setter, reporting on the parameter if it cannot be written. */
  Optional<TypeModel> setterType(TypeMirror type, ExecutableElement setter, Element parameter, Report report) {
    return accept(
        mapper.field(type, true),
        type,
        (TypeElement) setter.getEnclosingElement(),
        parameter,
        Display.method(setter),
        Diagnostic.SETTER_TYPE,
        report);
  }

  /**
   * The parameters and result of a method that calls a type's member (a method of an {@code @Object} interface, or
   * a constructor or static method of a bound interface), each type mapped as a {@code @Global} method's is; empty
   * (having reported why) when the method is generic or a type does not map. Its checked exceptions are reported.
   */
  Optional<MemberSignature> memberSignature(Interfaces.Member member, Report report) {
    ExecutableElement method = member.method();
    String display = Display.method(method);
    if (!method.getTypeParameters().isEmpty()) {
      report.on(method, Diagnostic.GLOBAL_GENERIC, display, Display.typeParameters(method.getTypeParameters()));
      return Optional.empty();
    }
    checkThrows(method, member.type().getThrownTypes(), report);
    List<Parameter> parameters = new ArrayList<>();
    boolean complete = true;
    for (int i = 0; i < method.getParameters().size(); i++) {
      VariableElement parameter = method.getParameters().get(i);
      Optional<TypeModel> model = signatureType(member.type().getParameterTypes().get(i), false,
          member.declaringInterface(), parameter, Display.parameter(method, parameter), report);
      if (model.isPresent()) {
        parameters.add(new Parameter(parameter.getSimpleName().toString(), model.get()));
      } else {
        complete = false;
      }
    }
    Optional<TypeModel> result = signatureType(member.type().getReturnType(), true, member.declaringInterface(),
        method, "the result of " + display, report);
    return complete && result.isPresent()
        ? Optional.of(new MemberSignature(parameters, result.get()))
        : Optional.empty();
  }

  /** A member-calling method's parameters (the object not among them) and result, mapped. */
  record MemberSignature(List<Parameter> parameters, TypeModel result) {}

  /** Reports each checked exception the method declares: the generated code throws none. */
  void checkThrows(ExecutableElement method, Iterable<? extends TypeMirror> thrownTypes, Report report) {
    TypeMirror runtimeException = elements.getTypeElement("java.lang.RuntimeException").asType();
    TypeMirror error = elements.getTypeElement("java.lang.Error").asType();
    for (TypeMirror thrown : thrownTypes) {
      if (!types.isSubtype(thrown, runtimeException) && !types.isSubtype(thrown, error)) {
        report.on(method, Diagnostic.THROWS_CHECKED, Display.method(method), Display.type(thrown));
      }
    }
  }

  private Optional<TypeModel> accept(
      TypeMapper.Mapping mapping,
      TypeMirror type,
      TypeElement owner,
      Element element,
      String place,
      Diagnostic unsupported,
      Report report) {
    switch (mapping) {
      case TypeMapper.Mapping.Mapped mapped -> {
        return Optional.of(mapped.model());
      }
      case TypeMapper.Mapping.Unsupported u ->
          report.on(element, unsupported, Display.type(type), place, u.reason());
      case TypeMapper.Mapping.NotObject notObject -> {
        TypeElement iface = notObject.iface();
        String name = Display.type(iface);
        report.on(
            element,
            Diagnostic.TYPE_NOT_OBJECT,
            name,
            place,
            name,
            NearNames.didYouMean(iface.getSimpleName().toString(), state.objectInterfaceNames()));
      }
      case TypeMapper.Mapping.Unresolved unresolved when Readiness.isAmbiguousObject(
          Display.unresolved(unresolved.type())) ->
          report.on(element, Diagnostic.TYPE_AMBIGUOUS_OBJECT, place);
      case TypeMapper.Mapping.Unresolved unresolved ->
          report.on(
              element,
              Diagnostic.TYPE_UNRESOLVED,
              Display.unresolved(unresolved.type()),
              place,
              Display.type(owner),
              NearNames.didYouMean(Display.unresolved(unresolved.type()), state.typeNames()));
    }
    return Optional.empty();
  }
}
