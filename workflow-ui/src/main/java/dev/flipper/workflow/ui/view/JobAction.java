package dev.flipper.workflow.ui.view;

import java.util.Map;

/**
 * A job action of the action bar and, per job, why it cannot apply to that job; the page's script
 * applies it to the jobs selected. Immutable.
 *
 * @param oneJob true if it takes exactly one job (redo)
 * @param refusals job name to why the action cannot apply to it ({@code extract is running}); jobs
 *     it can apply to are absent
 */
public record JobAction(String op, String label, boolean oneJob, Map<String, String> refusals) {
  public JobAction {
    refusals = Map.copyOf(refusals);
  }
}
