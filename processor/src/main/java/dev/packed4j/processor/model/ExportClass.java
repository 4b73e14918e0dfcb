package dev.packed4j.processor.model;

import java.util.List;

/**
 * A class whose {@code static} methods annotated {@code @Global} are Java functions exported under those names; the
 * processor writes its registrar, which {@code Packed4j.register(Class)} runs.
 *
 * @param name the class
 * @param functions its exported methods ({@link GlobalMethod#declaringInterface()} names the class)
 * @param usesDeprecated whether the registrar names a deprecated type, so it suppresses the warning
 */
public record ExportClass(QualifiedName name, List<GlobalMethod> functions, boolean usesDeprecated) {
  public ExportClass {
    functions = List.copyOf(functions);
  }
}
