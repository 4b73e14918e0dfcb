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
 * Typed container fields: a {@code List<E>} or {@code Map<K, V>} getter or setter of an {@code @Object} interface, what
 * it generates, the element types it refuses, and its checks against a manifest of native ABI 2.10 (which records
 * {@code list<string>}) and of an older library (which records only {@code List}).
 */
class ContainerFieldsTest {
  private static final String MANIFEST = """
      {
        "format": "packed4j-manifest",
        "version": 2,
        "globals": [],
        "objectTypes": [
          {"key": "kv.Doc", "parent": "Object", "fields": [
            {"name": "tags", "type": "list<string>", "declaredBy": "kv.Doc", "mutable": true},
            {"name": "ids", "type": "list<int64>", "declaredBy": "kv.Doc", "mutable": true},
            {"name": "counts", "type": "map<string, int64>", "declaredBy": "kv.Doc", "mutable": true},
            {"name": "legacy", "type": "List", "declaredBy": "kv.Doc", "mutable": true},
            {"name": "pages", "type": "list<kv.Page>", "declaredBy": "kv.Doc", "mutable": true}],
           "methods": []},
          {"key": "kv.Page", "parent": "Object", "fields": [], "methods": []}
        ],
        "coreGlobals": [],
        "coreObjectTypes": [{"key": "Object", "fields": []}, {"key": "List", "parent": "Object", "fields": []}]
      }
      """;

  @TempDir static Path directory;
  private static Path manifest;

  @BeforeAll
  static void writeManifest() throws IOException {
    manifest = Files.writeString(directory.resolve("doc.manifest.json"), MANIFEST);
  }

  private static Compilation checked(JavaFileObject... sources) {
    return Compilations.compiler(List.of("-Apacked4j.manifest=" + manifest), new Packed4jProcessor())
        .compile(sources);
  }

  /** {@code kv.Doc}'s view with {@code members}, importing what they use (ECJ warns about an unused import). */
  private static JavaFileObject docRef(String members) {
    StringBuilder imports = new StringBuilder();
    for (String[] use : new String[][] {{"@Field", "dev.packed4j.annotations.Field"},
        {"NativeObject", "dev.packed4j.runtime.NativeObject"}, {"List<", "java.util.List"},
        {"Map<", "java.util.Map"}}) {
      if (members.contains(use[0])) {
        imports.append("import ").append(use[1]).append(";\n");
      }
    }
    return source("p.DocRef", """
        package p;
        import dev.packed4j.annotations.Object;
        %s@Object("kv.Doc")
        public interface DocRef extends AutoCloseable {
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
  void listAndMapAccessorsReadAndWriteThroughTheirCodecs() throws IOException {
    JavaFileObject doc = docRef("""
        List<String> tags();
          void tags(List<String> tags);
          Map<String, Long> counts();""");
    Compilation compilation = compile(doc);
    assertThat(compilation).succeededWithoutWarnings();
    String code = generated(compilation, "p.Packed4j_DocRef");
    for (String expected : List.of(
        "static final FieldSlot TAGS = TYPE.field(\"tags\", FieldKind.OBJECT);",
        "static final Codec<List<String>> TAGS_CODEC = Codecs.list(Codecs.STRING);",
        "static final Codec<List<String>> TAGS_WRITE_CODEC = Codecs.list(Codecs.STRING);",
        "static final Codec<Map<String, Long>> COUNTS_CODEC = Codecs.map(Codecs.STRING, Codecs.LONG);",
        "public List<String> tags() { return Fields.TAGS.readObject(this, Fields.TAGS_CODEC); }",
        "public Map<String, Long> counts() { return Fields.COUNTS.readObject(this, Fields.COUNTS_CODEC); }",
        "Fields.TAGS.writeObject(this, Fields.TAGS_WRITE_CODEC, tags);")) {
      assertWithMessage(code).that(code).contains(expected);
    }
    // writeObject would write null as None, which a C++ List<T> field cannot hold.
    assertWithMessage(code).that(code).contains("public void tags(List<String> tags) { if (tags == null) { throw"
        + " FunctionSite.nullFieldValue(\"kv.Doc\", \"tags\", List.class); }");
  }

  @Compilers
  void aLiveViewsSetterRefusesNullSayingHowToEmptyTheView() throws IOException {
    JavaFileObject doc = source("p.DocRef", """
        package p;
        import dev.packed4j.annotations.Field;
        import dev.packed4j.annotations.Object;
        import dev.packed4j.runtime.NativeList;
        import dev.packed4j.runtime.NativeMap;
        @Object("kv.Doc")
        public interface DocRef extends AutoCloseable {
          @Field("tags") void tagsView(NativeList<String> tags);
          @Field("counts") void countsView(NativeMap<String, Long> counts);
          @Override void close();
        }
        """);
    Compilation compilation = compile(doc);
    assertThat(compilation).succeededWithoutWarnings();
    String code = generated(compilation, "p.Packed4j_DocRef");
    // A NativeList or NativeMap parameter cannot take List.of() or Map.of(): the message says what empties a view.
    for (String expected : List.of(
        "if (tags == null) { throw FunctionSite.nullFieldValue(\"kv.Doc\", \"tags\", NativeList.class); }",
        "if (counts == null) { throw FunctionSite.nullFieldValue(\"kv.Doc\", \"counts\", NativeMap.class); }")) {
      assertWithMessage(code).that(code).contains(expected);
    }
  }

  @Compilers
  void aFunctionalElementsCodecSuppressesOnlyWhatItCasts() {
    JavaFileObject doc = docRef("""
        List<java.util.function.Function<String, String>> mappers();
          void mappers(List<java.util.function.Function<String, String>> mappers);""");
    assertThat(compile(doc)).succeededWithoutWarnings();
  }

  @Compilers
  void anElementTypeThatDoesNotCrossIsReportedOnTheGetter() {
    JavaFileObject doc = docRef("List<StringBuilder> notes();");
    assertThat(compile(doc))
        .hadErrorContaining(
            "[P4J-FIELD-TYPE] List<StringBuilder> is not a supported type for the field getter DocRef.notes():"
                + " StringBuilder is a class, and a native object is viewed through an @Object interface. A getter"
                + " reads the field in place, so it can be int, long, double, boolean, String, an @Object interface,"
                + " NativeObject, NDArray, or a List<E> or Map<K, V> (or NativeList, NativeMap) of the elements a"
                + " @Global result takes")
        .inFile(doc)
        .onLineContaining("List<StringBuilder> notes();");
  }

  @Compilers
  void aMapKeyThatDoesNotCrossIsReportedOnTheSettersParameter() {
    JavaFileObject doc = docRef("@Field(\"scores\") void scores(Map<Double, Long> scores);");
    assertThat(compile(doc))
        .hadErrorContaining(
            "[P4J-SETTER-TYPE] Map<Double,Long> is not a supported type for the setter"
                + " DocRef.scores(Map<Double,Long>): map keys must be String, a boxed integer (Byte, Short, Integer,"
                + " Long) or an @Object type, not Double. A setter writes the field in place, so it takes int, long,"
                + " double, boolean, String, an @Object interface, NativeObject, NDArray, or a List<E> or Map<K, V>"
                + " (or NativeList, NativeMap) of the elements a @Global parameter takes")
        .inFile(doc)
        .onLineContaining("Map<Double, Long> scores");
  }

  @Compilers
  void aSetterTakesItsGettersElementTypes() {
    JavaFileObject doc = docRef("List<String> tags(); void tags(List<Long> tags);");
    assertThat(compile(doc))
        .hadErrorContaining(
            "[P4J-SETTER-GETTER-TYPE] the setter DocRef.tags(List<Long>) takes List<Long>, but the getter"
                + " DocRef.tags() of the same field returns List<String>")
        .inFile(doc)
        .onLineContaining("void tags(List<Long> tags);");
  }

  @Compilers
  void typedContainersMatchingTheManifestCompileClean() {
    JavaFileObject doc = docRef("""
        List<String> tags();
          void tags(List<String> tags);
          @Field("ids") List<Integer> idsNarrowed();
          Map<String, Long> counts();
          void counts(Map<String, Long> counts);
          @Field("tags") NativeObject tagsObject();
          @Field("tags") void tagsObject(NativeObject tags);
          NativeObject legacy();""");
    assertThat(checked(doc)).succeededWithoutWarnings();
  }

  @Compilers
  void aGetterOfOtherElementsIsReportedWithTheTypeToDeclare() {
    JavaFileObject doc = docRef("@Field(\"ids\") List<String> idTexts();");
    assertThat(checked(doc))
        .hadErrorContaining(
            "[P4J-NATIVE-FIELD-TYPE] DocRef.idTexts() returns List<String>, but the field \"ids\" of \"kv.Doc\" is"
                + " list<int64>: its elements: the native side returns an integer. Declare the getter as List<Long>")
        .inFile(doc)
        .onLineContaining("List<String> idTexts();");
  }

  @Compilers
  void aContainerOfObjectsIsDeclaredWithTheNameOfTheirInterface() {
    JavaFileObject doc = docRef("@Field(\"pages\") List<String> pageTitles();");
    assertThat(checked(doc))
        .hadErrorContaining(
            "[P4J-NATIVE-FIELD-TYPE] DocRef.pageTitles() returns List<String>, but the field \"pages\" of \"kv.Doc\""
                + " is list<kv.Page>: its elements: the native side returns an object of type kv.Page. Declare the"
                + " getter as List<Page>, where Page is your @Object(\"kv.Page\") interface")
        .inFile(doc)
        .onLineContaining("List<String> pageTitles();");
  }

  @Compilers
  void aSetterOfOtherElementsIsReportedOnItsParameter() {
    JavaFileObject doc = docRef("@Field(\"counts\") void countsAsText(Map<String, String> counts);");
    assertThat(checked(doc))
        .hadErrorContaining(
            "[P4J-NATIVE-SETTER-TYPE] DocRef.countsAsText(Map<String,String>) takes Map<String,String>, but the"
                + " field \"counts\" of \"kv.Doc\" is map<string, int64>: its values: the native side takes an"
                + " integer. Declare the parameter as Map<String, Long>")
        .inFile(doc)
        .onLineContaining("Map<String, String> counts");
  }

  @Compilers
  void aFieldOfALibraryBuiltBeforeAbi210AsksForARebuild() {
    JavaFileObject doc = docRef("List<String> legacy();");
    assertThat(checked(doc))
        .hadErrorContaining(
            "[P4J-NATIVE-FIELD-TYPE] DocRef.legacy() returns List<String>, but the field \"legacy\" of \"kv.Doc\" is"
                + " List: the library records no element type for this List field (it was built before packed4j's"
                + " native ABI 2.10, which records list<T> and map<K, V>); rebuild it against packed4j's current"
                + " native-core, or read the field as NativeObject. Declare the getter as NativeObject")
        .inFile(doc)
        .onLineContaining("List<String> legacy();");
  }
}
