package dev.packed4j.processor.validate;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.lang.model.element.TypeElement;

/**
 * What validation has seen so far in this compilation, across rounds: names that must be unique, and names that
 * "did you mean" hints choose from. Holds strings only, since elements do not survive a round.
 */
public final class CompilationState {
  private final Map<String, String> typeKeys = new HashMap<>();
  private final Set<String> objectInterfaces = new TreeSet<>();
  private final Map<String, String> objectViews = new HashMap<>();
  private final Set<String> typeNames = new TreeSet<>();

  /** Records that {@code iface} declares {@code typeKey}; returns which interface declared it before, if any. */
  Optional<String> declareTypeKey(String typeKey, String iface) {
    return Optional.ofNullable(typeKeys.putIfAbsent(typeKey, iface));
  }

  /**
   * Records an {@code @Object} interface of the compilation: by simple name, for hints, and as the view of its type
   * key (the first interface seen for a key), for the check that a child extends its native parent's view.
   */
  public void noteObjectInterface(TypeElement type) {
    String simpleName = type.getSimpleName().toString();
    objectInterfaces.add(simpleName);
    typeNames.add(simpleName);
    Annotations.find(type, AnnotationNames.OBJECT)
        .flatMap(Annotations::string)
        .ifPresent(key -> objectViews.putIfAbsent(key, type.getQualifiedName().toString()));
  }

  /** The {@code @Object} interfaces of the compilation by type key, as qualified names. */
  Map<String, String> objectViews() {
    return objectViews;
  }

  /** Records a type of the compilation by simple name, for hints about unresolved types. */
  public void noteType(String simpleName) {
    typeNames.add(simpleName);
  }

  /** Simple names of the {@code @Object} interfaces seen. */
  Set<String> objectInterfaceNames() {
    return objectInterfaces;
  }

  /** Simple names of all types seen. */
  Set<String> typeNames() {
    return typeNames;
  }
}
