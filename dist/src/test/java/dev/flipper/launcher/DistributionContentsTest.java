package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The distribution (folder and tarball) carries README, LICENSE, CHANGELOG, the docs and the
 * systemd units. Tests run before the package phase builds the tarball, so this reads the assembly
 * descriptors that build it and checks that everything they name exists in the checkout.
 */
class DistributionContentsTest {
  private static final Path MODULE = Path.of("").toAbsolutePath();
  private static final Path ASSEMBLY = MODULE.resolve("src/assembly");

  @Test
  void tarballAndFolderShareTheContentsDescriptor() throws Exception {
    for (String descriptor : new String[] {"tarball.xml", "dir.xml"}) {
      assertThat(texts(parse(ASSEMBLY.resolve(descriptor)), "componentDescriptor"))
          .as(descriptor)
          .containsExactly("src/assembly/contents.xml");
    }
  }

  @Test
  void contentsCarryReadmeLicenseChangelogDocsAndSystemdUnits() throws Exception {
    Document contents = parse(ASSEMBLY.resolve("contents.xml"));
    Map<String, String> files = new LinkedHashMap<>(); // source -> output directory
    NodeList fileNodes = contents.getElementsByTagName("file");
    for (int i = 0; i < fileNodes.getLength(); i++) {
      Element file = (Element) fileNodes.item(i);
      files.put(text(file, "source"), text(file, "outputDirectory"));
    }
    for (String topLevel : new String[] {"README.md", "LICENSE", "CHANGELOG.md"}) {
      String source = "${project.basedir}/../" + topLevel;
      assertThat(files).containsEntry(source, ".");
      assertThat(resolve(source)).isRegularFile().isNotEmptyFile();
    }

    Map<String, String> fileSets = new LinkedHashMap<>(); // directory -> output directory
    NodeList setNodes = contents.getElementsByTagName("fileSet");
    for (int i = 0; i < setNodes.getLength(); i++) {
      Element set = (Element) setNodes.item(i);
      fileSets.put(text(set, "directory"), text(set, "outputDirectory"));
    }
    assertThat(fileSets)
        .containsEntry("${project.basedir}/../docs", "docs")
        .containsEntry("src/main/dist/systemd", "systemd")
        .containsEntry("src/main/dist/bin", "bin");
    assertThat(resolve("${project.basedir}/../docs").resolve("operations.md")).isRegularFile();
    try (var units = Files.list(resolve("src/main/dist/systemd"))) {
      assertThat(units.map(p -> p.getFileName().toString()))
          .contains(
              "flipper-queue.service",
              "flipper-master.service",
              "flipper-scheduler.service",
              "flipper-workers.service",
              "flipper-ui.service");
    }
  }

  private static Path resolve(String assemblyPath) {
    return MODULE.resolve(assemblyPath.replace("${project.basedir}/", "")).normalize();
  }

  private static Document parse(Path descriptor) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(descriptor.toFile());
  }

  private static List<String> texts(Document document, String tag) {
    NodeList nodes = document.getElementsByTagName(tag);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      texts.add(nodes.item(i).getTextContent().strip());
    }
    return texts;
  }

  private static String text(Element parent, String tag) {
    NodeList nodes = parent.getElementsByTagName(tag);
    return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent().strip();
  }
}
