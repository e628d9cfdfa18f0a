package dev.flipper.workflow.scheduler;

import dev.flipper.token.Token;
import dev.flipper.workflow.scheduler.overrun.WorkflowRuns;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the scheduler needs from the workflow engine, as token changes it can put into its own atomic modify
 * together with the schedule's advance, so that an instance exists if and only if the schedule moved. Nothing is
 * written by these methods. Implementations are thread-safe.
 *
 * <p>The engine's public API ({@code Instances.start}) writes its own modify; the adapter over the engine needs
 * its token builder exposed (see the workflow-scheduler README).
 */
public interface InstanceStarter {

  /**
   * The tokens (all inserts) that create instance {@code instanceId} of {@code workflow}, or empty if no workflow
   * of that name is stored. The insert of the instance's record conflicts if the id is taken.
   *
   * @param params kept in the instance record; the scheduler sets {@link #SCHEDULED_TIME}
   */
  Optional<List<Token>> startTokens(String workflow, String instanceId, Map<String, String> params);

  /**
   * The tokens that abort a running instance (its ABORT signal), which ABORT_RUNNING writes with the start; empty
   * if the instance is already being aborted, so that the modify does not conflict with the signal an earlier
   * slot wrote.
   */
  List<Token> abortTokens(String workflow, String instance);

  /** The workflow's running instances and how its most recently finished one ended. */
  WorkflowRuns runs(String workflow);

  /** The instance parameter holding the slot an instance was started for (ISO-8601, UTC). */
  String SCHEDULED_TIME = "scheduledTime";
}
