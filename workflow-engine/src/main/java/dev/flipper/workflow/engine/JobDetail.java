package dev.flipper.workflow.engine;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One job of an instance, as the CLI and the UI show it. Immutable.
 *
 * @param needs its inputs: parent jobs, or {@code __WORKFLOW_START__}
 * @param attempt attempts used by its current (or last) run
 * @param heldBy who holds its token: a worker, or {@code retry-delay}, {@code drained}, ...; null
 *     if nobody
 * @param leaseEnd when that hold ends (for {@code retry-delay}: when it may run again)
 * @param executions oldest first
 */
public record JobDetail(
    String name,
    JobStatus status,
    List<String> needs,
    int attempt,
    int maxAttempts,
    boolean condition,
    boolean disabled,
    double priority,
    String heldBy,
    Optional<Instant> leaseEnd,
    List<ExecutionDetail> executions) {
  /** This job with another status. */
  public JobDetail withStatus(JobStatus status) {
    return new JobDetail(
        name,
        status,
        needs,
        attempt,
        maxAttempts,
        condition,
        disabled,
        priority,
        heldBy,
        leaseEnd,
        executions);
  }

  public Optional<ExecutionDetail> lastExecution() {
    return executions.isEmpty()
        ? Optional.empty()
        : Optional.of(executions.get(executions.size() - 1));
  }
}
