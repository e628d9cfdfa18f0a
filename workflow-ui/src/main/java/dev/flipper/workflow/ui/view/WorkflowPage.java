package dev.flipper.workflow.ui.view;

import dev.flipper.workflow.tokens.DamagedToken;
import java.util.List;

/**
 * A workflow ({@code /workflows/<wf>}): one page of its runs (active and archived), its active
 * instances newest first, its stored definition (graph and YAML) and schedule. Immutable.
 *
 * @param definitionVersion null if the definition was removed while instances remain (then yaml is
 *     null and the graph empty)
 * @param damaged the page's tokens that do not parse, shown as {@code DAMAGED <name>: <reason>}
 *     rows
 */
public record WorkflowPage(
    Banner banner,
    String name,
    String description,
    List<String> owners,
    String schedule,
    String nextRun,
    String definitionVersion,
    String appliedAt,
    String yaml,
    List<InstanceRow> instances,
    List<GraphNode> graph,
    List<DamagedToken> damaged,
    RunsPage runs) {
  public WorkflowPage {
    damaged = List.copyOf(damaged);
    owners = List.copyOf(owners);
    instances = List.copyOf(instances);
    graph = List.copyOf(graph);
  }
}
