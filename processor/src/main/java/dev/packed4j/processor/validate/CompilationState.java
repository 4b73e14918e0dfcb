package dev.packed4j.processor.validate;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What validation has seen so far in this compilation, across rounds: names that must be unique, and names that
 * "did you mean" hints choose from. Holds strings only, since elements do not survive a round.
 */
public final class CompilationState {
  private final Map<String, String> typeKeys = new HashMap<>();
  private final Set<String> objectInterfaces = new TreeSet<>();
  private final Set<String> typeNames = new TreeSet<>();

  /** Records that {@code iface} declares {@code typeKey}; returns which interface declared it before, if any. */
  Optional<String> declareTypeKey(String typeKey, String iface) {
    return Optional.ofNullable(typeKeys.putIfAbsent(typeKey, iface));
  }

  /** Records an {@code @Object} interface by simple name, for hints. */
  public void noteObjectInterface(String simpleName) {
    objectInterfaces.add(simpleName);
    typeNames.add(simpleName);
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
