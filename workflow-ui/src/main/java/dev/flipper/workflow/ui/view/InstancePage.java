package dev.flipper.workflow.ui.view;

import dev.flipper.workflow.tokens.DamagedToken;
import java.util.List;
import java.util.Map;

/**
 * An instance ({@code /workflows/<wf>/instances/<id>}): its jobs in run order, their graph and the
 * timeline of every execution. Immutable.
 *
 * @param actions the action bar: which actions apply now, and why the others do not
 * @param damaged the page's tokens that do not parse, shown as {@code DAMAGED <name>: <reason>}
 *     rows
 * @param archived read from the master's archive: the instance ended and no action applies
 */
public record InstancePage(
    Banner banner,
    InstanceRow instance,
    Map<String, String> params,
    List<String> failedJobs,
    List<JobRow> jobs,
    List<GraphNode> graph,
    TimelineView timeline,
    ActionBar actions,
    List<DamagedToken> damaged,
    boolean archived) {
  public InstancePage {
    damaged = List.copyOf(damaged);
    params = Map.copyOf(params);
    failedJobs = List.copyOf(failedJobs);
    jobs = List.copyOf(jobs);
    graph = List.copyOf(graph);
  }
}
