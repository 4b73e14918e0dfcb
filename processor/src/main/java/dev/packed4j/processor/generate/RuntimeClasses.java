package dev.packed4j.processor.generate;

import com.squareup.javapoet.ClassName;
import dev.packed4j.processor.model.RuntimeNames;

/** The runtime types generated code names (see "Generated code and the runtime" in docs/architecture.md). */
final class RuntimeClasses {
  static final ClassName FUNCTION_SITE = binding("FunctionSite");
  static final ClassName CODEC = binding("Codec");
  static final ClassName CODECS = binding("Codecs");
  static final ClassName OBJECT_TYPE = binding("ObjectType");
  static final ClassName FIELD_SLOT = binding("FieldSlot");
  static final ClassName FIELD_KIND = binding("FieldKind");
  static final ClassName CALLBACKS = binding("Callbacks");
  static final ClassName CALLBACK_BODIES = binding("CallbackBodies");

  static final ClassName OBJECT_REF = runtime(RuntimeNames.OBJECT_REF);
  static final ClassName OWNED_HANDLE = runtime("OwnedHandle");
  static final ClassName NATIVE_OBJECT = runtime(RuntimeNames.NATIVE_OBJECT);
  static final ClassName PACKED_FUNCTION = runtime(RuntimeNames.PACKED_FUNCTION);
  static final ClassName NATIVE_LIST = runtime(RuntimeNames.NATIVE_LIST);
  static final ClassName NATIVE_MAP = runtime(RuntimeNames.NATIVE_MAP);
  static final ClassName NDARRAY = runtime(RuntimeNames.NDARRAY);
  static final ClassName NATIVE_CLOSURE = runtime(RuntimeNames.NATIVE_CLOSURE);

  static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");
  static final ClassName METHOD_HANDLE = ClassName.get("java.lang.invoke", "MethodHandle");
  static final ClassName METHOD_TYPE = ClassName.get("java.lang.invoke", "MethodType");

  /** The value of {@code @Generated}. */
  static final String PROCESSOR = "dev.packed4j.processor.Packed4jProcessor";

  private RuntimeClasses() {}

  private static ClassName binding(String simpleName) {
    return ClassName.get(RuntimeNames.BINDING_PACKAGE, simpleName);
  }

  private static ClassName runtime(String simpleName) {
    return ClassName.get(RuntimeNames.RUNTIME_PACKAGE, simpleName);
  }
}
