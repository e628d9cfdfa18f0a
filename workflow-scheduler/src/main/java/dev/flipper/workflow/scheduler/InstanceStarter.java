package dev.flipper.workflow.scheduler;

import dev.flipper.token.Token;
import dev.flipper.workflow.scheduler.overrun.WorkflowRuns;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the scheduler needs from the workflow engine ({@link EngineInstanceStarter} over {@code
 * WorkflowEngine}). The start writes the scheduler's own tokens (the schedule's advance) in the
 * same atomic modify as the new instance, so that an instance exists if and only if the schedule
 * moved. Implementations are thread-safe.
 */
public interface InstanceStarter {

  /** The instance parameter holding the slot an instance was started for (ISO-8601, UTC). */
  String SCHEDULED_TIME = "scheduledTime";

  /**
   * Starts an instance of {@code workflow} and writes {@code alongside} in the same atomic modify.
   *
   * @param params kept in the instance record; the scheduler sets {@link #SCHEDULED_TIME}
   * @return the new instance's id, or empty if no workflow of that name is stored (nothing was
   *     written)
   * @throws dev.flipper.token.TokenException VERSION_CONFLICT or NOT_FOUND if an {@code alongside}
   *     token changed since it was read; nothing was written
   */
  Optional<String> start(String workflow, Map<String, String> params, List<Token> alongside);

  /**
   * The tokens (all inserts) that would create instance {@code instanceId}, without writing them,
   * or empty if no such workflow is stored. Only if {@link #buildsTokens()}: the scheduler then
   * starts a whole claimed batch in one modify, one commit instead of one per schedule.
   */
  default Optional<List<Token>> startTokens(
      String workflow, String instanceId, Map<String, String> params) {
    throw new UnsupportedOperationException(
        "this starter writes its own instances; see buildsTokens()");
  }

  /** True if {@link #startTokens} is supported. */
  default boolean buildsTokens() {
    return false;
  }

  /**
   * This starter for firing one claimed batch of schedules of {@code workflows}: it may read what
   * it needs for all of them at once (definitions, instances) and answer {@link #runs} and {@link
   * #startTokens} from that read. By default the starter itself.
   */
  default InstanceStarter forBatch(List<String> workflows) {
    return this;
  }

  /**
   * The tokens that abort a running instance (its ABORT signal), which ABORT_RUNNING writes with
   * the start; empty if the instance is already being aborted, so that the modify does not conflict
   * with the signal an earlier slot wrote.
   */
  List<Token> abortTokens(String workflow, String instance);

  /** The workflow's running instances and how its most recently finished one ended. */
  WorkflowRuns runs(String workflow);
}
