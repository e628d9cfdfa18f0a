package dev.flipper.workflow.engine;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A job as an {@link EngineListener} is told about it. Immutable.
 *
 * @param emails the job's {@code emails}
 * @param workflowEmails the workflow's {@code emails}, as when the instance started
 * @param params the instance's parameters (the scheduler's {@code scheduledTime}, ...)
 * @param execution its last execution, closed
 */
public record JobNotice(
    String workflow,
    String instance,
    String job,
    List<String> emails,
    List<String> workflowEmails,
    Map<String, String> params,
    ExecutionDetail execution) {
  public JobNotice {
    emails = List.copyOf(emails);
    workflowEmails = List.copyOf(workflowEmails);
    params = Map.copyOf(params);
    Objects.requireNonNull(execution, "execution");
  }
}
