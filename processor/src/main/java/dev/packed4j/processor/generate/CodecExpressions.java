package dev.packed4j.processor.generate;

import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.ParameterizedTypeName;
import com.squareup.javapoet.TypeName;
import dev.packed4j.processor.model.TypeModel;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.Optional;

/**
 * The runtime codec expression for a type: a constant of {@code Codecs} for a leaf type ({@code Codecs.LONG}),
 * composed with its factories for the rest ({@code Codecs.list(Codecs.map(Codecs.STRING, Codecs.LONG))}).
 */
final class CodecExpressions {
  private CodecExpressions() {}

  /**
   * The {@code Codecs} constant for a leaf type, which generated code names directly; empty for a type whose codec
   * is composed, which generated code keeps in a constant of its own.
   */
  static Optional<CodeBlock> leaf(TypeModel type) {
    String constant =
        switch (type) {
          case TypeModel.Boxed b -> b.kind().name();
          case TypeModel.StringType s -> "STRING";
          case TypeModel.BytesType b -> "BYTES";
          case TypeModel.AnyType a -> "ANY";
          case TypeModel.NativeObjectType n -> "NATIVE_OBJECT";
          case TypeModel.PackedFunctionType f -> "PACKED_FUNCTION";
          case TypeModel.NDArrayType n -> "NDARRAY";
          case TypeModel.ArrayTensorType a -> a.element().name() + "_ARRAY";
          default -> null;
        };
    return Optional.ofNullable(constant).map(c -> CodeBlock.of("$T.$L", RuntimeClasses.CODECS, c));
  }

  /** The codec expression for a reference type. */
  static CodeBlock of(TypeModel type) {
    Optional<CodeBlock> leaf = leaf(type);
    if (leaf.isPresent()) {
      return leaf.get();
    }
    return switch (type) {
      case TypeModel.ObjectType o -> CodeBlock.of("$T.object($T.class)", RuntimeClasses.CODECS, JavaTypes.of(o));
      case TypeModel.ListType l ->
          CodeBlock.of("$T.$L($L)", RuntimeClasses.CODECS, l.live() ? "nativeList" : "list", of(l.element()));
      case TypeModel.MapType m ->
          CodeBlock.of(
              "$T.$L($L, $L)", RuntimeClasses.CODECS, m.live() ? "nativeMap" : "map", of(m.key()), of(m.value()));
      case TypeModel.OptionalType o -> CodeBlock.of("$T.optional($L)", RuntimeClasses.CODECS, of(o.element()));
      case TypeModel.FunctionalType f -> functional(f);
      default ->
          throw new IllegalArgumentException(
              type + " has no codec of its own: a primitive takes its box's, void none");
    };
  }

  /** The codec of a type that may be a primitive: a primitive's box. */
  private static CodeBlock boxedOf(TypeModel type) {
    return type instanceof TypeModel.Primitive p ? of(new TypeModel.Boxed(p.kind())) : of(type);
  }

  /**
   * {@code Callbacks.<F>typed(F.class, signature, f -> wire body, function -> closure)} or
   * {@code Callbacks.<F>packed(...)}: the adapters of a functional interface, typed, no reflection.
   */
  private static CodeBlock functional(TypeModel.FunctionalType f) {
    TypeName type = JavaTypes.of(f);
    TypeName raw = type instanceof ParameterizedTypeName parameterized ? parameterized.rawType : type;
    CodeBlock callee = CodeBlock.of("f.$L", f.method());
    CodeBlock toNative =
        f.typed()
            ? CodeBlock.of("f -> $L", wireBody(callee, f.parameters(), f.result()))
            : CodeBlock.of("f -> $L", packedBody(callee, f.parameters(), f.result()));
    // A closure out is also a NativeClosure (closable, and passed back as its native function) where it can be.
    CodeBlock closureType =
        f.closable() ? CodeBlock.of("($T & $T) ", type, RuntimeClasses.NATIVE_CLOSURE) : CodeBlock.of("");
    CodeBlock codec = CodeBlock.of(
        "$T.<$T>$L($T.class, $S,$W$L,$Wfunction -> $L$L -> $L)",
        RuntimeClasses.CALLBACKS,
        type,
        f.typed() ? "typed" : "packed",
        raw,
        f.signature(),
        toNative,
        closureType,
        lambdaParameters(f.parameters().size()),
        closureCall(f, parameterNames(f.parameters().size())));
    return f.typed() ? withStringSpans(f.parameters(), codec) : codec;
  }

  /**
   * Whether the codec of {@code type} casts a lambda to a parameterized intersection, such as
   * {@code (Function<String, String> & NativeClosure) a0 -> ...}. ECJ calls that cast unchecked (javac does not, and
   * nothing about it is unchecked), so the constant holding such a codec suppresses "unchecked", and only such a
   * constant: ECJ also warns about a suppression that suppresses nothing.
   */
  static boolean castsParameterizedClosure(TypeModel type) {
    return switch (type) {
      case TypeModel.ListType l -> castsParameterizedClosure(l.element());
      case TypeModel.MapType m -> castsParameterizedClosure(m.key()) || castsParameterizedClosure(m.value());
      case TypeModel.OptionalType o -> castsParameterizedClosure(o.element());
      case TypeModel.FunctionalType f ->
          (f.closable() && !f.typeArguments().isEmpty())
              || f.parameters().stream().anyMatch(CodecExpressions::castsParameterizedClosure)
              || castsParameterizedClosure(f.result());
      default -> false;
    };
  }

  /** {@code a0, a1}. */
  private static CodeBlock parameterNames(int arity) {
    CodeBlock.Builder names = CodeBlock.builder();
    for (int i = 0; i < arity; i++) {
      names.add(i == 0 ? "a$L" : ", a$L", i);
    }
    return names.build();
  }

  /** {@code a0} or {@code (a0, a1)} or {@code ()}. */
  private static CodeBlock lambdaParameters(int arity) {
    return arity == 1 ? parameterNames(1) : CodeBlock.of("($L)", parameterNames(arity));
  }

  /**
   * Whether a function of these types has a typed entry: at most four parameters, each a primitive or String, and
   * a primitive or void result.
   */
  public static boolean hasWireForm(List<TypeModel> parameters, TypeModel result) {
    return parameters.size() <= 4
        && parameters.stream().allMatch(p -> p instanceof TypeModel.Primitive || p instanceof TypeModel.StringType)
        && (result instanceof TypeModel.Primitive || result instanceof TypeModel.VoidType);
  }

  /** The name of the string reader {@link #withStringSpans} binds, in a typed body. */
  private static final String SPANS = "spans";

  /**
   * {@code Callbacks.withStringSpans(MethodHandles.lookup(), spans -> expression)} when a typed body of these
   * parameters reads a string (through {@code spans}, which only a class with native access obtains), else
   * {@code expression}.
   */
  static CodeBlock withStringSpans(List<TypeModel> parameters, CodeBlock expression) {
    if (parameters.stream().noneMatch(p -> p instanceof TypeModel.StringType)) {
      return expression;
    }
    return CodeBlock.of(
        "$T.withStringSpans($T.lookup(),$W$L -> $L)",
        RuntimeClasses.CALLBACKS,
        ClassName.get(MethodHandles.class),
        SPANS,
        expression);
  }

  /**
   * {@code (CallbackBodies.Wire2) (a0, a1) -> callee(a0, a1)}: wire values in and out; a string argument is read by
   * {@code spans}, which the caller binds with {@link #withStringSpans}.
   */
  static CodeBlock wireBody(CodeBlock callee, List<TypeModel> parameters, TypeModel result) {
    CodeBlock.Builder call = CodeBlock.builder().add("$L(", callee);
    for (int i = 0; i < parameters.size(); i++) {
      call.add(i == 0 ? "$L" : ", $L", fromWire(parameters.get(i), i));
    }
    CodeBlock invocation = call.add(")").build();
    CodeBlock body =
        switch (result) {
          case TypeModel.VoidType v -> CodeBlock.of("{ $L; return 0L; }", invocation);
          case TypeModel.Primitive p ->
              switch (p.kind()) {
                case BOOLEAN -> CodeBlock.of("$T.fromBoolean($L)", RuntimeClasses.CALLBACKS, invocation);
                case FLOAT, DOUBLE -> CodeBlock.of("$T.fromDouble($L)", RuntimeClasses.CALLBACKS, invocation);
                default -> invocation;
              };
          default -> throw new IllegalArgumentException(result + " has no wire form");
        };
    return CodeBlock.of(
        "($T.Wire$L) $L -> $L",
        RuntimeClasses.CALLBACK_BODIES,
        parameters.size(),
        lambdaParameters(parameters.size()),
        body);
  }

  /** Wire value {@code a<index>} as its parameter's type; a narrowing names the argument when it fails. */
  private static CodeBlock fromWire(TypeModel type, int index) {
    String wire = "a" + index;
    if (type instanceof TypeModel.StringType) {
      return CodeBlock.of("$L.read($L)", SPANS, wire);
    }
    TypeModel.PrimitiveKind kind = ((TypeModel.Primitive) type).kind();
    String conversion =
        switch (kind) {
          case LONG -> null;
          case INT -> "toInt";
          case SHORT -> "toShort";
          case BYTE -> "toByte";
          case BOOLEAN -> "toBoolean";
          case FLOAT -> "toFloat";
          case DOUBLE -> "toDouble";
        };
    if (conversion == null) {
      return CodeBlock.of("$L", wire);
    }
    return switch (kind) {
      case INT, SHORT, BYTE, FLOAT -> CodeBlock.of("$T.$L($L, $L)", RuntimeClasses.CALLBACKS, conversion, wire, index);
      default -> CodeBlock.of("$T.$L($L)", RuntimeClasses.CALLBACKS, conversion, wire);
    };
  }

  /** {@code args -> args.result(codec, callee(args.get(0, codec)))}: arguments decoded by codecs. */
  static CodeBlock packedBody(CodeBlock callee, List<TypeModel> parameters, TypeModel result) {
    CodeBlock.Builder call = CodeBlock.builder().add("$L(", callee);
    for (int i = 0; i < parameters.size(); i++) {
      call.add(i == 0 ? "args.get($L, $L)" : ", args.get($L, $L)", i, boxedOf(parameters.get(i)));
    }
    CodeBlock invocation = call.add(")").build();
    return result instanceof TypeModel.VoidType
        ? CodeBlock.of("($T.Packed) args -> $L", RuntimeClasses.CALLBACK_BODIES, invocation)
        : CodeBlock.of(
            "($T.Packed) args -> args.result($L, $L)", RuntimeClasses.CALLBACK_BODIES, boxedOf(result), invocation);
  }

  /** The body of a closure out: {@code Callbacks.call(function, codec, a0, a1)}. */
  private static CodeBlock closureCall(TypeModel.FunctionalType f, CodeBlock names) {
    CodeBlock arguments = f.parameters().isEmpty() ? CodeBlock.of("") : CodeBlock.of(", $L", names);
    return f.result() instanceof TypeModel.VoidType
        ? CodeBlock.of("$T.callVoid(function$L)", RuntimeClasses.CALLBACKS, arguments)
        : CodeBlock.of("$T.call(function, $L$L)", RuntimeClasses.CALLBACKS, boxedOf(f.result()), arguments);
  }

  /** {@code Codec<T>}. */
  static TypeName codecType(TypeModel type) {
    return ParameterizedTypeName.get(RuntimeClasses.CODEC, JavaTypes.of(type));
  }
}
