package dev.flipper.workflow.engine;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A workflow instance's record. Immutable.
 *
 * @param definitionVersion the version of the definition it was started from
 * @param status as stored: RUNNING, SUCCESS, FAILURE or ABORTED
 * @param failedJobs jobs that failed for good, in order
 * @param hold for a running instance: the PAUSE or DRAIN signal that covers it, if any
 */
public record InstanceSummary(
    String workflow,
    String instance,
    InstanceStatus status,
    Instant start,
    Optional<Instant> end,
    String definitionVersion,
    String startedBy,
    Map<String, String> params,
    List<String> failedJobs,
    Optional<InstanceHold> hold) {

  /** The stored status, or PAUSED / DRAINED for a running instance under such a signal. */
  public InstanceStatus shownStatus() {
    return status == InstanceStatus.RUNNING
        ? hold.map(InstanceHold::status).orElse(status)
        : status;
  }

  /** This summary with {@code hold}. */
  public InstanceSummary withHold(Optional<InstanceHold> hold) {
    return new InstanceSummary(
        workflow,
        instance,
        status,
        start,
        end,
        definitionVersion,
        startedBy,
        params,
        failedJobs,
        hold);
  }
}
