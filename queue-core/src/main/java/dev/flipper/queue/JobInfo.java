package dev.flipper.queue;

import java.time.Instant;

/**
 * What lookup and scan report about a job.
 *
 * @param claimDescriptor the last claim, or null if never claimed or released
 * @param body present only when asked for
 */
public record JobInfo(
    JobDescriptor descriptor,
    JobState state,
    int attemptsAllowed,
    int attemptsRemaining,
    String customStatus,
    Instant createdAt,
    Instant runAfter,
    Instant updatedAt,
    String claimDescriptor,
    byte[] body) {}
