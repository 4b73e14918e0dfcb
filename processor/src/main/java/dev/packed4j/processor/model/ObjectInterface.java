package dev.packed4j.processor.model;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An {@code @Object} interface, for which a {@code Packed4j_<Name>} subclass of {@code ObjectRef} is generated.
 *
 * @param name the interface
 * @param typeKey the native type key
 * @param getters its getters, own and inherited from {@code @Object} super-interfaces
 * @param setters its setters, own and inherited
 * @param methods its methods, own and inherited
 * @param memberTypeNames simple names of member types the interface declares or inherits (see {@link
 *     BindingInterface#memberTypeNames()})
 * @param suppressedWarnings the lint names ("deprecation", "removal") of the deprecated API the generated class
 *     names, which it suppresses: the user chose that API, the generated code only follows
 */
public record ObjectInterface(
    QualifiedName name,
    String typeKey,
    List<Getter> getters,
    List<Setter> setters,
    List<ObjectMethod> methods,
    Set<String> memberTypeNames,
    Set<String> suppressedWarnings) {
  public ObjectInterface {
    getters = List.copyOf(getters);
    setters = List.copyOf(setters);
    methods = List.copyOf(methods);
    memberTypeNames = Set.copyOf(memberTypeNames);
    suppressedWarnings = Collections.unmodifiableSortedSet(new TreeSet<>(suppressedWarnings));
  }
}
