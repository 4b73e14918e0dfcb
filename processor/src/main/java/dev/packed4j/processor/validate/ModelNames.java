package dev.packed4j.processor.validate;

import dev.packed4j.processor.model.QualifiedName;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;

/** Turns type elements into the model's names. */
final class ModelNames {
  private ModelNames() {}

  /** {@code p.Outer.Inner} as {@code ("p", ["Outer", "Inner"])}. */
  static QualifiedName qualifiedName(TypeElement type) {
    List<String> names = new ArrayList<>();
    Element e = type;
    for (; e instanceof TypeElement t; e = e.getEnclosingElement()) {
      names.add(0, t.getSimpleName().toString());
    }
    String packageName = e instanceof PackageElement p ? p.getQualifiedName().toString() : "";
    return new QualifiedName(packageName, names);
  }
}
