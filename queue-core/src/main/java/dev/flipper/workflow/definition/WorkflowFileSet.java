package dev.flipper.workflow.definition;

import dev.flipper.workflow.definition.WorkflowParser.Parsed;
import dev.flipper.yaml.Problems;
import dev.flipper.yaml.RawNode.Where;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads the workflow files named on a command line, {@code FILE|DIR...}: a directory gives its
 * {@code *.yaml} and {@code *.yml} files (not its subdirectories), in name order. Every file is
 * checked, and workflow names must be unique across them. Stateless and thread-safe.
 */
public final class WorkflowFileSet {
  /**
   * What was read: the files in order, the definitions of the valid ones and every problem line.
   * The set is usable only when {@link #problems()} is empty.
   */
  public record Result(
      List<Path> files, List<WorkflowDefinition> definitions, List<String> problems) {
    public Result {
      files = List.copyOf(files);
      definitions = List.copyOf(definitions);
      problems = List.copyOf(problems);
    }

    public boolean isValid() {
      return problems.isEmpty();
    }
  }

  private WorkflowFileSet() {}

  public static Result read(List<Path> paths) {
    List<Path> files = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        int before = problems.size();
        List<Path> inDir = workflowFiles(path, problems);
        if (inDir.isEmpty() && problems.size() == before) {
          problems.add(path + ": no workflow files (*.yaml, *.yml) in this directory");
        }
        files.addAll(inDir);
      } else if (!Files.exists(path)) {
        problems.add(path + ": no such file or directory");
      } else {
        files.add(path);
      }
    }
    List<WorkflowDefinition> definitions = new ArrayList<>();
    Map<String, String> firstAt = new HashMap<>();
    for (Path file : files) {
      Problems fileProblems = new Problems();
      Optional<Parsed> parsed = read(file, fileProblems);
      problems.addAll(fileProblems.lines());
      if (parsed.isEmpty()) {
        continue;
      }
      String name = parsed.get().definition().name();
      Where at = parsed.get().nameAt();
      String first = firstAt.putIfAbsent(name, at.label());
      if (first != null) {
        problems.add(
            at.label()
                + ": workflow '"
                + name
                + "' is also defined at "
                + first
                + " (workflow names must be unique)");
      } else {
        definitions.add(parsed.get().definition());
      }
    }
    return new Result(files, definitions, problems);
  }

  private static Optional<Parsed> read(Path file, Problems problems) {
    return WorkflowParser.readText(file, problems)
        .flatMap(text -> WorkflowParser.parseLocated(file.toString(), text, problems));
  }

  private static List<Path> workflowFiles(Path dir, List<String> problems) {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries
          .filter(p -> Files.isRegularFile(p))
          .filter(
              p ->
                  p.getFileName().toString().endsWith(".yaml")
                      || p.getFileName().toString().endsWith(".yml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      problems.add(dir + ": cannot list the directory: " + e.getMessage());
      return List.of();
    }
  }
}
