package dev.flipper.queue.spi;

import dev.flipper.queue.JobState;

/**
 * A job as a shard stores it. {@code claimDescriptor} is null when unclaimed; {@code body} is null
 * when not requested.
 */
public record StoredJob(
    long localId,
    int priority,
    JobState state,
    int attemptsAllowed,
    int attemptsRemaining,
    String customStatus,
    long createdAtMillis,
    long runAfterMillis,
    long updatedAtMillis,
    String claimDescriptor,
    byte[] body) {}
