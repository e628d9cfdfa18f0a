package dev.flipper.workflow.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/workflows.md's section "A workflow file" has a table row for every key the parser knows, and
 * names no key it does not (other sections have tables of their own, e.g. the control operations).
 */
class WorkflowDocsTest {
  @Test
  void everyKeyIsDocumented() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "workflows.md"));
    int section = doc.indexOf("## A workflow file");
    String table = doc.substring(section, doc.indexOf("\n## ", section));
    Stream.of(WorkflowParser.TOP_KEYS, WorkflowParser.SCHEDULE_KEYS, WorkflowParser.JOB_KEYS)
        .flatMap(keys -> keys.stream())
        .forEach(
            key -> assertThat(table).as("row for '" + key + "'").contains("| `" + key + "` |"));
    long rows = table.lines().filter(l -> l.matches("\\| `[A-Za-z]+` \\|.*")).count();
    assertThat(rows)
        .isEqualTo(
            WorkflowParser.TOP_KEYS.size()
                + WorkflowParser.SCHEDULE_KEYS.size()
                + WorkflowParser.JOB_KEYS.size());
  }
}
