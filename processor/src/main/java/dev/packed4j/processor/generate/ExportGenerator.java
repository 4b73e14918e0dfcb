package dev.packed4j.processor.generate;

import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import com.squareup.javapoet.TypeSpec;
import dev.packed4j.processor.model.ExportClass;
import dev.packed4j.processor.model.GlobalMethod;
import dev.packed4j.processor.model.Parameter;
import dev.packed4j.processor.model.TypeModel;
import dev.packed4j.processor.validate.GlobalValidator;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes the registrar of a class with exported static {@code @Global} methods: for {@code HostFunctions},
 * {@code Packed4j_HostFunctions implements Exports}, which hands each method to the runtime as a function object
 * (typed entry and signature as {@code set_body_typed} records them) calling the method directly.
 *
 * <pre>{@code
 * public void exportTo(ExportedFunctions functions) {
 *   functions.add("host.Add", "HostFunctions.add",
 *       Callbacks.typedFunction("(int64, int64) -> int64", (CallbackBodies.Wire2) (a0, a1) -> HostFunctions.add(a0, a1)),
 *       List.of("a", "b"));
 * }
 * }</pre>
 */
public final class ExportGenerator {
  private static final ClassName EXPORTS = ClassName.get("dev.packed4j.runtime", "Exports");
  private static final ClassName EXPORTED_FUNCTIONS =
      ClassName.get("dev.packed4j.runtime", "ExportedFunctions");

  public JavaFile generate(ExportClass exports, boolean generatedAvailable) {
    ClassName owner = JavaTypes.className(exports.name());
    ClassName generated = JavaTypes.className(exports.name().generatedClass());
    TypeSpec.Builder type =
        TypeSpec.classBuilder(generated)
            .addJavadoc(
                "Exports the static {@code @Global} methods of {@link $T} as Java functions."
                    + " {@code Packed4j.register($T.class)} loads it by name.\n",
                owner,
                owner)
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addSuperinterface(EXPORTS);
    GeneratedAnnotations.add(type, generatedAvailable, exports.suppressedWarnings());
    MethodSpec.Builder exportTo =
        MethodSpec.methodBuilder("exportTo")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .addParameter(ParameterSpec.builder(EXPORTED_FUNCTIONS, "functions").build());
    for (GlobalMethod function : exports.functions()) {
      CodeBlock names = CodeBlock.of("$T.of($L)", List.class, function.parameters().stream()
          .map(parameter -> CodeBlock.of("$S", parameter.name())).collect(CodeBlock.joining(", ")));
      exportTo.addStatement("functions.add($S, $S,$W$L,$W$L)", function.globalName(), function.javaName(),
          functionObject(owner, function), names);
    }
    type.addMethod(exportTo.build());
    return JavaFile.builder(generated.packageName(), type.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /** {@code Callbacks.typedFunction(signature, wire body)} or {@code Callbacks.packedFunction(signature, body)}. */
  private static CodeBlock functionObject(ClassName owner, GlobalMethod function) {
    List<TypeModel> parameters = function.parameters().stream().map(Parameter::type).toList();
    CodeBlock callee = CodeBlock.of("$T.$L", owner, function.name());
    String signature = GlobalValidator.signatureOf(function);
    return CodecExpressions.hasWireForm(parameters, function.result())
        ? CodeBlock.of(
            "$T.typedFunction($S,$W$L)",
            RuntimeClasses.CALLBACKS,
            signature,
            CodecExpressions.withStringSpans(
                parameters, CodecExpressions.wireBody(callee, parameters, function.result())))
        : CodeBlock.of(
            "$T.packedFunction($S,$W$L)",
            RuntimeClasses.CALLBACKS,
            signature,
            CodecExpressions.packedBody(callee, parameters, function.result()));
  }
}
