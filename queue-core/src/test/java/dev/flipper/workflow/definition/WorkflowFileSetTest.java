package dev.flipper.workflow.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkflowFileSetTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    return file;
  }

  @Test
  void aDirectoryGivesItsYamlFilesInNameOrder() throws Exception {
    write("b.yml", "workflow: b\njobs:\n  x:\n    command: \"true\"\n");
    write("a.yaml", "workflow: a\njobs:\n  x:\n    command: \"true\"\n");
    write("notes.txt", "not a workflow");
    write("sub/c.yaml", "not even YAML: [");

    WorkflowFileSet.Result result = WorkflowFileSet.read(List.of(dir));

    assertThat(result.isValid()).isTrue();
    assertThat(result.files()).containsExactly(dir.resolve("a.yaml"), dir.resolve("b.yml"));
    assertThat(result.definitions()).extracting(WorkflowDefinition::name).containsExactly("a", "b");
  }

  @Test
  void everyProblemOfEveryFileAndDuplicateNamesAcrossFiles() throws Exception {
    Path one = write("one.yaml", "workflow: etl\njobs:\n  x:\n    command: \"true\"\n");
    Path two =
        write(
            "two.yaml",
            "# the same name again\nworkflow: etl\njobs:\n  y:\n    command: \"true\"\n");
    Path bad =
        write(
            "bad.yaml",
            "workflow: bad\njobs:\n  x:\n    needs: [y]\n    command: \"true\"\n    retries: 2\n");
    Path missing = dir.resolve("missing.yaml");

    WorkflowFileSet.Result result = WorkflowFileSet.read(List.of(one, two, bad, missing));

    assertThat(result.isValid()).isFalse();
    assertThat(result.problems())
        .containsExactly(
            missing + ": no such file or directory",
            two
                + ":2: workflow 'etl' is also defined at "
                + one
                + ":1 (workflow names must be unique)",
            bad + ":4: job 'x' needs unknown job 'y'",
            bad
                + ":6: unknown key 'jobs.x.retries' (valid keys in 'jobs.x': command, condition, needs, maxAttempts, "
                + "retryDelay, warnTimeout, abortTimeout, cleanup, emails, priority, disabled)");
    assertThat(result.definitions()).extracting(WorkflowDefinition::name).containsExactly("etl");
  }

  @Test
  void anEmptyDirectoryIsAProblem() throws Exception {
    Path empty = Files.createDirectory(dir.resolve("empty"));

    assertThat(WorkflowFileSet.read(List.of(empty)).problems())
        .containsExactly(empty + ": no workflow files (*.yaml, *.yml) in this directory");
  }
}
