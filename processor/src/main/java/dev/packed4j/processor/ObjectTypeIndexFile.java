package dev.packed4j.processor;

import dev.packed4j.processor.diagnostics.Diagnostic;
import dev.packed4j.processor.diagnostics.Reporter;
import dev.packed4j.processor.generate.ObjectTypeIndex;
import java.io.IOException;
import java.io.Writer;
import javax.annotation.processing.Filer;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * The object-type index an earlier compilation left in the class output ({@value ObjectTypeIndex#RESOURCE}), and
 * its pruning in a compilation that indexes no {@code @Object} interface itself.
 *
 * <p>An incremental build that deletes an {@code @Object} interface deletes its generated class too (the tool
 * deletes what a deleted source produced) but not the index, which names no single source. When the same
 * compilation holds other {@code @Object} interfaces, {@link Packed4jProcessor} rewrites the index with them and
 * drops such entries while merging; otherwise this class does, so the index never lists a class that is gone.
 */
final class ObjectTypeIndexFile {
  private ObjectTypeIndexFile() {}

  /** Writes {@code index} as the class output's index file, attributed to {@code origins}. */
  static void write(Filer filer, ObjectTypeIndex index, Element... origins) throws IOException {
    FileObject file = filer.createResource(StandardLocation.CLASS_OUTPUT, "", ObjectTypeIndex.RESOURCE, origins);
    try (Writer writer = file.openWriter()) {
      writer.write(index.render());
    }
  }

  /**
   * The text of the index in the class output, or null when there is none (a clean build) or it cannot be read
   * (the processing API lets a {@link Filer} refuse to open a file this compilation created).
   */
  static String previous(Filer filer) {
    try {
      FileObject file = filer.getResource(StandardLocation.CLASS_OUTPUT, "", ObjectTypeIndex.RESOURCE);
      return file.getCharContent(true).toString();
    } catch (IOException | IllegalArgumentException noIndex) {
      // javac answers a file object for a missing output file and fails when it is read; ECJ fails at once.
      return null;
    }
  }

  /**
   * Rewrites the index in the class output without the entries whose generated class no longer exists (for {@code
   * elements}: neither compiled now nor on the class path), keeping the others in order. Does nothing when there is
   * no index or every entry is current, so a build that deleted nothing leaves the file as it was, time stamp
   * included. When no entry is left the file is rewritten with none rather than deleted: the {@link Filer} can
   * create files but not delete them, and the runtime reads an index without entries as listing nothing.
   */
  static void prune(ProcessingEnvironment environment, Reporter reporter) {
    Filer filer = environment.getFiler();
    Elements elements = environment.getElementUtils();
    String text = previous(filer);
    if (text == null) {
      return;
    }
    ObjectTypeIndex current = new ObjectTypeIndex();
    if (!current.merge(text, generated -> elements.getTypeElement(generated) != null)) {
      return;
    }
    try {
      write(filer, current);
    } catch (IOException e) {
      reporter.print(
          Diagnostic.GENERATED_WRITE,
          null,
          ObjectTypeIndex.RESOURCE,
          "the @Object interfaces of earlier builds, some of which were deleted",
          e.getMessage(),
          "Check that the class output directory is writable, or clean the build");
    }
  }
}
