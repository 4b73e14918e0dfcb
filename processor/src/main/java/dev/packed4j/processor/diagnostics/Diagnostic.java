package dev.packed4j.processor.diagnostics;

import javax.tools.Diagnostic.Kind;

/**
 * Every message the processor prints, with a stable id.
 *
 * <p>The id is the part users search for and tests assert on; it never changes once released. A message says what
 * is wrong, why it cannot work, and how to fix it. Its {@link #format} takes {@link String#format} arguments.
 */
public enum Diagnostic {
  // --- @Global ---------------------------------------------------------------------------------------------------

  GLOBAL_NAME(
      "P4J-GLOBAL-NAME",
      Kind.ERROR,
      "\"%s\" is not a valid global name: %s. A global name is the string given to P4J_REGISTER_GLOBAL: one or"
          + " more segments [A-Za-z_][A-Za-z0-9_]* separated by single dots, for example \"calculator.MyAdd\"%s"),

  GLOBAL_DUPLICATE(
      "P4J-GLOBAL-DUPLICATE",
      Kind.ERROR,
      "\"%s\" is bound twice in %s with the same parameter and result types: by %s, and first by %s. Binding one"
          + " function with other Java types is a deliberate view of it, but with the same types the second method"
          + " is an alias, usually a copy-paste slip. Correct the name, or call the first method"),

  GLOBAL_NOT_INTERFACE(
      "P4J-GLOBAL-NOT-INTERFACE",
      Kind.ERROR,
      "@Global method %s is declared in the %s %s: packed4j generates the implementation of an interface, so"
          + " @Global methods belong to an interface. Move the method into an interface (or, in a class, make it a"
          + " static method with a body to export it as a Java function)"),

  GLOBAL_EXPORT_PRIVATE(
      "P4J-GLOBAL-EXPORT-PRIVATE",
      Kind.ERROR,
      "@Global method %s is exported as a Java function, but %s is private: the registrar generated beside %s"
          + " calls it, so it must be at least package-private. Remove 'private'"),

  GLOBAL_EXPORT_DUPLICATE(
      "P4J-GLOBAL-EXPORT-DUPLICATE",
      Kind.ERROR,
      "@Global method %s exports \"%s\", which %s already exports: the registry holds one function per name, so"
          + " Packed4j.register would register the first and refuse the second. Give one of them another name"),

  GLOBAL_NOT_ABSTRACT(
      "P4J-GLOBAL-NOT-ABSTRACT",
      Kind.ERROR,
      "@Global method %s is a %s method: the generated class implements abstract methods only, so this binding"
          + " would never be called. Make it abstract (remove '%s' and the body), or remove @Global"),

  BINDING_OBJECT_METHOD(
      "P4J-BINDING-OBJECT-METHOD",
      Kind.ERROR,
      "%s on %s, which redeclares a method of java.lang.Object: every class, the generated one too, inherits"
          + " %s from Object, so packed4j never implements it and a call would never reach the native side. Give"
          + " the method another name; the annotation keeps the native one"),

  GLOBAL_GENERIC(
      "P4J-GLOBAL-GENERIC",
      Kind.ERROR,
      "@Global method %s declares type parameters %s: a native function has one signature, and the binding"
          + " needs concrete types to convert values. Replace the type parameters with concrete types"),

  PARAMETER_SLOTS(
      "P4J-PARAMETER-SLOTS",
      Kind.ERROR,
      "%s has %d parameters, whose call route needs %d JVM argument slots, more than the %d a method handle holds"
          + " (a long, double, String or NDArray parameter takes two, any other parameter and the object of a"
          + " method one, a long or double result two, another result one, and the route itself 3, 4 with String"
          + " or NDArray parameters), so its first call would fail: %s. Declare fewer parameters, passing the rest"
          + " in a List, a Map or an @Object"),

  GLOBAL_UNBOUND(
      "P4J-GLOBAL-UNBOUND",
      Kind.ERROR,
      "%s has @Global methods, so packed4j implements it, but the abstract method %s has no @Global and cannot"
          + " be implemented. Annotate it with @Global(\"<registered name>\") (or @Constructor, or @Method(of ="
          + " ...) for a static method of a type), give it a default body, or move it to another interface"),

  BINDING_TARGETS(
      "P4J-BINDING-TARGETS",
      Kind.ERROR,
      "%s carries %s, but a method calls one native function. Keep the one it should call"),

  BINDING_NOT_ABSTRACT(
      "P4J-BINDING-NOT-ABSTRACT",
      Kind.ERROR,
      "%s on %s, which is not an abstract method of an interface (%s): packed4j implements abstract interface"
          + " methods only, so it would never be called. Declare it as an abstract method of an interface"),

  CONSTRUCTOR_RESULT(
      "P4J-CONSTRUCTOR-RESULT",
      Kind.ERROR,
      "@Constructor method %s returns %s, which is not an @Object interface: a constructor returns a new object"
          + " of the type it constructs, and that return type names the type. Return the type's @Object interface"),

  CONSTRUCTOR_IN_OBJECT(
      "P4J-CONSTRUCTOR-IN-OBJECT",
      Kind.ERROR,
      "@Constructor on %s, a method of the @Object interface %s: a constructor makes a new object, so nothing"
          + " calls it on one. Declare it on an ordinary bound interface (one with @Global methods), returning %s"),

  METHOD_OF_MISSING(
      "P4J-METHOD-OF-MISSING",
      Kind.ERROR,
      "@Method on %s, a method of %s, which is not an @Object interface: there @Method calls a static method of"
          + " a type, and 'of' must name the type's @Object interface, for example @Method(of = CalculatorRef.class)"),

  METHOD_OF_NOT_OBJECT(
      "P4J-METHOD-OF-NOT-OBJECT",
      Kind.ERROR,
      "@Method(of = %s) on %s: %s is not an @Object interface, so it names no native type. Name the @Object"
          + " interface of the type whose static method is called%s"),

  METHOD_OF_IN_OBJECT(
      "P4J-METHOD-OF-IN-OBJECT",
      Kind.ERROR,
      "@Method(of = %s) on %s, a method of the @Object interface %s: a method of an @Object interface calls its"
          + " own type's method, with the object first. Remove 'of', or move the method to a bound interface to"
          + " call a static method"),

  METHOD_NAME(
      "P4J-METHOD-NAME",
      Kind.ERROR,
      "\"%s\" is not a valid method name: %s. A method name is the name given to def or def_static in the type's"
          + " object definition, a C++ identifier [A-Za-z_][A-Za-z0-9_]*, for example \"add\"%s"),

  METHOD_AND_FIELD(
      "P4J-METHOD-AND-FIELD",
      Kind.ERROR,
      "%s carries both @Method and @Field: @Method calls a native method, @Field names the field a getter reads"
          + " or a setter writes. Keep the one that says what the method does"),

  SETTER_TYPE(
      "P4J-SETTER-TYPE",
      Kind.ERROR,
      "%s is not a supported type for the setter %s: %s. A setter writes the field in place, so it takes int,"
          + " long, double, boolean, String, an @Object interface, NativeObject, NDArray, or a List<E> or Map<K, V>"
          + " (or NativeList, NativeMap) of the elements a @Global parameter takes"),

  SETTER_GETTER_TYPE(
      "P4J-SETTER-GETTER-TYPE",
      Kind.ERROR,
      "the setter %s takes %s, but the getter %s of the same field returns %s: a field has one type. Declare"
          + " the setter's parameter as %s"),

  GLOBAL_IN_OBJECT(
      "P4J-GLOBAL-IN-OBJECT",
      Kind.ERROR,
      "@Global method %s is declared in the @Object interface %s: the class generated for an @Object interface"
          + " reads native fields and binds no functions. Move the method into a separate binding interface"),

  // --- Interfaces that get a generated class ---------------------------------------------------------------------

  INTERFACE_PRIVATE(
      "P4J-INTERFACE-PRIVATE",
      Kind.ERROR,
      "%s is %s, so the generated class %s (in the same package) cannot implement it. Make it (and the types"
          + " around it) at least package-private"),

  INTERFACE_GENERIC(
      "P4J-INTERFACE-GENERIC",
      Kind.ERROR,
      "%s declares type parameters %s: the generated class needs concrete types to convert values. Remove the"
          + " type parameters"),

  INTERFACE_SEALED(
      "P4J-INTERFACE-SEALED",
      Kind.ERROR,
      "%s is sealed, so the generated class %s cannot implement it. Remove 'sealed' (and 'permits')"),

  // --- Types in signatures ---------------------------------------------------------------------------------------

  TYPE_UNSUPPORTED(
      "P4J-TYPE-UNSUPPORTED",
      Kind.ERROR,
      "%s is not a supported type for %s: %s. Supported types: boolean, byte, short, int, long, float, double"
          + " and their boxes, String, byte[], @Object interfaces, NativeObject, PackedFunction, functional"
          + " interfaces of those, Object, and List<T>, Map<K,V>, Optional<T>, NativeList<T>, NativeMap<K,V> of"
          + " those; NDArray; float[], double[], int[], long[] parameters (copied into a 1-D NDArray); void as a"
          + " result"),

  TYPE_NOT_OBJECT(
      "P4J-TYPE-NOT-OBJECT",
      Kind.ERROR,
      "%s is not annotated @Object, so it cannot cross the boundary in %s: an interface crosses as the view of"
          + " a native object type, or as a callback when it is a @FunctionalInterface. Annotate %s with"
          + " @Object(\"<type key>\"), or use NativeObject for an object of any type%s"),

  TYPE_UNRESOLVED(
      "P4J-TYPE-UNRESOLVED",
      Kind.ERROR,
      "%s in %s could not be resolved by the last processing round, so no class was generated for %s. Check"
          + " the spelling and the import, or that the processor meant to generate it ran%s"),

  TYPE_AMBIGUOUS_OBJECT(
      "P4J-TYPE-AMBIGUOUS-OBJECT",
      Kind.ERROR,
      "Object in %s is ambiguous: an on-demand import (import dev.packed4j.annotations.*;) brings the annotation"
          + " dev.packed4j.annotations.Object, which clashes with java.lang.Object. Write java.lang.Object for a"
          + " value of any type, or import the annotations one by one (import dev.packed4j.annotations.Global;)"),

  THROWS_CHECKED(
      "P4J-THROWS-CHECKED",
      Kind.ERROR,
      "%s declares the checked exception %s, which the generated code never throws: native errors arrive as"
          + " the unchecked Packed4jException. Remove it from the throws clause"),

  // --- @Object ---------------------------------------------------------------------------------------------------

  OBJECT_NOT_INTERFACE(
      "P4J-OBJECT-NOT-INTERFACE",
      Kind.ERROR,
      "@Object is on the %s %s: packed4j generates an ObjectRef subclass that implements the annotated type, so"
          + " it must be an interface. Declare %s as an interface with one getter per native field"),

  OBJECT_TYPE_KEY(
      "P4J-OBJECT-TYPE-KEY",
      Kind.ERROR,
      "\"%s\" is not a valid type key: %s. A type key is the C++ class's _type_key: one or more segments"
          + " [A-Za-z_][A-Za-z0-9_]* separated by single dots, for example \"Calculator\" or \"test.DerivedNode\"%s"),

  OBJECT_DUPLICATE_KEY(
      "P4J-OBJECT-DUPLICATE-KEY",
      Kind.ERROR,
      "type key \"%s\" is declared twice: by %s, and already by %s. A native type has one Java view; extend"
          + " %s instead, or correct the key; when packed4j generate wrote one of them, give generate the one you"
          + " wrote as existing (<existing><%s>your.Interface</%s></existing>, or --existing %s=your.Interface)"
          + " and generate again"),

  OBJECT_SUPERTYPE(
      "P4J-OBJECT-SUPERTYPE",
      Kind.ERROR,
      "@Object interface %s extends %s, which is not an @Object interface: the generated class can only"
          + " implement getters of native fields and the methods ObjectRef provides. Extend only @Object"
          + " interfaces (mirroring the C++ parent type), AutoCloseable or Closeable"),

  OBJECT_PARENTS(
      "P4J-OBJECT-PARENTS",
      Kind.ERROR,
      "@Object interface %s extends the @Object interfaces %s, but a native object type has exactly one parent."
          + " Extend only the one that mirrors the C++ parent type"),

  OBJECT_GETTER_PARAMETERS(
      "P4J-OBJECT-GETTER-PARAMETERS",
      Kind.ERROR,
      "%s carries @Field but is neither a getter (no parameters) nor a setter (one parameter, returning void):"
          + " @Field names the native field one of those reads or writes. Remove @Field to call a native method"
          + " of the type instead, or give the method a getter's or a setter's shape"),

  OBJECT_NOT_GETTER(
      "P4J-OBJECT-NOT-GETTER",
      Kind.ERROR,
      "%s is not a getter: %s. An abstract method of an @Object interface without parameters reads one native"
          + " field and returns its value. Give it a field type, mark it @Method to call a native method of the"
          + " type, or make it a default method"),

  OBJECT_RESERVED(
      "P4J-OBJECT-RESERVED",
      Kind.ERROR,
      "%s clashes with %s, which ObjectRef provides. Rename the getter and keep the native name with"
          + " @Field(\"%s\")"),

  // --- Fields ----------------------------------------------------------------------------------------------------

  FIELD_TYPE(
      "P4J-FIELD-TYPE",
      Kind.ERROR,
      "%s is not a supported type for the field getter %s: %s. A getter reads the field in place, so it can be"
          + " int, long, double, boolean, String, an @Object interface, NativeObject, NDArray, or a List<E> or"
          + " Map<K, V> (or NativeList, NativeMap) of the elements a @Global result takes"),

  FIELD_NAME(
      "P4J-FIELD-NAME",
      Kind.ERROR,
      "\"%s\" is not a valid field name: %s. A field name is the name VisitAttrs passes to AttrVisitor::Visit, a"
          + " C++ identifier [A-Za-z_][A-Za-z0-9_]*, for example \"price\"%s"),

  FIELD_PLACEMENT(
      "P4J-FIELD-PLACEMENT",
      Kind.ERROR,
      "@Field on %s has no effect: %s. @Field renames the native field read by an abstract getter of an @Object"
          + " interface. Remove it, or move the getter into the @Object interface"),

  FIELD_REDUNDANT(
      "P4J-FIELD-REDUNDANT",
      Kind.WARNING,
      "@Field(\"%s\") on %s repeats the method name, which is the field name already. Remove the annotation"),

  // --- Checks against a manifest (-Apacked4j.manifest) -----------------------------------------------------------

  MANIFEST_UNREADABLE(
      "P4J-MANIFEST-UNREADABLE",
      Kind.ERROR,
      "the manifest given with -Apacked4j.manifest cannot be used: %s. Nothing was checked against the native"
          + " side. Write it with 'packed4j describe <library.so> --json <file>' after building the library, and"
          + " pass that file"),

  MANIFEST_VERSION(
      "P4J-MANIFEST-VERSION",
      Kind.ERROR,
      "the manifest given with -Apacked4j.manifest cannot be used: %s. Nothing was checked against the native"
          + " side"),

  MANIFEST_DUPLICATE(
      "P4J-MANIFEST-DUPLICATE",
      Kind.ERROR,
      "the %s \"%s\" is registered twice in the manifests given with -Apacked4j.manifest: first by %s%s, then by"
          + " %s%s. The native registry keeps the first registration and refuses the second (Packed4j.loadLibrary"
          + " throws for the library loaded second), so declarations are checked against the first. Rename one of"
          + " them in its C++ registration, or pass only the manifest of the library the program loads"),

  MANIFEST_UNSET(
      "P4J-MANIFEST-UNSET",
      Kind.NOTE,
      "no manifest was given (-Apacked4j.manifest%s), so declarations were checked on their own, not against the"
          + " functions and types the native libraries register. Pass the file packed4j describe writes (with"
          + " packed4j-maven-plugin's describe goal, -Apacked4j.manifest=${packed4j.manifest})"),

  NATIVE_UNKNOWN_GLOBAL(
      "P4J-NATIVE-UNKNOWN-GLOBAL",
      Kind.ERROR,
      "no global function \"%s\" is registered by the libraries of the manifest (%s), so %s would fail at its"
          + " first call. Correct the name, or add the manifest of the library that registers it%s"),

  NATIVE_ARITY(
      "P4J-NATIVE-ARITY",
      Kind.ERROR,
      "%s has %d parameter%s, but %s takes %d (%s). Declare one parameter per native argument"),

  NATIVE_PARAMETER_TYPE(
      "P4J-NATIVE-PARAMETER-TYPE",
      Kind.ERROR,
      "%s is %s, which cannot convert to %s, argument %d of %s %s: %s. Declare it as %s"),

  NATIVE_RESULT_TYPE(
      "P4J-NATIVE-RESULT-TYPE",
      Kind.ERROR,
      "the result of %s is %s, but %s returns %s (%s): %s. Declare the result as %s"),

  NATIVE_UNTYPED(
      "P4J-NATIVE-UNTYPED",
      Kind.NOTE,
      "%s is registered with set_body, which records no signature, so only its name was checked against the"
          + " manifest; its arguments are converted and checked when it runs. Register it with set_body_typed to"
          + " have its types checked at compile time"),

  NATIVE_UNKNOWN_TYPE_KEY(
      "P4J-NATIVE-UNKNOWN-TYPE-KEY",
      Kind.ERROR,
      "no object type \"%s\" is registered by the libraries of the manifest (%s), so no native object can be"
          + " viewed through %s. Correct the key (the C++ class's _type_key)%s"),

  NATIVE_UNKNOWN_FIELD(
      "P4J-NATIVE-UNKNOWN-FIELD",
      Kind.ERROR,
      "%s %s the field \"%s\", but the native type \"%s\" has no such field (its fields: %s). Name a field"
          + " its VisitAttrs visits, naming it with @Field(\"<name>\") on the method if needed%s"),

  NATIVE_FIELD_TYPE(
      "P4J-NATIVE-FIELD-TYPE",
      Kind.ERROR,
      "%s returns %s, but the field \"%s\" of \"%s\" is %s: %s. Declare the getter as %s"),

  NATIVE_SETTER_TYPE(
      "P4J-NATIVE-SETTER-TYPE",
      Kind.ERROR,
      "%s takes %s, but the field \"%s\" of \"%s\" is %s: %s. Declare the parameter as %s"),

  NATIVE_READ_ONLY(
      "P4J-NATIVE-READ-ONLY",
      Kind.ERROR,
      "%s writes the field \"%s\" of \"%s\", which is read-only (%s). Declare it with def_rw in the type's"
          + " object definition (P4J_REGISTER_OBJECT_DEF), or remove the setter"),

  NATIVE_UNKNOWN_MEMBER(
      "P4J-NATIVE-UNKNOWN-MEMBER",
      Kind.ERROR,
      "%s calls the %s \"%s\" of \"%s\", but the libraries of the manifest (%s) register none (%s). Register it"
          + " in the type's object definition (P4J_REGISTER_OBJECT_DEF), or correct the name%s"),

  NATIVE_MEMBER_KIND(
      "P4J-NATIVE-MEMBER-KIND",
      Kind.ERROR,
      "%s calls \"%s\" of \"%s\" as a %s, but it is registered as a %s. %s"),

  NATIVE_PARENT(
      "P4J-NATIVE-PARENT",
      Kind.ERROR,
      "%s extends %s, the view of \"%s\", but the native type \"%s\" does not derive from it (its parent is"
          + " %s). Extend the @Object interface of the native parent, or none"),

  NATIVE_PARENT_VIEW(
      "P4J-NATIVE-PARENT-VIEW",
      Kind.WARNING,
      "%s views \"%s\", which derives from \"%s\", but it %s %s, the view of \"%s\" in this compilation: a \"%s\""
          + " object returned where %s is declared is then %s, never %s. Extend %s"),

  NATIVE_OVERRIDE(
      "P4J-NATIVE-OVERRIDE",
      Kind.ERROR,
      "%s inherits %s, which calls \"%s\", but \"%s\" overrides it %s, which does not fit: %s. Give the"
          + " override the signature of the method it overrides: a call of %s on a \"%s\" object runs the"
          + " override"),

  // --- Processor --------------------------------------------------------------------------------------------------

  GENERATED_WRITE(
      "P4J-GENERATED-WRITE",
      Kind.ERROR,
      "cannot write %s, generated for %s: %s. %s"),

  INTERNAL(
      "P4J-INTERNAL",
      Kind.ERROR,
      "packed4j failed while processing %s; this is a bug in packed4j, please report it with this trace:%n%s");

  private final String id;
  private final Kind kind;
  private final String format;

  Diagnostic(String id, Kind kind, String format) {
    this.id = id;
    this.kind = kind;
    this.format = format;
  }

  /** The stable id, for example {@code P4J-GLOBAL-NAME}. */
  public String id() {
    return id;
  }

  public Kind kind() {
    return kind;
  }

  /** The {@link String#format} pattern of the message, without the id. */
  public String format() {
    return format;
  }

  /** The message as printed: {@code [ID] } followed by the formatted text. */
  public String message(Object... arguments) {
    return "[" + id + "] " + String.format(format, arguments);
  }
}
