package dev.packed4j.processor.model;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An interface with {@code @Global} methods, for which a {@code Packed4j_<Name>} class implementing every method
 * is generated.
 *
 * @param name the interface
 * @param methods its abstract methods, own and inherited, all bound
 * @param memberTypeNames simple names of member types the interface declares or inherits: inside the generated
 *     class they shadow imports, so runtime types with these names must be written qualified
 * @param suppressedWarnings the lint names ("deprecation", "removal") of the deprecated API the generated class
 *     names, which it suppresses: the user chose that API, the generated code only follows
 */
public record BindingInterface(
    QualifiedName name, List<GlobalMethod> methods, Set<String> memberTypeNames, Set<String> suppressedWarnings) {
  public BindingInterface {
    methods = List.copyOf(methods);
    memberTypeNames = Set.copyOf(memberTypeNames);
    suppressedWarnings = Collections.unmodifiableSortedSet(new TreeSet<>(suppressedWarnings));
  }
}
