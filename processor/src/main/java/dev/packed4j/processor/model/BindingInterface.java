package dev.packed4j.processor.model;

import java.util.List;
import java.util.Set;

/**
 * An interface with {@code @Global} methods, for which a {@code Packed4j_<Name>} class implementing every method
 * is generated.
 *
 * @param name the interface
 * @param methods its abstract methods, own and inherited, all bound
 * @param memberTypeNames simple names of member types the interface declares or inherits: inside the generated
 *     class they shadow imports, so runtime types with these names must be written qualified
 * @param usesDeprecated whether the interface or a type or method it uses is deprecated, so the generated class
 *     must not warn about implementing or naming it
 */
public record BindingInterface(
    QualifiedName name, List<GlobalMethod> methods, Set<String> memberTypeNames, boolean usesDeprecated) {
  public BindingInterface {
    methods = List.copyOf(methods);
    memberTypeNames = Set.copyOf(memberTypeNames);
  }
}
