package dev.flipper.workflow.engine;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A workflow instance's record. Immutable.
 *
 * @param definitionVersion the version of the definition it was started from
 * @param failedJobs jobs that failed for good, in order
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
    List<String> failedJobs) {}
