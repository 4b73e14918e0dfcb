package dev.packed4j.userprojects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The guide's first step, {@code mvn -B install -DskipTests} in a packed4j checkout, reaches the end of the reactor.
 * A test-only module that lets maven-jar-plugin skip its empty jar ({@code skipIfEmpty}) assigns no file to its
 * artifact, and maven-install-plugin then stops the whole install ("The packaging plugin for project ... did not
 * assign a file to the build artifact") unless the module skips its install and deploy too. Running the install
 * here would take minutes; this reads the modules' poms instead.
 */
class ReactorInstallTest {
  @Test
  void everyModuleWithoutAJarSkipsItsInstallAndDeploy() throws Exception {
    List<Path> modules = modules(UserBuilds.ROOT);
    assertFalse(modules.isEmpty(), "no <module> in " + UserBuilds.ROOT.resolve("pom.xml"));
    List<String> wrong = new ArrayList<>();
    for (Path module : modules) {
      Element project = read(module.resolve("pom.xml")).getDocumentElement();
      if (!skipsEmptyJar(project)) {
        continue;
      }
      for (String skip : List.of("maven.install.skip", "maven.deploy.skip")) {
        if (!"true".equals(property(project, skip))) {
          wrong.add(UserBuilds.ROOT.relativize(module) + ": skipIfEmpty without <" + skip + ">true</" + skip + ">");
        }
      }
    }
    assertEquals(List.of(), wrong, "modules that would stop `mvn install` of the reactor");
  }

  private static List<Path> modules(Path root) throws Exception {
    List<Path> modules = new ArrayList<>();
    NodeList nodes = read(root.resolve("pom.xml")).getElementsByTagName("module"); // profiles' modules too
    for (int i = 0; i < nodes.getLength(); i++) {
      Path module = root.resolve(nodes.item(i).getTextContent().trim()).normalize();
      if (Files.isRegularFile(module.resolve("pom.xml")) && !modules.contains(module)) {
        modules.add(module);
      }
    }
    return modules;
  }

  /** Whether the module's own build (not a profile's) configures maven-jar-plugin with skipIfEmpty true. */
  private static boolean skipsEmptyJar(Element project) {
    Element build = child(project, "build");
    Element plugins = build == null ? null : child(build, "plugins");
    if (plugins == null) {
      return false;
    }
    for (Element plugin : children(plugins, "plugin")) {
      Element artifact = child(plugin, "artifactId");
      Element configuration = child(plugin, "configuration");
      Element skip = configuration == null ? null : child(configuration, "skipIfEmpty");
      if (artifact != null && artifact.getTextContent().trim().equals("maven-jar-plugin") && skip != null
          && skip.getTextContent().trim().equals("true")) {
        return true;
      }
    }
    return false;
  }

  private static String property(Element project, String name) {
    Element properties = child(project, "properties");
    Element value = properties == null ? null : child(properties, name);
    return value == null ? null : value.getTextContent().trim();
  }

  private static Document read(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        found.add(element);
      }
    }
    return found;
  }
}
