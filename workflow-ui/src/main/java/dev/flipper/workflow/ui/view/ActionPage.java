package dev.flipper.workflow.ui.view;

import dev.flipper.workflow.control.ActionPreview;
import dev.flipper.workflow.control.ControlResult;
import java.util.List;

/**
 * An action's page: its confirmation (neither result nor refusal yet), what it changed, or why it
 * was refused. Immutable.
 *
 * @param back the page the action was started from
 * @param preview on the confirmation of an instance's action: what it would change; else null
 * @param refusal why nothing was done: the control's refusal or a bad argument; null when it ran
 * @param generation exit: workers older than it exit; null for other actions
 */
public record ActionPage(
    Banner banner,
    String operation,
    String workflow,
    String instance,
    List<String> jobs,
    Integer execution,
    String back,
    ControlResult result,
    ActionPreview preview,
    String refusal,
    Integer generation) {
  public ActionPage {
    jobs = List.copyOf(jobs);
  }

  public boolean confirming() {
    return result == null && refusal == null;
  }

  /** {@code etl/1764000000000 jobs a, b} and the like, for the headline. */
  public String target() {
    if (operation.equals("exit")) {
      return generation == null ? "the workers" : "workers older than generation " + generation;
    }
    if (operation.equals("unexit")) {
      return "the EXIT signal";
    }
    String target =
        workflow == null || workflow.isBlank()
            ? "every workflow"
            : workflow + (instance == null || instance.isBlank() ? "" : "/" + instance);
    return target
        + (jobs.isEmpty() ? "" : " job" + (jobs.size() > 1 ? "s " : " ") + String.join(", ", jobs))
        + (execution == null ? "" : " execution " + execution);
  }
}
