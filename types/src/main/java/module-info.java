/**
 * The one type model of packed4j, with no dependencies, shared by packed4j-processor (compile-time checks against a
 * manifest, the signature of a callback or an exported function), the runtime ({@code Packed4j.bindChecked}, the
 * typed-entry route, the shapes of Java callbacks) and the CLI ({@code packed4j describe}).
 *
 * <p>It owns three things, each written once: the signature grammar that {@code P4JFunctionGetSignature} returns
 * ({@link dev.packed4j.types.NativeType}, {@link dev.packed4j.types.Signature}: one parser, one printer); which Java
 * type meets which native type as an argument, a result or a field, narrowing and functional interfaces included
 * ({@link dev.packed4j.types.Conversions} over the small Java model {@link dev.packed4j.types.JavaType}, with
 * {@link dev.packed4j.types.Narrowing} for the value checks); and the machine carrier of each native type on a typed
 * entry ({@link dev.packed4j.types.Carrier}).
 */
module dev.packed4j.types {
  exports dev.packed4j.types;
}
