package dev.flipper.workflow.engine;

import java.util.List;

/**
 * Told what an engine call decided, for notifications (the workers' e-mail). Called on the caller's
 * thread right after the change is stored, by the one call that made it: a job that fails for good
 * is reported by the call that failed it, an instance end by the one call that ended it (of several
 * workers finishing jobs of one instance at once, exactly one ends it). So each event is reported
 * once across all workers. Implementations must be thread-safe and quick (hand slow work such as
 * SMTP to another thread); what they throw is logged and ignored.
 */
public interface EngineListener {
  /** Hears nothing. */
  EngineListener NONE = new EngineListener() {};

  /**
   * A job failed for good: its attempts are used up (in {@link WorkflowEngine#finish}, or at a
   * claim that closed the attempt of a worker that lost its lease).
   *
   * @param firstFailure true if no other job of its instance had failed for good before
   */
  default void jobFailed(JobNotice job, boolean firstFailure) {}

  /**
   * The instance ended with this call.
   *
   * @param lastJob the job whose end ended it
   * @param status SUCCESS, FAILURE or ABORTED (an aborted instance ends when its last running job
   *     is finished)
   */
  default void instanceEnded(JobNotice lastJob, InstanceStatus status) {}

  /**
   * The instance was archived by this call ({@link WorkflowEngine#archiveDue}). An aborted instance
   * is archived at once, and Pinball sends its end message then (its end may come from a control
   * operation run from the CLI, which sends no mail).
   *
   * @param workflowEmails the workflow's {@code emails} as when the instance started
   */
  default void instanceArchived(InstanceSummary instance, List<String> workflowEmails) {}
}
