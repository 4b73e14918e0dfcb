package dev.packed4j.processor.model;

import java.util.List;
import java.util.Set;

/**
 * An {@code @Object} interface, for which a {@code Packed4j_<Name>} subclass of {@code ObjectRef} is generated.
 *
 * @param name the interface
 * @param typeKey the native type key
 * @param getters its getters, own and inherited from {@code @Object} super-interfaces
 * @param memberTypeNames simple names of member types the interface declares or inherits (see {@link
 *     BindingInterface#memberTypeNames()})
 * @param usesDeprecated whether the interface or a type or method it uses is deprecated
 */
public record ObjectInterface(
    QualifiedName name,
    String typeKey,
    List<Getter> getters,
    Set<String> memberTypeNames,
    boolean usesDeprecated) {
  public ObjectInterface {
    getters = List.copyOf(getters);
    memberTypeNames = Set.copyOf(memberTypeNames);
  }
}
