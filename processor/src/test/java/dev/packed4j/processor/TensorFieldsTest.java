package dev.packed4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.packed4j.processor.Compilations.compile;
import static dev.packed4j.processor.Compilations.source;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tensor fields: an {@code NDArray} getter or setter of an {@code @Object} interface (a C++ {@code NDArray} member),
 * what it generates, what is still refused, and its checks against a manifest that records the field as
 * {@code NDArray}.
 */
class TensorFieldsTest {
  private static final String MANIFEST = """
      {
        "format": "packed4j-manifest",
        "version": 2,
        "globals": [],
        "objectTypes": [
          {"key": "ml.Layer", "parent": "Object", "fields": [
            {"name": "weights", "type": "NDArray", "declaredBy": "ml.Layer", "mutable": true},
            {"name": "bias", "type": "NDArray", "declaredBy": "ml.Layer", "mutable": false},
            {"name": "name", "type": "string", "declaredBy": "ml.Layer", "mutable": true},
            {"name": "next", "type": "ml.Layer", "declaredBy": "ml.Layer", "mutable": true},
            {"name": "anything", "type": "Object", "declaredBy": "ml.Layer", "mutable": true}],
           "methods": []}
        ],
        "coreGlobals": [],
        "coreObjectTypes": [{"key": "Object", "fields": []}, {"key": "NDArray", "parent": "Object", "fields": []}]
      }
      """;

  @TempDir static Path directory;
  private static Path manifest;

  @BeforeAll
  static void writeManifest() throws IOException {
    manifest = Files.writeString(directory.resolve("layer.manifest.json"), MANIFEST);
  }

  private static Compilation checked(JavaFileObject... sources) {
    return Compilations.compiler(List.of("-Apacked4j.manifest=" + manifest), new Packed4jProcessor())
        .compile(sources);
  }

  /** {@code ml.Layer}'s view with {@code members}, importing what they use (ECJ warns about an unused import). */
  private static JavaFileObject layerRef(String members) {
    StringBuilder imports = new StringBuilder();
    for (String[] use : new String[][] {{"@Field", "dev.packed4j.annotations.Field"},
        {"NativeObject", "dev.packed4j.runtime.NativeObject"}, {"NDArray", "dev.packed4j.runtime.NDArray"},
        {"List<", "java.util.List"}, {"Optional<", "java.util.Optional"}}) {
      if (members.contains(use[0])) {
        imports.append("import ").append(use[1]).append(";\n");
      }
    }
    return source("p.LayerRef", """
        package p;
        import dev.packed4j.annotations.Object;
        %s@Object("ml.Layer")
        public interface LayerRef extends AutoCloseable {
          %s
          @Override void close();
        }
        """.formatted(imports, members));
  }

  private static String generated(Compilation compilation, String qualifiedName) throws IOException {
    return compilation.generatedSourceFile(qualifiedName).orElseThrow().getCharContent(true).toString()
        .replaceAll("\\s+", " ");
  }

  @Compilers
  void anNDArrayGetterAndSetterReadAndWriteThroughTheTensorCodec() throws IOException {
    JavaFileObject layer = layerRef("""
        NDArray weights();
          void weights(NDArray weights);
          NDArray bias();""");
    Compilation compilation = compile(layer);
    assertThat(compilation).succeededWithoutWarnings();
    String code = generated(compilation, "p.Packed4j_LayerRef");
    for (String expected : List.of(
        "static final FieldSlot WEIGHTS = TYPE.field(\"weights\", FieldKind.OBJECT);",
        "static final Codec<NDArray> WEIGHTS_CODEC = Codecs.NDARRAY;",
        "static final Codec<NDArray> WEIGHTS_WRITE_CODEC = Codecs.NDARRAY;",
        "static final FieldSlot BIAS = TYPE.field(\"bias\", FieldKind.OBJECT);",
        "public NDArray weights() { return Fields.WEIGHTS.readObject(this, Fields.WEIGHTS_CODEC); }",
        "public NDArray bias() { return Fields.BIAS.readObject(this, Fields.BIAS_CODEC); }",
        // null unsets the field (None), as for an object field: no null check in front of the write.
        "public void weights(NDArray weights) { Fields.WEIGHTS.writeObject(this, Fields.WEIGHTS_WRITE_CODEC,"
            + " weights); }")) {
      assertWithMessage(code).that(code).contains(expected);
    }
  }

  @Compilers
  void aManifestAcceptsNDArrayForATensorFieldAndNativeObjectStill() {
    JavaFileObject layer = layerRef("""
        NDArray weights();
          void weights(NDArray weights);
          NDArray bias();
          @Field("weights") NativeObject weightsObject();
          @Field("anything") NDArray anythingAsTensor();
          @Field("anything") void anythingAsTensor(NDArray tensor);""");
    Compilation compilation = checked(layer);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadErrorCount(0);
  }

  @Compilers
  void anNDArrayGetterOfAFieldThatIsNoTensorIsReported() {
    JavaFileObject layer = layerRef("@Field(\"name\") NDArray nameTensor();");
    assertThat(checked(layer))
        .hadErrorContaining(
            "[P4J-NATIVE-FIELD-TYPE] LayerRef.nameTensor() returns NDArray, but the field \"name\" of \"ml.Layer\" is"
                + " string: an NDArray getter reads a tensor (NDArray) field. Declare the getter as String")
        .inFile(layer)
        .onLineContaining("NDArray nameTensor();");
  }

  @Compilers
  void anNDArraySetterOfAnObjectFieldOfAnotherTypeIsReportedOnItsParameter() {
    JavaFileObject layer = layerRef("@Field(\"next\") void nextTensor(NDArray next);");
    assertThat(checked(layer))
        .hadErrorContaining(
            "[P4J-NATIVE-SETTER-TYPE] LayerRef.nextTensor(NDArray) takes NDArray, but the field \"next\" of"
                + " \"ml.Layer\" is ml.Layer: an NDArray setter writes a tensor (NDArray) field. Declare the parameter"
                + " as an @Object(\"ml.Layer\") interface")
        .inFile(layer)
        .onLineContaining("void nextTensor(NDArray next);");
  }

  @Compilers
  void aGetterOfATensorFieldOfAnotherTypeIsToldToDeclareNDArray() {
    JavaFileObject layer = layerRef("@Field(\"weights\") String weightsText();");
    assertThat(checked(layer))
        .hadErrorContaining(
            "[P4J-NATIVE-FIELD-TYPE] LayerRef.weightsText() returns String, but the field \"weights\" of"
                + " \"ml.Layer\" is NDArray: a String getter reads a string field. Declare the getter as NDArray")
        .inFile(layer)
        .onLineContaining("String weightsText();");
  }

  @Compilers
  void anNDArraySetterOfAReadOnlyTensorFieldIsReported() {
    JavaFileObject layer = layerRef("NDArray bias();\n  void bias(NDArray bias);");
    assertThat(checked(layer))
        .hadErrorContaining(
            "[P4J-NATIVE-READ-ONLY] LayerRef.bias(NDArray) writes the field \"bias\" of \"ml.Layer\", which is"
                + " read-only (its VisitAttrs or a def_ro declares it, and Java may only read it). Declare it with"
                + " def_rw in the type's object definition (P4J_REGISTER_OBJECT_DEF), or remove the setter")
        .inFile(layer)
        .onLineContaining("void bias(NDArray bias);");
  }

  @Compilers
  void anOptionalTensorGetterIsRefused() {
    JavaFileObject layer = layerRef("Optional<NDArray> weights();");
    assertThat(compile(layer))
        .hadErrorContaining(
            "[P4J-FIELD-TYPE] Optional<NDArray> is not a supported type for the field getter LayerRef.weights(): a"
                + " native field is never optional<T> (reflection records no std::optional field), and an unset"
                + " object or container field reads as null; declare the type itself.")
        .inFile(layer)
        .onLineContaining("Optional<NDArray> weights();");
  }

  @Compilers
  void anArrayOfTensorsIsRefusedWithTheListThatHoldsThem() {
    JavaFileObject layer = layerRef("NDArray[] layers();");
    assertThat(compile(layer))
        .hadErrorContaining(
            "[P4J-FIELD-TYPE] NDArray[] is not a supported type for the field getter LayerRef.layers(): a native field"
                + " never holds a Java array: read a tensor (NDArray) field as NDArray, or a list field as"
                + " List<NDArray>.")
        .inFile(layer)
        .onLineContaining("NDArray[] layers();");
  }

  @Compilers
  void aTensorSetterBesideAGetterOfAnotherTypeIsReported() {
    JavaFileObject layer = layerRef("NativeObject weights();\n  void weights(NDArray weights);");
    assertThat(compile(layer))
        .hadErrorContaining(
            "[P4J-SETTER-GETTER-TYPE] the setter LayerRef.weights(NDArray) takes NDArray, but the getter"
                + " LayerRef.weights() of the same field returns NativeObject: a field has one type. Declare the"
                + " setter's parameter as NativeObject")
        .inFile(layer)
        .onLineContaining("void weights(NDArray weights);");
  }

  @Compilers
  void anOptionalTensorSetterIsRefusedOnItsParameter() {
    JavaFileObject layer = layerRef("NDArray weights();\n  void weights(Optional<NDArray> weights);");
    assertThat(compile(layer))
        .hadErrorContaining(
            "[P4J-SETTER-TYPE] Optional<NDArray> is not a supported type for the setter"
                + " LayerRef.weights(Optional<NDArray>): a native field is never optional<T>")
        .inFile(layer)
        .onLineContaining("void weights(Optional<NDArray> weights);");
  }
}
