package dev.packed4j.processor.model;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A class whose {@code static} methods annotated {@code @Global} are Java functions exported under those names; the
 * processor writes its registrar, which {@code Packed4j.register(Class)} runs.
 *
 * @param name the class
 * @param functions its exported methods ({@link GlobalMethod#declaringInterface()} names the class)
 * @param suppressedWarnings the lint names ("deprecation", "removal") of the deprecated API the registrar names
 *     or calls, which it suppresses
 */
public record ExportClass(QualifiedName name, List<GlobalMethod> functions, Set<String> suppressedWarnings) {
  public ExportClass {
    functions = List.copyOf(functions);
    suppressedWarnings = Collections.unmodifiableSortedSet(new TreeSet<>(suppressedWarnings));
  }
}
