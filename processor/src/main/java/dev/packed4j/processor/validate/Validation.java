package dev.packed4j.processor.validate;

import dev.packed4j.processor.manifest.NativeManifest;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/** The validators of one compilation, sharing its {@link CompilationState}. */
public final class Validation {
  private final CompilationState state = new CompilationState();
  private final GlobalValidator globals;
  private final ObjectValidator objects;
  private final FieldPlacement fields = new FieldPlacement();
  private final Readiness readiness;

  public Validation(Elements elements, Types types) {
    this(elements, types, new NativeChecks());
  }

  /**
   * Validation that also checks declarations against a native registry's manifest; {@code verbose} adds the notes
   * about globals only their name could be checked for.
   */
  public Validation(
      Elements elements, Types types, NativeManifest manifest, String manifestName, boolean verbose) {
    this(elements, types, new NativeChecks(manifest, manifestName, verbose));
  }

  private Validation(Elements elements, Types types, NativeChecks nativeChecks) {
    Interfaces interfaces = new Interfaces(elements, types);
    TypeMapper mapper = new TypeMapper(elements, types);
    SignatureChecks checks = new SignatureChecks(elements, types, mapper, state);
    this.globals = new GlobalValidator(elements, interfaces, checks, mapper, nativeChecks, state);
    this.objects = new ObjectValidator(elements, types, interfaces, checks, mapper, state, nativeChecks);
    this.readiness = new Readiness(interfaces, state);
  }

  public CompilationState state() {
    return state;
  }

  public GlobalValidator globals() {
    return globals;
  }

  public ObjectValidator objects() {
    return objects;
  }

  public FieldPlacement fields() {
    return fields;
  }

  public Readiness readiness() {
    return readiness;
  }
}
