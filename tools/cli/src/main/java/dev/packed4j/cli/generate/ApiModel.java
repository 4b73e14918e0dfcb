package dev.packed4j.cli.generate;

import dev.packed4j.types.NativeType;
import dev.packed4j.types.Signature;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code packed4j generate} writes Java for: the global functions and object types of one or more libraries,
 * read from the loaded registry or from a manifest. Plain immutable data, sorted, so that the same libraries give
 * the same model and the same files.
 *
 * <p>Doc strings and parameter names are empty when a registration gives none (a manifest of version 1 has
 * neither, nor mutable fields or methods): the writer then writes no doc text and names parameters {@code arg0},
 * {@code arg1}, ...
 *
 * @param sources the files the model was read from, with their content hashes, sorted by name
 * @param functions the global functions, sorted by registered name
 * @param objectTypes the object types, sorted by key
 */
public record ApiModel(List<Source> sources, List<Function> functions, List<ObjectType> objectTypes) {

  /** Copies and sorts the lists. */
  public ApiModel {
    sources = sources.stream().sorted(Comparator.comparing(Source::name)).toList();
    functions = functions.stream().sorted(Comparator.comparing(Function::name)).toList();
    objectTypes = objectTypes.stream().sorted(Comparator.comparing(ObjectType::key)).toList();
  }

  /**
   * A library or manifest the model was read from, and what it defines: a generated file names and hashes only the
   * sources that define what it declares, so that a change in another library does not rewrite it.
   *
   * @param name its file name, such as {@code libcalculator.so}
   * @param sha256 the SHA-256 of its bytes, in lower-case hex
   * @param globals the names of the global functions it registers
   * @param objectTypes the keys of the object types it registers
   */
  public record Source(String name, String sha256, Set<String> globals, Set<String> objectTypes) {
    /** Copies the sets. */
    public Source {
      globals = Set.copyOf(globals);
      objectTypes = Set.copyOf(objectTypes);
    }

    /**
     * Whether this source defines one of the functions or object types.
     *
     * @param functionNames global function names
     * @param typeKeys object type keys
     * @return true when it registers one of them
     */
    public boolean definesAny(Collection<String> functionNames, Collection<String> typeKeys) {
      return functionNames.stream().anyMatch(globals::contains) || typeKeys.stream().anyMatch(objectTypes::contains);
    }
  }

  /**
   * A global function.
   *
   * @param name the registered name, such as {@code calculator.MyAdd}
   * @param signature what {@code set_body_typed} recorded; empty for a {@code set_body} function
   * @param doc the doc string the registration carries, if any
   * @param parameterNames the parameters' names, one per parameter of the signature; empty when unknown
   */
  public record Function(String name, Optional<Signature> signature, Optional<String> doc,
      List<String> parameterNames) {
    /** Copies the names. */
    public Function {
      parameterNames = List.copyOf(parameterNames);
    }

    /**
     * A function with neither doc nor parameter names (a set_body function, or a version-1 manifest).
     *
     * @param name the registered name
     * @param signature the signature, empty for an untyped function
     * @return the function
     */
    public static Function of(String name, Optional<Signature> signature) {
      return new Function(name, signature, Optional.empty(), List.of());
    }
  }

  /**
   * An object type.
   *
   * @param key the type key, such as {@code Calculator}
   * @param parent the parent's key; empty for the root type
   * @param fields the fields this type declares itself (inherited ones belong to its ancestors), in declaration order
   * @param methods the type's own methods, static methods and constructor, in registration order
   * @param doc the type's doc string, if any
   */
  public record ObjectType(String key, Optional<String> parent, List<Field> fields, List<Method> methods,
      Optional<String> doc) {
    /** Copies the lists. */
    public ObjectType {
      fields = List.copyOf(fields);
      methods = List.copyOf(methods);
    }
  }

  /**
   * A field of an object type.
   *
   * @param name the name given to {@code AttrVisitor::Visit}
   * @param type its native type
   * @param mutable whether Java may set it ({@code def_rw})
   * @param doc its doc string, if any
   */
  public record Field(String name, NativeType type, boolean mutable, Optional<String> doc) {
    /**
     * A read-only field without doc.
     *
     * @param name the field's name
     * @param type its native type
     * @return the field
     */
    public static Field readOnly(String name, NativeType type) {
      return new Field(name, type, false, Optional.empty());
    }
  }

  /** What a member of an object type's method table is. */
  public enum MemberKind {
    /** A method: called with the object first ({@code def} in C++); its signature lists the object first. */
    METHOD,
    /** A static method: a plain function tied to the type ({@code def_static}). */
    STATIC,
    /** The constructor ({@code def(init<...>())}), registered as {@code __init__}: returns a new object. */
    CONSTRUCTOR
  }

  /**
   * A member of an object type's method table: a method, a static method or the constructor.
   *
   * @param name the registered name ({@code __init__} for the constructor)
   * @param kind what it is
   * @param signature its typed signature, the object first for a {@link MemberKind#METHOD}; empty when untyped
   * @param doc its doc string, if any
   * @param parameterNames the parameters' names, the object not counted; empty when unknown
   */
  public record Method(String name, MemberKind kind, Optional<Signature> signature, Optional<String> doc,
      List<String> parameterNames) {
    /** Copies the names. */
    public Method {
      parameterNames = List.copyOf(parameterNames);
    }

    /**
     * The parameters Java passes: the signature's, without the object of a {@link MemberKind#METHOD}.
     *
     * @return the parameter types; empty when untyped
     */
    public List<NativeType> javaParameters() {
      List<NativeType> all = signature.map(Signature::parameters).orElse(List.of());
      return kind == MemberKind.METHOD && !all.isEmpty() ? all.subList(1, all.size()) : all;
    }
  }
}
