package dev.packed4j.processor.validate;

import dev.packed4j.processor.model.RuntimeNames;
import dev.packed4j.processor.model.TypeModel;
import dev.packed4j.processor.model.TypeModel.PrimitiveKind;
import dev.packed4j.types.JavaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.Optional;
import java.util.function.Function;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.PrimitiveType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Decides whether a Java type can cross the native boundary, and builds its {@link TypeModel}; when it cannot, says
 * why in words that fit the catalog's messages.
 */
final class TypeMapper {

  /** The outcome of mapping one type. */
  sealed interface Mapping {
    /** The type is supported. */
    record Mapped(TypeModel model) implements Mapping {}

    /** The type (or a part of it) is not supported, for {@code reason}. */
    record Unsupported(String reason) implements Mapping {}

    /** The type (or a part of it) is an interface without {@code @Object}. */
    record NotObject(TypeElement iface) implements Mapping {}

    /** The type (or a part of it) does not resolve (yet). */
    record Unresolved(TypeMirror type) implements Mapping {}
  }

  private static final String ARRAY_REASON =
      "arrays other than byte[] do not cross the boundary; float[], double[], int[] and long[] parameters are"
          + " copied into a 1-D NDArray";

  private static final String CHAR_REASON =
      "char has no wire type; pass a code point as int, or text as String";

  private final Elements elements;
  private final Types types;

  TypeMapper(Elements elements, Types types) {
    this.elements = elements;
    this.types = types;
  }

  /** Maps the type of a {@code @Global} method's parameter or, when {@code result}, its result. */
  Mapping signature(TypeMirror type, boolean result) {
    if (type.getKind() == TypeKind.ARRAY) {
      return signatureArray((ArrayType) type, result);
    }
    return switch (type.getKind()) {
      case VOID ->
          result
              ? new Mapping.Mapped(new TypeModel.VoidType())
              : new Mapping.Unsupported("void is only a result type");
      case BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE ->
          new Mapping.Mapped(new TypeModel.Primitive(primitiveKind(type.getKind())));
      default -> reference(type);
    };
  }

  /**
   * Maps the type of an {@code @Object} getter or setter: a field read or written in place. A {@code List} or
   * {@code Map} (or their live views) takes the element types a {@code @Global} result or parameter takes, since the
   * runtime converts a container field with the same codecs ({@code FieldSlot.readObject}, {@code writeObject}).
   *
   * @param type the getter's result or the setter's parameter type
   * @param write whether a setter writes the field (the reasons say "write" rather than "read")
   */
  Mapping field(TypeMirror type, boolean write) {
    String access = write ? "write" : "read";
    if (type.getKind() == TypeKind.ARRAY
        && ((ArrayType) type).getComponentType().getKind() != TypeKind.BYTE) {
      return fieldArray((ArrayType) type, access);
    }
    switch (type.getKind()) {
      case INT, LONG, DOUBLE, BOOLEAN -> {
        return new Mapping.Mapped(new TypeModel.Primitive(primitiveKind(type.getKind())));
      }
      case BYTE, SHORT -> {
        return new Mapping.Unsupported("native integer fields are int32 or int64; read them as int or long");
      }
      case FLOAT -> {
        return new Mapping.Unsupported("native floating-point fields are float64; read them as double");
      }
      case CHAR -> {
        return new Mapping.Unsupported(CHAR_REASON);
      }
      case VOID -> {
        return new Mapping.Unsupported("void reads nothing");
      }
      default -> {
        Mapping mapping = reference(type);
        if (mapping instanceof Mapping.Mapped mapped) {
          return switch (mapped.model()) {
            case TypeModel.StringType s -> mapping;
            case TypeModel.ObjectType o -> mapping;
            case TypeModel.NativeObjectType n -> mapping;
            case TypeModel.Boxed boxed ->
                new Mapping.Unsupported(
                    "a field always has a value, so read it as the primitive "
                        + boxed.kind().name().toLowerCase(Locale.ROOT));
            case TypeModel.ListType l -> mapping;
            case TypeModel.MapType m -> mapping;
            case TypeModel.OptionalType o ->
                new Mapping.Unsupported(
                    "a native field is never optional<T> (reflection records no std::optional field), and an unset"
                        + " object or container field reads as null; declare the type itself");
            case TypeModel.BytesType b ->
                new Mapping.Unsupported(
                    "a native field holds bytes only as a Bytes object, which a field accessor takes as"
                        + " NativeObject");
            // A tensor field holds an NDArray object, which the getter returns as a new reference (a result's) and
            // the setter stores by reference (the runtime refuses a tensor over Java memory there).
            case TypeModel.NDArrayType t -> mapping;
            // A function or an any field is a reference to an object, which only NativeObject reads and writes in
            // place (Conversions.fieldJavaTypeFor says the same of the native field).
            case TypeModel.PackedFunctionType f -> objectField("a function", access);
            case TypeModel.FunctionalType f -> objectField("a function", access);
            case TypeModel.AnyType a -> objectField("an any", access);
            default -> new Mapping.Unsupported(
                "fields of this type cannot be " + (write ? "written" : "read") + " in place");
          };
        }
        return mapping;
      }
    }
  }

  /**
   * Why a field is not read or written as an array (byte[] aside): a native field holds a tensor as an NDArray
   * object, which a field accessor takes as NDArray, and a list as a List (of float64, so List<Double> for float[]).
   */
  private Mapping fieldArray(ArrayType type, String access) {
    TypeMirror component = type.getComponentType();
    String reason = "a native field never holds a Java array: " + access + " a tensor (NDArray) field as NDArray";
    if (component.getKind() == TypeKind.CHAR) {
      return new Mapping.Unsupported(reason + ", or a string field as String");
    }
    Optional<String> list =
        component.getKind() == TypeKind.FLOAT ? Optional.of("List<Double>") : listForm(type);
    return new Mapping.Unsupported(reason + list.map(l -> ", or a list field as " + l).orElse(""));
  }

  /** Why a field that holds an object is not accessed as the Java type of its value: it takes NativeObject. */
  private static Mapping.Unsupported objectField(String what, String access) {
    return new Mapping.Unsupported(what + " field is an object field: " + access + " it as NativeObject");
  }

  /** Maps a reference type: the top level of a signature, or an element of a container. */
  private Mapping reference(TypeMirror type) {
    return switch (type.getKind()) {
      case CHAR -> new Mapping.Unsupported(CHAR_REASON);
      case ARRAY -> array((ArrayType) type);
      case ERROR -> new Mapping.Unresolved(Readiness.firstError(type).orElse(type));
      case TYPEVAR ->
          new Mapping.Unsupported(type + " is a type variable, which has no concrete type to convert");
      case WILDCARD ->
          new Mapping.Unsupported(
              "the wildcard " + Display.type(type) + " has no single conversion; write the type itself");
      case DECLARED -> declared((DeclaredType) type);
      default -> new Mapping.Unsupported(Display.type(type) + " has no wire type");
    };
  }

  /**
   * A top-level array: byte[] is bytes; float[], double[], int[] and long[] parameters are copied into a 1-D
   * NDArray; a numeric array result would be a second copy of a tensor, so it is declared NDArray.
   */
  private Mapping signatureArray(ArrayType type, boolean result) {
    Optional<PrimitiveKind> tensorElement = tensorElement(type.getComponentType());
    if (tensorElement.isEmpty()) {
      return array(type);
    }
    if (result) {
      return new Mapping.Unsupported(
          "a native function returns a tensor as an NDArray; declare NDArray and copy it out with to"
              + Display.type(types.boxedClass((PrimitiveType) type.getComponentType()).asType())
                  .replace("Integer", "Int")
              + "Array()");
    }
    return new Mapping.Mapped(new TypeModel.ArrayTensorType(tensorElement.get()));
  }

  /** The element kind of an array that a parameter copies into a 1-D tensor. */
  private static Optional<PrimitiveKind> tensorElement(TypeMirror component) {
    return switch (component.getKind()) {
      case FLOAT -> Optional.of(PrimitiveKind.FLOAT);
      case DOUBLE -> Optional.of(PrimitiveKind.DOUBLE);
      case INT -> Optional.of(PrimitiveKind.INT);
      case LONG -> Optional.of(PrimitiveKind.LONG);
      default -> Optional.empty();
    };
  }

  /**
   * An array where it is not a parameter of its own (a top-level array that is not copied into a tensor, or an
   * array inside a functional interface's type arguments): says which type to declare instead.
   */
  private Mapping array(ArrayType type) {
    if (type.getComponentType().getKind() == TypeKind.BYTE) {
      return new Mapping.Mapped(new TypeModel.BytesType());
    }
    TypeMirror component = type.getComponentType();
    if (tensorElement(component).isPresent()) {
      return new Mapping.Unsupported(
          Display.type(type) + " crosses only as a parameter of its own (copied into a 1-D NDArray); in its place"
              + " declare NDArray");
    }
    String advice;
    if (component.getKind() == TypeKind.CHAR) {
      advice = "use String for text, or List<Integer> for code points";
    } else if (component.getKind() == TypeKind.ARRAY) {
      Optional<String> list = listForm(type);
      advice =
          tensorDimensions(type) > 0
              ? "use a " + tensorDimensions(type) + "-D NDArray" + list.map(l -> " or " + l).orElse("")
              : list.map(l -> "use " + l).orElse("");
    } else if (component.getKind() == TypeKind.BOOLEAN) {
      advice = "use List<Boolean>";
    } else if (component.getKind().isPrimitive()) {
      advice = "use " + listForm(type).orElseThrow() + " or an NDArray";
    } else {
      Mapping element = reference(component);
      if (element instanceof Mapping.Unsupported unsupported) {
        return new Mapping.Unsupported(
            ARRAY_REASON + "; nor does its element type " + Display.type(component) + ": " + unsupported.reason());
      }
      if (!(element instanceof Mapping.Mapped)) {
        return element;
      }
      advice = "use List<" + Display.type(component) + ">";
    }
    return new Mapping.Unsupported(ARRAY_REASON + (advice.isEmpty() ? "" : "; " + advice));
  }

  /**
   * An array as a type argument of {@code owner} (a container, an Optional or a functional interface): names
   * {@code owner} with the array replaced by a type that crosses there, NDArray for an array of numbers.
   */
  private Mapping arrayArgument(DeclaredType owner, int index) {
    ArrayType array = (ArrayType) owner.getTypeArguments().get(index);
    if (array.getComponentType().getKind() == TypeKind.BYTE) {
      return new Mapping.Mapped(new TypeModel.BytesType());
    }
    Optional<String> instead =
        tensorDimensions(array) > 0
            ? Optional.of("NDArray")
            : array.getComponentType().getKind() == TypeKind.CHAR ? Optional.of("String") : listForm(array);
    if (instead.isEmpty()) {
      return array(array);
    }
    String what =
        tensorElement(array.getComponentType()).isPresent()
            ? Display.type(array) + " crosses only as a parameter of its own (copied into a 1-D NDArray)"
            : ARRAY_REASON;
    String ownerName = Display.type((TypeElement) owner.asElement());
    if (index == 0 && (ownerName.equals("Map") || ownerName.equals("NativeMap"))) {
      return new Mapping.Unsupported(what + "; map keys must be String, a boxed integer (Byte, Short, Integer, Long)"
          + " or an @Object type");
    }
    // The owner with this argument replaced, the others as written (a String replace would change them too).
    List<String> arguments = new ArrayList<>();
    for (int i = 0; i < owner.getTypeArguments().size(); i++) {
      arguments.add(i == index ? instead.get() : Display.type(owner.getTypeArguments().get(i)));
    }
    String replaced = ownerName + "<" + String.join(",", arguments) + ">";
    return new Mapping.Unsupported(what + "; in " + Display.type(owner) + " declare " + replaced);
  }

  /**
   * The number of dimensions of the tensor that holds an array of numbers ({@code float[][]} is 2-D), or 0 when
   * its innermost element is not a number (boolean, char or a reference type).
   */
  private static int tensorDimensions(ArrayType type) {
    int dimensions = 1;
    TypeMirror component = type.getComponentType();
    while (component.getKind() == TypeKind.ARRAY) {
      dimensions++;
      component = ((ArrayType) component).getComponentType();
    }
    return switch (component.getKind()) {
      case BYTE, SHORT, INT, LONG, FLOAT, DOUBLE -> dimensions;
      default -> 0;
    };
  }

  /**
   * The type that holds an array's elements in a container: {@code List<List<Float>>} for {@code float[][]},
   * byte[] as itself, char[] as String; empty when its element type does not cross.
   */
  private Optional<String> listForm(ArrayType type) {
    TypeMirror component = type.getComponentType();
    if (component.getKind() == TypeKind.BYTE) {
      return Optional.of("byte[]");
    }
    if (component.getKind() == TypeKind.CHAR) {
      return Optional.of("String");
    }
    Optional<String> element =
        switch (component.getKind()) {
          case BOOLEAN, SHORT, INT, LONG, FLOAT, DOUBLE ->
              Optional.of(Display.type(types.boxedClass((PrimitiveType) component).asType()));
          case ARRAY -> listForm((ArrayType) component);
          default ->
              reference(component) instanceof Mapping.Mapped
                  ? Optional.of(Display.type(component))
                  : Optional.empty();
        };
    return element.map(e -> "List<" + e + ">");
  }

  private Mapping declared(DeclaredType type) {
    TypeElement element = (TypeElement) type.asElement();
    String name = element.getQualifiedName().toString();
    switch (name) {
      case "java.lang.Boolean" -> {
        return boxed(PrimitiveKind.BOOLEAN);
      }
      case "java.lang.Byte" -> {
        return boxed(PrimitiveKind.BYTE);
      }
      case "java.lang.Short" -> {
        return boxed(PrimitiveKind.SHORT);
      }
      case "java.lang.Integer" -> {
        return boxed(PrimitiveKind.INT);
      }
      case "java.lang.Long" -> {
        return boxed(PrimitiveKind.LONG);
      }
      case "java.lang.Float" -> {
        return boxed(PrimitiveKind.FLOAT);
      }
      case "java.lang.Double" -> {
        return boxed(PrimitiveKind.DOUBLE);
      }
      case "java.lang.Character" -> {
        return new Mapping.Unsupported(CHAR_REASON);
      }
      case "java.lang.String" -> {
        return new Mapping.Mapped(new TypeModel.StringType());
      }
      case "java.lang.Object" -> {
        return new Mapping.Mapped(new TypeModel.AnyType());
      }
      case "java.util.List" -> {
        return container(type, "List").map(args -> new TypeModel.ListType(args.get(0), false));
      }
      case "java.util.Map" -> {
        return map(type, "Map", false);
      }
      case "java.util.Optional" -> {
        return optional(type);
      }
      case AnnotationNames.OBJECT -> {
        return new Mapping.Unsupported(
            "this Object is the @Object annotation, whose import hides java.lang.Object; write java.lang.Object");
      }
      default -> {
        // Runtime types and user types below.
      }
    }
    if (name.equals(RuntimeNames.runtimeType(RuntimeNames.NDARRAY))) {
      return new Mapping.Mapped(new TypeModel.NDArrayType());
    }
    if (name.equals(RuntimeNames.runtimeType(RuntimeNames.NATIVE_OBJECT))) {
      return new Mapping.Mapped(new TypeModel.NativeObjectType());
    }
    if (name.equals(RuntimeNames.runtimeType(RuntimeNames.PACKED_FUNCTION))) {
      return new Mapping.Mapped(new TypeModel.PackedFunctionType());
    }
    if (name.equals(RuntimeNames.runtimeType(RuntimeNames.NATIVE_LIST))) {
      return container(type, "NativeList").map(args -> new TypeModel.ListType(args.get(0), true));
    }
    if (name.equals(RuntimeNames.runtimeType(RuntimeNames.NATIVE_MAP))) {
      return map(type, "NativeMap", true);
    }
    Optional<Annotations> object = Annotations.find(element, AnnotationNames.OBJECT);
    if (object.isEmpty() && element.getKind() == ElementKind.INTERFACE && isFunctional(element)) {
      return functional(type, element);
    }
    if (object.isPresent()) {
      if (element.getKind() != ElementKind.INTERFACE) {
        return new Mapping.Unsupported(
            Display.type(element) + " is annotated @Object but is a " + Display.kind(element)
                + ", and only interfaces view native objects");
      }
      return new Mapping.Mapped(
          new TypeModel.ObjectType(ModelNames.qualifiedName(element), object.get().string().orElse("")));
    }
    return unsupportedDeclared(element);
  }

  /**
   * Whether an interface is taken as a functional interface, by packed4j-types' one rule
   * ({@link JavaType#isFunctionalInterface}), which bindChecked applies too: one annotated
   * {@code @FunctionalInterface}, or a JDK interface with one abstract method. A user's interface without the
   * annotation stays a candidate for {@code @Object}, whose diagnostic says so.
   */
  private boolean isFunctional(TypeElement element) {
    return JavaType.isFunctionalInterface(
        Annotations.isPresent(element, "java.lang.FunctionalInterface"),
        elements.getPackageOf(element).getQualifiedName().toString(),
        abstractMethods(element).size());
  }

  private List<ExecutableElement> abstractMethods(TypeElement element) {
    List<ExecutableElement> methods = new ArrayList<>();
    for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(element))) {
      if (method.getModifiers().contains(Modifier.ABSTRACT) && !isObjectMethod(method)) {
        methods.add(method);
      }
    }
    return methods;
  }

  /** equals, hashCode and toString redeclared by an interface (Comparator's equals) are not its function. */
  private static boolean isObjectMethod(ExecutableElement method) {
    String name = method.getSimpleName().toString();
    int parameters = method.getParameters().size();
    return (name.equals("equals") && parameters == 1)
        || ((name.equals("hashCode") || name.equals("toString")) && parameters == 0);
  }

  /** Maps a functional interface from its one method's parameter and result types. */
  private Mapping functional(DeclaredType type, TypeElement element) {
    String simple = Display.type(type);
    List<ExecutableElement> methods = abstractMethods(element);
    if (methods.size() != 1) {
      return new Mapping.Unsupported(simple + " is not a functional interface: it has " + methods.size()
          + " abstract methods, and a callable has one");
    }
    ExecutableElement method = methods.get(0);
    if (!method.getTypeParameters().isEmpty()) {
      return new Mapping.Unsupported("the method " + method.getSimpleName() + " of " + simple
          + " is generic, and a callback needs concrete types");
    }
    if (!element.getTypeParameters().isEmpty() && type.getTypeArguments().isEmpty()) {
      return new Mapping.Unsupported("the raw type " + simple + " has no concrete types; write its type arguments");
    }
    List<TypeModel> typeArguments = new ArrayList<>();
    for (int index = 0; index < type.getTypeArguments().size(); index++) {
      TypeMirror argument = type.getTypeArguments().get(index);
      Mapping mapping = argument.getKind() == TypeKind.ARRAY
          ? arrayArgument(type, index)
          : reference(argument);
      if (!(mapping instanceof Mapping.Mapped mapped)) {
        return within(mapping, simple, "type argument " + Display.type(argument));
      }
      typeArguments.add(mapped.model());
    }
    ExecutableType member = (ExecutableType) types.asMemberOf(type, method);
    List<TypeModel> parameters = new ArrayList<>();
    for (int i = 0; i < member.getParameterTypes().size(); i++) {
      Mapping mapping = signature(member.getParameterTypes().get(i), false);
      if (!(mapping instanceof Mapping.Mapped mapped)) {
        return within(mapping, simple, "parameter " + i + " of " + method.getSimpleName());
      }
      parameters.add(mapped.model());
    }
    Mapping resultMapping = signature(member.getReturnType(), true);
    if (!(resultMapping instanceof Mapping.Mapped mappedResult)) {
      return within(resultMapping, simple, "the result of " + method.getSimpleName());
    }
    TypeModel result = mappedResult.model();
    boolean typed =
        parameters.size() <= 4
            && parameters.stream()
                .allMatch(p -> p instanceof TypeModel.Primitive || p instanceof TypeModel.StringType)
            && (result instanceof TypeModel.Primitive || result instanceof TypeModel.VoidType);
    String signature = signatureOf(parameters, result);
    return new Mapping.Mapped(
        new TypeModel.FunctionalType(
            ModelNames.qualifiedName(element),
            typeArguments,
            method.getSimpleName().toString(),
            parameters,
            result,
            signature,
            typed,
            closable(element)));
  }

  /**
   * Whether a closure out of this interface can also be a {@code NativeClosure}: not when the interface has an
   * instance {@code close()} or {@code packedFunction()} of its own (abstract or default), which would clash with
   * that interface's default methods (a static one does not).
   */
  private boolean closable(TypeElement element) {
    for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(element))) {
      String name = method.getSimpleName().toString();
      if (!method.getModifiers().contains(Modifier.STATIC)
          && method.getParameters().isEmpty()
          && (name.equals("close") || name.equals("packedFunction"))) {
        return false;
      }
    }
    return true;
  }

  /** A failure inside a functional interface, said where; a type not resolved yet or not annotated stays as is. */
  private static Mapping within(Mapping mapping, String iface, String where) {
    return mapping instanceof Mapping.Unsupported unsupported
        ? new Mapping.Unsupported("in the functional interface " + iface + ", " + where + ": "
            + unsupported.reason())
        : mapping;
  }

  /**
   * {@code "(int64, string) -> bool"}: the signature a callback or exported function records, printed by
   * packed4j-types (the grammar of P4JFunctionGetSignature).
   */
  static String signatureOf(List<TypeModel> parameters, TypeModel result) {
    return JavaType.signatureOf(parameters.stream().map(TypeModel::javaType).toList(), result.javaType()).toString();
  }

  private Mapping unsupportedDeclared(TypeElement element) {
    String simple = Display.type(element);
    String packageName = elements.getPackageOf(element).getQualifiedName().toString();
    boolean jdk = packageName.startsWith("java.") || packageName.startsWith("javax.");
    if (isSubtypeOfErasure(element, "java.util.List")) {
      return new Mapping.Unsupported("declare List<T> rather than " + simple + ": the runtime builds the list");
    }
    if (isSubtypeOfErasure(element, "java.util.Map")) {
      return new Mapping.Unsupported("declare Map<K,V> rather than " + simple + ": the runtime builds the map");
    }
    if (isSubtypeOfErasure(element, "java.lang.Iterable")) {
      return new Mapping.Unsupported(simple + " is not a container packed4j converts; use List<T>");
    }
    switch (element.getQualifiedName().toString()) {
      case "java.util.OptionalInt" -> {
        return new Mapping.Unsupported("use Optional<Integer> rather than OptionalInt");
      }
      case "java.util.OptionalLong" -> {
        return new Mapping.Unsupported("use Optional<Long> rather than OptionalLong");
      }
      case "java.util.OptionalDouble" -> {
        return new Mapping.Unsupported("use Optional<Double> rather than OptionalDouble");
      }
      default -> {
        // The general cases below.
      }
    }
    if (element.getKind() == ElementKind.ENUM) {
      return new Mapping.Unsupported(
          "the enum " + simple + " has no wire type; pass its name as String or its ordinal as int");
    }
    if (element.getKind() == ElementKind.INTERFACE) {
      if (!jdk) {
        return new Mapping.NotObject(element);
      }
      // A functional one was mapped before getting here (isFunctional).
      return new Mapping.Unsupported(simple + " is a JDK interface with no native counterpart");
    }
    return new Mapping.Unsupported(
        simple + " is a " + Display.kind(element) + ", and a native object is viewed through an @Object interface");
  }

  private Mapping optional(DeclaredType type) {
    Mapping mapping = container(type, "Optional").map(args -> new TypeModel.OptionalType(args.get(0)));
    if (mapping instanceof Mapping.Mapped mapped
        && ((TypeModel.OptionalType) mapped.model()).element() instanceof TypeModel.OptionalType) {
      return new Mapping.Unsupported(
          "Optional<Optional<T>> cannot be told apart from Optional<T> on the wire (both are none or a value)");
    }
    return mapping;
  }

  private Mapping map(DeclaredType type, String name, boolean live) {
    Mapping mapping = container(type, name).map(args -> new TypeModel.MapType(args.get(0), args.get(1), live));
    if (mapping instanceof Mapping.Mapped mapped) {
      TypeModel key = ((TypeModel.MapType) mapped.model()).key();
      boolean supportedKey =
          switch (key) {
            case TypeModel.StringType s -> true;
            case TypeModel.ObjectType o -> true;
            case TypeModel.Boxed boxed ->
                boxed.kind() == PrimitiveKind.BYTE
                    || boxed.kind() == PrimitiveKind.SHORT
                    || boxed.kind() == PrimitiveKind.INT
                    || boxed.kind() == PrimitiveKind.LONG;
            default -> false;
          };
      if (!supportedKey) {
        return new Mapping.Unsupported(
            "map keys must be String, a boxed integer (Byte, Short, Integer, Long) or an @Object type, not "
                + Display.type(type.getTypeArguments().get(0)));
      }
    }
    return mapping;
  }

  /** Maps the type arguments of a container; the first one that fails decides the outcome. */
  private ContainerArguments container(DeclaredType type, String name) {
    if (type.getTypeArguments().isEmpty()) {
      return new ContainerArguments(
          null, new Mapping.Unsupported("the raw type " + name + " has no element type; write its type arguments"));
    }
    ArrayList<TypeModel> models = new ArrayList<>();
    for (int index = 0; index < type.getTypeArguments().size(); index++) {
      TypeMirror argument = type.getTypeArguments().get(index);
      Mapping mapping = argument.getKind() == TypeKind.ARRAY
          ? arrayArgument(type, index)
          : reference(argument);
      if (!(mapping instanceof Mapping.Mapped mapped)) {
        return new ContainerArguments(null, mapping);
      }
      models.add(mapped.model());
    }
    return new ContainerArguments(models, null);
  }

  /** Either the mapped type arguments of a container, or the failure of one of them. */
  private record ContainerArguments(List<TypeModel> models, Mapping failure) {
    Mapping map(Function<List<TypeModel>, TypeModel> build) {
      return failure != null ? failure : new Mapping.Mapped(build.apply(models));
    }
  }

  private boolean isSubtypeOfErasure(TypeElement element, String supertype) {
    TypeElement superElement = elements.getTypeElement(supertype);
    return superElement != null
        && types.isSubtype(types.erasure(element.asType()), types.erasure(superElement.asType()));
  }

  /**
   * Adds to {@code warnings} the lint names ("deprecation", "removal") of the deprecated types {@code type} is
   * built from: naming it in generated code warns so.
   */
  void noteDeprecated(TypeMirror type, Set<String> warnings) {
    switch (type.getKind()) {
      case ARRAY -> noteDeprecated(((ArrayType) type).getComponentType(), warnings);
      case DECLARED -> {
        DeclaredType declared = (DeclaredType) type;
        Deprecations.noteType(elements, (TypeElement) declared.asElement(), warnings);
        declared.getTypeArguments().forEach(t -> noteDeprecated(t, warnings));
      }
      default -> {}
    }
  }

  private static Mapping boxed(PrimitiveKind kind) {
    return new Mapping.Mapped(new TypeModel.Boxed(kind));
  }

  private static PrimitiveKind primitiveKind(TypeKind kind) {
    return switch (kind) {
      case BOOLEAN -> PrimitiveKind.BOOLEAN;
      case BYTE -> PrimitiveKind.BYTE;
      case SHORT -> PrimitiveKind.SHORT;
      case INT -> PrimitiveKind.INT;
      case LONG -> PrimitiveKind.LONG;
      case FLOAT -> PrimitiveKind.FLOAT;
      case DOUBLE -> PrimitiveKind.DOUBLE;
      default -> throw new IllegalArgumentException(kind + " has no primitive wire kind");
    };
  }
}
