package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * A job in a job graph: edges go from each parent to it. Immutable.
 *
 * @param status the job's status in an instance, or {@code WAITING} in a definition's graph
 */
public record GraphNode(String id, String status, List<String> parents, boolean condition) {
  public GraphNode {
    parents = List.copyOf(parents);
  }
}
