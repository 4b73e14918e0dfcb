package dev.packed4j.processor.model;

/**
 * Names of the runtime's types, shared by validation (which recognises them in signatures) and generation (which
 * emits them). The processor does not depend on the runtime jar: generated code does.
 */
public final class RuntimeNames {
  /** The user-facing runtime package: ObjectRef, NativeObject, PackedFunction, NativeList, NativeMap. */
  public static final String RUNTIME_PACKAGE = "dev.packed4j.runtime";

  /** The package for generated code: FunctionSite, Codec, Codecs, ObjectType, FieldSlot, FieldKind. */
  public static final String BINDING_PACKAGE = "dev.packed4j.runtime.binding";

  public static final String NATIVE_OBJECT = "NativeObject";
  public static final String PACKED_FUNCTION = "PackedFunction";
  public static final String NATIVE_LIST = "NativeList";
  public static final String NATIVE_MAP = "NativeMap";
  public static final String OBJECT_REF = "ObjectRef";
  public static final String NDARRAY = "NDArray";
  public static final String NATIVE_CLOSURE = "NativeClosure";

  private RuntimeNames() {}

  /** {@code dev.packed4j.runtime.<simpleName>}. */
  public static String runtimeType(String simpleName) {
    return RUNTIME_PACKAGE + "." + simpleName;
  }
}
