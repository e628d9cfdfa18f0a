package dev.flipper.workflow.definition;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The workflow files under src/test/resources/workflows. */
final class WorkflowFiles {
  private WorkflowFiles() {}

  static Path dir(String name) {
    try {
      return Path.of(WorkflowFiles.class.getResource("/workflows/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<Path> in(String name) {
    try (Stream<Path> files = Files.list(dir(name))) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String text(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses a valid file under workflows/valid, naming it by its file name. */
  static WorkflowDefinition valid(String fileName) {
    Path file = dir("valid").resolve(fileName);
    return WorkflowParser.parse(fileName, text(file));
  }
}
