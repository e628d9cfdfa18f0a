package dev.flipper.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** The build's poms, read as XML: the root pom's modules and each module's own dependencies. */
final class Poms {
  /** The repository's root; tests run in the dist module's directory. */
  static final Path ROOT = Path.of("..");

  /**
   * One {@code <dependency>} of a pom's {@code <project><dependencies>}; scope "compile" when the
   * pom names none.
   */
  record Dependency(String groupId, String artifactId, String scope) {
    boolean isFlipper() {
      return groupId.equals("dev.flipper");
    }

    boolean isTestScope() {
      return scope.equals("test");
    }
  }

  private Poms() {}

  /** The root pom's {@code <modules>}, in order. */
  static List<String> rootModules() {
    List<String> modules = new ArrayList<>();
    for (Element list : children(read(ROOT.resolve("pom.xml")).getDocumentElement(), "modules")) {
      for (Element module : children(list, "module")) {
        modules.add(module.getTextContent().trim());
      }
    }
    return modules;
  }

  /**
   * The dependencies the module's pom declares itself (not those of its profiles or plugins, not
   * inherited).
   */
  static List<Dependency> dependencies(String module) {
    return dependencies(read(ROOT.resolve(module).resolve("pom.xml")));
  }

  static List<Dependency> dependencies(Document pom) {
    List<Dependency> found = new ArrayList<>();
    for (Element list : children(pom.getDocumentElement(), "dependencies")) {
      for (Element dependency : children(list, "dependency")) {
        String scope = text(dependency, "scope");
        found.add(
            new Dependency(
                text(dependency, "groupId"),
                text(dependency, "artifactId"),
                scope.isEmpty() ? "compile" : scope));
      }
    }
    return found;
  }

  /**
   * The Flipper modules the pom depends on in compile scope (no scope, or {@code compile}), in pom
   * order.
   */
  static List<String> compileFlipperModules(List<Dependency> dependencies) {
    return dependencies.stream()
        .filter(d -> d.isFlipper() && d.scope().equals("compile"))
        .map(Dependency::artifactId)
        .distinct()
        .toList();
  }

  static Document read(Path pom) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return factory.newDocumentBuilder().parse(Files.newInputStream(pom));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + pom, e);
    } catch (ParserConfigurationException | SAXException e) {
      throw new IllegalStateException("cannot parse " + pom + ": " + e.getMessage(), e);
    }
  }

  private static String text(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? "" : found.get(0).getTextContent().trim();
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        found.add(e);
      }
    }
    return found;
  }
}
